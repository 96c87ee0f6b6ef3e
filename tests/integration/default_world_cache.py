#!/usr/bin/python3
"""default_world_cache.py WALKD WALKCTL DATA: walkd's default world, generated and prepared once
(as walkd's first start does, into DATA/default-world) for the tests that start walkd on it.

They link it into their own data folders (WALKD_TEST_DEFAULT_WORLD) instead of each making it
again. A cache already there is loaded and checked the same way, so a stale one is made afresh.
"""
import os
import subprocess
import sys
import time


def main():
    walkd, walkctl, data = sys.argv[1:4]
    patience = int(os.environ.get("WALK_TEST_PATIENCE", "1"))
    log_path = os.path.join(os.path.dirname(os.path.abspath(data)), "default-world-cache.log")
    os.makedirs(data, exist_ok=True)
    with open(log_path, "w") as log:
        process = subprocess.Popen([walkd, "--listen", "127.0.0.1:0", "--metrics-listen", "",
                                    "--data", data, "--no-store", "--shutdown-grace-s", "2"],
                                   stdout=log, stderr=subprocess.STDOUT)
    give_up = time.time() + 600 * patience
    ready = False
    while time.time() < give_up and process.poll() is None and not ready:
        time.sleep(0.5)
        ready = "world 'default' ready" in open(log_path).read()
    process.terminate()
    code = process.wait()
    text = open(log_path).read()
    print(text, end="")
    world = os.path.join(data, "default-world")
    if not ready or code != 0 or not os.path.exists(os.path.join(world, "graph.walkgraph")):
        print(f"default_world_cache: walkd did not make the default world (exit {code})")
        return 1
    print(f"default_world_cache: {world} is ready")
    return 0


if __name__ == "__main__":
    sys.exit(main())
