#!/usr/bin/env python3
"""The navmesh backend on every shared mesh: against Detour called directly, against the grid.

For each OBJ in $WALKD_SHARED_DATA/meshes (default ../shared/data/meshes): `walkgrid build-mesh`
and `walkgrid build-navmesh` into a temporary world folder, then `navmesh_bench` on it (and on
RecastDemo's own all-tiles file of the same mesh, when --foreign DIR holds NAME.bin: a navmesh
another tool built). Prints a markdown table a row per mesh and a line of totals:

  - exactness: pairs both walkd and Detour walked, how many differ in yards by more than 1e-3
    (relative), the worst relative difference; the same for the foreign navmesh;
  - overhead: Detour's and walkd's median µs per walk, the ratio of medians;
  - backends: walks found by the grid, the navmesh and the hybrid, the median navmesh/grid yards
    ratio, and the hybrid's shares (navmesh / navmesh_none / navmesh_detour).

Usage: bench/navmesh_all.py [--data DIR] [--build DIR] [--foreign DIR] [--pairs N] [--repeat R]
       [--out results.jsonl]
Skips, saying so, when the meshes are absent. Exits 1 when a mesh fails or a yards differ.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(argv):
    proc = subprocess.run(argv, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip() or f"exit code {proc.returncode}")
    return proc.stdout.strip().splitlines()[-1]


def bench_one(args, mesh):
    name = os.path.splitext(mesh)[0]
    path = os.path.join(args.data, mesh)
    with tempfile.TemporaryDirectory(prefix="navmesh_all_") as world:
        run([args.walkgrid, "build-mesh", path, "--out", world])
        run([args.walkgrid, "build-navmesh", path, "--out", world])
        argv = [args.bench, world, "--pairs", str(args.pairs), "--repeat", str(args.repeat)]
        foreign = os.path.join(args.foreign, name + ".bin") if args.foreign else ""
        if foreign and os.path.exists(foreign):
            argv += ["--foreign", foreign]
        line = json.loads(run(argv))
    line["mesh"] = name
    return line


def row(line):
    w = line["walkd_built"]
    b = line["backends"]
    f = line.get("foreign")
    foreign = (f"{f['both_found']} / {f['yards_differ']} / {f['worst_relative']:.1e}"
               if f else "-")
    return (f"| {line['mesh']} | {w['both_found']} / {w['yards_differ']} / "
            f"{w['worst_relative']:.1e} | {foreign} | {w['detour_median_us']:.1f} | "
            f"{w['walkd_median_us']:.1f} | {w['ratio_of_medians']:.2f} | "
            f"{b['grid_found']} / {b['navmesh_found']} / {b['hybrid_found']} of {b['pairs']} | "
            f"{b['median_navmesh_grid_yards']:.3f} | {b['hybrid_navmesh']} / "
            f"{b['hybrid_navmesh_none']} / {b['hybrid_navmesh_detour']} |")


def main():
    default_data = os.environ.get("WALKD_SHARED_DATA", os.path.join(ROOT, "..", "shared", "data"))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=os.path.join(default_data, "meshes"))
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--foreign", default="", help="folder of RecastDemo's NAME.bin files")
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--out", help="also write every JSON line to this file")
    args = parser.parse_args()
    args.walkgrid = os.path.join(args.build, "client", "walkgrid")
    args.bench = os.path.join(args.build, "bench", "navmesh_bench")
    if not os.path.isdir(args.data):
        print(f"navmesh_all: {args.data} is absent; set WALKD_SHARED_DATA", file=sys.stderr)
        return 0
    meshes = sorted(m for m in os.listdir(args.data) if m.lower().endswith(".obj"))
    print("| mesh | walkd-built: both found / differ / worst | RecastDemo's: both / differ / "
          "worst | Detour µs | walkd µs | ratio | found: grid / navmesh / hybrid | "
          "navmesh/grid yards | hybrid: navmesh / none / detour |")
    print("|---|---|---|---|---|---|---|---|---|")
    lines, failed = [], []
    for mesh in meshes:
        sys.stderr.write(f"\rnavmesh_all: {len(lines) + len(failed) + 1}/{len(meshes)} {mesh}   ")
        sys.stderr.flush()
        try:
            line = bench_one(args, mesh)
        except RuntimeError as error:
            failed.append((mesh, str(error)))
            continue
        lines.append(line)
        print(row(line), flush=True)
    sys.stderr.write("\n")
    if args.out:
        with open(args.out, "w") as out:
            for line in lines:
                out.write(json.dumps(line) + "\n")
    both = sum(l["walkd_built"]["both_found"] for l in lines)
    differ = sum(l["walkd_built"]["yards_differ"] for l in lines)
    foreign = [l["foreign"] for l in lines if "foreign" in l]
    ratios = [l["walkd_built"]["ratio_of_medians"] for l in lines]
    grid = sum(l["backends"]["grid_found"] for l in lines)
    mesh = sum(l["backends"]["navmesh_found"] for l in lines)
    hybrid = sum(l["backends"]["hybrid_found"] for l in lines)
    taken = [sum(l["backends"][k] for l in lines)
             for k in ("hybrid_navmesh", "hybrid_navmesh_none", "hybrid_navmesh_detour")]
    print(f"\n{len(lines)} meshes: walkd-built {both} pairs walked by both, {differ} differ; "
          + (f"RecastDemo's {sum(f['both_found'] for f in foreign)} pairs on {len(foreign)} "
             f"meshes, {sum(f['yards_differ'] for f in foreign)} differ; " if foreign else "")
          + f"overhead: median of the meshes' ratios {statistics.median(ratios):.2f} "
          f"(max {max(ratios):.2f}); found: grid {grid}, navmesh {mesh}, hybrid {hybrid}; "
          f"hybrid took navmesh {taken[0]}, grid for none {taken[1]}, grid for a detour "
          f"{taken[2]}")
    for mesh_name, error in failed:
        print(f"navmesh_all: {mesh_name}: {error}", file=sys.stderr)
    bad = differ + sum(f["yards_differ"] for f in foreign)
    return 1 if failed or bad else 0


if __name__ == "__main__":
    sys.exit(main())
