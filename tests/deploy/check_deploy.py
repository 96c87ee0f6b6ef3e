#!/usr/bin/env python3
"""Static checks of walkd's deployment files (python3 standard library only).

    python3 tests/deploy/check_deploy.py [--root REPO_ROOT]

Checks the Dockerfile, .dockerignore, deploy/docker-entrypoint.sh, deploy/walkd.toml,
deploy/docker-compose.yml, deploy/prometheus/*.yml, deploy/grafana/**, deploy/kubernetes/*.yaml
and docs/operations.md against each other and against the metric names walkd exports.

YAML is read with a small parser for the block-style subset these files use (mappings,
sequences, "- key: value" items, flow [..]/{..} collections, quoted scalars, | block scalars,
multiple documents). When PyYAML happens to be installed, every file is also loaded with it and
the two results must agree, which also proves the file is valid YAML.

Prints PASS/FAIL per check and "N passed, M failed"; exits 1 if anything failed.
"""

import argparse
import fnmatch
import json
import os
import re
import subprocess
import sys

# Metric names walkd exports (histograms without their _bucket/_sum/_count suffixes); the
# Metrics section of docs/operations.md lists each, and prometheus_live_test.py checks a real
# walkd exports them.
WALKD_METRICS = {
    "walk_requests_total",
    "walk_request_duration_seconds",
    "walk_searches_total",
    "walk_search_nodes_expanded_total",
    "walk_search_heap_operations_total",
    "walk_walks_total",
    "walk_cch_customize_seconds",
    "walk_band_zero_walks_total",
    "walk_hybrid_walks_total",
    "walk_store_lookups_total",
    "walk_store_write_errors_total",
    "walk_store_read_errors_total",
    "walk_store_unkept_answers_total",
    "walk_store_degraded",
    "walk_store_answers",
    "walk_answer_cache_answers",
    "walk_answer_cache_bytes",
    "walk_store_block_cache_bytes",
    "walk_store_memtable_bytes",
    "walk_store_table_reader_bytes",
    "walk_batch_pairs_total",
    "walk_live_requests_total",
    "walk_live_events_total",
    "walk_live_revision",
    "walk_live_path_cache_entries",
    "walk_live_unit_routes",
    "walk_live_fallbacks_waiting",
    "walk_live_world_bytes",
    "walk_live_worlds",
    "walk_worlds_loaded",
    "walk_worlds_failed",
    "walk_grid_mapped_resident_bytes",
    "walk_search_buffer_resident_bytes",
    "walk_leg_cache_bytes",
    "walk_leg_cache_hit_ratio",
    "walk_snap_cache_hit_ratio",
    "walk_band_metric_bytes",
    "walk_band_metric_customizations_total",
    "walk_band_metric_joins_total",
    "walk_band_metric_evictions_total",
    "walk_memory_target_bytes",
    "walk_memory_band_metric_room_bytes",
    "walk_memory_grid_releases_total",
    "walk_memory_buffer_recalls_total",
    "walk_memory_heap_trims_total",
    "walk_memory_heap_trimmed_bytes_total",
    "walk_profile_metric_customizations_total",
    "walk_navmesh_tiles_decoded_total",
    "walk_navmesh_tiles_evicted_total",
    "walk_navmesh_resident_tile_bytes",
    "process_resident_memory_bytes",
    "process_virtual_memory_bytes",
    "process_start_time_seconds",
    "process_open_fds",
    "exposer_transferred_bytes_total",
    "exposer_scrapes_total",
    "exposer_request_latencies",
}
# Metrics the dashboard must show. Not there: the heap operations (optional beside the
# expansions), hybrid walks and the navmesh tile cache (only worlds with a navmesh have them,
# and the dashboard's queries are tested against a walkd without one), the start time, open
# files, the Exposer's own and the live worlds' revisions.
DASHBOARD_REQUIRED_METRICS = WALKD_METRICS - {
    "walk_search_heap_operations_total", "walk_hybrid_walks_total",
    "walk_navmesh_tiles_decoded_total", "walk_navmesh_tiles_evicted_total",
    "walk_navmesh_resident_tile_bytes", "process_start_time_seconds",
    "process_open_fds", "exposer_transferred_bytes_total", "exposer_scrapes_total",
    "exposer_request_latencies", "walk_live_revision",
}
# Series Prometheus itself produces that alert rules may use.
PROMETHEUS_SYNTHETIC = {"up"}

DATASOURCE_UID = "walkd-prometheus"
DASHBOARD_UID = "walkd-overview"
DASHBOARDS_PATH = "/var/lib/grafana/dashboards"
ENV_VARS = [
    "WALKD_LISTEN", "WALKD_METRICS_LISTEN", "WALKD_DATA", "WALKD_WORLDS",
    "WALKD_CONFIG", "WALKD_SHUTDOWN_GRACE_S", "WALKD_SEARCH_THREADS",
]
CONFIG_KEYS = {"listen", "metrics-listen", "data", "worlds", "shutdown-grace-s", "search-threads"}


class CheckError(Exception):
    pass


def require(cond, message):
    if not cond:
        raise CheckError(message)


# --------------------------------------------------------------------------------------------
# Minimal YAML (block subset) parser
# --------------------------------------------------------------------------------------------

class YamlSubsetError(Exception):
    pass


def _strip_comment(text):
    """Remove a trailing ' # comment' that is outside quotes."""
    quote = None
    i = 0
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\" and quote == '"':
                i += 1  # skip the escaped character
            elif ch == quote:
                quote = None
        elif ch in "\"'":
            if i == 0 or text[i - 1] in " \t[{,:-":
                quote = ch
        elif ch == "#" and (i == 0 or text[i - 1] in " \t"):
            return text[:i].rstrip()
        i += 1
    return text.rstrip()


def _split_flow(body):
    """Split the inside of a flow collection on top-level commas."""
    items, depth, quote, cur = [], 0, None, ""
    for ch in body:
        if quote:
            cur += ch
            if ch == quote:
                quote = None
            continue
        if ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append(cur.strip())
            cur = ""
            continue
        cur += ch
    if cur.strip():
        items.append(cur.strip())
    return items


def _find_mapping_colon(text):
    """Index of the ':' that separates a key from its value, or -1."""
    quote = None
    depth = 0
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
            continue
        if ch in "\"'" and i == 0:
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == ":" and depth == 0 and (i + 1 == len(text) or text[i + 1] in " \t"):
            return i
    return -1


