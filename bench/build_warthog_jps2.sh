#!/usr/bin/env bash
# Builds the GPPC 2023 entry Warthog-JPS2 (the baseline of bench/movingai_all.py --jps2) from a
# copy of gppc-dev/algorithm-archive, with the entry's own compile.sh, in a temporary folder that
# is never part of this repository. Prints the path of the built `run`.
#
# Usage: bench/build_warthog_jps2.sh ARCHIVE [OUT_DIR]
#   ARCHIVE  a checkout (or a bare clone) of https://github.com/gppc-dev/algorithm-archive
#   OUT_DIR  where to build (default: a new folder under /tmp)
set -euo pipefail
archive=${1:?usage: bench/build_warthog_jps2.sh ARCHIVE [OUT_DIR]}
out=${2:-$(mktemp -d /tmp/warthog-jps2.XXXXXX)}
entry=classic/2023/Warthog-JPS2
mkdir -p "$out"
if [[ -d "$archive/$entry" ]]; then
  cp -r "$archive/$entry/." "$out/"
else  # a bare clone: take the entry's files from its HEAD
  git --git-dir="$archive" archive HEAD "$entry" | tar -x -C "$out" --strip-components=3
fi
cd "$out"
MAKEFLAGS="-j$(nproc)" bash compile.sh >build.log 2>&1 || { tail -20 build.log >&2; exit 1; }
echo "$out/run"
