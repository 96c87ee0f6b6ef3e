"""A small Python client for walkd's gRPC API (walk.v1 and grpc.health.v1).

    from walkd_client import WalkdClient
    with WalkdClient("127.0.0.1:50051") as walkd:
        reply = walkd.walk("default", (771.9, 246.9), (119.8, 861.5), profile="faction-a")

Every call has a deadline (`timeout_s`, per call or the client's default). Errors are the
grpc.RpcError gRPC raises (`.code()`, `.details()`); a walk that does not exist is an OK reply
whose `status` says so. The stubs are generated from proto/walk/v1/walk.proto on first use
(walkd_client._stubs); `walk_pb2`, `walk_pb2_grpc`, `health_pb2` and `health_pb2_grpc` are
importable from this package once the generation has run.
"""

import grpc

from walkd_client import _stubs

_modules = None


def _pb():
    global _modules
    if _modules is None:
        _modules = _stubs.load()
    return _modules


def __getattr__(name):
    # Lazy, so that `python3 -m walkd_client.generate` needs no cache folder.
    if name in ("walk_pb2", "walk_pb2_grpc", "health_pb2", "health_pb2_grpc"):
        return _pb()[name]
    raise AttributeError(f"module 'walkd_client' has no attribute {name!r}")


def place(point, continent=0):
    """A walk.v1.Place from (x, y) or (x, y, z) yards."""
    walk_pb2 = _pb()["walk_pb2"]
    p = walk_pb2.Place(continent=continent, x_yards=float(point[0]), y_yards=float(point[1]))
    if len(point) > 2 and point[2] is not None:
        p.z_yards = float(point[2])
    return p


def cell(c):
    """A walk.v1.Cell from (x, y)."""
    return _pb()["walk_pb2"].Cell(x=int(c[0]), y=int(c[1]))


def live_point(p):
    """A walk.v1.LivePoint from (x, y) in a live world's world units."""
    return _pb()["walk_pb2"].LivePoint(x=float(p[0]), y=float(p[1]))


class BatchStream:
    """One WalkBatch call: iterate it for the answers, each a WalkBatchResponse for one pair
    (`index`, `code`, `message`, `walk`, `stored`), in the order walkd finishes them; after the
    loop, `summary` holds the BatchSummary that closed the stream."""

    def __init__(self, responses):
        self._responses = responses
        self.summary = None

    def __iter__(self):
        for response in self._responses:
            if response.HasField("summary"):
                self.summary = response.summary
                continue
            more = list(response.more)
            if response.HasField("walk") or response.code != 0:
                response.ClearField("more")
                yield response
            yield from more

    def cancel(self):
        self._responses.cancel()


