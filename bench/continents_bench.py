#!/usr/bin/env python3
"""A world of three continents through a real walkd (docs/benchmarks.md, "Several continents"):

  Two meshes of ../shared/data/meshes and a demo continent (--demo-tiles, 32x32 by default) are
  assembled into one world (walkgrid --continent), joined by boats and a one-way portal
  (travel.json), and prepared. Then a batch of --pairs pairs over all three continents, of which
  --trip-share are trips across continents (walkctl batch, then walkctl batch --trips); then one
  mesh continent is replaced (--replace, prepared again: that continent alone) and the same pairs
  asked again: the walks routed must be exactly those on the replaced continent (trips are keyed
  by every continent's model, so all are asked again). Prints each step's wall time, walkd's load
  time and resident memory, and the counts.

Usage: bench/continents_bench.py [--pairs 200000] [--trip-share 0.05] [--demo-tiles 32x32]
                                 [--keep DIR]
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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.environ.get("WALKD_SHARED_DATA", os.path.join(ROOT, "..", "shared", "data"))
WALKGRID = os.path.join(BUILD, "client", "walkgrid")
DEMO_COLUMN_YARDS = 533.3333 / 256.0  # the demo world's (nav/demo/demo_world.h)


def walkgrid(*args):
    started = time.time()
    proc = subprocess.run([WALKGRID, *args], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"walkgrid {' '.join(args)}: {proc.stderr[-2000:]}")
    return proc.stdout, time.time() - started


def sample(world, continent, count, seed):
    out, _ = walkgrid("sample-places", world, "--continent", str(continent), "--count", str(count),
                      "--seed", str(seed))
    return [json.loads(line) for line in out.splitlines()]


def build_mesh(world, mesh, continent, replace=False):
    args = ["build-mesh", os.path.join(DATA, "meshes", mesh), "--out", world, "--continent",
            str(continent), "--column-yards", repr(DEMO_COLUMN_YARDS)]
    return walkgrid(*args, *(["--replace"] if replace else []))[1]


def write_travel(world):
    """The demo continent's own network (continent 2), and docks joining the meshes to it."""
    path = os.path.join(world, "travel.json")
    travel = json.load(open(path))
    docks = {0: sample(world, 0, 1, 901)[0], 1: sample(world, 1, 1, 902)[0]}
    on_demo = sample(world, 2, 2, 903)
    for k, place in [("dock-0", docks[0]), ("dock-1", docks[1]), ("dock-2a", on_demo[0]),
                     ("dock-2b", on_demo[1])]:
        travel["nodes"].append({"id": k, "continent": place["continent"], "x": place["x"],
                                "y": place["y"]})
    travel["edges"] += [
        {"kind": "boat", "from": "dock-0", "to": "dock-2a", "wait_seconds": 60, "ride_seconds": 90},
        {"kind": "zeppelin", "from": "dock-1", "to": "dock-2b", "wait_seconds": 120,
         "ride_seconds": 60},
        {"kind": "portal", "from": "dock-0", "to": "dock-1", "seconds": 5}]
    json.dump(travel, open(path, "w"))


def pair_line(i, a, b):
    line = {"id": i, "world": "atlas", "profile": "neutral", "from": [a["x"], a["y"]],
            "to": [b["x"], b["y"]]}
    if a["continent"] == b["continent"]:
        line["continent"] = a["continent"]
    else:
        line["from_continent"], line["to_continent"] = a["continent"], b["continent"]
    return json.dumps(line) + "\n"


def write_pairs(world, tmp, count, trip_share):
    places = {c: sample(world, c, 3000, 100 + c) for c in (0, 1, 2)}
    rng = random.Random(5)
    trips = int(count * trip_share)
    walks_path, trips_path = os.path.join(tmp, "walks.jsonl"), os.path.join(tmp, "trips.jsonl")
    per_continent = {0: 0, 1: 0, 2: 0}
    with open(walks_path, "w") as f:
        for i in range(count - trips):
            c = i % 3
            per_continent[c] += 1
            f.write(pair_line(i, rng.choice(places[c]), rng.choice(places[c])))
    with open(trips_path, "w") as f:
        for i in range(trips):
            a, b = rng.sample([0, 1, 2], 2)
            f.write(pair_line(count - trips + i, rng.choice(places[a]), rng.choice(places[b])))
    return walks_path, trips_path, per_continent


