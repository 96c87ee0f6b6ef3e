#!/bin/sh
# generate.sh OUT_DIR: writes walkd's Python stubs (walk/v1/walk_pb2*.py, walkd_health/v1/
# health_pb2*.py) into OUT_DIR, for code that imports them without walkd_client.
set -eu
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" exec "${PYTHON:-python3}" -m walkd_client.generate "$@"