class WalkdClient:
    """A channel to one walkd (or, with `lb_policy="round_robin"` and a `dns:///` target, to
    every address the name resolves to) and the calls walkd answers. Thread-safe as gRPC's
    channels are; close it (or use `with`) to release the connection."""

    def __init__(self, target="127.0.0.1:50051", *, timeout_s=10.0, lb_policy=None, token=None,
                 tls_ca=None, tls_server_name=None, max_message_bytes=16 * 1024 * 1024):
        """target: HOST:PORT or a gRPC name (`dns:///walkd-headless:50051`).
        lb_policy: gRPC's load-balancing policy, e.g. "round_robin" (default: pick_first).
        token: sent as `authorization: Bearer TOKEN` (walkd's --auth-token-file).
        tls_ca: PEM file of the CA that signed walkd's certificate; speaks TLS when set."""
        options = [("grpc.max_receive_message_length", max_message_bytes)]
        if lb_policy:
            options.append(("grpc.lb_policy_name", lb_policy))
        if tls_server_name:
            options.append(("grpc.ssl_target_name_override", tls_server_name))
        if tls_ca:
            with open(tls_ca, "rb") as f:
                credentials = grpc.ssl_channel_credentials(root_certificates=f.read())
            self.channel = grpc.secure_channel(target, credentials, options)
        else:
            self.channel = grpc.insecure_channel(target, options)
        self.timeout_s = timeout_s
        self._metadata = [("authorization", f"Bearer {token}")] if token else None
        pb = _pb()
        self.pb = pb["walk_pb2"]
        self.walk_stub = pb["walk_pb2_grpc"].WalkServiceStub(self.channel)
        self.live_stub = pb["walk_pb2_grpc"].LiveServiceStub(self.channel)
        self.admin_stub = pb["walk_pb2_grpc"].AdminServiceStub(self.channel)
        self.health_stub = pb["health_pb2_grpc"].HealthStub(self.channel)

    def close(self):
        self.channel.close()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()

    def _call(self, method, request, timeout_s):
        return method(request, timeout=timeout_s or self.timeout_s, metadata=self._metadata)

    # ---- WalkService ------------------------------------------------------------------------

    def walk_request(self, world, from_point, to_point, *, profile="", band=0, continent=0,
                     search=None, backend=None):
        """A WalkRequest (as walk() sends it; batch() takes them too)."""
        # `from` is a Python keyword: the field is set by name.
        request = self.pb.WalkRequest(world=world, to=place(to_point, continent), profile=profile,
                                      band=band, **{"from": place(from_point, continent)})
        if search is not None:
            request.search = search
        if backend is not None:
            request.backend = backend
        return request

    def walk(self, world, from_point, to_point, *, timeout_s=None, **fields):
        """The walk between two places: a WalkResponse (status, seconds, yards, method, ...).
        fields: profile, band, continent, search, backend (walk.v1 enum values)."""
        return self._call(self.walk_stub.Walk,
                          self.walk_request(world, from_point, to_point, **fields), timeout_s)

    def table(self, world, sources, targets, *, profile="", band=0, continent=0, want_walks=False,
              seconds_only=False, timeout_s=None):
        """Every source against every target: a TableResponse, a matrix row-major (status,
        seconds, yards, method per cell); with want_walks also every cell's whole walk; with
        seconds_only no yards (0), which saves unpacking the cells' walks."""
        request = self.pb.TableRequest(world=world, profile=profile, band=band,
                                       sources=[place(s, continent) for s in sources],
                                       targets=[place(t, continent) for t in targets],
                                       want_walks=want_walks, seconds_only=seconds_only)
        return self._call(self.walk_stub.Table, request, timeout_s)

    def table_rows(self, world, sources, targets, *, profile="", band=0, continent=0,
                   want_walks=False, seconds_only=False, timeout_s=3600.0):
        """The same matrix streamed by rows (TableRows), for tables larger than one reply:
        yields TableResponse messages of whole rows in order, each row `len(targets)` cells,
        the message's first row in `first_source`. timeout_s: the deadline of the whole
        stream."""
        request = self.pb.TableRequest(world=world, profile=profile, band=band,
                                       sources=[place(s, continent) for s in sources],
                                       targets=[place(t, continent) for t in targets],
                                       want_walks=want_walks, seconds_only=seconds_only)
        yield from self.walk_stub.TableRows(request, timeout=timeout_s, metadata=self._metadata)

    def info(self, *, timeout_s=None):
        """The worlds walkd holds, its profiles and bands: an InfoResponse."""
        return self._call(self.walk_stub.Info, self.pb.InfoRequest(), timeout_s)

    def batch(self, pairs, *, world="default", profile="", band=0, continent=0, chunk=256,
              timeout_s=3600.0):
        """Streams pairs through WalkBatch and returns a BatchStream of the answers.

        pairs: an iterable (read lazily, as walkd takes them) of WalkRequest, or of
        (from, to) tuples walked in `world`, `profile`, `band`. Pair i (from 0) is answered with
        index i. `chunk` pairs travel in one message (`more`), as walkctl sends them.
        timeout_s: the deadline of the whole stream."""

        def requests():
            message = None
            for index, pair in enumerate(pairs):
                if not isinstance(pair, self.pb.WalkRequest):
                    pair = self.walk_request(world, pair[0], pair[1], profile=profile, band=band,
                                             continent=continent)
                if message is None:
                    message = self.pb.WalkBatchRequest(index=index, walk=pair)
                else:
                    message.more.add(index=index, walk=pair)
                if len(message.more) + 1 >= chunk:
                    yield message
                    message = None
            if message is not None:
                yield message

        return BatchStream(self.walk_stub.WalkBatch(requests(), timeout=timeout_s,
                                                    metadata=self._metadata))

    # ---- AdminService -----------------------------------------------------------------------

    def reload(self, world="", *, timeout_s=600.0):
        """Reloads `world` ("" every world) whose files changed and waits for it: a
        ReloadResponse, each world's result (docs/operations.md, "Reloading worlds"). Needs the
        token when walkd has one."""
        return self._call(self.admin_stub.Reload, self.pb.ReloadRequest(world=world), timeout_s)

    # ---- grpc.health.v1 ---------------------------------------------------------------------

    def health(self, service="", *, timeout_s=None):
        """The serving status name ("SERVING", "NOT_SERVING", ...) of `service` ("" is walkd
        as a whole; "walkd.store" the walk store's writes)."""
        health_pb2 = _pb()["health_pb2"]
        reply = self.health_stub.Check(health_pb2.HealthCheckRequest(service=service),
                                       timeout=timeout_s or self.timeout_s)
        return health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)

    # ---- LiveService ------------------------------------------------------------------------

    def live_path(self, world, start, goal, *, heavy=False, keep_goal=False, world_units=False,
                  radius=0.0, formation_half_width=0.0, recover_start=False, timeout_s=None):
        """A path between two places of a live world: a LivePathResponse (cells and, in
        `waypoint_points`, world points). Places are cells (x, y), or with `world_units` points
        in world units, as are `radius` and `formation_half_width`."""
        request = self.pb.LivePathRequest(
            world=world, keep_goal=keep_goal, radius=radius,
            formation_half_width=formation_half_width, recover_start=recover_start,
            units=self.pb.LIVE_UNITS_WORLD if world_units else self.pb.LIVE_UNITS_CELLS,
            passability=self.pb.PASSABILITY_HEAVY if heavy else self.pb.PASSABILITY_LIGHT)
        if world_units:
            request.start_point.CopyFrom(live_point(start))
            request.goal_point.CopyFrom(live_point(goal))
        else:
            request.start.CopyFrom(cell(start))
            request.goal.CopyFrom(cell(goal))
        return self._call(self.live_stub.LivePath, request, timeout_s)

    def create_world(self, name, map_text, *, layers="", cell_size=0.0, origin=None,
                     timeout_s=None):
        """A new live world from a map (the documented alphabet; MovingAI header optional) and
        layer text, `origin` (x, y) in world units: a CreateWorldResponse. Needs the token when
        walkd has one."""
        request = self.pb.CreateWorldRequest(name=name, map_text=map_text, layers=layers,
                                             cell_size=cell_size)
        if origin is not None:
            request.origin.CopyFrom(live_point(origin))
        return self._call(self.live_stub.CreateWorld, request, timeout_s)

    def reset_world(self, world, *, timeout_s=None):
        """A live world back to its created state: a ResetWorldResponse."""
        return self._call(self.live_stub.ResetWorld, self.pb.ResetWorldRequest(world=world),
                          timeout_s)

    def drop_world(self, world, *, timeout_s=None):
        """Removes a created live world: a DropWorldResponse."""
        return self._call(self.live_stub.DropWorld, self.pb.DropWorldRequest(world=world),
                          timeout_s)

    def list_worlds(self, *, timeout_s=None):
        """Every live world: a list of LiveWorldInfo."""
        reply = self._call(self.live_stub.ListWorlds, self.pb.ListWorldsRequest(), timeout_s)
        return list(reply.worlds)

    def update_blockers(self, world, changes, *, timeout_s=None):
        """Applies BlockerChange messages (all or nothing): an UpdateBlockersResponse."""
        request = self.pb.UpdateBlockersRequest(world=world, changes=changes)
        return self._call(self.live_stub.UpdateBlockers, request, timeout_s)

    def reachable(self, world, a, b, *, heavy=False, timeout_s=None):
        """Whether two cells of a live world reach each other: a ReachableResponse."""
        request = self.pb.ReachableRequest(
            world=world, a=cell(a), b=cell(b),
            passability=self.pb.PASSABILITY_HEAVY if heavy else self.pb.PASSABILITY_LIGHT)
        return self._call(self.live_stub.Reachable, request, timeout_s)
