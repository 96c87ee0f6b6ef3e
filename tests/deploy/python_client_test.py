#!/usr/bin/env python3
"""python_client_test.py WALKD_BIN WALKCTL_BIN: client/python's walkd_client against a real walkd.

    tests/deploy/python_client_test.py build/server/walkd build/client/walkctl

Generates the stubs (client/python/generate.sh, and the module's own cache), starts walkd on
ephemeral loopback ports, and checks through the Python client: health (walkd, walkd.store, an
unknown service), Info, Walk (equal to walkctl's answer; off the map; an unknown world is
NOT_FOUND), a WalkBatch stream (every pair answered once, by index; asked again, from the store;
a bad pair refused without failing the stream), Table (equal to the walks one by one), a live
world created, asked in world units and with a body radius, listed, reset and dropped, and a
round_robin channel through a dns:/// target. walkd is stopped with SIGTERM and must exit 0.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import walkd_harness as h  # noqa: E402

TOWN_A = (771.9, 246.9)
TOWN_B = (119.8, 861.5)


def check_generate_script(tmp):
    out = os.path.join(tmp, "generated")
    script = os.path.join(h.ROOT, "client", "python", "generate.sh")
    r = subprocess.run([script, out], capture_output=True, text=True,
                       env=dict(os.environ, PYTHON=sys.executable))
    h.require(r.returncode == 0, f"generate.sh exited {r.returncode}: {r.stdout}{r.stderr}")
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); "
             "from walk.v1 import walk_pb2, walk_pb2_grpc; "
             "from walkd_health.v1 import health_pb2, health_pb2_grpc; "
             "print(walk_pb2_grpc.WalkServiceStub.__name__, "
             "health_pb2.DESCRIPTOR.services_by_name['Health'].full_name)")
    r = subprocess.run([sys.executable, "-c", probe, out], capture_output=True, text=True)
    h.require(r.returncode == 0 and "WalkServiceStub grpc.health.v1.Health" in r.stdout,
              f"the generated stubs do not import: {r.stdout}{r.stderr}")
    h.ok(f"generate.sh wrote importable stubs: {r.stdout.strip()}")


def check_health_and_info(c, grpc):
    h.require(c.health() == "SERVING", f"health: {c.health()}")
    h.require(c.health("walkd.store") == "SERVING", "walkd.store is not SERVING")
    try:
        c.health("no.such.service")
        h.fail("health of an unknown service answered")
    except grpc.RpcError as e:
        h.require(e.code() == grpc.StatusCode.NOT_FOUND, f"unknown service: {e.code()}")
    info = c.info()
    worlds = {w.name: w for w in info.worlds}
    h.require("default" in worlds and worlds["default"].state == c.pb.WORLD_STATE_READY,
              f"Info: {[(w.name, w.state) for w in info.worlds]}")
    h.require("faction-a" in info.profiles and 10 in info.bands, f"Info: {info.profiles} {info.bands}")
    reloaded = c.reload()
    h.require([(w.world, w.result) for w in reloaded.worlds]
              == [("default", c.pb.RELOAD_RESULT_UNCHANGED)], f"reload: {reloaded}")
    h.ok(f"health SERVING (walkd and walkd.store), unknown service NOT_FOUND; Info: walkd "
         f"{info.version}, worlds {sorted(worlds)}; reload: nothing changed")


def check_walk(c, grpc, walkd):
    reply = c.walk("default", TOWN_A, TOWN_B, profile="faction-a", band=10)
    h.require(reply.status == c.pb.WALK_STATUS_OK and reply.seconds > 0 and reply.yards > 0,
              f"walk: {reply}")
    r = walkd.walkctl("walk", "--from", "%g,%g" % TOWN_A, "--to", "%g,%g" % TOWN_B,
                      "--profile", "faction-a", "--band", "10", "--json")
    theirs = json.loads(r.stdout)
    h.require(abs(float(theirs["seconds"]) - reply.seconds) < 1e-9
              and abs(float(theirs["yards"]) - reply.yards) < 1e-9,
              f"Python's walk {reply.seconds} s {reply.yards} yd, walkctl's {theirs}")
    off = c.walk("default", (100, 100), (5000, 5000))
    h.require(off.status == c.pb.WALK_STATUS_OFF_MAP, f"off-map walk: {off.status}")
    try:
        c.walk("no-such-world", (1, 1), (2, 2))
        h.fail("a walk in an unknown world answered")
    except grpc.RpcError as e:
        h.require(e.code() == grpc.StatusCode.NOT_FOUND, f"unknown world: {e.code()} {e.details()}")
    h.ok(f"walk {reply.seconds:.3f} s, {reply.yards:.3f} yd, as walkctl's; off the map OFF_MAP; "
         "unknown world NOT_FOUND")
    return reply


def batch_pairs():
    pairs = [((100 + 37 * i, 100 + 23 * i), (700 - 19 * i, 650 - 11 * i)) for i in range(20)]
    pairs.append(((100, 100), (5000, 5000)))  # off the map: answered, status OFF_MAP
    return pairs


def check_batch(c, grpc):
    pairs = batch_pairs()
    first = {}
    stream = c.batch(pairs, profile="neutral", chunk=8)
    for answer in stream:
        h.require(answer.index not in first, f"index {answer.index} answered twice")
        h.require(answer.code == 0, f"pair {answer.index}: code {answer.code} {answer.message}")
        first[answer.index] = answer
    h.require(sorted(first) == list(range(len(pairs))), f"answered {sorted(first)}")
    h.require(stream.summary is not None and stream.summary.asked == len(pairs),
              f"summary: {stream.summary}")
    h.require(first[len(pairs) - 1].walk.status == c.pb.WALK_STATUS_OFF_MAP, "the off-map pair")
    again = list(c.batch(pairs, profile="neutral"))
    stored = sum(1 for a in again if a.stored)
    h.require(len(again) == len(pairs) and stored >= len(pairs) - 1,
              f"asked again: {len(again)} answers, {stored} from the store")
    for a in again:
        h.require(a.walk.seconds == first[a.index].walk.seconds, f"pair {a.index} changed")
    # A refused pair (no world) is answered with its code; the stream goes on.
    mixed = [c.walk_request("default", (100, 100), (300, 320)),
             c.walk_request("no-such-world", (1, 1), (2, 2))]
    answers = {a.index: a for a in c.batch(mixed)}
    h.require(answers[0].code == 0 and answers[1].code == grpc.StatusCode.NOT_FOUND.value[0],
              f"mixed batch: {answers}")
    h.ok(f"batch of {len(pairs)} pairs answered once each (summary: asked {stream.summary.asked}, "
         f"routed {stream.summary.routed}, straight {stream.summary.straight}); again: {stored} "
         "from the store, equal; a refused pair keeps the stream")


def check_table(c):
    sources = [(100, 100), (200, 200)]
    targets = [(300, 300), (400, 400), (600, 610)]
    table = c.table("default", sources, targets, profile="neutral")
    h.require(table.sources == 2 and table.targets == 3 and len(table.seconds) == 6
              and len(table.walks) == 0,
              f"table: {table.sources} x {table.targets}, {len(table.seconds)} cells, "
              f"{len(table.walks)} walks")
    for s, source in enumerate(sources):
        for t, target in enumerate(targets):
            one = c.walk("default", source, target, profile="neutral")
            cell = s * len(targets) + t
            h.require(table.status[cell] == one.status
                      and abs(table.seconds[cell] - one.seconds) < 1e-9 * max(1, one.seconds),
                      f"table[{s}][{t}] {table.seconds[cell]} s, the walk {one.seconds} s")
    walks = c.table("default", sources, targets, profile="neutral", want_walks=True)
    h.require(len(walks.walks) == 6 and walks.walks[5].seconds == walks.seconds[5],
              f"table with want_walks: {len(walks.walks)} walks")
    rows = list(c.table_rows("default", sources, targets, profile="neutral"))
    streamed = [x for message in rows for x in message.seconds]
    h.require(rows[0].first_source == 0 and streamed == list(table.seconds),
              f"table_rows: {len(rows)} messages, {streamed} against {list(table.seconds)}")
    h.ok("table 2 x 3 (a matrix; with want_walks, whole walks; streamed by rows) equal to the "
         "walks one by one")


def check_live_worlds(c, grpc):
    made = c.create_world("py-match", ".....\n.@@@.\n.....\n", cell_size=2, origin=(100, 50))
    h.require(made.world.cells == 15 and made.world.source == "created", f"created: {made}")
    path = c.live_path("py-match", (101, 51), (109, 55), world_units=True)
    h.require(path.status == c.pb.LIVE_PATH_STATUS_FOUND and path.goal.x == 4 and
              path.goal_point.x == 109, f"path in world units: {path}")
    narrow = c.live_path("py-match", (0, 0), (4, 2), radius=1.5)
    h.require(narrow.status != c.pb.LIVE_PATH_STATUS_FOUND, f"radius 1.5: {narrow.status}")
    h.require([w.name for w in c.list_worlds()] == ["py-match"], "list_worlds")
    h.require(c.reset_world("py-match").world.resets == 1, "reset_world")
    c.drop_world("py-match")
    try:
        c.live_path("py-match", (0, 0), (1, 1))
        h.require(False, "a dropped world answered")
    except grpc.RpcError as e:
        h.require(e.code() == grpc.StatusCode.NOT_FOUND, f"after drop: {e.code()}")
    h.ok("live world created, asked in world units and with a radius, listed, reset and dropped")


def check_round_robin(walkd_client, walkd):
    with walkd_client.WalkdClient(f"dns:///{walkd.grpc}", lb_policy="round_robin") as rr:
        h.require(rr.health() == "SERVING", "round_robin channel: not SERVING")
        h.require(rr.walk("default", TOWN_A, TOWN_B).status == rr.pb.WALK_STATUS_OK,
                  "round_robin walk")
    h.ok(f"dns:///{walkd.grpc} with round_robin: health and a walk")


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    walkd_bin, walkctl_bin = (os.path.abspath(a) for a in sys.argv[1:])
    walkd_client = h.import_client()
    import grpc
    tmp = tempfile.mkdtemp(prefix="walkd-python-client-test.")
    os.environ["WALKD_CLIENT_CACHE"] = os.path.join(tmp, "stubs")
    walkd = None
    try:
        h.step("stubs")
        check_generate_script(tmp)
        h.step("walkd")
        walkd = h.Walkd(walkd_bin, walkctl_bin, tmp)
        walkd.wait_serving()
        with walkd_client.WalkdClient(walkd.grpc, timeout_s=30) as c:
            h.step("health and Info")
            check_health_and_info(c, grpc)
            h.step("Walk")
            check_walk(c, grpc, walkd)
            h.step("WalkBatch")
            check_batch(c, grpc)
            h.step("Table")
            check_table(c)
            h.step("live worlds")
            check_live_worlds(c, grpc)
        h.step("round_robin")
        check_round_robin(walkd_client, walkd)
        h.step("stop")
        walkd.stop()
        walkd = None
    finally:
        if walkd:
            walkd.process.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    print("python_client_test: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(h.run_main(main))