def run_batches(walkd, walks_path, trips_path, tmp, tag):
    walks, walks_wall = batch(walkd.addr, walks_path, os.path.join(tmp, f"walks-{tag}.jsonl"))
    trips_summary, trips_wall = batch_trips(walkd.addr, trips_path,
                                            os.path.join(tmp, f"trips-{tag}.jsonl"))
    return walks, walks_wall, trips_summary, trips_wall


def batch_trips(addr, path, out):
    started = time.time()
    proc = subprocess.run([os.path.join(BUILD, "client", "walkctl"), "--addr", addr, "batch", path,
                           "--trips", "--out", out], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-2000:])
    last = open(out).readlines()[-1]
    return json.loads(last)["summary"], time.time() - started


def resident_mb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def start(tmp, worlds):
    started = time.time()
    walkd = Walkd(os.path.join(tmp, "data"), worlds)
    return walkd, time.time() - started


def report(tag, walks, walks_wall, trips, trips_wall):
    print(f"  {tag}: walks {walks['asked']:,} (routed {walks['routed']:,}, straight "
          f"{walks['straight']:,}, stored {walks['stored']:,}, failed {walks['failed']:,}) in "
          f"{walks_wall:.1f} s, {walks['asked'] / walks_wall:,.0f} pairs/s; trips "
          f"{trips['asked']:,} (rode {trips.get('trips_rode', 0):,}, failed {trips['failed']:,}) "
          f"in {trips_wall:.1f} s, {trips['asked'] / trips_wall:,.0f} trips/s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=200000)
    parser.add_argument("--trip-share", type=float, default=0.05)
    parser.add_argument("--demo-tiles", default="32x32")
    parser.add_argument("--meshes", default="dungeon.obj,ParkingLot.obj")
    parser.add_argument("--replacement", default="Simple.obj")
    parser.add_argument("--keep", help="build the world in this folder and keep it")
    args = parser.parse_args()
    tmp = args.keep or tempfile.mkdtemp(prefix="walkd-continents-bench-")
    worlds = os.path.join(tmp, "worlds")
    world = os.path.join(worlds, "atlas")
    meshes = args.meshes.split(",")
    try:
        if not os.path.exists(os.path.join(world, "grid.walkgrid")):
            demo_s = walkgrid("demo", "--tiles", args.demo_tiles, "--out", world, "--continent",
                              "2")[1]
            mesh_s = [build_mesh(world, meshes[0], 0), build_mesh(world, meshes[1], 1)]
            write_travel(world)
            prepare_s = walkgrid("prepare", world, "--profiles", "neutral")[1]
            print(f"world: continents 0 {meshes[0]} ({mesh_s[0]:.1f} s), 1 {meshes[1]} "
                  f"({mesh_s[1]:.1f} s), 2 demo {args.demo_tiles} ({demo_s:.1f} s); prepared "
                  f"(neutral) in {prepare_s:.1f} s")
        walks_path, trips_path, per_continent = write_pairs(world, tmp, args.pairs,
                                                            args.trip_share)
        print(f"pairs: {args.pairs:,}: walks per continent {per_continent}, "
              f"{int(args.pairs * args.trip_share):,} trips across continents")
        walkd, load_s = start(tmp, worlds)
        try:
            print(f"  walkd ready in {load_s:.1f} s, resident {resident_mb(walkd.proc.pid):,.0f} MB")
            report("first run", *run_batches(walkd, walks_path, trips_path, tmp, "first"))
        finally:
            walkd.stop()
        replace_s = build_mesh(world, args.replacement, 1, replace=True)
        prepared, reprepare_s = walkgrid("prepare", world, "--profiles", "neutral")
        print(f"continent 1 replaced by {args.replacement} ({replace_s:.1f} s), prepared again "
              f"in {reprepare_s:.1f} s: {prepared.strip()[:160]}")
        walkd, load_s = start(tmp, worlds)
        try:
            print(f"  walkd ready in {load_s:.1f} s, resident {resident_mb(walkd.proc.pid):,.0f} MB")
            walks, walks_wall, trips, trips_wall = run_batches(walkd, walks_path, trips_path, tmp,
                                                               "second")
            report("rerun", walks, walks_wall, trips, trips_wall)
            asked_again = walks["asked"] - walks["stored"]
            print(f"  walks asked of the grid again: {asked_again:,}; walks on continent 1: "
                  f"{per_continent[1]:,} ({'exactly those' if asked_again == per_continent[1] else 'NOT those'})")
        finally:
            walkd.stop()
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
