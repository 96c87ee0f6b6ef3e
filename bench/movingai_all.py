#!/usr/bin/env python3
"""Runs every MovingAI scenario file through `walkgrid movingai-check` and prints the tables that
docs/benchmarks.md records: per set and per map, walkd's exact walker (jump points where the map
allows them, else the fine-grid A*) with its median and mean microseconds, the A* and a plain
Dijkstra timed on every Nth scenario of the same run, and two GPPC entries run on the same files
right after walkd on each map: with --jps2, Warthog-JPS2 (both medians and their ratio); with
--sgch, 2019-SGCH-JPD (its map preprocessing timed apart; medians, means and total query time,
which GPPC ranks by, beside walkd's and JPS2's). With --search subgoal_cch_perfect (or another
subgoal search of walkgrid's) walkd answers by that search, and its own jump point search is timed
on the same scenarios in a pass of its own after it (a table per set: totals, medians, means).

Usage: bench/movingai_all.py [--data DIR] [--jobs N] [--astar-every N] [--baseline-every N]
                             [--search NAME] [--jps-every N]
                             [--jps2 PATH/TO/run] [--sgch PATH/TO/run] [--sets a,b]
                             [--maps-per-set N] [--out results.jsonl]
Build the baselines with bench/build_warthog_jps2.sh and bench/build_sgch_jpd.sh (temporary
folders, never committed). Reads $WALKD_SHARED_DATA/movingai (default ../shared/data/movingai).
Exits 1 if any scenario does not match its optimal length or walkd's two walkers disagree (a
baseline's lengths off the optimal one are counted and printed, not failed on).
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


def gppc_figures(rows, prefix):
    """Figures from a GPPC harness's result.csv rows (time_cost in nanoseconds, per query with its
    path): median, mean and total, and how many lengths are off the scenario's optimal one."""
    times = [float(r["time_cost"]) / 1000.0 for r in rows]
    off = sum(1 for r in rows if float(r["ref_length"]) > 0 and
              abs(float(r["path_length"]) - float(r["ref_length"])) > 1e-3 * max(1.0, float(r["ref_length"])) + 0.006)
    warm = statistics.mean(times[1:]) if len(times) > 1 else times[0]
    return {f"{prefix}_median_us": statistics.median(times), f"{prefix}_mean_us": statistics.mean(times),
            f"{prefix}_total_s": sum(times) / 1e6, f"{prefix}_off_optimal": off,
            f"{prefix}_mean_us_after_first": warm,
            f"{prefix}_warm_total_s": warm * len(times) / 1e6}


def run_jps2(binary, path):
    """Warthog-JPS2 on one map in a scratch folder (it writes result.csv where it runs)."""
    with tempfile.TemporaryDirectory(prefix="jps2-") as scratch:
        subprocess.run([binary, "-run", path, path + ".scen"], cwd=scratch, check=True,
                       capture_output=True)
        with open(os.path.join(scratch, "result.csv")) as f:
            return gppc_figures(list(csv.DictReader(f)), "jps2")