def _scalar(text):
    text = text.strip()
    if text == "":
        return None
    if text.startswith("["):
        require_yaml(text.endswith("]"), f"unterminated flow sequence: {text}")
        return [_scalar(x) for x in _split_flow(text[1:-1])]
    if text.startswith("{"):
        require_yaml(text.endswith("}"), f"unterminated flow mapping: {text}")
        out = {}
        for item in _split_flow(text[1:-1]):
            idx = _find_mapping_colon(item)
            require_yaml(idx > 0, f"bad flow mapping item: {item}")
            out[_key(item[:idx])] = _scalar(item[idx + 1:])
        return out
    if text.startswith('"'):
        require_yaml(text.endswith('"') and len(text) >= 2, f"unterminated string: {text}")
        return json.loads(text)
    if text.startswith("'"):
        require_yaml(text.endswith("'") and len(text) >= 2, f"unterminated string: {text}")
        return text[1:-1].replace("''", "'")
    if text in ("~", "null", "Null", "NULL"):
        return None
    require_yaml(not text.startswith(("&", "*", "!", "|", ">", "%", "@", "`")),
                 f"unsupported YAML construct: {text}")
    return text


def _key(text):
    text = text.strip()
    if text[:1] in "\"'":
        return _scalar(text)
    return text


def require_yaml(cond, message):
    if not cond:
        raise YamlSubsetError(message)


class _Parser:
    def __init__(self, raw_lines):
        self.raw = raw_lines  # list of (lineno, text) without newlines
        self.i = 0

    def _meaningful(self):
        """Skip blank/comment lines; return (indent, content) of the next line or None."""
        while self.i < len(self.raw):
            text = self.raw[self.i][1]
            stripped = text.strip()
            if stripped == "" or stripped.startswith("#"):
                self.i += 1
                continue
            require_yaml("\t" not in text[: len(text) - len(text.lstrip())],
                         f"line {self.raw[self.i][0]}: tab indentation")
            return len(text) - len(text.lstrip(" ")), _strip_comment(text.strip())
        return None

    def parse_node(self, min_indent):
        nxt = self._meaningful()
        if nxt is None or nxt[0] < min_indent:
            return None
        indent, content = nxt
        if content == "-" or content.startswith("- "):
            return self.parse_seq(indent)
        return self.parse_map(indent)

    def _block_scalar(self, parent_indent, style):
        require_yaml(style in ("|", "|-", "|+"), f"unsupported block scalar style {style}")
        lines = []
        block_indent = None
        while self.i < len(self.raw):
            text = self.raw[self.i][1]
            if text.strip() == "":
                lines.append("")
                self.i += 1
                continue
            ind = len(text) - len(text.lstrip(" "))
            if ind <= parent_indent:
                break
            if block_indent is None:
                block_indent = ind
            lines.append(text[block_indent:])
            self.i += 1
        while lines and lines[-1] == "":
            lines.pop()
        body = "\n".join(lines)
        return body if style == "|-" else body + "\n"

    def _value(self, rest, indent):
        """Value after 'key:' (rest may be empty: nested block follows)."""
        if rest in ("|", "|-", "|+"):
            self.i += 1
            return self._block_scalar(indent, rest)
        if rest != "":
            self.i += 1
            return _scalar(rest)
        self.i += 1
        nxt = self._meaningful()
        if nxt is None:
            return None
        if nxt[0] > indent:
            return self.parse_node(nxt[0])
        if nxt[0] == indent and (nxt[1] == "-" or nxt[1].startswith("- ")):
            return self.parse_seq(indent)
        return None

    def parse_map(self, indent):
        out = {}
        while True:
            nxt = self._meaningful()
            if nxt is None or nxt[0] < indent:
                break
            lineno = self.raw[self.i][0]
            require_yaml(nxt[0] == indent, f"line {lineno}: unexpected indentation")
            content = nxt[1]
            if content == "-" or content.startswith("- "):
                break
            idx = _find_mapping_colon(content)
            require_yaml(idx > 0, f"line {lineno}: expected 'key: value', got {content!r}")
            key = _key(content[:idx])
            require_yaml(key not in out, f"line {lineno}: duplicate key {key!r}")
            out[key] = self._value(content[idx + 1:].strip(), indent)
        return out

    def parse_seq(self, indent):
        out = []
        while True:
            nxt = self._meaningful()
            if nxt is None or nxt[0] != indent:
                break
            content = nxt[1]
            if not (content == "-" or content.startswith("- ")):
                break
            rest = content[1:].strip()
            if rest == "":
                self.i += 1
                out.append(self.parse_node(indent + 1))
                continue
            if rest in ("|", "|-", "|+"):  # "- |": a block scalar item, deeper than the dash
                self.i += 1
                out.append(self._block_scalar(indent, rest))
                continue
            if _find_mapping_colon(rest) > 0 and not rest.startswith(("[", "{", '"', "'")) \
                    or re.match(r"""^["'][^"']*["']\s*:(\s|$)""", rest):
                # "- key: value": the mapping continues at the column of "key".
                lineno, text = self.raw[self.i]
                col = len(text) - len(text.lstrip(" ")) + (len(content) - len(rest))
                self.raw[self.i] = (lineno, " " * col + rest)
                out.append(self.parse_map(col))
                continue
            self.i += 1
            out.append(_scalar(rest))
        return out


def parse_yaml_subset(text):
    """Parse all documents of a YAML file (subset); returns a list of documents."""
    docs, cur = [], []
    for lineno, line in enumerate(text.splitlines(), 1):
        if line.rstrip() == "---":
            docs.append(cur)
            cur = []
        else:
            cur.append((lineno, line.rstrip("\r")))
    docs.append(cur)
    out = []
    for lines in docs:
        if all(not l.strip() or l.strip().startswith("#") for _, l in lines):
            continue
        p = _Parser(lines)
        node = p.parse_node(0)
        rest = p._meaningful()
        require_yaml(rest is None, f"line {p.raw[p.i][0] if p.i < len(p.raw) else '?'}: "
                     "content after the end of the document (bad indentation?)")
        out.append(node)
    return out


