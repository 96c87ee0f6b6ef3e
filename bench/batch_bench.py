#!/usr/bin/env python3
"""Walk-store and batch figures through a real walkd (docs/benchmarks.md):

  stored   1,000,000 pairs on a small MovingAI world through `walkctl batch`: first routed, then
           again from the store (pairs/s end to end, the routed run is the baseline); then the
           stream alone (build/bench/batch_stream_bench: PairBlock columns against one message
           a pair), before and after a restart of walkd;
  rerun    all pairs among N places of the demo world, then again after adding 1 % more places:
           routed pairs (must be exactly the new ones) and wall time;
  fresh    random pairs on a large world (--fresh-world DIR, e.g. a 32 x 32 demo world):
           fresh-routing pairs/s with --search-threads 2;
  shared   every ordered pair among --shared-places random places of that world (blocks whose
           pairs share places: walked as the rows of a many-to-many), pairs/s.

Usage: bench/batch_bench.py [--pairs 1000000] [--places 100] [--fresh-world DIR] [--fresh-pairs 100]
                            [--shared-places 40]
"""
import argparse
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.abspath(os.environ.get("WALKD_BUILD_DIR", os.path.join(ROOT, "build")))


def world_alone(tmp, world_dir, name=None):
    """A worlds folder in `tmp` with a link to `world_dir`, as `name` (its own name by default),
    so that walkd serves it without the other worlds of the folder it stands in; asked again with
    another world, the same folder with that one linked too."""
    worlds = os.path.join(tmp, "worlds")
    os.makedirs(worlds, exist_ok=True)
    link = os.path.join(worlds, name or os.path.basename(world_dir.rstrip("/")))
    if not os.path.islink(link):
        os.symlink(os.path.abspath(world_dir), link)
    return worlds


def reset_peak(pid):
    """Starts a process's peak resident memory (VmHWM) afresh from what it holds now."""
    with open(f"/proc/{pid}/clear_refs", "w") as f:
        f.write("5")


def read_metrics(metrics_port, timeout=30):
    """walkd's /metrics, each metric summed over its labels, by name."""
    with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=timeout) as r:
        text = r.read().decode()
    sums = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        name = line.split("{")[0].split(" ")[0]
        sums[name] = sums.get(name, 0.0) + float(line.rsplit(" ", 1)[1])
    return sums


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Walkd:
    def __init__(self, data, worlds=None, binary=None, extra_args=(), metrics_listen=""):
        self.port = free_port()
        args = [binary or os.path.join(BUILD, "server", "walkd"), "--listen", f"127.0.0.1:{self.port}",
                "--metrics-listen", metrics_listen, "--data", data, "--search-threads", "2"]
        if worlds:
            args += ["--worlds", worlds]
        args += list(extra_args)
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addr = f"127.0.0.1:{self.port}"
        for _ in range(3600):
            if subprocess.run([walkctl(), "--addr", self.addr, "--timeout-s", "2", "health"],
                              capture_output=True).returncode == 0:
                return
            time.sleep(0.25)
        raise RuntimeError("walkd did not become SERVING")

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=60)


def walkctl():
    return os.path.join(BUILD, "client", "walkctl")


def batch(addr, pairs_path, out_path):
    started = time.time()
    proc = subprocess.run([walkctl(), "--addr", addr, "batch", pairs_path, "--out", out_path],
                          capture_output=True, text=True)
    wall = time.time() - started
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-2000:])
    with open(out_path) as f:
        last = f.readlines()[-1]
    return json.loads(last)["summary"], wall


def write_pairs(path, pairs, world, profile):
    with open(path, "w") as f:
        for i, (a, b) in enumerate(pairs):
            f.write(json.dumps({"id": i, "world": world, "from": a, "to": b, "profile": profile}) + "\n")


def stored_figure(tmp, count):
    data = os.environ.get("WALKD_SHARED_DATA", os.path.join(ROOT, "..", "shared", "data"))
    map_path = os.path.join(data, "movingai", "dao", "arena.map")
    worlds = os.path.join(tmp, "worlds")
    subprocess.run([os.path.join(BUILD, "client", "walkgrid"), "import-movingai", map_path,
                    "--out", os.path.join(worlds, "arena")], check=True, capture_output=True)
    rows = open(map_path).read().split("map\n", 1)[1].split()
    cells = [(x + 0.5, y + 0.5) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "."]
    rng = random.Random(1)
    pairs = [(list(rng.choice(cells)), list(rng.choice(cells))) for _ in range(count)]
    path = os.path.join(tmp, "pairs.jsonl")
    write_pairs(path, pairs, "arena", "shortest")
    walkd = Walkd(os.path.join(tmp, "data-stored"), worlds)
    try:
        first, first_wall = batch(walkd.addr, path, os.path.join(tmp, "a1.jsonl"))
        second, second_wall = batch(walkd.addr, path, os.path.join(tmp, "a2.jsonl"))
        # The stream alone, without walkctl's JSON: answers still in RocksDB's memtable.
        warm = stream_bench(walkd.addr, path)
    finally:
        walkd.stop()
    # Again after a restart: the answers now read from table files (the next day's rerun).
    walkd = Walkd(os.path.join(tmp, "data-stored"), worlds)
    try:
        reopened = stream_bench(walkd.addr, path)
    finally:
        walkd.stop()
    print(f"stored: {count} pairs on arena (MovingAI, 49 x 49), walkctl batch end to end")
    print(f"  first run (routed {first['routed']}, stored {first['stored']}): {first_wall:.1f} s, "
          f"{count / first_wall:,.0f} pairs/s")
    print(f"  second run (routed {second['routed']}, stored {second['stored']}): {second_wall:.1f} s, "
          f"{count / second_wall:,.0f} pairs/s; server-side {second['wall_s']:.1f} s, "
          f"{count / second['wall_s']:,.0f} pairs/s")
    print(f"  ratio second / first: {first_wall / second_wall:.1f}x")
    print("  the stream alone (build/bench/batch_stream_bench), answers in the memtable:")
    print(indent(warm))
    print("  the stream alone after a restart, answers in table files:")
    print(indent(reopened))


