#!/usr/bin/python3
"""Old binary beside new: the quick benchmarks of docs/benchmarks.md at two commits, in one run.

Builds OLD (a commit) in a git worktree under WORK (never inside the project), beside this
checkout's build, then runs every benchmark of the set at both, alternating which side goes first
round after round (old, new; new, old; ...), each side with its own tree's scripts and binaries.
A benchmark whose script or binary the old commit lacks is reported absent.

Every number a benchmark prints on stdout is a figure: a line's words (its numbers replaced by
#) name it, and its place in the line tells the columns apart; JSON lines are flattened into
key paths. For each figure the report gives the median over rounds at each side and the ratio
new / old, then each run's whole-process seconds. Ratios below 1 are faster (for times), above 1
larger (for throughputs and counts): read each with its label.

Usage: bench/compare_commits.py --old COMMIT [--rounds 3] [--only NAME,...] [--work DIR]
                                [--out REPORT.md] [--list]
WALKD_SHARED_DATA (default ../shared/data) holds the MovingAI maps and meshes; benchmarks that
need it are skipped, saying so, where it is absent.
"""
import argparse
import contextlib
import hashlib
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.abspath(os.environ.get("WALKD_SHARED_DATA", os.path.join(ROOT, "..", "shared",
                                                                          "data")))
TARGETS = ["walkd", "walkctl", "walkgrid", "abstract_bench", "store_lookup_bench",
           "wire_count_bench", "trip_search_bench", "navmesh_cache_bench", "live_bench"]


# Each benchmark: a name, a shell command run in a side's tree ({world}: that side's prepared
# 4 x 4 demo world; {navmesh}: that side's City.obj navmesh; {shared}: WALKD_SHARED_DATA), what
# it needs, and where the new side asks otherwise (`run_new`: a choice the old commit does not
# have). table_bench.py times a commit's Table (before the many-to-many matrix, walk by walk)
# and, in its own run, the walk-by-walk table beside it.
BENCHMARKS = [
    {"name": "store_lookups",
     "run": "build/bench/store_lookup_bench --answers 200000 --other 20000 --lookups 100000"},
    {"name": "wire_count", "run": "build/bench/wire_count_bench"},
    {"name": "trip_search", "run": "build/bench/trip_search_bench --trips 50 --plain-trips 2"},
    {"name": "movingai_arena", "needs": ["movingai/dao/arena.map"],
     "run": "build/client/walkgrid movingai-check {shared}/movingai/dao/arena.map "
            "{shared}/movingai/dao/arena.map.scen --baseline-every 0"},
    {"name": "movingai_AR0011SR", "needs": ["movingai/bg512/AR0011SR.map"],
     "run": "build/client/walkgrid movingai-check {shared}/movingai/bg512/AR0011SR.map "
            "{shared}/movingai/bg512/AR0011SR.map.scen --baseline-every 0"},
    # Each commit's best exact search on the map (auto: the subgoal hierarchy; a commit from
    # before it refuses the flag, which the report says).
    {"name": "movingai_AR0011SR_best", "needs": ["movingai/bg512/AR0011SR.map"],
     "run": "build/client/walkgrid movingai-check {shared}/movingai/bg512/AR0011SR.map "
            "{shared}/movingai/bg512/AR0011SR.map.scen --baseline-every 0 --search auto"},
    {"name": "abstract_4x4", "world": True,
     "run": "WALK_BENCH_QUICK=1 build/bench/abstract_bench {world} --pairs 100"},
    {"name": "navmesh_cache", "navmesh": True, "needs": ["meshes/City.obj"],
     "run": "build/bench/navmesh_cache_bench {navmesh}/mmaps --pairs 100 --budget-tiles 4,128 "
            "--repeat 2"},
    {"name": "live", "run": "build/bench/live_bench"},
    {"name": "batch_rerun", "run": "bench/batch_bench.py --only rerun"},
    {"name": "table_4x4", "world": True,
     "run": "bench/table_bench.py {world} --size 100 --tables 3 --bands 0 --baseline-size 10 "
            "--check 10"},
    {"name": "table_4x4_band20", "world": True,
     "run": "bench/table_bench.py {world} --size 40 --tables 2 --bands 20 --baseline-size 10 "
            "--check 10"},
]

NUMBER = re.compile(r"(?<![\w.])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])|(?<![\w.])-?\d+(?:\.\d+)?"
                    r"(?:[eE][-+]?\d+)?(?![\w.])")


def say(message):
    print(message, file=sys.stderr, flush=True)


def run(argv, cwd, **kwargs):
    return subprocess.run(argv, cwd=cwd, check=True, **kwargs)