def sgch_prepare(binary, path, scratch, limit_s):
    """Runs `-pre` on one map: its wall and CPU seconds (map reading and saving included; the entry
    prints no total of its own), or None when it ran past limit_s (0: no limit) and was stopped."""
    started = time.perf_counter()
    child = subprocess.Popen([binary, "-pre", path], cwd=scratch, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        if limit_s and time.perf_counter() - started > limit_s:
            child.kill()
            os.wait4(child.pid, 0)
            return None
        time.sleep(0.02)
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{path}: SGCH-JPD -pre exited {os.waitstatus_to_exitcode(status)}")
    return {"wall_s": time.perf_counter() - started, "cpu_s": usage.ru_utime + usage.ru_stime}


def run_sgch(args, path):
    """2019-SGCH-JPD on one map in a scratch folder: `-pre` builds its subgoal graph and hierarchy
    into index_data/, then `-run` loads them and answers the scenarios. With --sgch-index, the
    index and its preprocessing times are kept there and a map already in it is not preprocessed
    again."""
    with tempfile.TemporaryDirectory(prefix="sgch-") as scratch:
        index = os.path.join(scratch, "index_data")
        if args.sgch_index:
            os.makedirs(args.sgch_index, exist_ok=True)
            os.symlink(os.path.abspath(args.sgch_index), index)
        else:
            os.mkdir(index)
        stem = os.path.join(index, "SGCH-JPD-" + os.path.splitext(os.path.basename(path))[0])
        if os.path.exists(stem + ".prepare.json"):
            with open(stem + ".prepare.json") as f:
                prepare = json.load(f)
        else:
            prepare = sgch_prepare(args.sgch, path, scratch, args.sgch_prepare_limit)
            if prepare is None:
                return {"sgch_skipped": f"preprocessing ran past {args.sgch_prepare_limit} s"}
            with open(stem + ".prepare.json", "w") as f:
                json.dump(prepare, f)
        index_bytes = sum(os.path.getsize(n) for n in
                          (stem + ext for ext in (".r", ".rspc", ".sub", ".ch")) if os.path.exists(n))
        subprocess.run([args.sgch, "-run", path, path + ".scen"], cwd=scratch, check=True,
                       capture_output=True)
        with open(os.path.join(scratch, "result.csv")) as f:
            figures = gppc_figures(list(csv.DictReader(f)), "sgch")
    figures.update({"sgch_prepare_s": prepare["wall_s"], "sgch_prepare_cpu_s": prepare["cpu_s"],
                    "sgch_index_bytes": index_bytes})
    return figures


def run_map(args, set_name, path):
    proc = subprocess.run([args.walkgrid, "movingai-check", path, path + ".scen",
                           "--astar-every", str(args.astar_every),
                           "--baseline-every", str(args.baseline_every),
                           "--search", args.search, "--jps-every", str(args.jps_every)],
                          capture_output=True, text=True)
    if not proc.stdout.strip():
        raise RuntimeError(f"{path}: {proc.stderr.strip()}")
    line = json.loads(proc.stdout.strip().splitlines()[-1])
    line["set"] = set_name
    # Query time only, as GPPC counts it: total_s above also holds the sampled A* and Dijkstra.
    line["walkd_total_s"] = line["mean_us"] * line["scenarios"] / 1e6
    if "mean_us_after_first" in line:  # as if the first search cost what the others do
        line["walkd_warm_total_s"] = line["mean_us_after_first"] * line["scenarios"] / 1e6
    if args.jps2:
        line.update(run_jps2(args.jps2, path))
        line["ratio_vs_jps2"] = line["median_us"] / max(1e-9, line["jps2_median_us"])
    if args.sgch:
        line.update(run_sgch(args, path))
    if "sgch_median_us" in line:
        line["ratio_vs_sgch"] = line["median_us"] / max(1e-9, line["sgch_median_us"])
        line["mean_ratio_vs_sgch"] = line["mean_us"] / max(1e-9, line["sgch_mean_us"])
        if "mean_us_after_first" in line:
            line["warm_mean_ratio_vs_sgch"] = (line["mean_us_after_first"] /
                                               max(1e-9, line["sgch_mean_us_after_first"]))
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


def fmt(value, spec):
    return "–" if value is None else format(value, spec)


def set_totals(rows, prefix):
    """A set's total query seconds, median of its maps' medians and mean per query."""
    if not all(f"{prefix}_total_s" in r for r in rows):
        return None, None, None
    total = sum(r[f"{prefix}_total_s"] for r in rows)
    median = (statistics.median(r[f"{prefix}_median_us"] for r in rows)
              if all(f"{prefix}_median_us" in r for r in rows) else None)
    return total, median, total * 1e6 / max(1, sum(r["scenarios"] for r in rows))


def ratio(a, b):
    return None if a is None or not b else a / b


def print_sgch_sets(results):
    """Per set, over the maps SGCH-JPD prepared: total query seconds (GPPC's ranking), medians
    of the maps' medians, means per query, and the maps where walkd's mean is above SGCH-JPD's.
    "warm": each map's first search left out (walkd's sizes its buffers to the grid, a one-time
    cost; the GPPC harness leaves the entries' own set-up out of their times, but their first
    query is slower too), the total taken as if it had cost what the others do."""
    print("\n| set | maps compared | scenarios | walkd total s | walkd total s, warm | "
          "SGCH-JPD total s | SGCH-JPD total s, warm | JPS2 total s | walkd / SGCH-JPD | walkd / SGCH-JPD, warm | "
          "walkd / JPS2 | SGCH-JPD prepare CPU s (median, max) | SGCH-JPD lengths off |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    means = []
    for set_name in sorted({r["set"] for r in results}):
        every = [r for r in results if r["set"] == set_name]
        rows = [r for r in every if "sgch_median_us" in r]
        if not rows:
            print(f"| {set_name} | 0 of {len(every)} |" + " – |" * 11)
            continue
        for r in rows:
            r["walkd_median_us"] = r["median_us"]
        w_total, w_median, w_mean = set_totals(rows, "walkd")
        warm_total, _, warm_mean = set_totals(rows, "walkd_warm")
        s_total, s_median, s_mean = set_totals(rows, "sgch")
        s_warm_total, _, s_warm_mean = set_totals(rows, "sgch_warm")
        j_total, j_median, j_mean = set_totals(rows, "jps2")
        prepare = [r["sgch_prepare_cpu_s"] for r in rows]
        print(f"| {set_name} | {len(rows)} of {len(every)} | {sum(r['scenarios'] for r in rows)} | "
              f"{w_total:.3f} | {fmt(warm_total, '.3f')} | {s_total:.3f} | {s_warm_total:.3f} | "
              f"{fmt(j_total, '.3f')} | {w_total / s_total:.2f} | "
              f"{fmt(ratio(warm_total, s_warm_total), '.2f')} | "
              f"{fmt(ratio(w_total, j_total), '.2f')} | "
              f"{statistics.median(prepare):.3f}, {max(prepare):.3f} | "
              f"{sum(r['sgch_off_optimal'] for r in rows)} |")
        over = lambda key, bound: sum(1 for r in rows if r.get(key, 0) > bound)
        means.append(
            f"| {set_name} | {w_median:.1f} | {s_median:.1f} | {fmt(j_median, '.1f')} | "
            f"{w_mean:.1f} | {fmt(warm_mean, '.1f')} | {s_mean:.1f} | {s_warm_mean:.1f} | "
            f"{fmt(j_mean, '.1f')} | "
            f"{over('mean_ratio_vs_sgch', 1.0)}, {over('warm_mean_ratio_vs_sgch', 1.0)} of {len(rows)} | "
            f"{over('mean_ratio_vs_sgch', 1.5)}, {over('warm_mean_ratio_vs_sgch', 1.5)} of {len(rows)} |")
    print("\n| set | walkd median µs | SGCH-JPD median µs | JPS2 median µs | walkd mean µs | "
          "walkd mean µs, warm | SGCH-JPD mean µs | SGCH-JPD mean µs, warm | JPS2 mean µs | "
          "maps walkd mean > SGCH-JPD's (all, warm) | maps walkd mean > 1.5 × SGCH-JPD's (all, warm) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print("\n".join(means))


def print_sgch_maps(results):
    """Every map, worst first by walkd's warm mean over SGCH-JPD's, with what walkd's jump points
    cost there: the first search, expansions per query, table build and bytes, beside SGCH-JPD's
    preprocessing. With the subgoal hierarchy (--search), "expansions" are the subgoals the
    start's and the goal's scans found, and the tables are the jump tables alone."""
    print("\n| set | map | walkd median µs | SGCH-JPD median µs | walkd mean µs | walkd mean µs, warm | "
          "SGCH-JPD mean µs | SGCH-JPD mean µs, warm | JPS2 mean µs | walkd / SGCH-JPD (mean) | walkd / SGCH-JPD (mean, warm) | "
          "walkd / SGCH-JPD (median) | walkd first search ms | walkd expansions per query | "
          "walkd prepare ms | walkd tables KiB | SGCH-JPD prepare CPU s | SGCH-JPD index KiB |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    compared = [r for r in results if "sgch_median_us" in r]
    for r in sorted(compared, key=lambda r: -r.get("warm_mean_ratio_vs_sgch", r["mean_ratio_vs_sgch"])):
        first_ms = r["first_us"] / 1e3 if "first_us" in r else None
        print(f"| {r['set']} | {r['map']} | {r['median_us']:.2f} | {r['sgch_median_us']:.2f} | "
              f"{r['mean_us']:.2f} | {fmt(r.get('mean_us_after_first'), '.2f')} | "
              f"{r['sgch_mean_us']:.2f} | {r['sgch_mean_us_after_first']:.2f} | "
              f"{fmt(r.get('jps2_mean_us'), '.2f')} | "
              f"{r['mean_ratio_vs_sgch']:.2f} | {fmt(r.get('warm_mean_ratio_vs_sgch'), '.2f')} | "
              f"{r['ratio_vs_sgch']:.2f} | {fmt(first_ms, '.1f')} | "
              f"{r['nodes_expanded'] / max(1, r['scenarios']):.0f} | "
              f"{r.get('prepare_ms', 0):.1f} | {r.get('prepare_bytes', 0) / 1024:.0f} | "
              f"{r['sgch_prepare_cpu_s']:.3f} | {r['sgch_index_bytes'] / 1024:.0f} |")
    for r in results:
        if "sgch_skipped" in r:
            print(f"\nSGCH-JPD left out on {r['set']}/{r['map']}: {r['sgch_skipped']}")


def print_jps_sets(results):
    """Per set, walkd's subgoal search against its jump point search on the same scenarios (timed
    in a pass of its own after it): totals, medians of the maps' medians, means per query, the
    slowest preparation of a map (jump tables, subgoal graph and hierarchy), and the maps where
    the subgoal search's mean is above jump point search's."""
    print("\n| set | maps | scenarios | subgoal total s | JPS total s | subgoal / JPS (total) | "
          "subgoal median µs | JPS median µs | subgoal mean µs | JPS mean µs | "
          "worst map subgoal / JPS (mean) | maps subgoal mean > JPS's | prepare ms (median, max) | "
          "disagreements |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for set_name in sorted({r["set"] for r in results}):
        rows = [r for r in results if r["set"] == set_name and "jps_total_s" in r]
        if not rows:
            continue
        scenarios = sum(r["scenarios"] for r in rows)
        mine = sum(r["walkd_total_s"] for r in rows)
        jps = sum(r["jps_total_s"] for r in rows)
        ratios = [r["mean_us"] / max(1e-9, r["jps_mean_us"]) for r in rows]
        prepare = [r.get("prepare_ms", 0) + r.get("subgoal_prepare_ms", 0) +
                   r.get("hierarchy_prepare_ms", 0) for r in rows]
        print(f"| {set_name} | {len(rows)} | {scenarios} | {mine:.3f} | {jps:.3f} | "
              f"{mine / max(1e-9, jps):.3f} | "
              f"{statistics.median(r['median_us'] for r in rows):.1f} | "
              f"{statistics.median(r['jps_median_us'] for r in rows):.1f} | "
              f"{mine * 1e6 / scenarios:.1f} | {jps * 1e6 / scenarios:.1f} | {max(ratios):.2f} | "
              f"{sum(1 for x in ratios if x > 1.0)} of {len(rows)} | "
              f"{statistics.median(prepare):.0f}, {max(prepare):.0f} | "
              f"{sum(r.get('disagreements', 0) for r in rows)} |")


def pick(paths, count):
    """count maps spread evenly over a set's sorted list (all of them when count is 0)."""
    if count <= 0 or len(paths) <= count:
        return paths
    return [paths[i * len(paths) // count] for i in range(count)]


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
    parser.add_argument("--sgch", default=os.environ.get("SGCH_JPD", ""),
                        help="2019-SGCH-JPD's built `run` (bench/build_sgch_jpd.sh)")
    parser.add_argument("--sgch-index", default="",
                        help="keep SGCH-JPD's preprocessed maps here and reuse them")
    parser.add_argument("--sgch-prepare-limit", type=float, default=0,
                        help="stop SGCH-JPD's preprocessing of a map after this many seconds "
                             "(the map is then left out of the SGCH-JPD figures); 0: no limit")
    parser.add_argument("--search", default="jump_points",
                        help="walkgrid movingai-check's --search: jump_points, subgoal, subgoal_cch, "
                             "subgoal_cch_perfect")
    parser.add_argument("--jps-every", type=int, default=1,
                        help="with a subgoal search, time jump point search on every Nth scenario")
    parser.add_argument("--sets", default="", help="only these sets, comma-separated")
    parser.add_argument("--maps-per-set", type=int, default=0,
                        help="only this many maps of each set, spread over its sorted list")
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
        paths = [os.path.join(folder, name) for name in sorted(os.listdir(folder))
                 if name.endswith(".map") and os.path.exists(os.path.join(folder, name + ".scen"))]
        maps += [(set_name, path) for path in pick(paths, args.maps_per_set)]

    results = []
    started = time.time()
    # Each map's line is written as soon as it is done, so a long run stopped early keeps them.
    with ThreadPoolExecutor(max_workers=args.jobs) as pool, open(args.out, "w") as out:
        futures = [pool.submit(run_map, args, set_name, path) for set_name, path in maps]
        for done, future in enumerate(as_completed(futures), 1):
            line = future.result()
            results.append(line)
            out.write(json.dumps(line) + "\n")
            out.flush()
            print(f"\r[{done}/{len(maps)}] {line['set']}/{line['map']}: {line['matched']}/"
                  f"{line['scenarios']} matched, {time.time() - started:.0f} s", end="",
                  file=sys.stderr, flush=True)
    print(file=sys.stderr)

    print_sets(results, bool(args.jps2))
    if args.search != "jump_points":
        print_jps_sets(results)
    scenarios = sum(r["scenarios"] for r in results)
    matched = sum(r["matched"] for r in results)
    # "disagreements" (a subgoal search's) holds the A*'s too when both ran.
    disagreements = sum(r.get("disagreements", r.get("astar_disagreements", 0)) for r in results)
    print(f"\nall: {len(results)} maps, {matched} of {scenarios} scenarios matched, "
          f"{disagreements} disagreements between walkd's walker and the A* or jump points")
    if args.jps2:
        print(f"JPS2 lengths off the optimal one: {sum(r['jps2_off_optimal'] for r in results)}")
        print_maps(results)
    if args.sgch:
        print_sgch_sets(results)
        compared = [r for r in results if "sgch_median_us" in r]
        total = {p: sum(r[f"{p}_total_s"] for r in compared) for p in ("walkd", "sgch")}
        print(f"\nSGCH-JPD lengths off the optimal one: "
              f"{sum(r['sgch_off_optimal'] for r in compared)}; query time over the "
              f"{len(compared)} maps it prepared: walkd {total['walkd']:.3f} s, SGCH-JPD "
              f"{total['sgch']:.3f} s; SGCH-JPD preprocessing "
              f"{sum(r['sgch_prepare_cpu_s'] for r in compared):.1f} CPU s in all")
        print_sgch_maps(results)
    print(f"\nwall time {time.time() - started:.0f} s with {args.jobs} jobs; A* timed on every "
          f"{args.astar_every}th scenario", file=sys.stderr)
    bad = sum(r["mismatched"] + r["unreachable"] for r in results) + disagreements
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
