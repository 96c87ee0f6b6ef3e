#!/usr/bin/env python3
"""Worlds reloaded without a restart (docs/benchmarks.md, "Reloading a world"): one walkd serves
a copy of WORLD_DIR; each round asks random walks on it (routed: the CCH's queries and the
navmesh walkers are leased from the world), replaces its grid file by a copy (a new inode: the
world's files changed) and asks `walkctl admin reload`. Prints, per round, the reload's time as
walkd measured it (reading, setting up, swapping in), the call's wall time, and walkd's resident
memory (VmRSS) before the reload, at its peak while the reload ran (the two worlds side by
side), right after the reply (the old world freed) and a second later. The baseline, measured in the same run:
walkd's resident memory once the world first loaded, so the rounds show whether each reload
gives the old world's memory back (without that, each round would add a world).

Usage: bench/reload_bench.py WORLD_DIR [--rounds 5] [--walks 200]
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from batch_bench import Walkd, walkctl  # noqa: E402


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def extent(addr, world):
    info = json.loads(subprocess.run([walkctl(), "--addr", addr, "info", "--json"],
                                     capture_output=True, text=True, check=True).stdout)
    for w in info["worlds"]:
        if w["name"] == world:
            c = w["continents"][0]
            return c["min_x_yards"], c["min_y_yards"], c["max_x_yards"], c["max_y_yards"]
    raise RuntimeError(f"no world {world}")


def ask_walks(addr, world, box, count, seed, tmp):
    rand = random.Random(seed)
    x0, y0, x1, y1 = box
    pairs = os.path.join(tmp, "pairs.jsonl")
    with open(pairs, "w") as f:
        for i in range(count):
            a = [rand.uniform(x0, x1), rand.uniform(y0, y1)]
            b = [rand.uniform(x0, x1), rand.uniform(y0, y1)]
            f.write(json.dumps({"id": i, "world": world, "from": a, "to": b}) + "\n")
    out = os.path.join(tmp, f"answers-{seed}.jsonl")
    subprocess.run([walkctl(), "--addr", addr, "batch", pairs, "--out", out], check=True,
                   capture_output=True)


def reload_round(walkd, world_dir, world):
    grid = os.path.join(world_dir, "grid.walkgrid")
    shutil.copyfile(grid, grid + ".copy")
    os.replace(grid + ".copy", grid)  # same bytes, a new inode: the folder changed
    before = rss_mb(walkd.proc.pid)
    peak = [before]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], rss_mb(walkd.proc.pid))
            time.sleep(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()
    started = time.time()
    reply = subprocess.run([walkctl(), "--addr", walkd.addr, "admin", "reload", world, "--json"],
                           capture_output=True, text=True)
    wall = time.time() - started
    done.set()
    sampler.join()
    after = rss_mb(walkd.proc.pid)
    time.sleep(1.0)
    settled = rss_mb(walkd.proc.pid)
    if reply.returncode != 0:
        raise RuntimeError(reply.stdout + reply.stderr)
    result = json.loads(reply.stdout.splitlines()[0])["worlds"][0]
    if result["result"] != "RELOAD_RESULT_RELOADED":
        raise RuntimeError(str(result))
    return result, wall, before, max(peak[0], after), after, settled


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("world_dir")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--walks", type=int, default=200)
    args = parser.parse_args()
    world = "bench"
    with tempfile.TemporaryDirectory(prefix="reload-bench-") as tmp:
        worlds = os.path.join(tmp, "worlds")
        os.makedirs(os.path.join(worlds, world))
        for name in os.listdir(args.world_dir):  # hard links: no copy of the big files
            src = os.path.join(args.world_dir, name)
            dst = os.path.join(worlds, world, name)
            if os.path.isdir(src):
                shutil.copytree(src, dst, copy_function=os.link)
            else:
                os.link(src, dst)
        walkd = Walkd(os.path.join(tmp, "data"), worlds)
        loaded = rss_mb(walkd.proc.pid)
        box = extent(walkd.addr, world)
        print(f"walkd with {world} loaded: {loaded:.0f} MB resident")
        print("round  reload s  wall s  RSS before MB  peak MB  after MB  1 s later  generation")
        for r in range(1, args.rounds + 1):
            ask_walks(walkd.addr, world, box, args.walks, r, tmp)
            result, wall, before, peak, after, settled = reload_round(walkd, os.path.join(worlds, world),
                                                             world)
            print(f"{r:5d}  {result['seconds']:8.2f}  {wall:6.2f}  {before:13.0f}  {peak:7.0f}  "
                  f"{after:8.0f}  {settled:9.0f}  {result['generation']}", flush=True)
        ask_walks(walkd.addr, world, box, args.walks, 0, tmp)
        print(f"after {args.rounds} reloads and walks: {rss_mb(walkd.proc.pid):.0f} MB resident")
        walkd.stop()


if __name__ == "__main__":
    main()
