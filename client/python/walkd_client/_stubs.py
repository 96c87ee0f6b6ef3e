"""Generates the Python stubs of walkd's protos and imports them.

Generated code is not committed: it must match the protoc and grpcio this machine has, so it is
made on first use into a cache folder keyed by the protos' bytes and protoc's version.
"""

import hashlib
import importlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# client/python/walkd_client/_stubs.py -> the repository's proto/ folder.
PROTO_ROOT = Path(__file__).resolve().parents[3] / "proto"
WALK_PROTO = "walk/v1/walk.proto"
# Debian's grpc-proto package; WALKD_HEALTH_PROTO overrides.
HEALTH_PROTO_CANDIDATES = (
    "/usr/share/grpc-proto/grpc/health/v1/health.proto",
    "/usr/include/grpc/health/v1/health.proto",
)
# The health proto is generated under this package path, not grpc/health/v1: a generated
# top-level `grpc` folder would be shadowed by (or shadow) the grpc package itself. Its proto
# package stays grpc.health.v1, so the service is still /grpc.health.v1.Health.
HEALTH_PACKAGE = "walkd_health/v1"


def health_proto_path():
    override = os.environ.get("WALKD_HEALTH_PROTO")
    if override:
        return Path(override)
    for candidate in HEALTH_PROTO_CANDIDATES:
        if os.path.isfile(candidate):
            return Path(candidate)
    raise FileNotFoundError("grpc/health/v1/health.proto not found (Debian package grpc-proto, "
                            "or set WALKD_HEALTH_PROTO)")


def _compiler():
    """The protoc command line prefix that writes Python and gRPC Python code, and its version."""
    protoc = shutil.which("protoc")
    plugin = shutil.which("grpc_python_plugin")
    if protoc and plugin:
        version = subprocess.run([protoc, "--version"], capture_output=True, text=True,
                                 check=True).stdout.strip()
        return [protoc, f"--plugin=protoc-gen-grpc_python={plugin}"], version
    try:
        from grpc_tools import protoc as _  # noqa: F401  (Debian: python3-grpc-tools)
    except ImportError:
        raise FileNotFoundError("neither protoc with grpc_python_plugin (Debian: protobuf-compiler, "
                                "protobuf-compiler-grpc) nor grpc_tools (python3-grpc-tools) found")
    return [sys.executable, "-m", "grpc_tools.protoc"], "grpc_tools"


def generate(out_dir):
    """Writes walk/v1/walk_pb2{,_grpc}.py and walkd_health/v1/health_pb2{,_grpc}.py under out_dir."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    command, _ = _compiler()
    with tempfile.TemporaryDirectory() as staging:
        health = Path(staging) / HEALTH_PACKAGE / "health.proto"
        health.parent.mkdir(parents=True)
        shutil.copyfile(health_proto_path(), health)
        subprocess.run(command + [f"-I{PROTO_ROOT}", f"-I{staging}", f"--python_out={out_dir}",
                                  f"--grpc_python_out={out_dir}", WALK_PROTO,
                                  f"{HEALTH_PACKAGE}/health.proto"], check=True)
    # Regular packages, so that another `walk` namespace folder on sys.path cannot split them.
    for package in ("walk", "walk/v1", "walkd_health", HEALTH_PACKAGE):
        (out_dir / package / "__init__.py").touch()
    return out_dir


def cache_dir():
    """Where generated stubs are kept: WALKD_CLIENT_CACHE, else ~/.cache/walkd_client."""
    base = os.environ.get("WALKD_CLIENT_CACHE")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(xdg) / "walkd_client"


def _stub_dir():
    _, version = _compiler()
    key = hashlib.sha256()
    for part in (PROTO_ROOT / WALK_PROTO, health_proto_path()):
        key.update(part.read_bytes())
    key.update(version.encode())
    target = cache_dir() / key.hexdigest()[:16]
    if not (target / "walk" / "v1" / "walk_pb2_grpc.py").is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        # Generate beside the target and rename: a process that reads the cache never sees a
        # half-written folder, and two that generate at once both end with a whole one.
        fresh = Path(tempfile.mkdtemp(dir=target.parent, prefix=".gen-"))
        generate(fresh)
        try:
            os.rename(fresh, target)
        except OSError:
            shutil.rmtree(fresh, ignore_errors=True)
    return target


def load():
    """Generates the stubs if the cache lacks them, and returns their four modules."""
    path = str(_stub_dir())
    if path not in sys.path:
        sys.path.insert(0, path)
    return {name: importlib.import_module(module) for name, module in (
        ("walk_pb2", "walk.v1.walk_pb2"),
        ("walk_pb2_grpc", "walk.v1.walk_pb2_grpc"),
        ("health_pb2", "walkd_health.v1.health_pb2"),
        ("health_pb2_grpc", "walkd_health.v1.health_pb2_grpc"),
    )}
