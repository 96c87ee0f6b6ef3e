#!/usr/bin/env python3
"""Voxelizes every OBJ level mesh with `walkgrid build-mesh` and prints a markdown table: per
mesh, columns with surfaces, surfaces, most floors in one column, regions and build seconds.

Usage: bench/meshes_all.py [--data DIR] [--walkgrid PATH] [--jobs N] [--out results.jsonl]
       [-- extra build-mesh options, e.g. -- --column-yards 0.3]
Reads $WALKD_SHARED_DATA/meshes (default ../shared/data/meshes beside the repository); skips,
saying so, when that folder is absent. Exits 1 if any mesh fails to build.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def build(walkgrid, mesh_path, extra):
    """Runs build-mesh on one mesh into a temporary folder: (json line or None, error text)."""
    with tempfile.TemporaryDirectory(prefix="meshes_all_") as out:
        proc = subprocess.run([walkgrid, "build-mesh", mesh_path, "--out", out, *extra],
                              capture_output=True, text=True)
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        return None, (proc.stderr.strip() or f"exit code {proc.returncode}")
    try:
        return json.loads(lines[-1]), ""
    except json.JSONDecodeError as error:
        return None, f"bad JSON line ({error}): {lines[-1]}"


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    default_data = os.environ.get("WALKD_SHARED_DATA", os.path.join(ROOT, "..", "shared", "data"))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=os.path.join(default_data, "meshes"))
    parser.add_argument("--walkgrid", default=os.path.join(ROOT, "build", "client", "walkgrid"))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", help="also write every JSON line to this file")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.data):
        print(f"meshes_all: {args.data} is absent; set WALKD_SHARED_DATA", file=sys.stderr)
        return 0
    if not os.access(args.walkgrid, os.X_OK):
        print(f"meshes_all: {args.walkgrid} is not built (ninja -C build walkgrid)",
              file=sys.stderr)
        return 1

    meshes = sorted(name for name in os.listdir(args.data) if name.lower().endswith(".obj"))
    if not meshes:
        print(f"meshes_all: no .obj file in {args.data}", file=sys.stderr)
        return 0
    started = time.time()
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        outcomes = list(pool.map(
            lambda name: build(args.walkgrid, os.path.join(args.data, name), extra), meshes))

    failed = 0
    print("| mesh | triangles | columns | surfaces | most floors | regions | build s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, (line, error) in zip(meshes, outcomes):
        if line is None:
            failed += 1
            print(f"| {name} | failed | | | | | |")
            print(f"meshes_all: {name}: {error}", file=sys.stderr)
            continue
        print(f"| {name} | {line['triangles']} | {line['columns']} | {line['surfaces']} | "
              f"{line['max_floors']} | {line['regions']} | {line['build_seconds']:.3f} |")
    if args.out:
        with open(args.out, "w") as out:
            for line, _ in outcomes:
                if line is not None:
                    out.write(json.dumps(line) + "\n")
    built = [line for line, _ in outcomes if line is not None]
    total = sum(line["build_seconds"] for line in built)
    print(f"\n{len(built)} of {len(meshes)} meshes built, {total:.2f} s of building, "
          f"{time.time() - started:.1f} s wall with {args.jobs} job(s)"
          + (f", options {' '.join(extra)}" if extra else ""), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
