#!/usr/bin/python3
"""Tables through a real walkd (docs/benchmarks.md, "Tables as many-to-many").

For each band: SIZE x SIZE tables of fresh places (every table its own places, so the store and
the leg cache hold nothing of it), timed at the Python client, as cells a second, then each
asked again (its places' legs cached; many-to-many cells are not stored); the baseline in
the same run is the same kind of table asked with want_walks (every cell walked alone, as Table
answered before the many-to-many), on a BASELINE x BASELINE table. A sample of every table's cells
is checked against Walk asked alone (status, method, seconds to 1e-9, yards to 1e-6; in a danger
band a cell with an end in a priced zone that the table's many-to-many knows is METHOD_CCH where
Walk alone takes the A*, METHOD_CCH_ASTAR).

With --stream N, one N x N table per band is then streamed through TableRows (rows in several
messages), timed the same way, with walkd's resident memory before and after and its peak.

With --compare-walkd PATH, that walkd (an older build) answers every table first, on its own
store, then this build's walkd the same tables; each fresh table's cells are compared between
the two (status, seconds to 1e-9, yards to 1e-6): in a danger band the cells walked alone are
stored, so Walk asked afterwards reads the table's own answer, and the older walkd is the oracle.

With --interleave (and --compare-walkd), both walkds run at once and each fresh table is asked
of both, one after the other, which first alternating: a machine whose speed drifts over minutes
(a shared one) then slows both alike, and each table gives a ratio of its own. Half the tables
run with the walkds started in one order, half in the other (the one started second may answer
quicker, whichever binary it runs). It prints each walkd's medians and means, and the
median and mean of the tables' time ratios (this build over the other). No table is asked
again, and cells are checked against Walk on this build only.

Usage: bench/table_bench.py WORLD_DIR [--size 100] [--tables 3] [--bands 0,10,20]
                            [--baseline-size 30] [--profile neutral] [--check 40] [--stream N]
                            [--seconds-only] [--memory-mb MB] [--compare-walkd PATH [--interleave]]
WORLD_DIR is one world's folder (grid.walkgrid and its graph.walkgraph), e.g. a 32 x 32 demo world
(walkgrid demo --tiles 32x32 --out DIR; walkgrid prepare DIR --profiles neutral). walkd serves it
alone, through a link in a folder of its own: the worlds beside it are not loaded.
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from batch_bench import BUILD, ROOT, Walkd, world_alone  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "client", "python"))
import walkd_client  # noqa: E402
from walkd_client import WalkdClient, place  # noqa: E402

walk_pb2 = walkd_client.walk_pb2


def sample_places(world_dir, count, seed):
    out = subprocess.run([os.path.join(BUILD, "client", "walkgrid"), "sample-places", world_dir,
                          "--count", str(count), "--seed", str(seed)],
                         capture_output=True, text=True, check=True).stdout
    return [(p["x"], p["y"], p["z"]) for p in map(json.loads, out.splitlines())]


def resident_mb(pid, field="VmRSS"):
    """walkd's resident memory now (VmRSS) or at its peak (VmHWM), MB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def stream_table(client, world, sources, targets, profile, band, pid, seconds_only):
    """One table through TableRows: its seconds, messages, cells and walkd's memory (its peak
    through the stream: the peak is reset first, as proc(5) clear_refs allows)."""
    with open(f"/proc/{pid}/clear_refs", "w") as f:
        f.write("5")
    before = resident_mb(pid)
    started = time.perf_counter()
    messages = cells = 0
    next_row = 0
    for message in client.table_rows(world, sources, targets, profile=profile, band=band,
                                     seconds_only=seconds_only):
        if message.first_source != next_row:
            raise RuntimeError(f"rows out of order: {message.first_source}, not {next_row}")
        messages += 1
        cells += len(message.seconds)
        next_row += len(message.seconds) // len(targets)
    seconds = time.perf_counter() - started
    return {"band": band, "stream": f"{len(sources)} x {len(targets)}", "cells": cells,
            "messages": messages, "seconds": round(seconds, 3), "cells_per_s": cells / seconds,
            "resident_mb_before": round(before), "resident_mb_after": round(resident_mb(pid)),
            "peak_mb": round(resident_mb(pid, "VmHWM"))}


