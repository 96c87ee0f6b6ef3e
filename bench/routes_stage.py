#!/usr/bin/env python3
"""The routes stage at scale: a faction's quest walks, every danger band, through a real walkd.

A route planner asks walkd for the walks between the places of its quests: places come in
clusters (a quest hub and the spots around it), and it wants every walk inside a cluster and from
each hub to its nearest hubs, in each of the six danger bands, for one faction. This benchmark
generates such places on a world, starts walkd on it with an empty store, and streams the pairs
through `walkctl batch`, band 0 first (the danger bands take band 0's walk where it enters no zone
they price). It prints, per band: pairs, wall seconds, pairs/s, routed, taken from band 0 and
failed; then the whole stage's wall time and walkd's resident memory: its peak while loading (a
first load writes the grid's image), then its peak from ready on, through the stage. Then it adds 1 % more
places to the clusters and asks every pair again: the routed pairs (the new ones only) and the
wall time. Last, what walkd's own gauges say holds its memory (band metrics and patches, the leg
cache, the answer cache, the store's memtables and block cache, the grid's mapped pages) and how
many band metrics it customized and evicted.

Usage: bench/routes_stage.py --world /tmp/demo32 [--pairs 2000000] [--cluster 20] [--radius 150]
                             [--hubs 3] [--profile faction-a] [--seed 1] [--grow 0.01]
                             [--compare-walkd OTHER/walkd] [--walkd-arg=--flag=value ...]
                             [--trip-share 0.05] [--sample-every 2] [--keep-files]

--compare-walkd runs the whole stage first with another walkd binary (a copy of an earlier build),
on its own fresh store (trips too), and prints both runs' wall time and memory side by side.
--trip-share then asks the pairs of that share of the clusters again, every band, as trips through
the world's travel network (`walkctl batch --trips`), and prints their time, and that time scaled
to the whole stage's pairs against the walks' time.
--sample-every samples walkd's anonymous and file-backed resident memory and its gauges on a
thread, and prints each phase's (band's) largest sample; the same thread watches walkd's peak
every 20 ms and prints the phase and the anonymous and file-backed bytes of its last step.
The stage's folder (its pairs, each answer, walkd's data folder) is removed at the end unless
--keep-files.
--pairs is the stage's total over the six bands; the clusters are as many as it takes. The world
folder is what `walkgrid demo --tiles 32x32 --out DIR` and `walkgrid prepare DIR` make.
"""
import argparse
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from batch_bench import (BUILD, Walkd, free_port, read_metrics, reset_peak,  # noqa: E402
                         walkctl, world_alone)

BANDS = [0, 10, 20, 30, 40, 50]


def world_size(world_dir):
    """The world's first continent's width and height, yards."""
    info = json.loads(subprocess.run([os.path.join(BUILD, "client", "walkgrid"), "info", world_dir],
                                     capture_output=True, text=True, check=True).stdout)
    continent = info["continents"][0]
    return continent["width_columns"] * info["column_yards"], continent["height_columns"] * info["column_yards"]


def make_clusters(count, size, radius, extent, rng):
    """`count` clusters of `size` places: a hub, and the rest within `radius` yards of it."""
    width, height = extent
    clusters = []
    for _ in range(count):
        hub = [rng.uniform(radius, width - radius), rng.uniform(radius, height - radius)]
        places = [hub]
        while len(places) < size:
            places.append(near(hub, radius, rng, extent))
        clusters.append(places)
    return clusters


def near(hub, radius, rng, extent):
    width, height = extent
    angle, r = rng.uniform(0, 2 * math.pi), radius * math.sqrt(rng.random())
    return [min(max(hub[0] + r * math.cos(angle), 0.0), width - 0.01),
            min(max(hub[1] + r * math.sin(angle), 0.0), height - 0.01)]


def pairs_of(clusters, hubs):
    """Every ordered pair inside each cluster, and each hub to its `hubs` nearest hubs."""
    pairs = []
    for places in clusters:
        pairs += [(a, b) for a in places for b in places if a is not b]
    centers = [c[0] for c in clusters]
    for i, a in enumerate(centers):
        nearest = sorted((j for j in range(len(centers)) if j != i),
                         key=lambda j: (centers[j][0] - a[0]) ** 2 + (centers[j][1] - a[1]) ** 2)
        pairs += [(a, centers[j]) for j in nearest[:hubs]]
    return pairs


def write_band(path, pairs, band, profile):
    with open(path, "w") as f:
        for i, (a, b) in enumerate(pairs):
            f.write(json.dumps({"id": i, "world": "big", "from": a, "to": b, "profile": profile,
                                "band": band}) + "\n")


