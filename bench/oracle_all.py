#!/usr/bin/env python3
"""Checks walkd's answers against a plain Dijkstra on every shared mesh (and any extra world
folders given), for several profiles and bands: `walkgrid oracle-check` on random pairs with a
fixed seed. Prints the table docs/benchmarks.md records; exits 1 on any disagreement.

Usage: bench/oracle_all.py [--pairs N] [--walkgrid PATH] [--world DIR ...]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = [("shortest", 0), ("neutral", 0), ("faction-a", 20), ("faction-b-heavy", 40)]


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode not in (0, 3) or not proc.stdout.strip():
        raise RuntimeError(f"{' '.join(cmd)}: {proc.stderr.strip()}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main():
    data = os.environ.get("WALKD_SHARED_DATA", os.path.join(ROOT, "..", "shared", "data"))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--walkgrid", default=os.path.join(ROOT, "build", "client", "walkgrid"))
    parser.add_argument("--world", action="append", default=[], help="extra world folders")
    args = parser.parse_args()

    worlds = []
    with tempfile.TemporaryDirectory() as tmp:
        meshes = os.path.join(data, "meshes")
        if os.path.isdir(meshes):
            for name in sorted(os.listdir(meshes)):
                if name.endswith(".obj"):
                    out = os.path.join(tmp, name[:-4])
                    run([args.walkgrid, "build-mesh", os.path.join(meshes, name), "--out", out])
                    worlds.append((name, out))
        else:
            print(f"oracle_all: {meshes} is absent; set WALKD_SHARED_DATA", file=sys.stderr)
        worlds += [(os.path.basename(w.rstrip("/")), w) for w in args.world]

        print("| world | pairs per case | walks | no walk | straight line | settled | disagree | "
              "worst rel. diff | walkd median µs | Dijkstra median µs |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        bad = 0
        started = time.time()
        for i, (name, folder) in enumerate(worlds, 1):
            lines = [run([args.walkgrid, "oracle-check", folder, "--pairs", str(args.pairs),
                          "--profile", profile, "--band", str(band)]) for profile, band in CASES]
            total = lambda key: sum(l[key] for l in lines)
            bad += total("disagree")
            worst = max(l["worst_relative_difference"] for l in lines)
            walkd = sorted(l["walkd_median_us"] for l in lines)[len(lines) // 2]
            dijkstra = sorted(l["dijkstra_median_us"] for l in lines)[len(lines) // 2]
            print(f"| {name} | {args.pairs} × {len(CASES)} | {total('walks')} | {total('no_walk')} | "
                  f"{total('straight_line')} | {total('settled')} | {total('disagree')} | {worst:.1e} | "
                  f"{walkd:.0f} | {dijkstra:.0f} |", flush=True)
            print(f"[{i}/{len(worlds)}] {name}, {time.time() - started:.0f} s", file=sys.stderr)
        print(f"\ncases: {', '.join(f'{p} band {b}' for p, b in CASES)}; seed 1", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
