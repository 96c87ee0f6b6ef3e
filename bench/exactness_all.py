#!/usr/bin/env python3
"""How close abstract-graph walks come to the exact fine-grid walk, per set: every MovingAI set
(a sample of its maps), every mesh, and demo worlds. For each world it runs `walkgrid prepare`
then `walkgrid abstract-check` twice, with `--search auto` (what walkd answers) and `--search cch`
(every pair through the abstract graph, near ones too), and prints a markdown table of the mean
and worst excess of seconds over the exact walk, per set, the same of yards (signed: its least
too), and how the auto answers were found.

Usage: bench/exactness_all.py [--data DIR] [--walkgrid PATH] [--maps-per-set N] [--pairs N]
       [--demo 2x2,8x8] [--jobs N] [--out results.jsonl]
Reads $WALKD_SHARED_DATA (default ../shared/data beside the repository); sets that are absent are
skipped, saying so. Exits 1 when a check disagrees (an abstract walk cheaper than the exact one,
or one finding a walk where the other finds none).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(argv):
    proc = subprocess.run(argv, capture_output=True, text=True)
    lines = proc.stdout.strip().splitlines()
    if not lines:
        raise RuntimeError(f"{' '.join(argv)}: exit {proc.returncode}: {proc.stderr.strip()[-400:]}")
    return proc.returncode, json.loads(lines[-1])


def check_world(walkgrid, name, build_argv, profile, pairs):
    """Builds one world (build_argv writes into the folder given last), prepares and checks it."""
    with tempfile.TemporaryDirectory(prefix="exactness_") as out:
        if build_argv:
            proc = subprocess.run(build_argv + [out], capture_output=True, text=True)
            if proc.returncode != 0:
                return {"world": name, "error": proc.stderr.strip()[-300:]}
        code, prepared = run([walkgrid, "prepare", out, "--profiles", profile])
        results = {"world": name, "profile": profile, "nodes": prepared["nodes"],
                   "prepare_s": prepared["prepare_s"]}
        for search in ("auto", "cch"):
            code, line = run([walkgrid, "abstract-check", out, "--pairs", str(pairs), "--profile",
                              profile, "--search", search])
            results[search] = line
            results[search + "_exit"] = code
        return results


def main():
    default_data = os.environ.get("WALKD_SHARED_DATA", os.path.join(ROOT, "..", "shared", "data"))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=default_data)
    parser.add_argument("--walkgrid", default=os.path.join(ROOT, "build", "client", "walkgrid"))
    parser.add_argument("--maps-per-set", type=int, default=4)
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--demo", default="2x2,8x8")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out")
    args = parser.parse_args()
    if not os.access(args.walkgrid, os.X_OK):
        print(f"exactness_all: {args.walkgrid} is not built", file=sys.stderr)
        return 1

    jobs = []  # (set, name, build argv, profile)
    movingai = os.path.join(args.data, "movingai")
    if os.path.isdir(movingai):
        for set_name in sorted(os.listdir(movingai)):
            folder = os.path.join(movingai, set_name)
            maps = sorted(m for m in os.listdir(folder) if m.endswith(".map"))
            step = max(1, len(maps) // max(1, args.maps_per_set))
            for m in maps[::step][:args.maps_per_set]:
                jobs.append((f"movingai/{set_name}", m, [args.walkgrid, "import-movingai",
                                                         os.path.join(folder, m), "--out"], "shortest"))
    else:
        print(f"exactness_all: {movingai} is absent; MovingAI sets skipped", file=sys.stderr)
    meshes = os.path.join(args.data, "meshes")
    if os.path.isdir(meshes):
        for mesh in sorted(m for m in os.listdir(meshes) if m.lower().endswith(".obj")):
            jobs.append(("meshes", mesh, [args.walkgrid, "build-mesh", os.path.join(meshes, mesh), "--out"],
                         "neutral"))
    else:
        print(f"exactness_all: {meshes} is absent; meshes skipped", file=sys.stderr)
    for size in filter(None, args.demo.split(",")):
        jobs.append(("demo", size, [args.walkgrid, "demo", "--tiles", size, "--out"], "neutral"))

    def one(job):
        set_name, name, build_argv, profile = job
        result = check_world(args.walkgrid, name, build_argv, profile, args.pairs)
        result["set"] = set_name
        print(f"exactness_all: {set_name} {name}: " + (
            result.get("error") or
            f"auto mean {result['auto']['mean_seconds_excess_pct']:.3f}% worst "
            f"{result['auto']['worst_seconds_excess_pct']:.3f}%"), file=sys.stderr)
        return result

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(one, jobs))
    if args.out:
        with open(args.out, "w") as f:
            for r in results:
                f.write(json.dumps(r) + "\n")

    failed = False
    print("| set | worlds | pairs compared | auto: seconds mean | auto: seconds worst | auto: yards mean | "
          "auto: yards least / worst | auto: how found | cch forced: seconds mean | cch forced: worst |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    sets = []
    for r in results:
        if r["set"] not in sets:
            sets.append(r["set"])
    for set_name in sets:
        rows = [r for r in results if r["set"] == set_name and "error" not in r]
        errors = [r for r in results if r["set"] == set_name and "error" in r]
        for r in errors:
            print(f"exactness_all: {set_name} {r['world']}: {r['error']}", file=sys.stderr)
            failed = True
        if not rows:
            continue
        failed |= any(r["auto_exit"] != 0 or r["cch_exit"] != 0 for r in rows)

        def weighted(search, key):
            total = sum(r[search]["compared"] for r in rows)
            mean = sum(r[search][key] * r[search]["compared"] for r in rows) / max(1, total)
            return 0.0 if abs(mean) < 5e-4 else mean  # no "-0.000 %" from rounding

        compared = sum(r["auto"]["compared"] for r in rows)
        methods = {}
        for r in rows:
            for k, v in r["auto"]["methods"].items():
                methods[k] = methods.get(k, 0) + v
        how = ", ".join(f"{k} {v}" for k, v in sorted(methods.items(), key=lambda kv: -kv[1]))
        # Yards are signed: where the cost is not yards (neutral), a slower walk may be shorter.
        least = min(r["auto"].get("least_yards_excess_pct", 0.0) for r in rows)
        print(f"| {set_name} | {len(rows)} | {compared} | {weighted('auto', 'mean_seconds_excess_pct'):.3f} % | "
              f"{max(r['auto']['worst_seconds_excess_pct'] for r in rows):.2f} % | "
              f"{weighted('auto', 'mean_yards_excess_pct'):.3f} % | "
              f"{0.0 if abs(least) < 5e-3 else least:.2f} % / {max(r['auto']['worst_yards_excess_pct'] for r in rows):.2f} % | {how} | "
              f"{weighted('cch', 'mean_seconds_excess_pct'):.3f} % | "
              f"{max(r['cch']['worst_seconds_excess_pct'] for r in rows):.2f} % |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
