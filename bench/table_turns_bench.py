#!/usr/bin/python3
"""Walks asked while a long Table runs (docs/benchmarks.md, "Calls take turns on the search threads").

For each walkd (this build's, and with --compare-walkd an older one, each on the same world and
places, one after the other): a SIZE x SIZE Table in BAND is asked with the band metrics off
(--band-metrics-mb 0, so each of a danger band's cells is walked alone: seconds of rows), and
while it runs, WALKS unary band-0 walks between fresh places are asked one after another from
a second thread, each timed at the client. Prints each walk's median, mean and largest time, the
table's time, and how many walks were answered before the table.

Usage: bench/table_turns_bench.py WORLD_DIR [--size 20] [--walks 20] [--band 20]
                                  [--compare-walkd PATH]
WORLD_DIR is one world's folder with its abstract graph (walkgrid prepare), e.g. a 32 x 32 demo
world; walkd serves it alone.
"""
import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from batch_bench import BUILD, Walkd, world_alone  # noqa: E402
from table_bench import ask_table, sample_places  # noqa: E402
from walkd_client import WalkdClient  # noqa: E402


def run(binary, args, places):
    """One walkd: the table's seconds and the walks' (seconds, finished before the table)."""
    world = os.path.basename(args.world_dir.rstrip("/"))
    tmp = tempfile.mkdtemp(prefix="table-turns-")
    walkd = Walkd(os.path.join(tmp, "data"), worlds=world_alone(tmp, args.world_dir),
                  binary=binary, extra_args=["--band-metrics-mb", "0",
                                             "--max-table-cells", str(args.size * args.size)])
    try:
        client = WalkdClient(walkd.addr, timeout_s=3600, max_message_bytes=64 << 20)
        sources, targets = places[:args.size], places[args.size:2 * args.size]
        ends = places[2 * args.size:]
        client.walk(world, ends[0], ends[1], profile=args.profile)  # the band-0 metric, ready
        table = {}

        def ask():
            _, table["seconds"] = ask_table(client, world, sources, targets, args.profile,
                                            args.band)
            table["done"] = time.perf_counter()

        thread = threading.Thread(target=ask)
        thread.start()
        time.sleep(0.5)  # the table's rows queued
        walks = []
        for i in range(args.walks):
            started = time.perf_counter()
            client.walk(world, ends[2 + 2 * i], ends[3 + 2 * i], profile=args.profile)
            walks.append((time.perf_counter() - started, time.perf_counter()))
        thread.join()
        before = sum(1 for _, at in walks if at < table["done"])
        return table["seconds"], [s for s, _ in walks], before
    finally:
        walkd.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("world_dir")
    parser.add_argument("--size", type=int, default=20)
    parser.add_argument("--walks", type=int, default=20)
    parser.add_argument("--band", type=int, default=20)
    parser.add_argument("--profile", default="neutral")
    parser.add_argument("--compare-walkd")
    args = parser.parse_args()
    places = sample_places(args.world_dir, 2 * args.size + 2 * args.walks + 2, 11)
    binaries = [os.path.join(BUILD, "server", "walkd")]
    if args.compare_walkd:
        binaries.insert(0, args.compare_walkd)
    print("| walkd | table's seconds | walks answered before it | walk median | mean | largest |")
    print("|---|---:|---:|---:|---:|---:|")
    for binary in binaries:
        table_s, walks, before = run(binary, args, places)
        print(json.dumps({"walkd": binary, "table_s": table_s, "walks_s": walks,
                          "before_table": before}), file=sys.stderr)
        print(f"| {binary} | {table_s:.1f} s | {before} of {len(walks)} | "
              f"{statistics.median(walks) * 1e3:.0f} ms | {statistics.mean(walks) * 1e3:.0f} ms | "
              f"{max(walks) * 1e3:.0f} ms |", flush=True)


if __name__ == "__main__":
    main()
