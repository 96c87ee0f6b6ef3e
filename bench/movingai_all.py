#!/usr/bin/env python3
"""Runs every MovingAI scenario file through `walkgrid movingai-check` and prints the tables that
docs/benchmarks.md records: per set and per map, walkd's exact walker (jump points where the map
allows them, else the fine-grid A*) with its median and mean microseconds, the A* and a plain
Dijkstra timed on every Nth scenario of the same run, and, with --jps2, the GPPC 2023 entry
Warthog-JPS2 run on the same files right after walkd on each map: both medians and their ratio.

Usage: bench/movingai_all.py [--data DIR] [--jobs N] [--astar-every N] [--baseline-every N]
                             [--jps2 PATH/TO/run] [--sets a,b] [--out results.jsonl]
Build the baseline with bench/build_warthog_jps2.sh (a temporary folder, never committed).
Reads $WALKD_SHARED_DATA/movingai (default ../shared/data/movingai). Exits 1 if any scenario
does not match its optimal length or walkd's two walkers disagree.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_jps2(binary, path):
    """Warthog-JPS2 on one map in a scratch folder (it writes result.csv where it runs): its median
    and mean microseconds, and how many of its lengths are off the optimal one."""
    with tempfile.TemporaryDirectory(prefix="jps2-") as scratch:
        subprocess.run([binary, "-run", path, path + ".scen"], cwd=scratch, check=True,
                       capture_output=True)
        with open(os.path.join(scratch, "result.csv")) as f:
            rows = list(csv.DictReader(f))
    times = [float(r["time_cost"]) / 1000.0 for r in rows]  # nanoseconds
    off = sum(1 for r in rows if float(r["ref_length"]) > 0 and
              abs(float(r["path_length"]) - float(r["ref_length"])) > 1e-3 * max(1.0, float(r["ref_length"])) + 0.006)
    return {"jps2_median_us": statistics.median(times), "jps2_mean_us": statistics.mean(times),
            "jps2_off_optimal": off}


def run_map(args, set_name, path):
    proc = subprocess.run([args.walkgrid, "movingai-check", path, path + ".scen",
                           "--astar-every", str(args.astar_every),
                           "--baseline-every", str(args.baseline_every)],
                          capture_output=True, text=True)
    if not proc.stdout.strip():
        raise RuntimeError(f"{path}: {proc.stderr.strip()}")
    line = json.loads(proc.stdout.strip().splitlines()[-1])
    line["set"] = set_name
    if args.jps2:
        line.update(run_jps2(args.jps2, path))
        line["ratio_vs_jps2"] = line["median_us"] / max(1e-9, line["jps2_median_us"])
    return line


def weighted(rows, value, weight):
    total = sum(r.get(weight, 0) for r in rows)
    return sum(r.get(value, 0) * r.get(weight, 0) for r in rows) / max(1, total)


def print_sets(results, with_jps2):
    median = statistics.median
    head = ("| set | maps | scenarios | matched | method | prepare ms (median) | walkd median µs | "
            "walkd mean µs | A* median µs (sampled) | A* / walkd (mean, same scenarios) |")
    rule = "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|"
    if with_jps2:
        head += " JPS2 median µs | walkd / JPS2 (median of maps) | worst map | maps walkd ≤ JPS2 |"
        rule += "---:|---:|---:|---:|"
    print(head)
    print(rule)
    for set_name in sorted({r["set"] for r in results}):
        rows = [r for r in results if r["set"] == set_name]
        methods = sorted({r["method"] for r in rows})
        sampled = [r for r in rows if "astar_scenarios" in r]
        astar_mean = weighted(sampled, "astar_mean_us", "astar_scenarios")
        walkd_same = weighted(sampled, "mean_us_astar_sampled", "astar_scenarios")
        line = (f"| {set_name} | {len(rows)} | {sum(r['scenarios'] for r in rows)} | "
                f"{sum(r['matched'] for r in rows)} | {', '.join(methods)} | "
                f"{median(r.get('prepare_ms', 0) for r in rows):.1f} | "
                f"{median(r['median_us'] for r in rows):.1f} | "
                f"{weighted(rows, 'mean_us', 'scenarios'):.1f} | "
                f"{median(r.get('astar_median_us', 0) for r in rows):.1f} | "
                f"{astar_mean / max(1e-9, walkd_same):.1f}× |")
        if with_jps2:
            ratios = [r["ratio_vs_jps2"] for r in rows]
            line += (f" {median(r['jps2_median_us'] for r in rows):.1f} | {median(ratios):.2f} | "
                     f"{max(ratios):.2f} | {sum(1 for x in ratios if x <= 1.0)} of {len(rows)} |")
        print(line)


def print_maps(results):
    print("\n| set | map | walkd median µs | JPS2 median µs | walkd / JPS2 |")
    print("|---|---|---:|---:|---:|")
    for r in sorted(results, key=lambda r: -r["ratio_vs_jps2"]):
        print(f"| {r['set']} | {r['map']} | {r['median_us']:.2f} | {r['jps2_median_us']:.2f} | "
              f"{r['ratio_vs_jps2']:.2f} |")


def main():
    default_data = os.environ.get("WALKD_SHARED_DATA", os.path.join(ROOT, "..", "shared", "data"))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=os.path.join(default_data, "movingai"))
    parser.add_argument("--walkgrid", default=os.path.join(ROOT, "build", "client", "walkgrid"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--astar-every", type=int, default=10)
    parser.add_argument("--baseline-every", type=int, default=0)
    parser.add_argument("--jps2", default=os.environ.get("WARTHOG_JPS2", ""),
                        help="Warthog-JPS2's built `run` (bench/build_warthog_jps2.sh)")
    parser.add_argument("--sets", default="", help="only these sets, comma-separated")
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "movingai_all.jsonl"))
    args = parser.parse_args()
    if not os.path.isdir(args.data):
        print(f"movingai_all: {args.data} is absent; set WALKD_SHARED_DATA", file=sys.stderr)
        return 0

    wanted = set(filter(None, args.sets.split(",")))
    maps = []
    for set_name in sorted(os.listdir(args.data)):
        if wanted and set_name not in wanted:
            continue
        folder = os.path.join(args.data, set_name)
        for name in sorted(os.listdir(folder)):
            if name.endswith(".map") and os.path.exists(os.path.join(folder, name + ".scen")):
                maps.append((set_name, os.path.join(folder, name)))

    results = []
    started = time.time()
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_map, args, set_name, path) for set_name, path in maps]
        for done, future in enumerate(as_completed(futures), 1):
            line = future.result()
            results.append(line)
            print(f"\r[{done}/{len(maps)}] {line['set']}/{line['map']}: {line['matched']}/"
                  f"{line['scenarios']} matched, {time.time() - started:.0f} s", end="",
                  file=sys.stderr, flush=True)
    print(file=sys.stderr)
    with open(args.out, "w") as out:
        for line in results:
            out.write(json.dumps(line) + "\n")

    print_sets(results, bool(args.jps2))
    scenarios = sum(r["scenarios"] for r in results)
    matched = sum(r["matched"] for r in results)
    disagreements = sum(r.get("astar_disagreements", 0) for r in results)
    print(f"\nall: {len(results)} maps, {matched} of {scenarios} scenarios matched, "
          f"{disagreements} disagreements between jump points and the A*")
    if args.jps2:
        print(f"JPS2 lengths off the optimal one: {sum(r['jps2_off_optimal'] for r in results)}")
        print_maps(results)
    print(f"\nwall time {time.time() - started:.0f} s with {args.jobs} jobs; A* timed on every "
          f"{args.astar_every}th scenario", file=sys.stderr)
    bad = sum(r["mismatched"] + r["unreachable"] for r in results) + disagreements
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