def cpu_seconds(pid):
    """walkd's CPU time so far (user and system, all threads), seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def ask_table(client, world, sources, targets, profile, band, want_walks=False,
              seconds_only=False):
    request = client.pb.TableRequest(world=world, profile=profile, band=band,
                                     sources=[place(p) for p in sources],
                                     targets=[place(p) for p in targets], want_walks=want_walks,
                                     seconds_only=seconds_only)
    started = time.perf_counter()
    reply = client.walk_stub.Table(request, timeout=3600)
    return reply, time.perf_counter() - started


def check_cells(client, world, sources, targets, reply, profile, band, count, rng,
                seconds_only):
    """Cells against Walk asked alone; returns how many differ."""
    wrong = 0
    for _ in range(count):
        s, t = rng.randrange(len(sources)), rng.randrange(len(targets))
        cell = s * len(targets) + t
        one = client.walk(world, sources[s], targets[t], profile=profile, band=band,
                          timeout_s=600)
        methods = (reply.method[cell], one.method)
        same_method = methods[0] == methods[1] or (
            band > 0 and methods == (walk_pb2.METHOD_CCH, walk_pb2.METHOD_CCH_ASTAR))
        same = (reply.status[cell] == one.status and same_method and
                abs(reply.seconds[cell] - one.seconds) <= 1e-9 * max(1.0, one.seconds) and
                (reply.yards[cell] == 0.0 if seconds_only else
                 abs(reply.yards[cell] - one.yards) <= 1e-6 * max(1.0, one.yards)))
        if not same:
            wrong += 1
            print(f"  cell ({s}, {t}): table {reply.status[cell]} {reply.method[cell]} "
                  f"{reply.seconds[cell]} s {reply.yards[cell]} yd; walk {one.status} "
                  f"{one.method} {one.seconds} s {one.yards} yd", file=sys.stderr)
    return wrong


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("world_dir")
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--tables", type=int, default=3)
    parser.add_argument("--bands", default="0,10,20")
    parser.add_argument("--baseline-size", type=int, default=30)
    parser.add_argument("--profile", default="neutral")
    parser.add_argument("--check", type=int, default=40, help="cells a table checked by Walk")
    parser.add_argument("--seconds-only", action="store_true",
                        help="tables ask seconds alone (no yards)")
    parser.add_argument("--stream", type=int, default=0, help="then one N x N TableRows a band")
    parser.add_argument("--compare-walkd", help="another walkd binary, run first as the baseline")
    parser.add_argument("--memory-mb", type=int,
                        help="walkd's --memory-mb (its resident memory target; default its own)")
    parser.add_argument("--interleave", action="store_true",
                        help="with --compare-walkd: both walkds at once, tables alternating")
    args = parser.parse_args()
    if args.interleave and not args.compare_walkd:
        parser.error("--interleave: needs --compare-walkd PATH")
    bands = [int(b) for b in args.bands.split(",")]
    world_dir = os.path.abspath(args.world_dir.rstrip("/"))
    per_band = args.tables * 2 * args.size + 2 * args.baseline_size + 2 * args.stream
    print(f"sampling {per_band * len(bands)} places ...", flush=True)
    places = sample_places(world_dir, per_band * len(bands), 20261204)
    binaries = [("this build", None)]
    if args.compare_walkd:
        binaries.insert(0, (args.compare_walkd, os.path.abspath(args.compare_walkd)))
    if args.interleave:
        return run_interleaved(args, binaries, bands, world_dir, places, per_band)
    replies = None
    status = 0
    for name, binary in binaries:
        print(f"== walkd: {name}", flush=True)
        results, streamed, got = run_walkd(args, binary, bands, world_dir, places, per_band)
        if replies is not None:
            differ = compare_replies(replies, got, args.seconds_only)
            print(f"cells differing from {binaries[0][0]}: {differ} of "
                  f"{sum(len(r.seconds) for r in got)}", flush=True)
            status |= 1 if differ else 0
        replies = got
        status |= print_tables(results, streamed)
    return status


def compare_replies(old, new, seconds_only):
    """Cells of the same tables from two walkds that differ (status, seconds, yards)."""
    differ = 0
    for a, b in zip(old, new):
        for cell in range(len(a.seconds)):
            same = (a.status[cell] == b.status[cell] and
                    abs(a.seconds[cell] - b.seconds[cell]) <= 1e-9 * max(1.0, a.seconds[cell]) and
                    (seconds_only or
                     abs(a.yards[cell] - b.yards[cell]) <= 1e-6 * max(1.0, a.yards[cell])))
            if not same:
                differ += 1
                if differ <= 10:
                    print(f"  cell {cell}: {a.status[cell]} {a.seconds[cell]} s {a.yards[cell]} yd "
                          f"against {b.status[cell]} {b.seconds[cell]} s {b.yards[cell]} yd",
                          file=sys.stderr)
    return differ


def walkd_args(args, cells):
    """walkd's flags for these tables: room for a whole table, and --memory-mb where asked."""
    extra = ["--max-table-cells", str(max(10000, cells))]
    if args.memory_mb is not None:
        extra += ["--memory-mb", str(args.memory_mb)]
    return extra


