#!/usr/bin/env bash
# Builds the GPPC entry 2019-SGCH-JPD (Harabor, Uras, Stuckey and Koenig's subgoal graphs over
# diagonal-first jump points, contracted into a hierarchy; the baseline of
# bench/movingai_all.py --sgch) from a copy of gppc-dev/algorithm-archive, with the entry's own
# compile.sh, in a temporary folder that is never part of this repository. Prints the path of the
# built `run`. The entry preprocesses each map (`run -pre MAP`) into index_data/ under the folder
# it runs in, then answers a scenario file from that index (`run -run MAP SCEN`).
#
# Usage: bench/build_sgch_jpd.sh ARCHIVE [OUT_DIR]
#   ARCHIVE  a checkout (or a bare clone) of https://github.com/gppc-dev/algorithm-archive
#   OUT_DIR  where to build (default: a new folder under /tmp)
set -euo pipefail
archive=${1:?usage: bench/build_sgch_jpd.sh ARCHIVE [OUT_DIR]}
out=${2:-$(mktemp -d /tmp/sgch-jpd.XXXXXX)}
entry=classic/2023/2019-SGCH-JPD
mkdir -p "$out"
if [[ -d "$archive/$entry" ]]; then
  cp -r "$archive/$entry/." "$out/"
else  # a bare clone: take the entry's tree from its HEAD (only that tree, so blobs of other
  # entries that a partial mirror lacks are never read)
  git --git-dir="$archive" archive "HEAD:$entry" | tar -x -C "$out"
fi
cd "$out"
bash compile.sh >build.log 2>&1 || { tail -20 build.log >&2; exit 1; }
echo "$out/run"