def stream_bench(addr, pairs_path):
    proc = subprocess.run([os.path.join(BUILD, "bench", "batch_stream_bench"), "--addr", addr,
                           "--pairs", pairs_path, "--runs", "3"], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-2000:])
    return proc.stdout


def indent(text):
    return "\n".join("    " + line for line in text.strip().splitlines())


def rerun_figure(tmp, places_count):
    rng = random.Random(2)
    places = [[round(rng.uniform(20, 1040), 1), round(rng.uniform(20, 1040), 1)]
              for _ in range(places_count + max(1, places_count // 100))]
    old, new = places[:places_count], places
    path_old, path_new = os.path.join(tmp, "old.jsonl"), os.path.join(tmp, "new.jsonl")
    write_pairs(path_old, [(a, b) for a in old for b in old if a != b], "default", "neutral")
    write_pairs(path_new, [(a, b) for a in new for b in new if a != b], "default", "neutral")
    walkd = Walkd(os.path.join(tmp, "data-rerun"))
    try:
        first, first_wall = batch(walkd.addr, path_old, os.path.join(tmp, "r1.jsonl"))
        second, second_wall = batch(walkd.addr, path_new, os.path.join(tmp, "r2.jsonl"))
    finally:
        walkd.stop()
    added = len(new) - len(old)
    expected = len(new) * (len(new) - 1) - len(old) * (len(old) - 1)
    print(f"rerun: all pairs among {len(old)} places of the demo world (neutral), then {added} more places")
    print(f"  first: {first['asked']} pairs, routed {first['routed']}, {first_wall:.1f} s")
    print(f"  rerun: {second['asked']} pairs, stored {second['stored']}, routed {second['routed']} "
          f"(new pairs: {expected}; unsnapped ends are always routed), {second_wall:.1f} s")


def big_world(tmp, world_dir, name):
    """A folder of worlds holding `world_dir` as "big", and that world's width in yards."""
    worlds = os.path.join(tmp, name)
    os.makedirs(worlds, exist_ok=True)
    os.symlink(os.path.abspath(world_dir), os.path.join(worlds, "big"))
    info = json.loads(subprocess.run([os.path.join(BUILD, "client", "walkgrid"), "info", world_dir],
                                     capture_output=True, text=True, check=True).stdout)
    return worlds, info["continents"][0]["width_columns"] * info["column_yards"]


def timed_batch(tmp, worlds, pairs, name):
    """`pairs` through a walkd on `worlds` started for them: the summary, wall and load seconds."""
    path = os.path.join(tmp, name + ".jsonl")
    write_pairs(path, pairs, "big", "neutral")
    started = time.time()
    walkd = Walkd(os.path.join(tmp, "data-" + name), worlds)
    load = time.time() - started
    try:
        summary, wall = batch(walkd.addr, path, os.path.join(tmp, name + "-answers.jsonl"))
    finally:
        walkd.stop()
    return summary, wall, load


def fresh_figure(tmp, world_dir, count):
    worlds, size = big_world(tmp, world_dir, "fresh-worlds")
    rng = random.Random(3)
    pairs = [([rng.uniform(0, size), rng.uniform(0, size)], [rng.uniform(0, size), rng.uniform(0, size)])
             for _ in range(count)]
    summary, wall, load = timed_batch(tmp, worlds, pairs, "fresh")
    print(f"fresh: {count} random pairs on {world_dir} ({size:.0f} yd across), 2 search threads; "
          f"world loaded in {load:.0f} s")
    print(f"  routed {summary['routed']} in {wall:.1f} s: {count / wall:.2f} pairs/s")


def shared_figure(tmp, world_dir, count):
    worlds, size = big_world(tmp, world_dir, "shared-worlds")
    rng = random.Random(4)
    places = [[rng.uniform(0, size), rng.uniform(0, size)] for _ in range(count)]
    pairs = [(a, b) for a in places for b in places if a is not b]
    summary, wall, _ = timed_batch(tmp, worlds, pairs, "shared")
    print(f"shared: every pair among {count} random places of {world_dir}, 2 search threads")
    print(f"  routed {summary['routed']} of {len(pairs)} in {wall:.1f} s: "
          f"{len(pairs) / wall:.0f} pairs/s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=1000000)
    parser.add_argument("--places", type=int, default=100)
    parser.add_argument("--fresh-world")
    parser.add_argument("--fresh-pairs", type=int, default=100)
    parser.add_argument("--shared-places", type=int, default=40)
    parser.add_argument("--only", choices=["stored", "rerun", "fresh", "shared"])
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="walkd-batch-bench-")
    try:
        if args.only in (None, "stored"):
            stored_figure(tmp, args.pairs)
        if args.only in (None, "rerun"):
            rerun_figure(tmp, args.places)
        if args.fresh_world and args.only in (None, "fresh"):
            fresh_figure(tmp, args.fresh_world, args.fresh_pairs)
        if args.fresh_world and args.only in (None, "shared"):
            shared_figure(tmp, args.fresh_world, args.shared_places)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
