#!/usr/bin/env python3
"""walkd under hostile load, probe by probe (docs/operations.md, "Under hostile load").

Starts walkd (--search-threads 2, a token) on a prepared 4 x 4 demo world "d4" and a 32 x 32 live
world "yard", and runs build/bench/hostile_probe's probes against it: amplifying messages
(60,000 pairs, three 100,000-pair blocks, a 600,000-start group, a 256 x 256 Floors), abandoned
searches, unary walks under 50 batch streams, UpdateBlockers without a token; then idle
connections on the metrics port, SIGTERM while searches run, hostile files for walkgrid, a full
disk under the store (needs root for a tmpfs), and sustained load: N batch streams for S seconds
with resident memory and unary p99.

Usage: bench/hostile_all.py [--streams 16] [--seconds 60] [--cache-mb 256] [--skip-sustain | --only-sustain]
"""
import argparse
import os
import re
import resource
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.abspath(os.environ.get("WALKD_BUILD_DIR", os.path.join(ROOT, "build")))
WALKD = os.path.join(BUILD, "server", "walkd")
WALKCTL = os.path.join(BUILD, "client", "walkctl")
WALKGRID = os.path.join(BUILD, "client", "walkgrid")
PROBE = os.path.join(BUILD, "bench", "hostile_probe")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Walkd:
    def __init__(self, tmp, name, args):
        self.port, self.metrics_port = free_port(), free_port()
        self.addr = f"127.0.0.1:{self.port}"
        self.log = open(os.path.join(tmp, name + ".log"), "w")
        self.proc = subprocess.Popen(
            [WALKD, "--listen", self.addr, "--metrics-listen", f"127.0.0.1:{self.metrics_port}",
             "--data", os.path.join(tmp, name + "-data")] + args,
            stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(2400):
            if subprocess.run([WALKCTL, "--addr", self.addr, "--timeout-s", "2", "health"],
                              capture_output=True).returncode == 0:
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.25)
        raise RuntimeError(f"walkd did not become SERVING: see {self.log.name}")

    def probe(self, name, *more):
        out = subprocess.run([PROBE, "--addr", self.addr, "--pid", str(self.proc.pid), name]
                             + list(more), capture_output=True, text=True)
        text = out.stdout + (out.stderr if out.returncode else "")
        print(text, end="", flush=True)
        return text

    def metric(self, name):
        with urllib.request.urlopen(f"http://127.0.0.1:{self.metrics_port}/metrics", timeout=20) as r:
            for line in r.read().decode().splitlines():
                if line.startswith(name + " ") or line.startswith(name + "{"):
                    return float(line.rsplit(" ", 1)[1])
        return None

    def stop(self, timeout=120):
        started = time.time()
        self.proc.terminate()
        self.proc.wait(timeout=timeout)
        return time.time() - started