def _normalize_pyyaml(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, dict):
        return {str(k): _normalize_pyyaml(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_normalize_pyyaml(x) for x in v]
    return v


try:
    import yaml as _pyyaml  # optional (Debian: python3-yaml)
except ImportError:  # pragma: no cover - depends on the machine
    _pyyaml = None


def load_yaml(path):
    """Parse a YAML file with the subset parser; cross-check with PyYAML when available."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        docs = parse_yaml_subset(text)
    except YamlSubsetError as e:
        raise CheckError(f"{path}: cannot parse: {e}")
    if _pyyaml is not None:
        try:
            ref = [d for d in _pyyaml.safe_load_all(text) if d is not None]
        except _pyyaml.YAMLError as e:
            raise CheckError(f"{path}: invalid YAML (PyYAML): {e}")
        if _normalize_pyyaml(ref) != docs:
            raise CheckError(f"{path}: subset parser and PyYAML disagree; keep the file in plain "
                             f"block style.\n  subset: {docs}\n  PyYAML: {_normalize_pyyaml(ref)}")
    return docs


def dig(node, *keys, default=None):
    for k in keys:
        if isinstance(node, dict) and k in node:
            node = node[k]
        elif isinstance(node, list) and isinstance(k, int) and -len(node) <= k < len(node):
            node = node[k]
        else:
            return default
    return node


# --------------------------------------------------------------------------------------------
# PromQL metric-name extraction
# --------------------------------------------------------------------------------------------

PROMQL_KEYWORDS = {
    "and", "or", "unless", "bool", "offset", "inf", "nan", "by", "without", "on", "ignoring",
    "group_left", "group_right", "atan2",
}


def promql_metric_names(expr):
    """Metric names referenced by a PromQL expression (histogram suffixes kept)."""
    s = re.sub(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|`[^`]*`', '""', expr)
    names = set()
    # name{...} and {__name__="..."} forms: pull explicit __name__ matchers first.
    for m in re.finditer(r'__name__\s*=\s*"([^"]*)"', expr):
        names.add(m.group(1))
    s = re.sub(r"\{[^{}]*\}", " ", s)
    s = re.sub(r"\[[^\[\]]*\]", " ", s)
    s = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^()]*\)", " ", s)
    s = re.sub(r"\$\{[^}]*\}|\$\w+", " ", s)
    for m in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", s):
        tok = m.group(0)
        before = s[m.start() - 1] if m.start() > 0 else " "
        if before.isdigit() or before == ".":
            continue  # 5m, 1e3, 0.5e-3 ...
        if re.match(r"\s*\(", s[m.end():]):
            continue  # function or aggregation
        if tok in PROMQL_KEYWORDS or tok.lower() in ("inf", "nan"):
            continue
        names.add(tok)
    return names


def base_metric(name):
    for suffix in ("_bucket", "_sum", "_count"):
        if name.endswith(suffix) and name[: -len(suffix)] in WALKD_METRICS:
            return name[: -len(suffix)]
    return name


def grafana_query_exprs(query):
    """PromQL inside a Grafana variable query (label_values/query_result/metrics)."""
    q = query.strip()
    m = re.match(r"^label_values\((.*),\s*[A-Za-z_][A-Za-z0-9_]*\s*\)$", q, re.S)
    if m:
        return [m.group(1)]
    if re.match(r"^label_values\(\s*[A-Za-z_][A-Za-z0-9_]*\s*\)$", q):
        return []
    m = re.match(r"^query_result\((.*)\)$", q, re.S)
    if m:
        return [m.group(1)]
    if q.startswith("metrics(") or q.startswith("label_names("):
        return []
    return [q]


# --------------------------------------------------------------------------------------------
# Dockerfile helpers
# --------------------------------------------------------------------------------------------

def dockerfile_instructions(text):
    """List of (INSTRUCTION, args) with continuation lines joined and comments dropped."""
    out, cur = [], ""
    for line in text.splitlines():
        s = line.strip()
        if not cur and (s == "" or s.startswith("#")):
            continue
        if cur and s.startswith("#"):
            continue
        if s.endswith("\\"):
            cur += s[:-1] + " "
            continue
        cur += s
        if cur.strip():
            parts = cur.strip().split(None, 1)
            out.append((parts[0].upper(), parts[1] if len(parts) > 1 else ""))
        cur = ""
    if cur.strip():
        parts = cur.strip().split(None, 1)
        out.append((parts[0].upper(), parts[1] if len(parts) > 1 else ""))
    return out


def healthcheck_parts(args):
    """Split HEALTHCHECK args into (options dict, command argv)."""
    opts = {}
    rest = args.strip()
    while rest.startswith("--"):
        m = re.match(r"--([a-z-]+)=(\S+)\s*", rest)
        require(m is not None, f"cannot parse HEALTHCHECK option in: {rest}")
        opts[m.group(1)] = m.group(2)
        rest = rest[m.end():]
    require(rest.startswith("CMD"), f"HEALTHCHECK without CMD: {args}")
    cmd = rest[3:].strip()
    if cmd.startswith("["):
        argv = json.loads(cmd)
    else:
        argv = ["CMD-SHELL", cmd]
    return opts, argv


# --------------------------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------------------------

class Checker:
    def __init__(self, root):
        self.root = root
        self.passed = 0
        self.failed = 0
        self._cache = {}

    def path(self, rel):
        return os.path.join(self.root, rel)

    def read(self, rel):
        p = self.path(rel)
        require(os.path.isfile(p), f"{rel} does not exist")
        with open(p, encoding="utf-8") as f:
            return f.read()

    def yaml(self, rel):
        if rel not in self._cache:
            require(os.path.isfile(self.path(rel)), f"{rel} does not exist")
            self._cache[rel] = load_yaml(self.path(rel))
        return self._cache[rel]

    def yaml1(self, rel):
        docs = self.yaml(rel)
        require(len(docs) == 1 and isinstance(docs[0], dict),
                f"{rel}: expected a single YAML mapping document")
        return docs[0]

    def dashboard(self):
        if "dashboard" not in self._cache:
            try:
                self._cache["dashboard"] = json.loads(self.read("deploy/grafana/dashboards/walkd.json"))
            except json.JSONDecodeError as e:
                raise CheckError(f"walkd.json is not valid JSON: {e}")
        return self._cache["dashboard"]

    def run(self, name, fn):
        try:
            fn()
        except CheckError as e:
            self.failed += 1
            print(f"FAIL: {name}: {e}")
        except Exception as e:  # a bug or an unexpected file shape: report, keep going
            self.failed += 1
            print(f"FAIL: {name}: unexpected {type(e).__name__}: {e}")
        else:
            self.passed += 1
            print(f"PASS: {name}")

    # ---- Dockerfile -------------------------------------------------------------------------

    def dockerfile(self):
        return dockerfile_instructions(self.read("Dockerfile"))

    def runtime_stage(self):
        ins = self.dockerfile()
        froms = [i for i, (k, _) in enumerate(ins) if k == "FROM"]
        require(froms, "Dockerfile has no FROM")
        return ins[froms[-1]:]

    def check_dockerfile_stages(self):
        froms = [a for k, a in self.dockerfile() if k == "FROM"]
        require(len(froms) >= 2, f"expected a multi-stage build (>= 2 FROM), found {len(froms)}")
        require(re.match(r"^debian:12(\s|$)", froms[0]) is not None,
                f"build stage should be FROM debian:12, is {froms[0]!r}")
        require(re.match(r"^debian:12-slim(\s|$)", froms[-1]) is not None,
                f"runtime stage should be FROM debian:12-slim, is {froms[-1]!r}")
        stage_names = [m.group(1) for a in froms[:-1]
                       for m in [re.search(r"\bAS\s+(\S+)", a, re.I)] if m]
        require(stage_names, "build stage has no name (FROM debian:12 AS build)")
        copies_from = [a for k, a in self.runtime_stage() if k == "COPY" and "--from=" in a]
        require(copies_from, "runtime stage copies nothing from the build stage")

    def check_dockerfile_build(self):
        ins = self.dockerfile()
        build = []
        for k, a in ins[1:]:
            if k == "FROM":
                break
            build.append((k, a))
        runs = " ".join(a for k, a in build if k == "RUN")
        require("--no-install-recommends" in runs, "apt-get install without --no-install-recommends")
        for pkg in ("libgrpc++-dev", "protobuf-compiler-grpc", "libprotobuf-dev", "protobuf-compiler",
                    "grpc-proto", "libabsl-dev", "librocksdb-dev", "libgtest-dev", "libgmock-dev",
                    "libbenchmark-dev", "prometheus-cpp-dev", "librecast-dev", "nlohmann-json3-dev",
                    "libcli11-dev", "ninja-build", "cmake", "g++", "pkg-config"):
            require(re.search(r"(^|\s)" + re.escape(pkg) + r"(\s|$)", runs),
                    f"build stage does not install {pkg}")
        require(re.search(r"cmake\s.*-G\s*Ninja", runs), "no `cmake ... -G Ninja` configure step")
        require("-DCMAKE_BUILD_TYPE=Release" in runs, "build type is not Release")
        require(re.search(r"cmake --build \S+ .*-j\s*2\b", runs), "no `cmake --build ... -j2`")
        require("cmake --install" in runs, "no `cmake --install`")

    def check_dockerfile_runtime(self):
        rt = self.runtime_stage()
        users = [a.strip() for k, a in rt if k == "USER"]
        require(users, "runtime stage has no USER")
        require(users[-1].split(":")[0] not in ("root", "0"), f"runtime USER is root ({users[-1]})")
        require(users[-1].split(":")[0] in ("walkd", "10001"), f"runtime USER should be walkd, is {users[-1]}")
        runs = " ".join(a for k, a in rt if k == "RUN")
        require(re.search(r"useradd\b.*--uid 10001\b.*\bwalkd\b", runs),
                "user walkd is not created with the fixed uid 10001")
        exposed = set(" ".join(a for k, a in rt if k == "EXPOSE").replace("/tcp", "").split())
        require({"50051", "9464"} <= exposed, f"EXPOSE should include 50051 and 9464, has {sorted(exposed)}")
        volumes = " ".join(a for k, a in rt if k == "VOLUME")
        require("/var/lib/walkd" in volumes, "no VOLUME /var/lib/walkd")
        stops = [a.strip() for k, a in rt if k == "STOPSIGNAL"]
        require(stops and stops[-1] in ("SIGTERM", "15"), f"STOPSIGNAL should be SIGTERM, is {stops}")
        eps = [a for k, a in rt if k == "ENTRYPOINT"]
        require(eps and "docker-entrypoint.sh" in eps[-1], "ENTRYPOINT is not docker-entrypoint.sh")
        require(re.search(r"COPY\s.*deploy/docker-entrypoint\.sh", " ".join(f"{k} {a}" for k, a in rt)),
                "runtime stage does not COPY deploy/docker-entrypoint.sh")
        for b in ("walkd", "walkctl", "walkgrid"):
            require(re.search(r"/bin/" + b + r"\b", " ".join(a for k, a in rt if k == "COPY")),
                    f"runtime stage does not copy the {b} binary")
        require(not any(k == "RUN" and re.search(r"apt-get install[^&;]*-dev\b", a) for k, a in rt),
                "runtime stage installs -dev packages")

    def dockerfile_healthcheck(self):
        hcs = [a for k, a in self.runtime_stage() if k == "HEALTHCHECK"]
        require(hcs, "runtime stage has no HEALTHCHECK")
        return healthcheck_parts(hcs[-1])

    def check_dockerfile_healthcheck(self):
        opts, argv = self.dockerfile_healthcheck()
        joined = " ".join(argv)
        # The entrypoint's `health` runs `walkctl health` on the address walkd was started with.
        require(re.search(r"docker-entrypoint\.sh health$", joined),
                f"HEALTHCHECK does not run `docker-entrypoint.sh health`: {joined}")
        entry = self.read("deploy/docker-entrypoint.sh")
        require(re.search(r"health --addr \"\$host:\$port\" --timeout-s", entry),
                "docker-entrypoint.sh health does not run `walkctl health --addr HOST:PORT --timeout-s`")
        for o in ("interval", "timeout", "start-period", "retries"):
            require(o in opts, f"HEALTHCHECK lacks --{o}")

    def check_dockerignore(self):
        patterns = [l.strip() for l in self.read(".dockerignore").splitlines()
                    if l.strip() and not l.strip().startswith("#")]
        require(".git" in patterns or ".git/" in patterns, ".dockerignore does not exclude .git")
        require(any(p.rstrip("/").startswith("build") for p in patterns),
                ".dockerignore does not exclude build directories (build*/)")

        def ignored(path):
            state = False
            for p in patterns:
                neg = p.startswith("!")
                pat = p[1:] if neg else p
                pat = pat.strip("/")
                parts = path.split("/")
                prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
                if any(fnmatch.fnmatchcase(x, pat) for x in prefixes):
                    state = not neg
            return state

        for k, a in self.dockerfile():
            if k != "COPY" or "--from=" in a:
                continue
            if a.strip().startswith("["):
                srcs = json.loads(a)[:-1]
            else:
                srcs = [s for s in a.split() if not s.startswith("--")][:-1]
            for src in srcs:
                if src in (".", "./"):
                    continue
                require(not ignored(src[2:] if src.startswith("./") else src),
                        f"{src} is COPY'd by the Dockerfile but excluded by .dockerignore")
                require(os.path.exists(self.path(src)), f"{src} is COPY'd by the Dockerfile but does not exist")

    # ---- entrypoint and config --------------------------------------------------------------

    def check_entrypoint(self):
        rel = "deploy/docker-entrypoint.sh"
        text = self.read(rel)
        require(text.startswith("#!/bin/sh\n"), f"{rel} must start with #!/bin/sh")
        require(os.access(self.path(rel), os.X_OK), f"{rel} is not executable (chmod +x)")
        r = subprocess.run(["/bin/sh", "-n", self.path(rel)], capture_output=True, text=True)
        require(r.returncode == 0, f"{rel}: sh -n failed: {r.stderr.strip()}")
        code = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("#"))
        for var in ENV_VARS + ["WALKD_BIN"]:
            require(var in code, f"{rel} does not handle {var}")
        require(re.search(r'exec "\$\{?walkd_bin\}?" "\$@"|exec "\$\{WALKD_BIN', code),
                f"{rel} does not exec walkd with the arguments")
        for tool in ("walkctl", "walkgrid"):
            require(re.search(r"^\s*" + tool + r"\)", code, re.M), f"{rel} does not dispatch `{tool}`")
        for bashism in (r"\[\[", r"\bfunction\s+\w+", r"\blocal\s", r"\bdeclare\s", r"\$\{[A-Za-z_]+//",
                        r"<<<", r"\bpipefail\b"):
            require(not re.search(bashism, code), f"{rel} uses a bashism matching /{bashism}/")

    def check_config_example(self):
        rel = "deploy/walkd.toml"
        text = self.read(rel)
        try:
            import tomllib
        except ImportError:  # Python < 3.11: a line-based check instead
            keys = {m.group(1) for m in re.finditer(r"^\s*([A-Za-z0-9_-]+)\s*=", text, re.M)}
        else:
            try:
                keys = set(tomllib.loads(text))
            except tomllib.TOMLDecodeError as e:
                raise CheckError(f"{rel}: invalid TOML: {e}")
        unknown = keys - CONFIG_KEYS
        require(not unknown, f"{rel}: keys walkd does not know: {sorted(unknown)}")
        mentioned = {m.group(1) for m in re.finditer(r"^\s*#?\s*([a-z-]+)\s*=", text, re.M)}
        missing = CONFIG_KEYS - mentioned
        require(not missing, f"{rel}: keys not shown (set or commented out): {sorted(missing)}")

    # ---- compose ----------------------------------------------------------------------------

    def compose(self):
        return self.yaml1("deploy/docker-compose.yml")

    def check_compose_walkd(self):
        c = self.compose()
        services = dig(c, "services") or {}
        for s in ("walkd", "prometheus", "grafana"):
            require(s in services, f"docker-compose.yml has no service {s!r}")
        w = services["walkd"]
        build = w.get("build")
        context = build if isinstance(build, str) else dig(build, "context")
        require(context in ("..", "../"), f"walkd build context should be '..', is {context!r}")
        ports = [str(p) for p in (w.get("ports") or [])]
        for port in ("50051", "9464"):
            require(any(p.endswith(":" + port) or p == port for p in ports),
                    f"walkd does not publish port {port} (ports: {ports})")
        vols = [str(v) for v in (w.get("volumes") or [])]
        named = [v.split(":")[0] for v in vols
                 if v.split(":")[1:2] == ["/var/lib/walkd"] and not v.startswith((".", "/", "~"))]
        require(named, "walkd has no named volume mounted at /var/lib/walkd")
        require(named[0] in (dig(c, "volumes") or {}), f"volume {named[0]!r} is not declared under top-level volumes")

    def check_compose_healthcheck(self):
        hc = dig(self.compose(), "services", "walkd", "healthcheck")
        require(isinstance(hc, dict), "walkd service has no healthcheck")
        opts, argv = self.dockerfile_healthcheck()
        test = hc.get("test")
        require(isinstance(test, list) and test[:1] == ["CMD"], f"compose healthcheck test should be [\"CMD\", ...], is {test}")
        require(test[1:] == argv, f"compose healthcheck {test[1:]} differs from the Dockerfile's {argv}")
        for o in ("interval", "timeout", "start-period", "retries"):
            key = o.replace("-", "_")
            require(str(hc.get(key)) == opts[o],
                    f"compose healthcheck {key}={hc.get(key)!r} differs from the Dockerfile's --{o}={opts[o]}")

    def check_compose_exposure(self):
        services = dig(self.compose(), "services") or {}
        for name, service in services.items():
            for p in (service.get("ports") or []):
                require(str(p).startswith("127.0.0.1:"),
                        f"{name} publishes {p} beyond the host's loopback (publish 127.0.0.1:...)")
        env = dig(services, "grafana", "environment") or {}
        if isinstance(env, list):
            env = dict(e.split("=", 1) for e in env)
        password = str(env.get("GF_SECURITY_ADMIN_PASSWORD", ""))
        require(password.startswith("${") and ":?" in password,
                f"Grafana's admin password must come from the environment, no default (is {password!r})")

    def check_compose_prometheus(self):
        c = self.compose()
        p = dig(c, "services", "prometheus")
        require(str(p.get("image", "")).split(":")[0] == "prom/prometheus",
                f"prometheus image should be prom/prometheus, is {p.get('image')}")
        dep = p.get("depends_on")
        require(dep is not None and "walkd" in dep, "prometheus does not depend_on walkd")
        vols = [str(v) for v in (p.get("volumes") or [])]
        mounted = False
        for v in vols:
            src, _, rest = v.partition(":")
            dst = rest.split(":")[0]
            if src.rstrip("/") in ("./prometheus", "prometheus") and dst.rstrip("/") == "/etc/prometheus":
                mounted = True
            if src in ("./prometheus/prometheus.yml",) and dst == "/etc/prometheus/prometheus.yml":
                mounted = True
        require(mounted, f"prometheus does not mount ./prometheus at /etc/prometheus (volumes: {vols})")
        cmd = " ".join(str(x) for x in (p.get("command") or []))
        require(not cmd or "/etc/prometheus/prometheus.yml" in cmd,
                "prometheus command overrides --config.file with another path")

    def check_compose_grafana(self):
        c = self.compose()
        g = dig(c, "services", "grafana")
        require(str(g.get("image", "")).split(":")[0] == "grafana/grafana",
                f"grafana image should be grafana/grafana, is {g.get('image')}")
        ports = [str(p) for p in (g.get("ports") or [])]
        require(any(p.endswith(":3000") or p == "3000" for p in ports), "grafana does not publish port 3000")
        env = g.get("environment") or {}
        if isinstance(env, list):
            env = dict(e.split("=", 1) for e in env)
        require(str(env.get("GF_AUTH_ANONYMOUS_ENABLED")).lower() == "true", "anonymous access is not enabled")
        require(env.get("GF_AUTH_ANONYMOUS_ORG_ROLE") == "Viewer", "anonymous role is not Viewer")
        vols = {str(v).split(":")[1]: str(v).split(":")[0] for v in (g.get("volumes") or [])}
        require(vols.get("/etc/grafana/provisioning", "").rstrip("/") == "./grafana/provisioning",
                "grafana does not mount ./grafana/provisioning at /etc/grafana/provisioning")
        require(vols.get(DASHBOARDS_PATH, "").rstrip("/") == "./grafana/dashboards",
                f"grafana does not mount ./grafana/dashboards at {DASHBOARDS_PATH}")

    # ---- Prometheus -------------------------------------------------------------------------

    def check_prometheus_config(self):
        p = self.yaml1("deploy/prometheus/prometheus.yml")
        require(dig(p, "global", "scrape_interval") == "15s", "global scrape_interval is not 15s")
        jobs = {j.get("job_name"): j for j in (p.get("scrape_configs") or [])}
        require("walkd" in jobs, "no scrape job named walkd")
        targets = [t for sc in (jobs["walkd"].get("static_configs") or []) for t in (sc.get("targets") or [])]
        require("walkd:9464" in targets, f"job walkd does not scrape walkd:9464 (targets: {targets})")
        rules = p.get("rule_files") or []
        require("alerts.yml" in rules, f"rule_files does not list alerts.yml (relative): {rules}")
        require(os.path.isfile(self.path("deploy/prometheus/alerts.yml")), "deploy/prometheus/alerts.yml missing")

    def check_alerts(self):
        a = self.yaml1("deploy/prometheus/alerts.yml")
        rules = [r for g in (a.get("groups") or []) for r in (g.get("rules") or [])]
        alerts = [r for r in rules if "alert" in r]
        require(alerts, "alerts.yml has no alerting rules")
        exprs = " ".join(r.get("expr", "") for r in alerts)
        require(re.search(r'\bup\{[^}]*job="walkd"[^}]*\}\s*==\s*0', exprs), "no 'walkd down' alert (up{job=\"walkd\"} == 0)")
        require(re.search(r"walk_requests_total\{[^}]*code", exprs) and "/" in exprs, "no error-ratio alert on walk_requests_total")
        require(re.search(r"histogram_quantile\(\s*0\.99\s*,.*walk_request_duration_seconds_bucket", exprs, re.S),
                "no p99 latency alert on walk_request_duration_seconds_bucket")
        require("walk_worlds_loaded" in exprs, "no 'no worlds loaded' alert on walk_worlds_loaded")
        for r in alerts:
            require(dig(r, "labels", "severity"), f"alert {r['alert']} has no severity label")
            require(dig(r, "annotations", "summary"), f"alert {r['alert']} has no summary annotation")
            unknown = {base_metric(n) for n in promql_metric_names(r.get("expr", ""))} \
                - WALKD_METRICS - PROMETHEUS_SYNTHETIC
            require(not unknown, f"alert {r['alert']} uses metrics walkd does not export: {sorted(unknown)}")

    def check_alert_tests(self):
        a = self.yaml1("deploy/prometheus/alerts.yml")
        alerts = {r["alert"] for g in a.get("groups") or [] for r in g.get("rules") or [] if "alert" in r}
        t = self.yaml1("deploy/prometheus/alerts_test.yml")
        require(t.get("rule_files") == ["alerts.yml"], f"alerts_test.yml rule_files is {t.get('rule_files')}")
        firing, quiet = set(), set()
        for case in t.get("tests") or []:
            for e in case.get("alert_rule_test") or []:
                (firing if e.get("exp_alerts") else quiet).add(e.get("alertname"))
        require(not alerts - firing, f"alerts_test.yml never sees {sorted(alerts - firing)} fire")
        require(not alerts - quiet, f"alerts_test.yml never sees {sorted(alerts - quiet)} stay quiet")
        unknown = (firing | quiet) - alerts
        require(not unknown, f"alerts_test.yml tests alerts alerts.yml lacks: {sorted(unknown)}")

    # ---- Grafana ----------------------------------------------------------------------------

    def check_grafana_provisioning(self):
        ds = self.yaml1("deploy/grafana/provisioning/datasources/prometheus.yml")
        items = ds.get("datasources") or []
        match = [d for d in items if d.get("uid") == DATASOURCE_UID]
        require(match, f"no datasource with uid {DATASOURCE_UID}")
        require(match[0].get("type") == "prometheus", "datasource type is not prometheus")
        require(match[0].get("url") == "http://prometheus:9090", f"datasource url is {match[0].get('url')}")
        dp = self.yaml1("deploy/grafana/provisioning/dashboards/walkd.yml")
        providers = dp.get("providers") or []
        require(any(p.get("type") == "file" and dig(p, "options", "path") == DASHBOARDS_PATH for p in providers),
                f"no file dashboard provider with options.path {DASHBOARDS_PATH}")

    def check_dashboard_basics(self):
        d = self.dashboard()
        require(d.get("uid") == DASHBOARD_UID, f"dashboard uid is {d.get('uid')!r}, expected {DASHBOARD_UID}")
        require(d.get("title") == "walkd", f"dashboard title is {d.get('title')!r}")
        sv = d.get("schemaVersion")
        require(isinstance(sv, int) and 36 <= sv <= 41, f"schemaVersion {sv!r} not in 36..41")
        panels = d.get("panels") or []
        require(panels, "dashboard has no panels")
        ids = [p.get("id") for p in panels]
        require(len(set(ids)) == len(ids), f"duplicate panel ids: {ids}")
        cells = {}
        for p in panels:
            require(p.get("type") in ("timeseries", "stat"), f"panel {p.get('title')!r} has type {p.get('type')!r}")
            gp = p.get("gridPos") or {}
            require(all(isinstance(gp.get(k), int) for k in "xywh"), f"panel {p.get('title')!r} lacks gridPos")
            require(gp["x"] + gp["w"] <= 24, f"panel {p.get('title')!r} is wider than the grid")
            for x in range(gp["x"], gp["x"] + gp["w"]):
                for y in range(gp["y"], gp["y"] + gp["h"]):
                    require((x, y) not in cells, f"panels {cells.get((x, y))!r} and {p.get('title')!r} overlap")
                    cells[(x, y)] = p.get("title")
            require(p.get("targets"), f"panel {p.get('title')!r} has no queries")

    def check_dashboard_datasources(self):
        d = self.dashboard()
        for p in d.get("panels") or []:
            require(dig(p, "datasource", "uid") == DATASOURCE_UID,
                    f"panel {p.get('title')!r} datasource uid is {dig(p, 'datasource', 'uid')!r}")
            for t in p.get("targets") or []:
                if "datasource" in t:
                    require(dig(t, "datasource", "uid") == DATASOURCE_UID,
                            f"panel {p.get('title')!r} query {t.get('refId')} has datasource {t['datasource']!r}")
        for v in dig(d, "templating", "list", default=[]) or []:
            if v.get("type") == "query":
                require(dig(v, "datasource", "uid") == DATASOURCE_UID,
                        f"variable {v.get('name')!r} datasource is {v.get('datasource')!r}")

    def check_dashboard_metrics(self):
        d = self.dashboard()
        seen = set()
        for p in d.get("panels") or []:
            for t in p.get("targets") or []:
                expr = t.get("expr", "")
                require(expr.strip(), f"panel {p.get('title')!r} query {t.get('refId')} has no expr")
                names = {base_metric(n) for n in promql_metric_names(expr)}
                require(names, f"panel {p.get('title')!r}: no metric found in {expr!r}")
                unknown = names - WALKD_METRICS
                require(not unknown, f"panel {p.get('title')!r} uses unknown metrics {sorted(unknown)} in {expr!r}")
                seen |= names
        for v in dig(d, "templating", "list", default=[]) or []:
            if v.get("type") != "query":
                continue
            q = v.get("query")
            q = q.get("query", "") if isinstance(q, dict) else (q or "")
            for expr in grafana_query_exprs(q):
                unknown = {base_metric(n) for n in promql_metric_names(expr)} - WALKD_METRICS
                require(not unknown, f"variable {v.get('name')!r} uses unknown metrics {sorted(unknown)}")
        missing = DASHBOARD_REQUIRED_METRICS - seen
        require(not missing, f"dashboard shows no panel for {sorted(missing)}")

    def check_dashboard_panels(self):
        panels = self.dashboard().get("panels") or []

        def find(pred, what):
            hits = [p for p in panels if any(pred(t.get("expr", "")) for t in p.get("targets") or [])]
            require(hits, f"no panel for {what}")
            return hits[0]

        lat = find(lambda e: "walk_request_duration_seconds_bucket" in e, "request latency")
        exprs = " ".join(t["expr"] for t in lat["targets"])
        for q in ("0.5", "0.95", "0.99"):
            require(re.search(r"histogram_quantile\(\s*" + re.escape(q) + r"0*\s*,", exprs),
                    f"latency panel has no p{q[2:].ljust(2, '0')} (histogram_quantile({q}, ...))")
        for t in lat["targets"]:
            e = t["expr"]
            require(re.search(r"by\s*\(\s*(le\s*,\s*method|method\s*,\s*le)\s*\)", e) and "rate(" in e,
                    f"latency query should be histogram_quantile over sum by (le, method) (rate(..._bucket)): {e}")
        require(dig(lat, "fieldConfig", "defaults", "unit") == "s", "latency panel unit is not seconds")
        err = find(lambda e: "walk_requests_total" in e and re.search(r'code\s*!(=|~)\s*"OK', e), "non-OK requests")
        require(re.search(r"by\s*\([^)]*method[^)]*code|by\s*\([^)]*code[^)]*method", err["targets"][0]["expr"]),
                "error panel does not group by method and code")
        worlds = find(lambda e: "walk_worlds_loaded" in e, "worlds loaded")
        require(worlds.get("type") == "stat", "worlds loaded panel is not a stat panel")
        mem = find(lambda e: "process_resident_memory_bytes" in e, "resident memory")
        require(dig(mem, "fieldConfig", "defaults", "unit") == "bytes", "resident memory panel unit is not bytes")
        for metric, label in (("walk_searches_total", "method"), ("walk_walks_total", "status")):
            p = find(lambda e, m=metric: m in e, metric)
            require(re.search(r"by\s*\(\s*" + label + r"\s*\)", p["targets"][0]["expr"]),
                    f"{metric} panel does not group by {label}")
        for p in panels:
            if p.get("type") == "timeseries":
                for t in p.get("targets") or []:
                    e = t.get("expr", "")
                    if re.search(r"_total\b|_bucket\b", e):
                        require("rate(" in e, f"panel {p.get('title')!r} plots a raw counter: {e}")

    # ---- Kubernetes -------------------------------------------------------------------------

    def check_kubernetes(self):
        docs = self.yaml("deploy/kubernetes/walkd.yaml")
        objects = {(d.get("kind"), dig(d, "metadata", "name")): d for d in docs if isinstance(d, dict)}
        want = {("Deployment", "walkd"), ("Service", "walkd"), ("Service", "walkd-headless"),
                ("PodDisruptionBudget", "walkd"), ("HorizontalPodAutoscaler", "walkd")}
        require(want <= set(objects), f"expected {sorted(want)}, found {sorted(objects)}")
        kinds = {"Deployment": objects[("Deployment", "walkd")], "Service": objects[("Service", "walkd")]}
        dep = kinds["Deployment"]
        pod = dig(dep, "spec", "template", "spec")
        sel = dig(dep, "spec", "selector", "matchLabels") or {}
        labels = dig(dep, "spec", "template", "metadata", "labels") or {}
        require(sel and all(labels.get(k) == v for k, v in sel.items()), "selector does not match pod labels")
        svc_sel = dig(kinds["Service"], "spec", "selector") or {}
        require(svc_sel and all(labels.get(k) == v for k, v in svc_sel.items()), "Service selector does not match pods")
        sc = pod.get("securityContext") or {}
        require(sc.get("runAsNonRoot") == "true", "pod securityContext.runAsNonRoot is not true")
        require(sc.get("runAsUser") == "10001", f"runAsUser is {sc.get('runAsUser')}, expected 10001")
        c = [x for x in pod.get("containers") or [] if x.get("name") == "walkd"]
        require(c, "no container named walkd")
        c = c[0]
        ports = {str(p.get("containerPort")): p.get("name") for p in c.get("ports") or []}
        require({"50051", "9464"} <= set(ports), f"container ports are {sorted(ports)}")
        rp = c.get("readinessProbe") or {}
        ok = str(dig(rp, "grpc", "port")) == "50051" or \
            "walkctl health" in " ".join(dig(rp, "exec", "command", default=[]) or [])
        require(ok, "readinessProbe is neither a grpc probe on 50051 nor exec walkctl health")
        lp = c.get("livenessProbe") or {}
        require(dig(lp, "httpGet", "path") == "/healthz" and str(dig(lp, "httpGet", "port")) in ("9464", ports["9464"]),
                "livenessProbe is not httpGet /healthz on 9464")
        res = c.get("resources") or {}
        require(dig(res, "requests", "cpu") and dig(res, "requests", "memory") and dig(res, "limits", "memory"),
                "resources need requests.cpu, requests.memory and limits.memory")
        ann = dig(dep, "spec", "template", "metadata", "annotations") or {}
        require(ann.get("prometheus.io/scrape") == "true" and ann.get("prometheus.io/port") == "9464",
                "pod template lacks prometheus.io/scrape and prometheus.io/port annotations")
        svc_ports = {str(p.get("port")) for p in dig(kinds["Service"], "spec", "ports", default=[]) or []}
        require("50051" in svc_ports, "Service does not expose 50051")
        grace = int(pod.get("terminationGracePeriodSeconds", 30))
        env = {e.get("name"): e.get("value") for e in c.get("env") or []}
        if "WALKD_SHUTDOWN_GRACE_S" in env:
            require(int(env["WALKD_SHUTDOWN_GRACE_S"]) < grace,
                    "WALKD_SHUTDOWN_GRACE_S must be below terminationGracePeriodSeconds")

        headless = objects[("Service", "walkd-headless")]
        require(dig(headless, "spec", "clusterIP") == "None", "walkd-headless is not headless (clusterIP: None)")
        h_sel = dig(headless, "spec", "selector") or {}
        require(h_sel and all(labels.get(k) == v for k, v in h_sel.items()), "walkd-headless selector does not match pods")
        h_ports = {str(p.get("port")): p.get("name") for p in dig(headless, "spec", "ports", default=[]) or []}
        require(h_ports.get("50051") == "grpc", f"walkd-headless should expose 50051 named grpc: {h_ports}")

        pdb = objects[("PodDisruptionBudget", "walkd")]
        require(pdb.get("apiVersion") == "policy/v1", f"PodDisruptionBudget apiVersion is {pdb.get('apiVersion')}")
        p_sel = dig(pdb, "spec", "selector", "matchLabels") or {}
        require(p_sel and all(labels.get(k) == v for k, v in p_sel.items()), "PodDisruptionBudget selector does not match pods")
        require(("minAvailable" in pdb["spec"]) != ("maxUnavailable" in pdb["spec"]),
                "PodDisruptionBudget needs one of minAvailable or maxUnavailable")

        hpa = objects[("HorizontalPodAutoscaler", "walkd")]
        require(hpa.get("apiVersion") == "autoscaling/v2", f"HPA apiVersion is {hpa.get('apiVersion')}")
        ref = dig(hpa, "spec", "scaleTargetRef") or {}
        require(ref.get("kind") == "Deployment" and ref.get("name") == "walkd", f"HPA scales {ref}")
        lo, hi = int(dig(hpa, "spec", "minReplicas", default=1)), int(dig(hpa, "spec", "maxReplicas", default=0))
        require(2 <= lo <= hi, f"HPA replicas {lo}..{hi}: at least 2, so the budget lets one go at a time")
        cpu = [m for m in dig(hpa, "spec", "metrics", default=[]) or []
               if m.get("type") == "Resource" and dig(m, "resource", "name") == "cpu"]
        require(cpu and dig(cpu[0], "resource", "target", "type") == "Utilization",
                "HPA has no cpu Utilization metric")
        require("replicas" not in dep["spec"], "the Deployment names replicas: an apply would undo the HPA's count")

    def check_kubernetes_job(self):
        docs = self.yaml("deploy/kubernetes/batch-job.yaml")
        objects = {(d.get("kind"), dig(d, "metadata", "name")): d for d in docs if isinstance(d, dict)}
        job = objects.get(("Job", "walkd-batch"))
        require(job is not None and job.get("apiVersion") == "batch/v1", f"no batch/v1 Job walkd-batch: {sorted(objects)}")
        spec = dig(job, "spec", "template", "spec")
        require(spec.get("restartPolicy") in ("Never", "OnFailure"), "Job restartPolicy must be Never or OnFailure")
        require(dig(job, "spec", "activeDeadlineSeconds") and dig(job, "spec", "backoffLimit") is not None,
                "Job needs activeDeadlineSeconds and backoffLimit")
        require(dig(spec, "securityContext", "runAsNonRoot") == "true", "Job pod does not run as non-root")
        c = (spec.get("containers") or [{}])[0]
        script = " ".join(c.get("args") or [])
        require(re.search(r"walkctl --addr walkd:50051 .*\bbatch\b", script, re.S),
                f"the Job does not run walkctl batch against the Service walkd:50051: {script}")
        require((c.get("args") or [])[:2] == ["sh", "-c"], "the Job's args should be sh -c SCRIPT")
        r = subprocess.run(["/bin/sh", "-n", "-c", c["args"][2]], capture_output=True, text=True)
        require(r.returncode == 0, f"the Job's script does not parse: {r.stderr.strip()}")
        cm = objects.get(("ConfigMap", "walkd-batch-pairs"))
        require(cm is not None, "no ConfigMap walkd-batch-pairs")
        shards = int(dig(job, "spec", "completions", default=1))
        for i in range(shards):
            lines = (dig(cm, "data", f"pairs-{i}.jsonl") or "").splitlines()
            require(lines, f"ConfigMap has no pairs-{i}.jsonl for completion index {i}")
            for line in lines:
                pair = json.loads(line)
                require("from" in pair and "to" in pair, f"pairs-{i}.jsonl: {line}")
        vols = {v.get("name"): v for v in spec.get("volumes") or []}
        require(dig(vols, "pairs", "configMap", "name") == "walkd-batch-pairs", "the Job does not mount the pairs")

    # ---- docs -------------------------------------------------------------------------------

    def check_docs(self):
        text = self.read("docs/operations.md")
        for var in ENV_VARS:
            require(var in text, f"docs/operations.md does not document {var}")
        for word in ("50051", "9464", "/healthz", "/readyz", "/metrics", "SIGTERM", "walkctl health"):
            require(word in text, f"docs/operations.md does not mention {word}")
        for m in WALKD_METRICS:
            require(m in text, f"docs/operations.md does not list the metric {m}")
        a = self.yaml1("deploy/prometheus/alerts.yml")
        for r in (r for g in a.get("groups") or [] for r in g.get("rules") or []):
            if "alert" in r:
                require(r["alert"] in text, f"docs/operations.md does not describe alert {r['alert']}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")),
                    help="repository root (default: two levels above this script)")
    args = ap.parse_args()
    c = Checker(args.root)
    print(f"checking deployment files under {c.root}"
          + (" (PyYAML cross-check on)" if _pyyaml else " (PyYAML not installed: subset parser only)"))
    checks = [
        ("Dockerfile: build and runtime stages", c.check_dockerfile_stages),
        ("Dockerfile: build stage (deps, Ninja Release -j2, install)", c.check_dockerfile_build),
        ("Dockerfile: runtime stage (user, ports, volume, signal, entrypoint)", c.check_dockerfile_runtime),
        ("Dockerfile: HEALTHCHECK runs walkctl health", c.check_dockerfile_healthcheck),
        (".dockerignore", c.check_dockerignore),
        ("docker-entrypoint.sh", c.check_entrypoint),
        ("walkd.toml example", c.check_config_example),
        ("compose: services, walkd build/ports/volume", c.check_compose_walkd),
        ("compose: ports on loopback, no default Grafana password", c.check_compose_exposure),
        ("compose: walkd healthcheck matches Dockerfile", c.check_compose_healthcheck),
        ("compose: prometheus", c.check_compose_prometheus),
        ("compose: grafana", c.check_compose_grafana),
        ("prometheus.yml", c.check_prometheus_config),
        ("alerts.yml", c.check_alerts),
        ("alerts_test.yml: every alert firing and quiet", c.check_alert_tests),
        ("grafana provisioning", c.check_grafana_provisioning),
        ("dashboard: uid, title, layout", c.check_dashboard_basics),
        ("dashboard: datasource uid everywhere", c.check_dashboard_datasources),
        ("dashboard: metric names", c.check_dashboard_metrics),
        ("dashboard: required panels", c.check_dashboard_panels),
        ("kubernetes/walkd.yaml", c.check_kubernetes),
        ("kubernetes/batch-job.yaml", c.check_kubernetes_job),
        ("docs/operations.md", c.check_docs),
    ]
    for name, fn in checks:
        c.run(name, fn)
    print(f"{c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
