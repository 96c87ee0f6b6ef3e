#!/usr/bin/env python3
"""Runs every MovingAI scenario file through `walkgrid movingai-check` and prints the table that
docs/benchmarks.md records: per set, maps, scenarios, matched, A* median and mean microseconds,
and a plain Dijkstra baseline timed on every Nth scenario of the same run (with the ratio).

Usage: bench/movingai_all.py [--data DIR] [--jobs N] [--baseline-every N] [--out results.jsonl]
Reads $WALKD_SHARED_DATA/movingai (default ../shared/data/movingai). Exits 1 if any scenario
does not match its optimal length.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    default_data = os.environ.get("WALKD_SHARED_DATA", os.path.join(ROOT, "..", "shared", "data"))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=os.path.join(default_data, "movingai"))
    parser.add_argument("--walkgrid", default=os.path.join(ROOT, "build", "client", "walkgrid"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--baseline-every", type=int, default=10)
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "movingai_all.jsonl"))
    args = parser.parse_args()
    if not os.path.isdir(args.data):
        print(f"movingai_all: {args.data} is absent; set WALKD_SHARED_DATA", file=sys.stderr)
        return 0

    maps = []
    for set_name in sorted(os.listdir(args.data)):
        folder = os.path.join(args.data, set_name)
        for name in sorted(os.listdir(folder)):
            if name.endswith(".map") and os.path.exists(os.path.join(folder, name + ".scen")):
                maps.append((set_name, os.path.join(folder, name)))

    results = []
    started = time.time()
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {
            pool.submit(subprocess.run,
                        [args.walkgrid, "movingai-check", path, path + ".scen",
                         "--baseline-every", str(args.baseline_every)],
                        capture_output=True, text=True): (set_name, path)
            for set_name, path in maps
        }
        for done, future in enumerate(as_completed(futures), 1):
            set_name, path = futures[future]
            proc = future.result()
            if not proc.stdout.strip():
                print(f"movingai_all: {path}: {proc.stderr.strip()}", file=sys.stderr)
                return 1
            line = json.loads(proc.stdout.strip().splitlines()[-1])
            line["set"] = set_name
            results.append(line)
            print(f"\r[{done}/{len(maps)}] {set_name}/{line['map']}: {line['matched']}/{line['scenarios']} "
                  f"matched, {time.time() - started:.0f} s", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    with open(args.out, "w") as out:
        for line in results:
            out.write(json.dumps(line) + "\n")

    # Medians per set are medians of the per-map medians (each map weighs the same).
    print("| set | maps | scenarios | matched | A* median µs | A* mean µs | Dijkstra median µs "
          "(sampled) | Dijkstra / A* (mean, same scenarios) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    totals = {"maps": 0, "scenarios": 0, "matched": 0}
    bad = 0
    for set_name in sorted({r["set"] for r in results}):
        rows = [r for r in results if r["set"] == set_name]
        scenarios = sum(r["scenarios"] for r in rows)
        matched = sum(r["matched"] for r in rows)
        bad += sum(r["mismatched"] + r["unreachable"] for r in rows)
        mean_us = sum(r["mean_us"] * r["scenarios"] for r in rows) / max(1, scenarios)
        base_n = sum(r.get("baseline_scenarios", 0) for r in rows)
        base_mean = sum(r.get("baseline_mean_us", 0) * r.get("baseline_scenarios", 0) for r in rows) / max(1, base_n)
        astar_same = sum(r.get("astar_mean_us_same_scenarios", 0) * r.get("baseline_scenarios", 0) for r in rows) / max(1, base_n)
        print(f"| {set_name} | {len(rows)} | {scenarios} | {matched} | "
              f"{statistics.median(r['median_us'] for r in rows):.1f} | {mean_us:.1f} | "
              f"{statistics.median(r.get('baseline_median_us', 0) for r in rows):.1f} | "
              f"{base_mean / max(1e-9, astar_same):.2f}× |")
        totals["maps"] += len(rows)
        totals["scenarios"] += scenarios
        totals["matched"] += matched
    print(f"| **all** | {totals['maps']} | {totals['scenarios']} | {totals['matched']} | | | | |")
    print(f"\nwall time {time.time() - started:.0f} s with {args.jobs} jobs; "
          f"Dijkstra timed on every {args.baseline_every}th scenario", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