def build(tree, targets):
    """Configures and builds `targets` in TREE/build, showing ninja's counter on one line."""
    build_dir = os.path.join(tree, "build")
    if not os.path.exists(os.path.join(build_dir, "build.ninja")):
        run(["cmake", "-S", tree, "-B", build_dir, "-G", "Ninja",
             "-DCMAKE_BUILD_TYPE=RelWithDebInfo"], tree, stdout=subprocess.DEVNULL)
    known = subprocess.run(["ninja", "-C", build_dir, "-t", "targets", "all"], capture_output=True,
                           text=True, check=True).stdout
    present = [t for t in targets if re.search(rf"^{re.escape(t)}:", known, re.M)]
    process = subprocess.Popen(["ninja", "-C", build_dir, "-j2"] + present, stdout=subprocess.PIPE,
                               text=True)
    for line in process.stdout:
        if line.startswith("["):
            print(f"\r  {os.path.basename(tree)}: {line.split(']')[0]}]", end="", file=sys.stderr,
                  flush=True)
    if process.wait() != 0:
        raise SystemExit(f"compare_commits: building {tree} failed")
    print(file=sys.stderr)
    return present


def old_tree(work, commit):
    sha = subprocess.run(["git", "rev-parse", "--verify", commit + "^{commit}"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.strip()
    tree = os.path.join(work, "old-" + sha[:12])
    if not os.path.exists(tree):
        run(["git", "worktree", "add", "--detach", tree, sha], ROOT, stdout=subprocess.DEVNULL)
    return tree, sha


@contextlib.contextmanager
def staged(final):
    """A folder made under a temporary name and renamed to `final` once whole: an interrupted
    run leaves nothing a later one would take for made."""
    partial = final + ".partial"
    shutil.rmtree(partial, ignore_errors=True)
    os.makedirs(os.path.dirname(final), exist_ok=True)
    yield partial
    os.rename(partial, final)


def prepare_inputs(side, tree, work, wanted):
    """The side's own inputs, made by its own walkgrid (the formats may differ between commits),
    kept under that walkgrid's hash: a later run reuses them only with the same walkgrid."""
    inputs = {"shared": SHARED}
    walkgrid = os.path.join(tree, "build", "client", "walkgrid")
    with open(walkgrid, "rb") as f:
        made_by = hashlib.sha256(f.read()).hexdigest()[:16]
    folder = os.path.join(work, "inputs-" + made_by)
    if "world" in wanted:
        world = os.path.join(folder, "demo4")
        if not os.path.exists(world):
            say(f"  {side}: the 4 x 4 demo world, generated and prepared (a minute)")
            with staged(world) as partial:
                run([walkgrid, "demo", "--tiles", "4x4", "--out", partial], tree,
                    stdout=subprocess.DEVNULL)
                run([walkgrid, "prepare", partial, "--profiles", "neutral"], tree,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        inputs["world"] = world
    if "navmesh" in wanted:
        navmesh = os.path.join(folder, "city")
        if not os.path.exists(navmesh):
            with staged(navmesh) as partial:
                run([walkgrid, "build-navmesh", os.path.join(SHARED, "meshes", "City.obj"),
                     "--out", partial, "--format", "mmaps", "--tile-cells", "32"], tree,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        inputs["navmesh"] = navmesh
    return inputs


def figures(stdout):
    """{(label, column): value} for every number on every line (JSON lines by key path)."""
    found = {}

    def flatten(value, path):
        if isinstance(value, dict):
            for key, inner in value.items():
                flatten(inner, f"{path}.{key}" if path else key)
        elif isinstance(value, list):
            for i, inner in enumerate(value):
                flatten(inner, f"{path}[{i}]")
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            found[(path, 0)] = float(value)

    for line in stdout.splitlines():
        text = line.strip()
        if text.startswith("{"):
            try:
                flatten(json.loads(text), "")
                continue
            except ValueError:
                pass
        numbers = NUMBER.findall(text)
        if not numbers or len(numbers) > 12:
            continue
        # The line's words with its numbers as #, the run of bare numbers that ends a table's row
        # dropped: the column tells those apart.
        label = re.sub(r"\s+", " ", NUMBER.sub("#", text))
        label = re.sub(r"(?:\s+#\S{0,3})+$", "", label) or "#"
        for column, number in enumerate(numbers):
            found.setdefault((label, column), float(number.replace(",", "")))
    return found


def side_command(bench, side, trees, inputs):
    """The command line at one side, or None where that side cannot run it."""
    tree = trees[side]
    command = bench.get("run_" + side, bench["run"]).format(**inputs[side])
    path = next(word for word in command.split() if "/" in word and "=" not in word)
    if not os.path.exists(os.path.join(tree, path)):
        return None
    return f"WALKD_BUILD_DIR={shlex.quote(os.path.join(tree, 'build'))} {command}"


def measure(bench, trees, inputs, rounds, log):
    """Runs of each side, alternating; returns {side: [(seconds, figures)]} or the reason not."""
    commands = {side: side_command(bench, side, trees, inputs) for side in trees}
    if commands["new"] is None:
        return "not in this checkout"
    if commands["old"] is None:
        return "absent at the old commit"
    results = {"old": [], "new": []}
    for r in range(rounds):
        for side in (("old", "new") if r % 2 == 0 else ("new", "old")):
            say(f"  {bench['name']}: round {r + 1} of {rounds}, {side}")
            started = time.perf_counter()
            done = subprocess.run(commands[side], shell=True, cwd=trees[side], capture_output=True,
                                  text=True)
            seconds = time.perf_counter() - started
            log.write(f"### {bench['name']} {side} round {r + 1}: {commands[side]}\n"
                      f"{done.stdout}\n{done.stderr[-4000:]}\n")
            if done.returncode != 0:
                return f"{side} exited {done.returncode} (see the log)"
            results[side].append((seconds, figures(done.stdout)))
    return results


def ratio(old, new):
    if old == 0:
        return "—" if new == 0 else "new only"
    return f"{new / old:.2f}"


def report(name, results, out):
    if isinstance(results, str):
        out.write(f"\n### {name}\n\nnot compared: {results}\n")
        return
    out.write(f"\n### {name}\n\n| figure | column | old (median) | new (median) | new / old |\n"
              "|---|---:|---:|---:|---:|\n")
    old_seconds = statistics.median(s for s, _ in results["old"])
    new_seconds = statistics.median(s for s, _ in results["new"])
    out.write(f"| whole run, s | | {old_seconds:.2f} | {new_seconds:.2f} | "
              f"{ratio(old_seconds, new_seconds)} |\n")
    keys = [k for k in results["new"][0][1] if all(k in f for _, f in results["old"])]
    for key in keys:
        if not all(key in f for _, f in results["new"]):
            continue
        old = statistics.median(f[key] for _, f in results["old"])
        new = statistics.median(f[key] for _, f in results["new"])
        if old == new:
            continue  # settings and counts the two sides share say nothing of either
        label = key[0].replace("|", "\\|")[:90]
        out.write(f"| {label} | {key[1]} | {old:g} | {new:g} | {ratio(old, new)} |\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", help="the commit to compare this checkout with")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default="", help="benchmarks by name, comma separated")
    parser.add_argument("--work", default="/tmp/walkd-compare")
    parser.add_argument("--out", default="", help="the report (markdown); stdout by default")
    parser.add_argument("--list", action="store_true", help="list the benchmarks and stop")
    args = parser.parse_args()
    chosen = [b for b in BENCHMARKS if not args.only or b["name"] in args.only.split(",")]
    if args.list:
        for bench in BENCHMARKS:
            print(f"{bench['name']}: {bench['run']}")
        return 0
    if not args.old:
        parser.error("--old: the commit to compare with is required")
    if args.rounds < 1:
        parser.error("--rounds: at least 1")
    unknown = set(filter(None, args.only.split(","))) - {b["name"] for b in BENCHMARKS}
    if unknown:
        parser.error(f"--only: unknown benchmarks {sorted(unknown)} (--list names them)")
    os.makedirs(args.work, exist_ok=True)
    tree, sha = old_tree(args.work, args.old)
    trees = {"old": tree, "new": ROOT}
    for side in ("old", "new"):
        say(f"building {side} ({trees[side]})")
        build(trees[side], TARGETS)
    wanted = {k for b in chosen for k in ("world", "navmesh") if b.get(k)}
    if not os.path.isdir(SHARED):
        wanted.discard("navmesh")
    inputs = {side: prepare_inputs(side, trees[side], args.work, wanted) for side in trees}
    head = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT,
                          capture_output=True, text=True).stdout.strip()
    out = open(args.out, "w") if args.out else sys.stdout
    out.write(f"# Old {sha[:10]} beside new {head}, {args.rounds} rounds, alternating\n")
    log_path = os.path.join(args.work, time.strftime("runs-%Y%m%d-%H%M%S.log"))
    with open(log_path, "w") as log:
        for bench in chosen:
            missing = [n for n in bench.get("needs", []) if not os.path.exists(
                os.path.join(SHARED, n))]
            if missing:
                report(bench["name"], f"skipped: {', '.join(missing)} not in {SHARED}", out)
                continue
            report(bench["name"], measure(bench, trees, inputs, args.rounds, log), out)
            out.flush()
    say(f"each run's output: {log_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
