#!/usr/bin/env python3
"""Trip queries on a world with a travel network, through a real walkd with an empty store.

Starts walkd on the world, then runs build/bench/trip_bench once per band: a cold walk between
random ends (the baseline, in the same run), trips cold (empty store and node-walk cache), trips
between new ends once the node walks are cached, and the cold trips again (all stored). Prints
each pass's median and p90 milliseconds, walks priced and stored per trip, and the share that
rode. With --compare-walkd PATH, that walkd (an older build) runs every pass first, on its own
empty store, then this build's: old beside new in one run.

Usage: bench/trip_bench.py --world /tmp/demo32 [--trips 200] [--bands 0,20] [--profile faction-a]
                           [--compare-walkd PATH] [--slowest N]
--slowest N names each band's N slowest cold trips (their ends and milliseconds), to ask again
with `walkctl trip`.
The world folder is what `walkgrid demo --tiles 32x32 --out DIR` and `walkgrid prepare DIR` make
(with its travel.json).
"""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from batch_bench import BUILD, Walkd, world_alone  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--world", required=True)
    parser.add_argument("--trips", type=int, default=200)
    parser.add_argument("--bands", default="0,20")
    parser.add_argument("--profile", default="faction-a")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--compare-walkd", help="another walkd binary, run first as the baseline")
    parser.add_argument("--slowest", type=int, default=0,
                        help="name each band's N slowest cold trips")
    args = parser.parse_args()
    world = os.path.abspath(args.world.rstrip("/"))
    name = os.path.basename(world)
    binaries = [("this build", None)]
    if args.compare_walkd:
        binaries.insert(0, (args.compare_walkd, os.path.abspath(args.compare_walkd)))
    with tempfile.TemporaryDirectory(prefix="trip-bench-") as tmp:
        worlds = world_alone(tmp, world)
        for k, (label, binary) in enumerate(binaries):
            if len(binaries) > 1:
                print(f"== walkd: {label}", flush=True)
            walkd = Walkd(os.path.join(tmp, f"data-{k}"), worlds=worlds, binary=binary)
            try:
                for band in args.bands.split(","):
                    subprocess.run([os.path.join(BUILD, "bench", "trip_bench"), "--addr",
                                    walkd.addr, "--world", name, "--profile", args.profile,
                                    "--band", band, "--trips", str(args.trips), "--seed",
                                    str(args.seed), "--slowest", str(args.slowest)], check=True)
                    print(flush=True)
            finally:
                walkd.stop()


if __name__ == "__main__":
    main()
