"""Helpers for the deployment tests that run a real walkd (and Prometheus) on 127.0.0.1.

Every wait is a bounded number of tries (times WALK_TEST_PATIENCE, as the C++ tests do); no
test asserts on how long anything took. Processes started here are stopped by their own
handles, never by name.
"""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SKIP = 77  # CTest's SKIP_RETURN_CODE for these tests


def patience():
    try:
        value = int(os.environ.get("WALK_TEST_PATIENCE", "1"))
    except ValueError:
        return 1
    return value if 1 <= value <= 100 else 1


def use_debian_python():
    """Re-runs this script under /usr/bin/python3 when the running interpreter lacks grpc.

    Debian's python3-grpcio and python3-protobuf install for /usr/bin/python3; a python3 earlier
    on PATH (pyenv, a venv) does not see them."""
    try:
        import grpc  # noqa: F401
        import google.protobuf  # noqa: F401
        return
    except ImportError:
        pass
    debian = "/usr/bin/python3"
    if os.path.exists(debian) and os.path.realpath(sys.executable) != os.path.realpath(debian) \
            and not os.environ.get("WALKD_TEST_REEXEC"):
        os.environ["WALKD_TEST_REEXEC"] = "1"
        os.execv(debian, [debian] + sys.argv)
    fail("python3 cannot import grpc and google.protobuf: install the Debian packages "
         "python3-grpcio and python3-protobuf (scripts/install-deps does)")


def import_client():
    """walkd_client from client/python, after use_debian_python()."""
    use_debian_python()
    sys.path.insert(0, os.path.join(ROOT, "client", "python"))
    import walkd_client
    return walkd_client


def step(text):
    print(f"==> {text}", flush=True)


def ok(text):
    print(f"    ok: {text}", flush=True)


class TestFailure(Exception):
    pass


def fail(text):
    raise TestFailure(text)


def require(condition, text):
    if not condition:
        fail(text)


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_get(url, tries=1):
    """(status, body) of a GET; status 0 with the error text when nothing answered."""
    last = (0, "")
    for attempt in range(tries):
        try:
            with urllib.request.urlopen(url, timeout=10) as r:
                return r.status, r.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode("utf-8", "replace")
        except (urllib.error.URLError, OSError) as e:
            last = (0, f"{type(e).__name__}: {e}")
        if attempt + 1 < tries:
            time.sleep(0.2)
    return last


