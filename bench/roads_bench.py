#!/usr/bin/env python3
"""`walkgrid layers --roads` with one wide line of many vertices, as a whole process.

For each demo world (2 x 2 and 8 x 8 tiles) writes a roads file holding one LineString of
--vertices positions drawn at random over the world's extent (so every segment crosses much of
the map), --width yards wide (the file limit is 1,000), and times `walkgrid layers DIR --roads
FILE`. Baselines in the same run: `walkgrid info` on the same world (loading it, the part of
`layers` that is not laying) and the same command with a two-position line of the same width
(laying one segment). --baseline-walkgrid PATH also times the same three files with another
walkgrid binary (an older build), on copies of the same worlds.

Usage: bench/roads_bench.py [--vertices 200000] [--width 1000] [--tiles 2x2,8x8]
                            [--baseline-walkgrid PATH]
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from batch_bench import BUILD  # noqa: E402


def run(binary, *args):
    started = time.time()
    proc = subprocess.run([binary, *args], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(" ".join(args) + ": " + proc.stderr[-2000:])
    return proc.stdout, time.time() - started


def roads_file(path, positions, width):
    feature = {"type": "Feature", "geometry": {"type": "LineString", "coordinates": positions},
               "properties": {"width_yards": width, "name": "Wide"}}
    with open(path, "w") as f:
        json.dump({"type": "FeatureCollection", "features": [feature]}, f)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vertices", type=int, default=200000)
    parser.add_argument("--width", type=float, default=1000.0)
    parser.add_argument("--tiles", default="2x2,8x8")
    parser.add_argument("--baseline-walkgrid")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    walkgrid = os.path.join(BUILD, "client", "walkgrid")
    builds = [("this build", walkgrid)]
    if args.baseline_walkgrid:
        builds.append(("baseline build", os.path.abspath(args.baseline_walkgrid)))
    print(f"one LineString of {args.vertices:,} random positions, {args.width:g} yards wide")
    print(f"  {'world':<10} {'build':<15} {'columns':>11} {'info s':>8} {'2 positions s':>14} "
          f"{'many positions s':>17} {'road columns':>13}")
    with tempfile.TemporaryDirectory(prefix="roads-bench-") as tmp:
        for tiles in args.tiles.split(","):
            world = os.path.join(tmp, f"demo-{tiles}")
            run(walkgrid, "demo", "--tiles", tiles, "--out", world)
            info = json.loads(run(walkgrid, "info", world)[0])
            c = info["continents"][0]
            x0, y0, x1, y1 = c["min_x_yards"], c["min_y_yards"], c["max_x_yards"], c["max_y_yards"]
            rng = random.Random(args.seed)
            many = [[rng.uniform(x0, x1), rng.uniform(y0, y1)] for _ in range(args.vertices)]
            roads_file(os.path.join(tmp, "many.geojson"), many, args.width)
            roads_file(os.path.join(tmp, "two.geojson"), many[:2], args.width)
            for name, binary in builds:
                copy = os.path.join(tmp, "copy")
                shutil.rmtree(copy, ignore_errors=True)
                shutil.copytree(world, copy)
                _, info_s = run(binary, "info", copy)
                _, two_s = run(binary, "layers", copy, "--roads", os.path.join(tmp, "two.geojson"))
                out, many_s = run(binary, "layers", copy, "--roads",
                                  os.path.join(tmp, "many.geojson"))
                road = json.loads(out).get("road_columns", 0)
                print(f"  {tiles:<10} {name:<15} {c['columns']:>11,} {info_s:>8.2f} {two_s:>14.2f} "
                      f"{many_s:>17.2f} {road:>13,}", flush=True)


if __name__ == "__main__":
    main()
