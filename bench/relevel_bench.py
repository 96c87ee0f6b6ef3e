#!/usr/bin/env python3
"""Ground layers and zone levels, through the real tools (docs/benchmarks.md):

  layering  `walkgrid layers` laying zones, roads and hubs (GeoJSON) and lifts (JSON) on worlds
            of several sizes: wall time per world, against `walkgrid info` on the same world
            (loading it, the part of `layers` that is not layering) in the same run;
  relevel   all pairs among N places of a demo world with 16 zones, asked in every danger band
            through `walkctl batch`; then one zone's level changed (`walkgrid layers --zones`)
            and every band asked again: pairs routed per band and wall time, against the full
            rerun (an empty store) that the stored answers avoid.

Usage: bench/relevel_bench.py [--places 60] [--tiles 4x4] [--only layering|relevel]
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
from batch_bench import BUILD, Walkd, batch  # noqa: E402

BANDS = [0, 10, 20, 30, 40, 50]


def walkgrid(*args):
    started = time.time()
    proc = subprocess.run([os.path.join(BUILD, "client", "walkgrid"), *args], capture_output=True,
                          text=True)
    if proc.returncode != 0:
        raise RuntimeError(" ".join(args) + ": " + proc.stderr[-2000:])
    return proc.stdout, time.time() - started


def extent(world_dir):
    info = json.loads(walkgrid("info", world_dir)[0])
    c = info["continents"][0]
    return c["min_x_yards"], c["min_y_yards"], c["max_x_yards"], c["max_y_yards"]


def rect(x0, y0, x1, y1):
    return [[[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]]


def feature(kind, coordinates, properties):
    return {"type": "Feature", "geometry": {"type": kind, "coordinates": coordinates},
            "properties": properties}


def write(path, document):
    with open(path, "w") as f:
        json.dump(document, f)


def danger(band, level):
    """nav/cost/danger.h: the multiplier of a zone whose lowest level is `level` in `band`."""
    if band == 0:
        return 1.0
    return 20.0 if level > band + 10 else 3.0 if level >= band + 4 else 1.0


def zone_levels(seed):
    rng = random.Random(seed)
    return [rng.choice([1, 5, 12, 18, 25, 33, 41, 48, 55, 60]) for _ in range(16)]


def write_layers(tmp, world_dir, levels):
    """16 zones in a 4 x 4 grid, two crossing roads, a hub per faction and two lifts."""
    x0, y0, x1, y1 = extent(world_dir)
    w, h = (x1 - x0) / 4, (y1 - y0) / 4
    zones = [feature("Polygon", rect(x0 + i * w, y0 + j * h, x0 + (i + 1) * w, y0 + (j + 1) * h),
                     {"zone": 1 + j * 4 + i, "name": f"Zone {j * 4 + i + 1}",
                      "min_level": levels[j * 4 + i], "max_level": levels[j * 4 + i] + 5})
             for j in range(4) for i in range(4)]
    roads = [feature("LineString", [[x0, y0 + 2 * h], [x1, y0 + 2 * h]], {"width_yards": 6}),
             feature("LineString", [[x0 + 2 * w, y0], [x0 + 2 * w, y1]], {"width_yards": 6})]
    hubs = [feature("Polygon", rect(x0 + 0.2 * w, y0 + 0.2 * h, x0 + 0.8 * w, y0 + 0.8 * h),
                    {"faction": "A", "name": "Westhold"}),
            feature("Polygon", rect(x1 - 0.8 * w, y1 - 0.8 * h, x1 - 0.2 * w, y1 - 0.2 * h),
                    {"faction": "B", "name": "Easthold"})]
    paths = {name: os.path.join(tmp, name) for name in
             ("zones.geojson", "roads.geojson", "hubs.geojson", "lifts.json")}
    write(paths["zones.geojson"], {"type": "FeatureCollection", "features": zones})
    write(paths["roads.geojson"], {"type": "FeatureCollection", "features": roads})
    write(paths["hubs.geojson"], {"type": "FeatureCollection", "features": hubs})
    write(paths["lifts.json"], {"lifts": []})
    return paths


def layering_figure(tmp):
    print("layering: walkgrid layers (zones, roads, hubs, lifts) against walkgrid info, same world")
    print(f"  {'world':<24} {'columns':>12} {'info s':>8} {'layers s':>9} {'ratio':>6}")
    data = os.environ.get("WALKD_SHARED_DATA", os.path.join(os.path.dirname(BUILD), "..", "shared",
                                                            "data"))
    worlds = []
    for tiles in ("2x2", "8x8", "16x16"):
        d = os.path.join(tmp, f"demo-{tiles}")
        walkgrid("demo", "--tiles", tiles, "--out", d)
        worlds.append((f"demo {tiles}", d))
    mesh = os.path.join(data, "meshes", "Zelda4x4.obj")
    if os.path.exists(mesh):
        d = os.path.join(tmp, "zelda4x4")
        walkgrid("build-mesh", mesh, "--out", d)
        worlds.append(("mesh Zelda4x4", d))
    for name, d in worlds:
        paths = write_layers(tmp, d, zone_levels(1))
        info_out, info_s = walkgrid("info", d)
        columns = json.loads(info_out)["continents"][0]["columns"]
        _, layers_s = walkgrid("layers", d, "--zones", paths["zones.geojson"], "--roads",
                               paths["roads.geojson"], "--hubs", paths["hubs.geojson"],
                               "--lifts", paths["lifts.json"])
        print(f"  {name:<24} {columns:>12,} {info_s:>8.2f} {layers_s:>9.2f} {layers_s / info_s:>6.1f}")


def ask_bands(walkd, tmp, pairs_path, tag):
    rows = {}
    for band in BANDS:
        path = os.path.join(tmp, f"pairs-{band}.jsonl")
        with open(pairs_path) as src, open(path, "w") as dst:
            for line in src:
                pair = json.loads(line)
                pair["band"] = band
                dst.write(json.dumps(pair) + "\n")
        summary, wall = batch(walkd.addr, path, os.path.join(tmp, f"{tag}-{band}.jsonl"))
        rows[band] = (summary, wall)
    return rows


def relevel_figure(tmp, places_count, tiles):
    worlds = os.path.join(tmp, "worlds")
    world = os.path.join(worlds, "zoned")
    walkgrid("demo", "--tiles", tiles, "--out", world)
    levels = zone_levels(1)
    paths = write_layers(tmp, world, levels)
    walkgrid("layers", world, "--zones", paths["zones.geojson"], "--roads", paths["roads.geojson"],
             "--hubs", paths["hubs.geojson"])
    walkgrid("prepare", world)  # the abstract graph: long walks go over it, as on a served world
    x0, y0, x1, y1 = extent(world)
    rng = random.Random(4)
    places = [[round(rng.uniform(x0 + 10, x1 - 10), 1), round(rng.uniform(y0 + 10, y1 - 10), 1)]
              for _ in range(places_count)]
    pairs_path = os.path.join(tmp, "pairs.jsonl")
    with open(pairs_path, "w") as f:
        for a in places:
            for b in places:
                if a != b:
                    f.write(json.dumps({"world": "zoned", "from": a, "to": b,
                                        "profile": "neutral"}) + "\n")
    data = os.path.join(tmp, "data")
    walkd = Walkd(data, worlds)
    try:
        first = ask_bands(walkd, tmp, pairs_path, "first")
    finally:
        walkd.stop()
    # One zone's level changes: a zone of the middle, to the first level that reprices two bands.
    changed = 5
    old_level = levels[changed]
    levels[changed] = next(level for level in range(1, 80)
                           if sum(danger(b, level) != danger(b, old_level) for b in BANDS) == 2)
    repriced = [b for b in BANDS if danger(b, levels[changed]) != danger(b, old_level)]
    paths = write_layers(tmp, world, levels)
    walkgrid("layers", world, "--zones", paths["zones.geojson"])
    walkd = Walkd(data, worlds)
    try:
        rerun = ask_bands(walkd, tmp, pairs_path, "rerun")
    finally:
        walkd.stop()
    walkd = Walkd(os.path.join(tmp, "data-full"), worlds)
    try:
        full = ask_bands(walkd, tmp, pairs_path, "full")
    finally:
        walkd.stop()
    count = places_count * (places_count - 1)
    print(f"relevel: {count} pairs ({places_count} places) on a {tiles} demo world with 16 zones, "
          f"neutral, every band; then zone {changed + 1}'s level changed from {old_level} to "
          f"{levels[changed]}, which reprices bands {repriced}")
    print(f"  {'band':>4} {'first routed':>12} {'band 0 walk':>11} {'rerun routed':>12} "
          f"{'band 0 walk':>11} {'rerun s':>8} {'full s':>7} {'full / rerun':>12}")
    totals = [0.0, 0.0]
    for band in BANDS:
        f_sum, _ = first[band]
        r_sum, r_wall = rerun[band]
        _, full_wall = full[band]
        totals[0] += r_wall
        totals[1] += full_wall
        reused = f_sum.get("from_band_zero", {}).get(str(band), 0)
        # Pairs of the rerun that took band 0's walk among those routed (not from the store).
        r_reused = r_sum.get("from_band_zero", {}).get(str(band), 0) if r_sum["routed"] else 0
        print(f"  {band:>4} {f_sum['routed']:>12} {reused:>11} {r_sum['routed']:>12} {r_reused:>11} "
              f"{r_wall:>8.1f} {full_wall:>7.1f} {full_wall / r_wall:>11.1f}x")
    print(f"  all bands: rerun {totals[0]:.1f} s, full rerun {totals[1]:.1f} s "
          f"({totals[1] / totals[0]:.1f}x)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--places", type=int, default=60)
    parser.add_argument("--tiles", default="4x4")
    parser.add_argument("--only", choices=["layering", "relevel"])
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="walkd-relevel-bench-")
    try:
        if args.only in (None, "layering"):
            layering_figure(tmp)
        if args.only in (None, "relevel"):
            relevel_figure(tmp, args.places, args.tiles)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
