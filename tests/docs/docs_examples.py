#!/usr/bin/python3
"""Runs every example of README.md and docs/*.md that runs walkctl or walkgrid, as written.

Each ```sh block that runs walkctl or walkgrid is run command by command, in its page's order, in
a folder laid out like the repository's root (build/, bench/, scripts/, ... and ../shared/data),
against a real walkd on the default world listening where the docs say it does (127.0.0.1:50051,
metrics on 127.0.0.1:9464): the whole run happens in a network namespace of its own, so those
ports are free and nothing outside is reached. Every command must exit 0, and print what the block
shows for it:

  - a block in prompt style (`$ COMMAND` lines) shows each command's output on the lines after it;
  - otherwise `#> TEXT` lines after a command show its output.

A command whose comment says `exits N` must exit N. Shown output matches when it appears in the command's output with all white space removed (so a
wrapped JSON line or an aligned table compares by its text), `...` standing for anything.

An HTML comment on the line before a block says how to run it (docs/architecture.md):

  <!-- docs-examples: skip: WHY -->          cannot run in a test (Docker, Kubernetes, ...)
  <!-- docs-examples: slow: WHY -->          a benchmark: run only with --all
  <!-- docs-examples: walkd-stopped -->      walkd on the default world must be stopped first
  <!-- docs-examples: fixture NAME -->       tests/docs/fixtures/NAME/ is copied in first

A block that starts walkd itself (`walkd ... &`, `scripts/run`) stops the default walkd first;
what it started is stopped at its end. A foreground `scripts/run` or `walkd` is started in the
background and waited for until it serves.

usage: docs_examples.py REPO BUILD_DIR [--all] [--only PAGE]... [--list]
Exit status: 0 every block ran as written, 1 one did not, 77 no network namespace (skipped).
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

MARK = re.compile(r"<!--\s*docs-examples:\s*(skip|slow|walkd-stopped|fixture)\b:?\s*(.*?)\s*-->")
FENCE = re.compile(r"^```(\w*)\s*$")
PATIENCE = int(os.environ.get("WALK_TEST_PATIENCE", "1"))
ADDRESS = "127.0.0.1:50051"


class Block:
    def __init__(self, page, line, text, mark, argument):
        self.page, self.line, self.text = page, line, text
        self.mark, self.argument = mark, argument

    def where(self):
        return f"{self.page}:{self.line}"


def blocks_of(repo, page):
    """The sh blocks of `page` that run walkctl or walkgrid, with the mark before each."""
    lines = open(os.path.join(repo, page), encoding="utf-8").read().split("\n")
    found, k = [], 0
    while k < len(lines):
        fence = FENCE.match(lines[k])
        if not fence:
            k += 1
            continue
        start, k = k, k + 1
        body = []
        while k < len(lines) and not lines[k].startswith("```"):
            body.append(lines[k])
            k += 1
        k += 1
        if fence.group(1) not in ("sh", "bash", "shell"):
            continue
        text = "\n".join(body)
        if not any(runs_tool(c) for c, _ in commands_of(text)):
            continue
        before = start - 1
        while before >= 0 and not lines[before].strip():
            before -= 1
        mark = MARK.search(lines[before]) if before >= 0 else None
        found.append(Block(page, start + 1, text, mark.group(1) if mark else None,
                           mark.group(2) if mark else ""))
    return found


def words_of(command):
    """The words of `command` from its program on: without variable assignments, a `time` in
    front, or a comment."""
    words = command.replace("\\\n", " ").split()
    if "#" in words:
        words = words[:words.index("#")]
    while words and (re.match(r"^\w+=", words[0]) or words[0] in ("time", "/usr/bin/time")):
        words = words[1:]
        while words and words[0].startswith("-"):
            words = words[1:]
    return words


def runs_tool(command):
    """True when `command` runs walkctl or walkgrid (itself, under time, or in a container); not
    when it only passes their path to another program."""
    words = words_of(command)
    tool = lambda w: re.search(r"(^|/)walk(ctl|grid)$", w) is not None
    return bool(words) and (tool(words[0]) or (words[0] == "docker" and any(map(tool, words))))


def starts_walkd(command):
    """True when `command` starts walkd (itself, or scripts/run)."""
    words = words_of(command)
    return bool(words) and re.search(r"(^|/)(walkd|scripts/run)$", words[0]) is not None


def commands_of(text):
    """(command, shown output lines) pairs of a block, in order."""
    lines = text.split("\n")
    prompt = any(line.startswith("$ ") for line in lines)
    result, k = [], 0
    while k < len(lines):
        line = lines[k]
        if prompt and not line.startswith("$ "):
            if result:
                result[-1][1].append(line)
            k += 1
            continue
        if prompt:
            line = line[2:]
        stripped = line.strip()
        if not prompt and (not stripped or stripped.startswith("#")):
            if stripped.startswith("#> ") and result:
                result[-1][1].append(stripped[3:])
            k += 1
            continue
        command = [line]
        k += 1
        while command[-1].rstrip().endswith("\\") and k < len(lines):
            command.append(lines[k])
            k += 1
        heredoc = re.search(r"<<-?\s*'?(\w+)'?", command[0])
        if heredoc:
            while k < len(lines):
                command.append(lines[k])
                k += 1
                if command[-1].strip() == heredoc.group(1):
                    break
        result.append(("\n".join(command), []))
    return result


def shown_matches(shown, output):
    """True when the shown lines appear in `output`, white space aside, `...` for anything."""
    text = "".join(line for line in shown if line.strip())
    if not text:
        return True
    squeeze = lambda s: re.sub(r"\s+", "", s)
    pattern = ".*?".join(re.escape(part) for part in squeeze(text).split("..."))
    return re.search(pattern, squeeze(output), re.S) is not None


class Walkd:
    """walkd on the default world, as scripts/run starts it in FOLDER (its files in
    FOLDER/.walkd-data)."""

    def __init__(self, build, folder):
        self.build, self.home, self.process, self.page = build, folder, None, None

    def start(self):
        log = open(os.path.join(self.home, "walkd.log"), "a")
        self.process = subprocess.Popen(
            [os.path.join(self.build, "server", "walkd"), "--data", ".walkd-data"],
            cwd=self.home, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        if not wait_serving(self.build, 600):
            raise SystemExit(f"docs_examples: walkd did not serve; its log:\n{self.log()}")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(60 * PATIENCE)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def log(self):
        return open(os.path.join(self.home, "walkd.log")).read()[-3000:]


def wait_serving(build, seconds):
    walkctl = os.path.join(build, "client", "walkctl")
    give_up = time.time() + seconds * PATIENCE
    while time.time() < give_up:
        if subprocess.run([walkctl, "--addr", ADDRESS, "--timeout-s", "2", "health"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
            return True
        time.sleep(0.2)
    return False


def sandbox(repo, build, root, page, shared):
    """A folder laid out like the repository's root (with ../shared/data beside it), for one
    page's blocks."""
    parent = os.path.join(root, re.sub(r"[^\w]", "_", page))
    folder = os.path.join(parent, "main")
    os.makedirs(folder)
    os.makedirs(os.path.join(parent, "shared"))
    if os.path.isdir(shared):
        os.symlink(os.path.abspath(shared), os.path.join(parent, "shared", "data"))
    for name in os.listdir(repo):  # the sources, not what builds or runs leave there
        if not (name.startswith("build") or name in (".git", "worlds", "walkd-data", ".walkd-data")):
            os.symlink(os.path.join(repo, name), os.path.join(folder, name))
    os.symlink(build, os.path.join(folder, "build"))
    # A store of its own; the default world generated once, for every page.
    os.makedirs(os.path.join(folder, ".walkd-data"))
    os.symlink(os.path.join(root, "default-world"),
               os.path.join(folder, ".walkd-data", "default-world"))
    return folder