def make_worlds(tmp):
    worlds = os.path.join(tmp, "worlds")
    subprocess.run([WALKGRID, "demo", "--tiles", "4x4", "--out", os.path.join(worlds, "d4")],
                   check=True, capture_output=True)
    subprocess.run([WALKGRID, "prepare", os.path.join(worlds, "d4")], check=True,
                   capture_output=True)
    live = os.path.join(tmp, "live", "yard")
    os.makedirs(live)
    with open(os.path.join(live, "map.map"), "w") as f:
        f.write("type octile\nheight 32\nwidth 32\nmap\n" + ("." * 32 + "\n") * 32)
    token = os.path.join(tmp, "token")
    with open(os.open(token, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
        f.write("hostile-probe-token-0123456789\n")  # walkd refuses a token others may read
    return worlds, os.path.dirname(live), token


def idle_connections(w):
    for count in (3, 12):
        idle = [socket.create_connection(("127.0.0.1", w.metrics_port)) for _ in range(count)]
        started = time.time()
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{w.metrics_port}/healthz",
                                        timeout=20) as r:
                body = r.read().decode().strip()
            print(f"metrics: /healthz with {count} idle connections open: {body!r} in "
                  f"{time.time() - started:.2f} s")
        except OSError as e:
            print(f"metrics: /healthz with {count} idle connections open: failed ({e})")
        for s in idle:
            s.close()
        time.sleep(2.5)  # the idle connections' timeouts pass


def sigterm_while_searching(tmp):
    # A 10 x 10 demo world: a forced fine-grid walk corner to corner searches for about 1.7 s.
    worlds = os.path.join(tmp, "big-worlds")
    subprocess.run([WALKGRID, "demo", "--tiles", "10x10", "--out", os.path.join(worlds, "big")],
                   check=True, capture_output=True)
    w = Walkd(tmp, "sigterm", ["--worlds", worlds, "--no-store", "--search-threads", "2",
                               "--shutdown-grace-s", "0.5"])
    hold = subprocess.Popen([PROBE, "--addr", w.addr, "--pid", str(w.proc.pid), "hold", "--world",
                             "big", "--far", "5320"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)
    took = w.stop()
    hold.wait(timeout=60)
    print(f"sigterm: --shutdown-grace-s 0.5 with two 1.7 s searches running: exited "
          f"{w.proc.returncode} after {took:.2f} s")


def hostile_files(tmp):
    def limited():
        limit = 2 << 30
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    cases = []
    huge = os.path.join(tmp, "huge.obj")
    with open(huge, "w") as f:
        f.write("v 0 0 0\nv 1e30 0 0\nv 0 0 1e30\nf 1 2 3\n")
    cases.append(("an OBJ with 1e30 coordinates", [WALKGRID, "build-mesh", huge, "--out",
                                                   os.path.join(tmp, "huge-out")]))
    wide = os.path.join(tmp, "wide.obj")
    with open(wide, "w") as f:
        f.write("v 0 0 0\nv 5e7 0 0\nv 0 0 5e7\nf 1 2 3\n")
    cases.append(("an OBJ 5e7 wide", [WALKGRID, "build-mesh", wide, "--out",
                                      os.path.join(tmp, "wide-out")]))
    header = os.path.join(tmp, "huge.map")
    with open(header, "w") as f:
        f.write("type octile\nheight 65535\nwidth 65535\nmap\n....\n")
    cases.append(("a 65535 x 65535 MovingAI header", [WALKGRID, "import-movingai", header,
                                                      "--out", os.path.join(tmp, "map-out")]))
    for what, argv in cases:
        out = subprocess.run(argv, capture_output=True, text=True, preexec_fn=limited)
        said = (out.stderr or out.stdout).strip().splitlines()
        print(f"files: {what} (2 GiB address-space limit): exit {out.returncode}: "
              f"{said[0][:140] if said else ''}")


def full_disk(tmp):
    disk = os.path.join(tmp, "smalldisk")
    os.makedirs(disk)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=160m", "tmpfs", disk],
                      capture_output=True).returncode != 0:
        print("disk: skipped (cannot mount a tmpfs here: needs root)")
        return
    try:
        w = Walkd(tmp, "disk", ["--store", os.path.join(disk, "store"), "--answer-cache-mb", "0",
                                "--search-threads", "2"])
        with open(os.path.join(disk, "filler"), "wb") as f:
            try:
                while True:
                    f.write(b"x" * (1 << 16))
            except OSError:
                pass
        failed = answered = 0
        for i in range(4000):
            r = subprocess.run([WALKCTL, "--addr", w.addr, "walk", "--world", "default", "--from",
                                f"{20 + (i * 37) % 1000},{20 + (i * 91) % 1000}", "--to",
                                f"{20 + (i * 53) % 1000},{20 + (i * 17) % 1000}"],
                               capture_output=True)
            answered += r.returncode == 0
            failed += r.returncode != 0
            if i % 50 == 49 and w.metric("walk_store_degraded") == 1:
                break
        health = subprocess.run([WALKCTL, "--addr", w.addr, "health"], capture_output=True,
                                text=True).stdout.strip()
        print(f"disk: store's disk full: {answered} walks answered, {failed} failed; "
              f"walk_store_degraded {w.metric('walk_store_degraded'):.0f}, "
              f"write errors {w.metric('walk_store_write_errors_total'):.0f}, health {health}")
        os.remove(os.path.join(disk, "filler"))
        started = time.time()
        while w.metric("walk_store_degraded") != 0 and time.time() - started < 60:
            time.sleep(0.2)
        print(f"disk: room again: walk_store_degraded {w.metric('walk_store_degraded'):.0f} "
              f"after {time.time() - started:.1f} s, no restart")
        w.stop()
    finally:
        subprocess.run(["umount", "-l", disk], capture_output=True)


def probe_all(tmp, worlds, live, token):
    w = Walkd(tmp, "walkd", ["--worlds", worlds, "--live-worlds", live, "--search-threads", "2",
                             "--auth-token-file", token])
    for probe in ("more", "blocks", "group", "floors", "deadline", "starve", "update"):
        w.probe(probe)
    idle_connections(w)
    w.stop()
    sigterm_while_searching(tmp)
    hostile_files(tmp)
    full_disk(tmp)


CACHE_GAUGES = ("walk_answer_cache_bytes", "walk_leg_cache_bytes", "walk_grid_mapped_resident_bytes",
                "walk_store_block_cache_bytes", "walk_store_memtable_bytes",
                "walk_store_table_reader_bytes")


def resident_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def sustain(tmp, worlds, live, token, args):
    """Mixed load (batches, unary walks, trips, live updates and paths) for --seconds, walkd's
    resident memory and its caches sampled every 10 s: flat once the caches are full, and what is
    resident beyond the caches (the constant of docs/operations.md's ceiling)."""
    cache = str(args.cache_mb)
    w = Walkd(tmp, "sustain", ["--worlds", worlds, "--live-worlds", live, "--search-threads", "2",
                               "--auth-token-file", token, "--leg-cache-mb", cache,
                               "--answer-cache-mb", cache, "--store-block-cache-mb", cache])
    token_text = open(token).read().strip()
    probe = subprocess.Popen([PROBE, "--addr", w.addr, "--pid", str(w.proc.pid), "sustain",
                              "--streams", str(args.streams), "--seconds", str(args.seconds),
                              "--token", token_text], stdout=subprocess.PIPE, text=True)
    samples = []  # (seconds, resident MB, caches MB)
    started = time.time()
    print(f"sustain: caches {cache} MiB each; every 10 s: resident, the caches' bytes, the rest",
          flush=True)
    while probe.poll() is None:
        time.sleep(10)
        if probe.poll() is not None:
            break
        caches = sum(w.metric(g) or 0.0 for g in CACHE_GAUGES) / 2**20
        rss = resident_mb(w.proc.pid)
        samples.append((time.time() - started, rss, caches))
        print(f"  {samples[-1][0]:5.0f} s: resident {rss:7.1f} MB, caches {caches:7.1f} MB, "
              f"rest {rss - caches:6.1f} MB", flush=True)
    print(probe.stdout.read(), end="", flush=True)
    half = [x for x in samples if x[0] >= samples[-1][0] / 2] if samples else []
    if len(half) >= 2:
        slope = lambda k: (half[-1][k] - half[0][k]) / ((half[-1][0] - half[0][0]) / 60)
        print(f"sustain: second half ({half[0][0]:.0f}-{half[-1][0]:.0f} s): resident "
              f"{half[0][1]:.1f} -> {half[-1][1]:.1f} MB ({slope(1):+.2f} MB/min), caches "
              f"{half[0][2]:.1f} -> {half[-1][2]:.1f} MB ({slope(2):+.2f} MB/min), beyond the "
              f"caches at most {max(r - c for _, r, c in samples):.1f} MB", flush=True)
    w.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=16)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--skip-sustain", action="store_true")
    parser.add_argument("--only-sustain", action="store_true")
    parser.add_argument("--cache-mb", type=int, default=256,
                        help="sustain: walkd's leg, answer and store block caches, MiB each")
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="walkd-hostile-")
    try:
        worlds, live, token = make_worlds(tmp)
        if not args.only_sustain:
            probe_all(tmp, worlds, live, token)
        if not args.skip_sustain:
            sustain(tmp, worlds, live, token, args)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
