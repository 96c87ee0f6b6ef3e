#!/usr/bin/env python3
"""Trips through a real walkd on a travel network at the travel file's limits.

Builds a demo world (--tiles, 4x4 by default) and prepares its graph, then writes a travel.json
beside it with --nodes nodes (10,000, the limit) at random places on its extent, a fifth of each
faction, and --edges edges (200,000, the limit) between random nodes: flights at 15 to 40 yd/s,
boats and trams at 8 to 15 yd/s after a wait, a few one-way portals, both ways otherwise; and a
hearthstone per faction. Starts walkd on it (an empty store) and runs build/bench/trip_bench with
--cold-only 1 for short trips (ends 5 to 50 yards apart) and long ones (300 to 3,000 yards):
the baseline cold walks, then cold trips, each pass's median, p90 and mean milliseconds.
--baseline-walkd PATH runs the same with another walkd binary (an older build), with
--baseline-trips trips a pass (its trips may take minutes each).

Usage: bench/trip_limits_bench.py [--tiles 4x4] [--trips 100] [--baseline-walkd PATH]
                                  [--baseline-trips 5]
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from batch_bench import BUILD, Walkd  # noqa: E402


def walkgrid(*args):
    subprocess.run([os.path.join(BUILD, "client", "walkgrid"), *args], check=True,
                   capture_output=True)


def travel(world, nodes, edges, seed):
    info = json.loads(subprocess.run([os.path.join(BUILD, "client", "walkgrid"), "info", world],
                                     check=True, capture_output=True, text=True).stdout)
    c = info["continents"][0]
    rng = random.Random(seed)
    factions = ["neutral", "neutral", "neutral", "faction-a", "faction-b"]
    places = [(rng.uniform(c["min_x_yards"], c["max_x_yards"]),
               rng.uniform(c["min_y_yards"], c["max_y_yards"])) for _ in range(nodes)]
    out = {"nodes": [{"id": f"n{i}", "x": x, "y": y, "faction": rng.choice(factions)}
                     for i, (x, y) in enumerate(places)],
           "edges": [], "hearthstones": []}
    for _ in range(edges):
        a, b = rng.sample(range(nodes), 2)
        yards = ((places[a][0] - places[b][0]) ** 2 + (places[a][1] - places[b][1]) ** 2) ** 0.5
        kind = rng.random()
        if kind < 0.05:
            edge = {"kind": "portal", "seconds": 3}
        elif kind < 0.75:
            edge = {"kind": "flight", "seconds": round(yards / rng.uniform(15, 40), 3)}
        else:
            edge = {"kind": "boat" if kind < 0.9 else "tram", "wait_seconds": rng.uniform(10, 60),
                    "ride_seconds": round(yards / rng.uniform(8, 15), 3)}
        edge.update({"from": f"n{a}", "to": f"n{b}"})
        out["edges"].append(edge)
    for profile in ("faction-a", "faction-b", "neutral"):
        bind = next(n["id"] for n in out["nodes"] if n["faction"] in ("neutral", profile))
        out["hearthstones"].append({"profile": profile, "bind": bind})
    with open(os.path.join(world, "travel.json"), "w") as f:
        json.dump(out, f)


def passes(walkd_binary, worlds, tmp, name, trips, seed):
    walkd = Walkd(os.path.join(tmp, "data-" + str(abs(hash(walkd_binary)))), worlds=worlds,
                  binary=walkd_binary)
    try:
        for label, low, high in (("short", 5, 50), ("long", 300, 3000)):
            print(f"-- {label} trips, ends {low}-{high} yards apart", flush=True)
            subprocess.run([os.path.join(BUILD, "bench", "trip_bench"), "--addr", walkd.addr,
                            "--world", name, "--trips", str(trips), "--seed", str(seed),
                            "--min-yards", str(low), "--max-yards", str(high), "--cold-only", "1"],
                           check=True)
    finally:
        walkd.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiles", default="4x4")
    parser.add_argument("--nodes", type=int, default=10000)
    parser.add_argument("--edges", type=int, default=200000)
    parser.add_argument("--trips", type=int, default=100)
    parser.add_argument("--baseline-walkd")
    parser.add_argument("--baseline-trips", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="trip-limits-") as tmp:
        worlds = os.path.join(tmp, "worlds")
        world = os.path.join(worlds, "limits")
        os.makedirs(worlds)
        walkgrid("demo", "--tiles", args.tiles, "--out", world)
        walkgrid("prepare", world)
        travel(world, args.nodes, args.edges, args.seed)
        print(f"demo {args.tiles}, travel.json: {args.nodes:,} nodes, {args.edges:,} edges")
        print("== this build")
        passes(os.path.join(BUILD, "server", "walkd"), worlds, tmp, "limits", args.trips, args.seed)
        if args.baseline_walkd:
            print("== baseline build")
            passes(os.path.abspath(args.baseline_walkd), worlds, tmp, "limits",
                   args.baseline_trips, args.seed)


if __name__ == "__main__":
    main()
