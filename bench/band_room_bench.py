#!/usr/bin/env python3
"""A danger band's metric under a memory target (docs/benchmarks.md, "Band metrics: room to
make one kept only while one is made").

One walkd serving WORLD_DIR alone under --memory-mb MB: a 2 x 2 table in band 0 and one in
band 20 (band 20's metric is customized then, while walkd holds little else), then three fresh
100 x 100 band-0 tables (walkd's caches grow), then SIZE x SIZE fresh band-20 tables, each
timed at the Python client as cells a second. Between steps it prints walkd's anonymous memory
and its band metric gauges (bytes held, the room the memory governor gives them,
customizations, evictions): a band-20 table whose metric was evicted and not made again walks
every cell alone.

With --beside DIR (repeatable), walkd serves those worlds too, loaded but never walked, as a
deployment serving several worlds does: they hold memory and share the band metrics' room.
With --compare-walkd PATH, that walkd (an older build) runs the same steps first, on its own
store.

Usage: bench/band_room_bench.py WORLD_DIR --memory-mb MB [--size 40] [--tables 6]
                                [--profile neutral] [--beside DIR ...] [--compare-walkd PATH]
WORLD_DIR is one world's folder prepared for the profile, e.g. a 32 x 32 demo world.
"""

import argparse
import os
import re
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from batch_bench import Walkd, free_port, read_metrics, reset_peak, world_alone  # noqa: E402
from table_bench import ask_table, resident_mb, sample_places, wait_idle  # noqa: E402
from walkd_client import WalkdClient  # noqa: E402


def gauges(walkd, metrics_port):
    """walkd's anonymous memory and band metric gauges now, as one line."""
    read = read_metrics(metrics_port)

    def gauge(name):
        return int(read.get(name, 0))

    with open(f"/proc/{walkd.proc.pid}/smaps_rollup") as f:
        anonymous = int(re.search(r"Anonymous:\s+(\d+)", f.read()).group(1)) // 1024
    return (f"anonymous {anonymous} MB, band metrics {gauge('walk_band_metric_bytes') >> 20} MB, "
            f"room {gauge('walk_memory_band_metric_room_bytes') >> 20} MB, "
            f"customizations {gauge('walk_band_metric_customizations_total')}, "
            f"evictions {gauge('walk_band_metric_evictions_total')}")


def run(args, label, binary, world_dir, places, big):
    """The steps on one walkd; the band-20 tables' cells a second."""
    world = os.path.basename(world_dir)
    print(f"== walkd: {label}", flush=True)
    with tempfile.TemporaryDirectory(prefix="band-room-") as tmp:
        metrics_port = free_port()
        worlds = world_alone(tmp, world_dir)
        for beside in args.beside:
            world_alone(tmp, beside)  # a link beside the first, in the same folder
        walkd = Walkd(os.path.join(tmp, "data"), worlds=worlds,
                      binary=binary, metrics_listen=f"127.0.0.1:{metrics_port}",
                      extra_args=["--max-table-cells", "10000",
                                  "--memory-mb", str(args.memory_mb)])
        try:
            client = WalkdClient(walkd.addr, timeout_s=3600, max_message_bytes=64 << 20)
            wait_idle([walkd.proc.pid])
            reset_peak(walkd.proc.pid)  # its peak from here on, not the first load's
            ask_table(client, world, places[-8:-6], places[-6:-4], args.profile, 0)
            ask_table(client, world, places[-4:-2], places[-2:], args.profile, 20)
            print("after a 2 x 2 table in band 0 and one in band 20:",
                  gauges(walkd, metrics_port), flush=True)
            for i in range(3):
                ask_table(client, world, big[200 * i:200 * i + 100],
                          big[200 * i + 100:200 * i + 200], args.profile, 0)
            time.sleep(12)  # the governor's room follows the least memory of its last 10 s
            print("after three 100 x 100 band-0 tables:", gauges(walkd, metrics_port),
                  flush=True)
            rates = []
            n = args.size
            for i in range(args.tables):
                _, seconds = ask_table(client, world, places[2 * i * n:(2 * i + 1) * n],
                                       places[(2 * i + 1) * n:(2 * i + 2) * n], args.profile, 20)
                rates.append(n * n / seconds)
                print(f"band-20 table {i} ({n} x {n}): {seconds:.2f} s, {rates[-1]:,.0f} cells/s; "
                      f"{gauges(walkd, metrics_port)}", flush=True)
            peak = resident_mb(walkd.proc.pid, "VmHWM")
            print(f"walkd's resident peak once ready: {peak:,.0f} MB", flush=True)
        finally:
            walkd.stop()
    return rates, peak


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("world_dir")
    parser.add_argument("--memory-mb", type=int, required=True)
    parser.add_argument("--size", type=int, default=40)
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--profile", default="neutral")
    parser.add_argument("--beside", action="append", default=[],
                        help="another world's folder, served but never walked")
    parser.add_argument("--compare-walkd", help="another walkd binary, run first")
    args = parser.parse_args()
    world_dir = os.path.abspath(args.world_dir.rstrip("/"))
    places = sample_places(world_dir, 2 * args.size * args.tables + 8, 4242)
    big = sample_places(world_dir, 600, 999)
    binaries = [("this build", None)]
    if args.compare_walkd:
        binaries.insert(0, (args.compare_walkd, os.path.abspath(args.compare_walkd)))
    medians = []
    for label, binary in binaries:
        rates, peak = run(args, label, binary, world_dir, places, big)
        medians.append((label, statistics.median(rates), len(rates) / sum(1 / r for r in rates),
                        peak))
    print("| walkd | band-20 cells/s, median | mean (cells over seconds) | resident peak once ready MB |")
    print("|---|---:|---:|---:|")
    for label, median, mean, peak in medians:
        print(f"| {label} | {median:,.0f} | {mean:,.0f} | {peak:,.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