def kill_session(pids):
    for pid in pids:
        try:
            os.killpg(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass


def run_block(block, folder, env, repo, build, walkd):
    """Runs one block; the failures (empty: it ran as written)."""
    failures, started = [], []
    commands = commands_of(block.text)
    serves = any(starts_walkd(c) for c, _ in commands)
    if serves or block.mark == "walkd-stopped":
        walkd.stop()
    if block.mark == "fixture":
        fixture = os.path.join(repo, "tests", "docs", "fixtures", block.argument)
        shutil.copytree(fixture, folder, dirs_exist_ok=True, symlinks=True)
    try:
        for command, shown in commands:
            foreground_server = starts_walkd(command) and not command.rstrip().endswith("&")
            out_path = os.path.join(folder, ".command-output")
            with open(out_path, "w") as out:
                process = subprocess.Popen(["bash", "-o", "pipefail", "-c", command], cwd=folder,
                                           env=env, stdout=out, stderr=subprocess.STDOUT,
                                           stdin=subprocess.DEVNULL, start_new_session=True)
                started.append(process.pid)
                if foreground_server:
                    code = 0 if wait_serving(build, 900) else "never served"
                else:
                    code = process.wait()
                    if starts_walkd(command) and not wait_serving(build, 600):
                        code = "walkd never served"
            output = open(out_path, errors="replace").read()
            expected = re.search(r"#.*\bexits (\d+)\b", command)
            expected_code = int(expected.group(1)) if expected else 0
            if code != expected_code:
                failures.append(f"$ {command}\n  exited {code}, not {expected_code}\n{tail(output)}")
                break
            if not shown_matches(shown, output):
                failures.append(f"$ {command}\n  printed:\n{tail(output)}\n  the docs show:\n"
                                + "\n".join("    " + s for s in shown))
    finally:
        kill_session(started)
        if serves or block.mark == "walkd-stopped":
            time.sleep(0.5)
            walkd.start()
    return failures


def tail(text, lines=25):
    return "\n".join("    " + line for line in text.rstrip().split("\n")[-lines:])


def in_namespace():
    """Re-runs this script in network and process namespaces of its own; returns its exit code,
    or None when already inside one."""
    if os.environ.get("DOCS_EXAMPLES_NAMESPACE") == "1":
        return None
    env = dict(os.environ, DOCS_EXAMPLES_NAMESPACE="1")
    base = ["unshare", "--net", "--pid", "--fork", "--kill-child"]
    if os.geteuid() != 0:
        base.insert(1, "--map-root-user")
    probe = subprocess.run(base + ["true"], capture_output=True, text=True)
    if probe.returncode != 0:
        print(f"docs_examples: skipped: no network namespace ({probe.stderr.strip()})")
        return 77
    return subprocess.run(base + [sys.executable] + sys.argv, env=env).returncode


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("repo")
    parser.add_argument("build")
    parser.add_argument("--all", action="store_true", help="run the slow blocks too")
    parser.add_argument("--only", action="append",
                        help="only this page (README.md, docs/api.md, ...); may be repeated")
    parser.add_argument("--list", action="store_true", help="list the blocks and their marks")
    args = parser.parse_args()
    repo, build = os.path.abspath(args.repo), os.path.abspath(args.build)
    pages = ["README.md"] + sorted("docs/" + p for p in os.listdir(os.path.join(repo, "docs"))
                                   if p.endswith(".md"))
    if args.only:
        pages = args.only
    blocks = [b for page in pages for b in blocks_of(repo, page)]
    if args.list:
        for b in blocks:
            print(f"{b.where():28} {b.mark or 'run'} {b.argument}")
        return 0
    code = in_namespace()
    if code is not None:
        return code
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)

    shared = (os.environ.get("WALKD_SHARED_DATA") or
              os.path.join(os.path.dirname(repo), "shared", "data"))
    root = tempfile.mkdtemp(prefix="docs-examples-")
    # The default world every page's walkd serves: the tests' shared one when there is one
    # (WALKD_TEST_DEFAULT_WORLD), else made by the first page's walkd.
    shared_world = os.environ.get("WALKD_TEST_DEFAULT_WORLD", "")
    if shared_world and os.path.exists(os.path.join(shared_world, "grid.walkgrid")):
        os.symlink(shared_world, os.path.join(root, "default-world"))
    else:
        os.makedirs(os.path.join(root, "default-world"))
    env = dict(os.environ, PATH=f"{build}/server:{build}/client:{os.environ['PATH']}")
    env.pop("DOCS_EXAMPLES_NAMESPACE")
    failed = ran = 0
    walkd = None
    for block in blocks:
        if block.mark == "skip" or (block.mark == "slow" and not args.all):
            print(f"docs_examples: {block.where()}: not run ({block.mark}: {block.argument})")
            continue
        if "../shared/data" in block.text and not os.path.isdir(shared):
            print(f"docs_examples: {block.where()}: skipped: {shared} is absent")
            continue
        if walkd is None or walkd.page != block.page:
            # Each page from a fresh start, as after scripts/run on a new checkout.
            if walkd is not None:
                walkd.stop()
            walkd = Walkd(build, sandbox(repo, build, root, block.page, shared))
            walkd.page = block.page
            walkd.start()
        started = time.time()
        failures = run_block(block, walkd.home, env, repo, build, walkd)
        ran += 1
        verdict = "ok" if not failures else "FAILED"
        print(f"docs_examples: {block.where()}: {verdict} ({time.time() - started:.1f} s)",
              flush=True)
        for failure in failures:
            print(failure, flush=True)
        failed += 1 if failures else 0
    if walkd is not None:
        walkd.stop()
    print(f"docs_examples: {ran} blocks run, {failed} failed")
    if failed == 0:
        shutil.rmtree(root, ignore_errors=True)
    else:
        print(f"docs_examples: the folders are kept in {root}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