def run_batch(addr, pairs_path, out_path, trips=False):
    """walkctl batch (--trips with `trips`), its progress lines passed through; the summary and
    the wall seconds."""
    started = time.time()
    proc = subprocess.run([walkctl(), "--addr", addr, "batch", pairs_path, "--out", out_path,
                           "--stream-timeout-s", "86400"] + (["--trips"] if trips else []),
                          stdout=subprocess.DEVNULL, stderr=None)
    wall = time.time() - started
    if proc.returncode != 0:
        raise RuntimeError(f"walkctl batch {pairs_path} exited {proc.returncode}")
    with open(out_path, "rb") as f:
        f.seek(max(0, os.path.getsize(out_path) - 4096))
        last = f.read().decode().strip().splitlines()[-1]
    return json.loads(last)["summary"], wall


def memory_mb(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


# walkd's gauges and counters of what holds memory, summed over their labels.
MEMORY_METRICS = ["walk_band_metric_bytes", "walk_leg_cache_bytes", "walk_answer_cache_bytes",
                  "walk_store_memtable_bytes", "walk_store_block_cache_bytes",
                  "walk_store_table_reader_bytes", "walk_grid_mapped_resident_bytes",
                  "walk_search_buffer_resident_bytes",
                  "walk_band_metric_customizations_total", "walk_band_metric_joins_total",
                  "walk_band_metric_evictions_total",
                  "walk_band_metric_refusals_total", "walk_memory_band_metric_room_bytes",
                  "walk_memory_caches_yielding",
                  "walk_profile_metric_customizations_total", "walk_memory_grid_releases_total",
                  "walk_memory_heap_trims_total", "walk_memory_heap_trimmed_bytes_total",
                  "walk_snap_cache_hit_ratio"]


def memory_report(metrics_port):
    """One line of MEMORY_METRICS as walkd's /metrics gives them (bytes in MB)."""
    read = read_metrics(metrics_port)
    sums = {name: read.get(name, 0.0) for name in MEMORY_METRICS}
    def shown(name, value):
        if name.endswith("bytes") or name.endswith("bytes_total"):
            return f"{name[5:]} {value / 1e6:,.0f} MB"
        return f"{name[5:]} {value:.2f}" if name.endswith("ratio") else f"{name[5:]} {value:,.0f}"
    return ", ".join(shown(name, value) for name, value in sums.items())


class MemoryTimeline:
    """Samples walkd's anonymous and file-backed resident memory and its memory gauges every
    `every` seconds on a thread, each sample labelled with the phase the stage is in, and watches
    its peak (VmHWM) every 20 ms; `report` prints, per phase, the sample with the largest resident
    total and what the gauges said then, and what walkd held when its peak last grew."""

    WATCH = 0.02  # seconds between two looks at the peak

    def __init__(self, pid, metrics_port, every):
        self.pid, self.metrics_port, self.every = pid, metrics_port, every
        self.phase, self.samples, self.peak = "ready", [], None
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _status(self):
        with open(f"/proc/{self.pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
        return {k: int(fields[k].split()[0]) / 1024 for k in ("VmHWM", "RssAnon", "RssFile")}

    def _run(self):
        next_sample = time.time() + self.every
        while not self.stopping.wait(self.WATCH):
            try:
                now = self._status()
                if self.peak is None or now["VmHWM"] > self.peak[1]:
                    self.peak = (self.phase, now["VmHWM"], now["RssAnon"], now["RssFile"])
                if time.time() >= next_sample:
                    next_sample += self.every
                    self.samples.append((self.phase, now["RssAnon"], now["RssFile"],
                                         memory_report(self.metrics_port)))
            except (OSError, ValueError):
                return  # walkd has stopped

    def report(self):
        self.stopping.set()
        self.thread.join()
        if self.peak:
            print(f"walkd's peak, {self.peak[1]:,.0f} MB, last grew in {self.peak[0]}: "
                  f"{self.peak[2]:,.0f} MB anonymous + {self.peak[3]:,.0f} MB file-backed then")
        print(f"resident memory by phase (largest of {len(self.samples):,} samples, one every "
              f"{self.every:g} s: anonymous + file-backed, and walkd's gauges then):")
        for phase in dict.fromkeys(s[0] for s in self.samples):
            top = max((s for s in self.samples if s[0] == phase), key=lambda s: s[1] + s[2])
            print(f"  {phase}: {top[1]:,.0f} + {top[2]:,.0f} MB; {top[3]}")


def stage(walkd, tmp, name, pairs, profile, timeline=None):
    """Every band of `pairs`, band 0 first; the per-band rows and the stage's wall seconds."""
    rows, started = [], time.time()
    for band in BANDS:
        if timeline:
            timeline.phase = f"{name} band {band}"
        path = os.path.join(tmp, f"{name}-band{band}.jsonl")
        write_band(path, pairs, band, profile)
        summary, wall = run_batch(walkd.addr, path, os.path.join(tmp, f"{name}-band{band}.out"))
        reused = summary.get("from_band_zero", {}).get(str(band), 0)
        rows.append((band, len(pairs), wall, summary["routed"], summary["stored"], reused,
                     summary["failed"] + summary["refused"]))
        print(f"  {name} band {band:2d}: {len(pairs):,} pairs in {wall:.1f} s, "
              f"{len(pairs) / wall:,.0f} pairs/s; routed {summary['routed']:,}, stored "
              f"{summary['stored']:,}, from band 0 {reused:,}, failed {rows[-1][6]:,}", flush=True)
    return rows, time.time() - started


def trip_stage(walkd, tmp, clusters, hubs, share, profile, stage_pairs, stage_wall,
               timeline=None):
    """The pairs of the first `share` of the clusters (and their hubs' pairs), every band, as
    trips after the walks are stored; the trips' wall time, and scaled to the whole stage."""
    sample = clusters[:max(1, round(share * len(clusters)))]
    pairs = pairs_of(sample, hubs)
    wall, rode, asked = 0.0, 0, 0
    for band in BANDS:
        if timeline:
            timeline.phase = f"trips band {band}"
        path = os.path.join(tmp, f"trips-band{band}.jsonl")
        write_band(path, pairs, band, profile)
        summary, seconds = run_batch(walkd.addr, path, os.path.join(tmp, f"trips-band{band}.out"),
                                     trips=True)
        wall += seconds
        rode += summary.get("trips_rode", 0)
        asked += len(pairs)
        print(f"  trips band {band:2d}: {len(pairs):,} trips in {seconds:.1f} s, "
              f"{len(pairs) / seconds:,.0f} trips/s; rode {summary.get('trips_rode', 0):,}, "
              f"failed {summary['failed'] + summary['refused']:,}", flush=True)
    scaled = wall * stage_pairs / asked
    print(f"trips: {asked:,} trips ({len(sample):,} of {len(clusters):,} clusters) in {wall:.1f} s, "
          f"{asked / wall:,.0f} trips/s, {rode / asked:.1%} rode; scaled to the stage's "
          f"{stage_pairs:,} pairs: {scaled:.0f} s, {scaled / stage_wall:.2f} x the walks' "
          f"{stage_wall:.0f} s", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--world", required=True)
    parser.add_argument("--pairs", type=int, default=2000000)
    parser.add_argument("--cluster", type=int, default=20)
    parser.add_argument("--radius", type=float, default=150.0)
    parser.add_argument("--hubs", type=int, default=3)
    parser.add_argument("--profile", default="faction-a")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--grow", type=float, default=0.01)
    parser.add_argument("--compare-walkd", default="",
                        help="another walkd binary to run the same stage with first (same run)")
    parser.add_argument("--trip-share", type=float, default=0.0,
                        help="then ask this share of the clusters' pairs again as trips (0: none)")
    parser.add_argument("--walkd-arg", action="append", default=[],
                        help="a flag for every walkd the stage starts (repeat), e.g. --walkd-arg=--grid-resident-mb=0")
    parser.add_argument("--keep-files", action="store_true",
                        help="keep the stage's folder (pairs, answers, walkd's data) and print it")
    parser.add_argument("--sample-every", type=float, default=0.0,
                        help="sample walkd's resident memory and gauges this often, seconds, and "
                             "print each phase's largest (0: only the peaks)")
    args = parser.parse_args()
    extent = world_size(args.world)
    per_cluster = args.cluster * (args.cluster - 1) + args.hubs
    count = max(2, round(args.pairs / len(BANDS) / per_cluster))
    rng = random.Random(args.seed)
    clusters = make_clusters(count, args.cluster, args.radius, extent, rng)
    pairs = pairs_of(clusters, args.hubs)

    runs = []
    if args.compare_walkd:
        runs.append(("compared", run_stage(args, args.compare_walkd, extent, count, clusters, pairs)))
    runs.append(("this build", run_stage(args, None, extent, count, clusters, pairs)))
    if len(runs) > 1:
        print("\n| walkd | stage wall s | pairs/s | peak loading MB | resident at start MB | "
              "resident after MB | peak since ready MB |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for label, r in runs:
            print(f"| {label} | {r['wall']:.1f} | {r['pairs'] / r['wall']:,.0f} | "
                  f"{r['load_peak_mb']:,.0f} | {r['start_mb']:,.0f} | "
                  f"{r['after_mb']:,.0f} | {r['peak_mb']:,.0f} |")


def run_stage(args, binary, extent, count, clusters, pairs):
    """The whole stage and its rerun on a fresh store, with walkd `binary` (None: this build's)."""
    rng = random.Random(args.seed + 1)
    tmp = tempfile.mkdtemp(prefix="walkd-routes-stage-")
    worlds = world_alone(tmp, args.world, name="big")
    started = time.time()
    metrics_port = free_port()
    walkd = Walkd(os.path.join(tmp, "data"), worlds, binary, args.walkd_arg,
                  metrics_listen=f"127.0.0.1:{metrics_port}")
    load = time.time() - started
    try:
        start_mb = memory_mb(walkd.proc.pid, "VmRSS")
        load_peak_mb = memory_mb(walkd.proc.pid, "VmHWM")  # the load (a first load writes the grid image)
        reset_peak(walkd.proc.pid)  # from here the peak is the stage's
        timeline = (MemoryTimeline(walkd.proc.pid, metrics_port, args.sample_every)
                    if args.sample_every > 0 else None)
        print(f"routes stage on {args.world} ({extent[0]:.0f} x {extent[1]:.0f} "
              f"yd), {args.profile}, walkd {binary or 'of this build'}: {count:,} clusters of "
              f"{args.cluster} places (radius {args.radius:.0f} yd, {args.hubs} nearest hubs), "
              f"{len(pairs):,} pairs a band, {len(pairs) * len(BANDS):,} in all; walkd loaded in "
              f"{load:.0f} s, {start_mb:,.0f} MB resident (peak while loading {load_peak_mb:,.0f} MB)",
              flush=True)
        rows, wall = stage(walkd, tmp, "first", pairs, args.profile, timeline)
        total = sum(r[1] for r in rows)
        after_mb = memory_mb(walkd.proc.pid, "VmRSS")
        print(f"first run: {total:,} pairs in {wall:.1f} s ({wall / 60:.1f} min), "
              f"{total / wall:,.0f} pairs/s; routed {sum(r[3] for r in rows):,}, from band 0 "
              f"{sum(r[5] for r in rows):,}; walkd resident {after_mb:,.0f} "
              f"MB, peak since ready {memory_mb(walkd.proc.pid, 'VmHWM'):,.0f} MB", flush=True)

        # 1 % more places, each joining a cluster: the pairs they add, then every pair again.
        grown = [list(c) for c in clusters]
        added = max(1, round(args.grow * count * args.cluster))
        for _ in range(added):
            places = grown[rng.randrange(len(grown))]
            places.append(near(places[0], args.radius, rng, extent))
        again = pairs_of(grown, args.hubs)
        rows2, wall2 = stage(walkd, tmp, "grown", again, args.profile, timeline)
        routed2 = sum(r[3] for r in rows2)
        peak_mb = memory_mb(walkd.proc.pid, "VmHWM")
        print(f"after adding {added:,} places ({args.grow:.0%}): {len(again) - len(pairs):,} new pairs "
              f"a band, {(len(again) - len(pairs)) * len(BANDS):,} in all; routed {routed2:,} in "
              f"{wall2:.1f} s ({len(again) * len(BANDS) / wall2:,.0f} pairs/s over all "
              f"{len(again) * len(BANDS):,}); walkd peak since ready {peak_mb:,.0f} MB", flush=True)
        if args.trip_share > 0:
            trip_stage(walkd, tmp, clusters, args.hubs, args.trip_share, args.profile, total, wall,
                       timeline)
            peak_mb = memory_mb(walkd.proc.pid, "VmHWM")
            print(f"after the trips: walkd resident {memory_mb(walkd.proc.pid, 'VmRSS'):,.0f} MB, "
                  f"peak since ready {peak_mb:,.0f} MB", flush=True)
        print(f"walkd's own gauges at the end: {memory_report(metrics_port)}", flush=True)
        if timeline:
            timeline.report()
        return {"wall": wall, "pairs": total, "start_mb": start_mb, "after_mb": after_mb,
                "peak_mb": peak_mb, "load_peak_mb": load_peak_mb}
    finally:
        walkd.stop()
        if args.keep_files:
            print(f"the stage's pairs, answers and walkd's data are kept in {tmp}", flush=True)
        else:
            shutil.rmtree(tmp, ignore_errors=True)  # its data folder holds a 2 GB grid image


if __name__ == "__main__":
    main()