class Process:
    """A child process whose output is collected line by line."""

    def __init__(self, argv, log_path, env=None):
        self.argv = argv
        self.log_path = log_path
        self._lines = []
        self._lock = threading.Lock()
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, env=env, text=True,
                                     errors="replace")
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        with open(self.log_path, "w") as log:
            for line in self.proc.stdout:
                log.write(line)
                log.flush()
                with self._lock:
                    self._lines.append(line.rstrip("\n"))

    def output(self):
        with self._lock:
            return list(self._lines)

    def tail(self, n=30):
        return "\n".join(self.output()[-n:])

    def wait_for_line(self, pattern, tries=600):
        """The first match of regex `pattern` in the output, polled `tries` times 0.1 s apart."""
        regex = re.compile(pattern)
        for _ in range(tries * patience()):
            for line in self.output():
                m = regex.search(line)
                if m:
                    return m
            if self.proc.poll() is not None:
                self._reader.join(timeout=5)
                for line in self.output():
                    m = regex.search(line)
                    if m:
                        return m
                fail(f"{self.argv[0]} exited with {self.proc.returncode} before printing "
                     f"/{pattern}/:\n{self.tail()}")
            time.sleep(0.1)
        fail(f"{self.argv[0]} printed no /{pattern}/ after {tries} tries:\n{self.tail()}")

    def stop(self, sig=signal.SIGTERM, tries=300):
        """Signals the process and waits (bounded) for it; returns its exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            for _ in range(tries * patience()):
                if self.proc.poll() is not None:
                    break
                time.sleep(0.1)
            else:
                self.proc.kill()
        code = self.proc.wait()
        self._reader.join(timeout=5)
        return code


def share_default_world(data):
    """Links the default world the tests share (WALKD_TEST_DEFAULT_WORLD, made once by the
    default_world_cache test) into the data folder `data`, so walkd loads it instead of
    generating and preparing it again; nothing when it is unset or absent."""
    shared = os.environ.get("WALKD_TEST_DEFAULT_WORLD")
    if not shared or not os.path.exists(os.path.join(shared, "grid.walkgrid")):
        return
    os.makedirs(data, exist_ok=True)
    world = os.path.join(data, "default-world")
    if not os.path.exists(world):
        os.symlink(shared, world)


class Walkd:
    """A real walkd on ephemeral loopback ports with its --data in `tmp`."""

    def __init__(self, walkd_bin, walkctl_bin, tmp, extra_args=()):
        self.walkctl_bin = walkctl_bin
        self.data = os.path.join(tmp, "walkd-data")
        share_default_world(self.data)
        argv = [walkd_bin, "--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0",
                "--data", self.data, "--shutdown-grace-s", "2", *extra_args]
        print("    starting: " + " ".join(argv), flush=True)
        self.process = Process(argv, os.path.join(tmp, "walkd.log"))
        self.grpc = self.process.wait_for_line(r"walkd: grpc listening on (\S+)").group(1)
        metrics = self.process.wait_for_line(r"walkd: metrics on (http://\S+)/metrics").group(1)
        self.metrics_url = metrics
        self.metrics_addr = urllib.parse.urlparse(metrics).netloc
        ok(f"walkd pid {self.process.proc.pid}: gRPC {self.grpc}, metrics {self.metrics_addr}")

    def wait_serving(self, tries=240):
        """Polls `walkctl health` (0.5 s apart) until walkd is SERVING."""
        for attempt in range(tries * patience()):
            if self.process.proc.poll() is not None:
                fail(f"walkd exited with {self.process.proc.returncode}:\n{self.process.tail()}")
            r = self.walkctl("health", "--timeout-s", "2", check=False)
            if r.returncode == 0:
                ok(f"walkd SERVING after {attempt + 1} health checks")
                return
            require(r.returncode != 2, f"walkctl health: bad usage: {r.stdout}")
            time.sleep(0.5)
        fail(f"walkd not SERVING after {tries} health checks:\n{self.process.tail()}")

    def walkctl(self, *args, check=True):
        argv = [self.walkctl_bin, "--addr", self.grpc, *args]
        # A bound against a wedged call; walkctl's own deadlines end it first.
        r = subprocess.run(argv, capture_output=True, text=True, timeout=120 * patience())
        if check and r.returncode != 0:
            fail(f"{' '.join(argv)} exited {r.returncode}:\n{r.stdout}{r.stderr}")
        return r

    def stop(self):
        code = self.process.stop()
        require(code == 0, f"walkd exited with {code} after SIGTERM:\n{self.process.tail()}")
        ok("walkd stopped with status 0")


def write_live_world(folder):
    """A 24 x 16 live world (map.map and layers.txt) with a wall, trees, a forest and a
    building: paths, cache hits, region answers and updates all have something to do."""
    os.makedirs(folder, exist_ok=True)
    rows = []
    for y in range(16):
        row = ""
        for x in range(24):
            if x == 12 and y != 3 and y != 12:
                row += "@"  # a wall with two gaps
            elif (x + 2 * y) % 11 == 0 and x not in (1, 22):
                row += "T"
            elif 4 <= x <= 7 and 9 <= y <= 13:
                row += "F"
            else:
                row += "."
        rows.append(row)
    with open(os.path.join(folder, "map.map"), "w") as f:
        f.write("type octile\nheight 16\nwidth 24\nmap\n" + "\n".join(rows) + "\n")
    with open(os.path.join(folder, "layers.txt"), "w") as f:
        f.write("# a building east of the wall\nbuilding 7 16 6 19 9\n")


class Prometheus:
    """A real Prometheus on a free loopback port with its own storage, from a config dict."""

    def __init__(self, prometheus_bin, config, tmp, tries=5):
        path = os.path.join(tmp, "prometheus.yml")
        with open(path, "w") as f:
            json.dump(config, f, indent=2)  # JSON is YAML
        for attempt in range(tries):
            self.port = free_port()
            self.url = f"http://127.0.0.1:{self.port}"
            argv = [prometheus_bin, f"--config.file={path}",
                    f"--storage.tsdb.path={os.path.join(tmp, f'prometheus-data-{attempt}')}",
                    f"--web.listen-address=127.0.0.1:{self.port}", "--log.level=warn"]
            print("    starting: " + " ".join(argv), flush=True)
            self.process = Process(argv, os.path.join(tmp, f"prometheus-{attempt}.log"))
            if self._wait_ready():
                ok(f"Prometheus ready on {self.url}")
                return
            self.process.stop()
            if "address already in use" not in self.process.tail().lower():
                fail(f"Prometheus did not become ready:\n{self.process.tail()}")
        fail(f"Prometheus found no free port in {tries} tries")

    def _wait_ready(self, tries=300):
        for _ in range(tries * patience()):
            if self.process.proc.poll() is not None:
                return False
            status, _ = http_get(self.url + "/-/ready")
            if status == 200:
                return True
            time.sleep(0.2)
        return False

    def api(self, path, **params):
        status, body = http_get(f"{self.url}/api/v1/{path}?{urllib.parse.urlencode(params)}")
        try:
            reply = json.loads(body)
        except ValueError:
            fail(f"Prometheus /api/v1/{path} {params}: status {status}, not JSON: {body[:300]}")
        if reply.get("status") != "success":
            fail(f"Prometheus /api/v1/{path} {params}: {reply.get('errorType')}: {reply.get('error')}")
        return reply["data"]

    def query(self, expr):
        """The instant vector (or scalar) `expr` evaluates to now, as a list of results."""
        data = self.api("query", query=expr)
        if data["resultType"] in ("scalar", "string"):
            return [{"metric": {}, "value": data["result"]}]
        return data["result"]

    def wait_until(self, expr, predicate, what, tries=120):
        """Polls `expr` (0.5 s apart) until predicate(results) holds; returns the results."""
        results = []
        for _ in range(tries * patience()):
            results = self.query(expr)
            if predicate(results):
                return results
            time.sleep(0.5)
        fail(f"{what}: {expr} never held after {tries} tries; last: {results}")

    def stop(self):
        self.process.stop()


def run_main(body):
    """Runs body(), printing a failure's message; exits 0, 1 or SKIP."""
    try:
        code = body()
    except TestFailure as e:
        print(f"FAIL: {e}", flush=True)
        return 1
    return code or 0