def run_walkd(args, binary, bands, world_dir, places, per_band):
    """Every band's tables on one walkd; its result lines, streams and fresh tables' replies."""
    world = os.path.basename(world_dir)
    rng = random.Random(5)
    tmp = tempfile.mkdtemp(prefix="table-bench-")
    walkd = Walkd(os.path.join(tmp, "data"), worlds=world_alone(tmp, world_dir), binary=binary,
                  extra_args=walkd_args(args, args.size * args.size))
    results, streamed, replies = [], [], []
    try:
        client = WalkdClient(walkd.addr, timeout_s=600, max_message_bytes=64 << 20)
        print(f"walkd ready, {resident_mb(walkd.proc.pid):.0f} MB resident", flush=True)
        for b, band in enumerate(bands):
            pool = places[b * per_band:(b + 1) * per_band]
            n = args.baseline_size
            base_src, base_dst = pool[-2 * n:-n], pool[-n:]
            _, base_s = ask_table(client, world, base_src, base_dst, args.profile, band,
                                  want_walks=True)
            base_rate = n * n / base_s
            times, again, cpu = [], [], []
            wrong = 0
            for i in range(args.tables):
                src = pool[2 * i * args.size:(2 * i + 1) * args.size]
                dst = pool[(2 * i + 1) * args.size:(2 * i + 2) * args.size]
                cpu_before = cpu_seconds(walkd.proc.pid)
                reply, seconds = ask_table(client, world, src, dst, args.profile, band,
                                           seconds_only=args.seconds_only)
                cpu.append(cpu_seconds(walkd.proc.pid) - cpu_before)
                times.append(seconds)
                replies.append(reply)
                # Asked again: the places' legs are cached now (their cells are not stored).
                _, again_seconds = ask_table(client, world, src, dst, args.profile, band,
                                             seconds_only=args.seconds_only)
                again.append(again_seconds)
                wrong += check_cells(client, world, src, dst, reply, args.profile, band,
                                     args.check, rng, args.seconds_only)
            rates = [args.size * args.size / t for t in times]
            line = {"band": band, "size": args.size, "tables": args.tables,
                    "cells_per_s_median": statistics.median(rates),
                    "cells_per_s_mean": args.size * args.size * len(times) / sum(times),
                    "seconds": [round(t, 3) for t in times],
                    "cpu_ms_median": 1000 * statistics.median(cpu),
                    "again_cells_per_s_median": statistics.median(
                        args.size * args.size / t for t in again),
                    "again_cells_per_s_mean": args.size * args.size * len(again) / sum(again),
                    "baseline_cells_per_s": base_rate, "baseline_size": n,
                    "ratio": statistics.median(rates) / base_rate,
                    "checked": args.check * args.tables, "differ": wrong,
                    "resident_mb": resident_mb(walkd.proc.pid)}
            results.append(line)
            print(json.dumps(line), flush=True)
            if args.stream:
                end = per_band - 2 * n
                streamed.append(stream_table(
                    client, world, pool[end - 2 * args.stream:end - args.stream],
                    pool[end - args.stream:end], args.profile, band, walkd.proc.pid,
                    args.seconds_only))
                print(json.dumps(streamed[-1]), flush=True)
    finally:
        walkd.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return results, streamed, replies


