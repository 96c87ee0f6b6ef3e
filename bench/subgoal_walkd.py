#!/usr/bin/env python3
"""Exact walks through real walkds on a MovingAI map: the subgoal hierarchy walkd builds when the
world loads beside jump points (`--subgoal-hierarchies=false`), pair by pair, in one run.

The map is imported with `walkgrid import-movingai` into a temporary world folder and served by
two walkds, one with the hierarchies and one without, each with its own empty store; both are
asked every pair once under search auto (so neither reads a stored answer, and both store
theirs), alternating which goes first, timed at the client through the Python client (the round
trip included). Pairs are the map's scenarios, a random sample. Every pair's seconds must
agree. Prints the methods that answered, then medians and means of both sides and their ratio.

Usage: bench/subgoal_walkd.py [--map ../shared/data/movingai/mazes/maze512-1-0.map] [--pairs 400]
"""
import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from batch_bench import BUILD, ROOT, Walkd  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "client", "python"))
from walkd_client import WalkdClient  # noqa: E402

SHARED = os.path.abspath(os.environ.get("WALKD_SHARED_DATA", os.path.join(ROOT, "..", "shared",
                                                                          "data")))


def scenarios(path):
    """(start, goal) cell centres of a .scen file's scenarios."""
    pairs = []
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) < 9 or fields[0] == "version":
                continue
            sx, sy, gx, gy = (int(v) for v in fields[4:8])
            pairs.append(((sx + 0.5, sy + 0.5), (gx + 0.5, gy + 0.5)))
    return pairs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--map", default=os.path.join(SHARED, "movingai", "mazes", "maze512-1-0.map"))
    parser.add_argument("--pairs", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not os.path.exists(args.map) or not os.path.exists(args.map + ".scen"):
        print(f"subgoal_walkd: {args.map} or its .scen is absent; skipped")
        return
    pairs = scenarios(args.map + ".scen")
    random.Random(args.seed).shuffle(pairs)
    pairs = pairs[:args.pairs]
    with tempfile.TemporaryDirectory(prefix="walkd-subgoal-") as tmp:
        worlds = os.path.join(tmp, "worlds")
        subprocess.run([os.path.join(BUILD, "client", "walkgrid"), "import-movingai", args.map,
                        "--out", os.path.join(worlds, "map")], check=True, capture_output=True)
        walkds = {"hierarchy": Walkd(os.path.join(tmp, "data-hierarchy"), worlds),
                  "jump points": Walkd(os.path.join(tmp, "data-jump"), worlds,
                                       extra_args=["--subgoal-hierarchies=false"])}
        clients = {}
        try:
            for side, walkd in walkds.items():
                clients[side] = WalkdClient(walkd.addr, timeout_s=60)
                clients[side].info()  # the channel up before the first timed walk
            pb = clients["hierarchy"].pb
            times = {side: [] for side in walkds}
            methods = {}
            for i, (a, b) in enumerate(pairs):
                got = {}
                order = list(walkds) if i % 2 == 0 else list(reversed(list(walkds)))
                for side in order:
                    started = time.perf_counter()
                    w = clients[side].walk("map", a, b)
                    times[side].append((time.perf_counter() - started) * 1e6)
                    got[side] = w.seconds
                    name = pb.Method.Name(w.method)
                    methods[(side, name)] = methods.get((side, name), 0) + 1
                if abs(got["hierarchy"] - got["jump points"]) > 1e-9 * max(1.0, got["jump points"]):
                    raise SystemExit(f"pair {i}: {got}")
        finally:
            for client in clients.values():
                client.close()
            for walkd in walkds.values():
                walkd.stop()
    print(f"map {os.path.basename(args.map)}: {len(pairs)} scenario pairs, each asked of both "
          f"walkds under search auto, alternating; every pair's seconds agree")
    for (side, name), count in sorted(methods.items()):
        print(f"  {side}: {count} walks by {name}")
    med = {s: statistics.median(t) for s, t in times.items()}
    mean = {s: statistics.mean(t) for s, t in times.items()}
    h, j = "hierarchy", "jump points"
    print(f"round trip, hierarchy / jump points: medians {med[h]:,.0f} / {med[j]:,.0f} us "
          f"({med[h] / med[j]:.3f}x), means {mean[h]:,.0f} / {mean[j]:,.0f} us "
          f"({mean[h] / mean[j]:.3f}x)")


if __name__ == "__main__":
    main()