def wait_idle(pids, most_s=300):
    """Waits until walkds are done with their work after ready (metrics customized in the
    background): a second in which none takes 20 ms of CPU, at most `most_s` seconds."""
    deadline = time.monotonic() + most_s
    while time.monotonic() < deadline:
        before = [cpu_seconds(pid) for pid in pids]
        time.sleep(1.0)
        if all(cpu_seconds(pid) - b < 0.02 for pid, b in zip(pids, before)):
            return


def run_interleaved(args, binaries, bands, world_dir, places, per_band):
    """Every band's fresh tables asked of both walkds in turn; 1 when cells differ."""
    cells = args.size * args.size
    tmps = [tempfile.mkdtemp(prefix="table-bench-") for _ in binaries]

    def start(k):
        return Walkd(os.path.join(tmps[k], "data"), worlds=world_alone(tmps[k], world_dir),
                     binary=binaries[k][1],
                     extra_args=walkd_args(args, cells))

    status = 0
    try:
        # The first load of each writes its grid image; later loads map it as an image written
        # back long ago, the same for both.
        for k in range(len(binaries)):
            start(k).stop()
        os.sync()
        got = [{"times": ([], []), "cpu": ([], []), "differ": 0, "wrong": 0} for _ in bands]
        # Two halves, the walkds started in one order and then the other: the one started
        # second may answer quicker, whichever binary it runs.
        halves = (range(args.tables // 2), range(args.tables // 2, args.tables))
        for order, tables in zip(((0, 1), (1, 0)), halves):
            walkds = [None, None]
            try:
                for k in order:
                    walkds[k] = start(k)
                for b, band in enumerate(bands):
                    interleave_tables(args, os.path.basename(world_dir), band,
                                      places[b * per_band:(b + 1) * per_band], tables, walkds,
                                      got[b])
            finally:
                for w in walkds:
                    if w is not None:
                        w.stop()
        for band, band_got in zip(bands, got):
            status |= print_interleaved(args, binaries, band, band_got)
    finally:
        for tmp in tmps:
            shutil.rmtree(tmp, ignore_errors=True)
    return status


def interleave_tables(args, world, band, pool, tables, walkds, got):
    """Tables number `tables` of `pool`, each asked of both walkds, which first alternating;
    adds their times, CPU and differences to `got`."""
    rng = random.Random(5 + band + tables.start)
    clients = [WalkdClient(w.addr, timeout_s=600, max_message_bytes=64 << 20) for w in walkds]
    wait_idle([w.proc.pid for w in walkds])
    # A small table of the baseline's places each first: what a walkd makes at its first table
    # of a band (its metric) is not timed.
    n = args.baseline_size
    if n > 0:
        for client in clients:
            ask_table(client, world, pool[-2 * n:-n][:2], pool[-n:][:2], args.profile, band)
    for i in tables:
        src = pool[2 * i * args.size:(2 * i + 1) * args.size]
        dst = pool[(2 * i + 1) * args.size:(2 * i + 2) * args.size]
        replies = [None, None]
        for k in ((0, 1) if i % 2 == 0 else (1, 0)):
            cpu_before = cpu_seconds(walkds[k].proc.pid)
            replies[k], seconds = ask_table(clients[k], world, src, dst, args.profile, band,
                                            seconds_only=args.seconds_only)
            got["cpu"][k].append(cpu_seconds(walkds[k].proc.pid) - cpu_before)
            got["times"][k].append(seconds)
        got["differ"] += compare_replies([replies[0]], [replies[1]], args.seconds_only)
        got["wrong"] += check_cells(clients[1], world, src, dst, replies[1], args.profile, band,
                                    args.check, rng, args.seconds_only)


def print_interleaved(args, binaries, band, got):
    """One band's interleaved figures, as a JSON line and a sentence; 1 when cells differ."""
    cells = args.size * args.size
    times, cpu = got["times"], got["cpu"]
    ratios = [new / old for old, new in zip(*times)]
    line = {"band": band, "size": args.size, "tables": args.tables,
            "cells_per_s_median": [statistics.median(cells / t for t in ts) for ts in times],
            "cells_per_s_mean": [cells * len(ts) / sum(ts) for ts in times],
            "cpu_ms_median": [1000 * statistics.median(c) for c in cpu],
            "seconds": [[round(t, 3) for t in ts] for ts in times],
            "time_ratio_median": statistics.median(ratios),
            "time_ratio_mean": statistics.mean(ratios),
            "cells_differing": got["differ"], "checked": args.check * args.tables,
            "differ": got["wrong"]}
    print(json.dumps(line), flush=True)
    print(f"band {band}: {binaries[0][0]} {line['cells_per_s_median'][0]:,.0f} cells/s (mean "
          f"{line['cells_per_s_mean'][0]:,.0f}, CPU {line['cpu_ms_median'][0]:.0f} ms), this "
          f"build {line['cells_per_s_median'][1]:,.0f} (mean {line['cells_per_s_mean'][1]:,.0f}, "
          f"CPU {line['cpu_ms_median'][1]:.0f} ms); time this build / other: median "
          f"{line['time_ratio_median']:.3f}, mean {line['time_ratio_mean']:.3f}; cells differing "
          f"{got['differ']} of {cells * args.tables}, checked against Walk {got['wrong']} of "
          f"{line['checked']}", flush=True)
    return 1 if got["differ"] or got["wrong"] else 0


def print_tables(results, streamed):
    """The results as Markdown tables; 1 when a checked cell differed."""
    print("| band | cells/s (median) | cells/s (mean) | asked again (median, mean) | "
          "walk by walk (want_walks) | ratio | cells checked, differing | walkd resident | "
          "walkd CPU a fresh table (median) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        print(f"| {r['band']} | {r['cells_per_s_median']:,.0f} | {r['cells_per_s_mean']:,.0f} | "
              f"{r['again_cells_per_s_median']:,.0f}, {r['again_cells_per_s_mean']:,.0f} | "
              f"{r['baseline_cells_per_s']:,.0f} | {r['ratio']:.1f} | {r['checked']}, "
              f"{r['differ']} | {r['resident_mb']:,.0f} MB | {r['cpu_ms_median']:.0f} ms |")
    if streamed:
        print("\n| band | TableRows | messages | seconds | cells/s | walkd resident before, after | "
              "walkd peak through the stream |")
        print("|---:|---|---:|---:|---:|---:|---:|")
        for r in streamed:
            print(f"| {r['band']} | {r['stream']} | {r['messages']} | {r['seconds']} | "
                  f"{r['cells_per_s']:,.0f} | {r['resident_mb_before']:,}, "
                  f"{r['resident_mb_after']:,} MB | {r['peak_mb']:,} MB |")
    return 1 if any(r["differ"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
