#!/usr/bin/env bash
# entrypoint_test.sh WALKD_BIN WALKCTL_BIN — test deploy/docker-entrypoint.sh outside Docker.
#
#   tests/deploy/entrypoint_test.sh build/server/walkd build/client/walkctl
#
# 1. Environment -> flag mapping, with a stand-in binary that records its arguments.
# 2. `docker-entrypoint.sh walkctl --help` runs walkctl (and walkgrid, if it sits next to walkctl).
# 3. The real walkd through the entrypoint: WALKD_LISTEN / WALKD_METRICS_LISTEN on free loopback
#    ports, WALKD_DATA in a temp dir, WALKD_SHUTDOWN_GRACE_S=5. Waits (up to 60 s) for
#    `walkctl health` to succeed, checks that the entrypoint's PID now IS walkd (exec), fetches
#    /metrics, /healthz and /readyz, sends SIGTERM and expects exit status 0, then checks the
#    "walkd: grpc listening on ..." and "walkd: metrics on ..." lines in its output.
# 4. Same again with WALKD_CONFIG=deploy/walkd.toml (environment overrides the file's addresses).
# Everything it starts is killed and the temp dir removed on any exit.

set -u

usage() {
  echo "usage: $0 WALKD_BIN WALKCTL_BIN" >&2
  exit 2
}
[ $# -eq 2 ] || usage

abspath() { (cd -- "$(dirname -- "$1")" && printf '%s/%s\n' "$(pwd)" "$(basename -- "$1")"); }
[ -x "$1" ] || { echo "FAIL: walkd binary $1 is not executable" >&2; exit 1; }
[ -x "$2" ] || { echo "FAIL: walkctl binary $2 is not executable" >&2; exit 1; }
WALKD=$(abspath "$1")
WALKCTL=$(abspath "$2")

here=$(cd -- "$(dirname -- "$0")" && pwd)
root=$(cd -- "$here/../.." && pwd)
entry="$root/deploy/docker-entrypoint.sh"
[ -x "$entry" ] || { echo "FAIL: $entry is missing or not executable" >&2; exit 1; }

# A hermetic environment: none of the entrypoint's variables leak in from the caller.
unset WALKD_LISTEN WALKD_METRICS_LISTEN WALKD_DATA WALKD_WORLDS WALKD_CONFIG \
  WALKD_SHUTDOWN_GRACE_S WALKD_SEARCH_THREADS WALKD_BIN WALKCTL_BIN WALKGRID_BIN WALKD_ENTRYPOINT_QUIET

tmp=$(mktemp -d "${TMPDIR:-/tmp}/walkd-entrypoint-test.XXXXXX")
pid=""   # the daemon currently running, if any
log=""

cleanup() {
  local rc=$?
  if [ -n "$pid" ] && kill -0 "$pid" 2> /dev/null; then
    echo "cleanup: stopping pid $pid"
    kill -TERM "$pid" 2> /dev/null
    for _ in 1 2 3 4 5 6 7 8 9 10; do
      kill -0 "$pid" 2> /dev/null || break
      sleep 0.5
    done
    kill -KILL "$pid" 2> /dev/null
    wait "$pid" 2> /dev/null
  fi
  rm -rf "$tmp"
  exit "$rc"
}
trap cleanup EXIT
trap 'echo "interrupted"; exit 130' INT TERM

step() { echo "==> $*"; }
pass() { echo "    ok: $*"; }
fail() {
  echo "FAIL: $*"
  if [ -n "$log" ] && [ -s "$log" ]; then
    echo "---- output of the process under test ($log) ----"
    tail -n 40 "$log"
    echo "----"
  fi
  exit 1
}

with_timeout() { # SECONDS CMD...: run CMD, killed after SECONDS when coreutils timeout exists
  local s=$1
  shift
  if command -v timeout > /dev/null 2>&1; then timeout "$s" "$@"; else "$@"; fi
}

free_ports() { # print two distinct free TCP ports on 127.0.0.1
  python3 - << 'EOF'
import socket
socks = []
for _ in range(2):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
for s in socks:
    s.close()
EOF
}

http_get() { # URL -> prints "STATUS\nBODY"; never fails
  python3 - "$1" << 'EOF'
import sys, urllib.request, urllib.error
try:
    with urllib.request.urlopen(sys.argv[1], timeout=5) as r:
        body = r.read().decode("utf-8", "replace")
        print(r.status)
        print(body)
except urllib.error.HTTPError as e:
    print(e.code)
    print(e.read().decode("utf-8", "replace"))
except Exception as e:
    print(0)
    print(f"{type(e).__name__}: {e}")
EOF
}

# ------------------------------------------------------------------------------------------
step "1. environment -> walkd flags (stand-in binary that records its arguments)"
recorder="$tmp/record-args"
cat > "$recorder" << 'EOF'
#!/bin/sh
for a in "$@"; do printf '%s\n' "$a"; done
EOF
chmod +x "$recorder"

expect_args() { # NAME EXPECTED(newline-separated) -- ENV... -- ARGS...
  local name=$1 expected=$2
  shift 2
  local envs=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  local got
  got=$(env "${envs[@]}" WALKD_BIN="$recorder" WALKD_ENTRYPOINT_QUIET=1 "$entry" "$@") \
    || fail "$name: entrypoint exited with $?"
  if [ "$got" != "$expected" ]; then
    echo "expected:"; printf '%s\n' "$expected" | sed 's/^/    /'
    echo "got:"; printf '%s\n' "$got" | sed 's/^/    /'
    fail "$name: wrong walkd command line"
  fi
  pass "$name"
}

nl=$'\n'
expect_args "container defaults" \
  "--listen${nl}0.0.0.0:50051${nl}--metrics-listen${nl}0.0.0.0:9464${nl}--data${nl}/var/lib/walkd" --
expect_args "every variable, extra arguments passed through in order" \
  "--listen${nl}127.0.0.1:1${nl}--metrics-listen${nl}127.0.0.1:2${nl}--data${nl}/d${nl}--worlds${nl}/w${nl}--shutdown-grace-s${nl}7${nl}--search-threads${nl}3${nl}--extra${nl}with space" \
  WALKD_LISTEN=127.0.0.1:1 WALKD_METRICS_LISTEN=127.0.0.1:2 WALKD_DATA=/d WALKD_WORLDS=/w WALKD_SHUTDOWN_GRACE_S=7 \
  WALKD_SEARCH_THREADS=3 \
  -- --extra "with space"
expect_args "WALKD_CONFIG alone: no container defaults override the file" \
  "--config${nl}/etc/walkd/walkd.toml" WALKD_CONFIG=/etc/walkd/walkd.toml --
expect_args "WALKD_CONFIG plus an explicit variable" \
  "--config${nl}/c.toml${nl}--metrics-listen${nl}127.0.0.1:2" WALKD_CONFIG=/c.toml WALKD_METRICS_LISTEN=127.0.0.1:2 --
expect_args "a flag on the command line wins over its variable" \
  "--metrics-listen${nl}0.0.0.0:9464${nl}--data${nl}/var/lib/walkd${nl}--listen=127.0.0.1:3" \
  WALKD_LISTEN=127.0.0.1:1 -- --listen=127.0.0.1:3
expect_args "leading 'walkd' word is dropped" \
  "--listen${nl}0.0.0.0:50051${nl}--metrics-listen${nl}0.0.0.0:9464${nl}--data${nl}/d2${nl}--help" \
  -- walkd --data /d2 --help
got=$("$entry" echo other command) || fail "entrypoint did not run 'echo'"
[ "$got" = "other command" ] || fail "other commands should be exec'd as is, got: $got"
pass "any other command is exec'd as is"

# ------------------------------------------------------------------------------------------
step "2. 'docker-entrypoint.sh walkctl --help' runs walkctl"
want=$("$WALKCTL" --help 2>&1)
want_rc=$?
got=$(WALKCTL_BIN="$WALKCTL" "$entry" walkctl --help 2>&1)
got_rc=$?
[ "$got_rc" = "$want_rc" ] || fail "exit status $got_rc, walkctl --help itself gives $want_rc"
[ "$got" = "$want" ] || fail "output differs from walkctl --help:${nl}$got"
[ -n "$got" ] || fail "walkctl --help printed nothing"
pass "same output and exit status ($got_rc) as $WALKCTL --help"
walkgrid="$(dirname "$WALKCTL")/walkgrid"
if [ -x "$walkgrid" ]; then
  want=$("$walkgrid" --help 2>&1)
  want_rc=$?
  got=$(WALKGRID_BIN="$walkgrid" "$entry" walkgrid --help 2>&1)
  got_rc=$?
  if [ "$got_rc" != "$want_rc" ] || [ "$got" != "$want" ]; then
    fail "'docker-entrypoint.sh walkgrid --help' differs from walkgrid --help"
  fi
  pass "walkgrid dispatch works too"
else
  echo "    (no walkgrid next to walkctl: walkgrid dispatch not tested)"
fi

# ------------------------------------------------------------------------------------------
# start_daemon NAME ENV...: start walkd through the entrypoint in the background; sets pid, log,
# gport, mport.
start_daemon() {
  local name=$1
  shift
  read -r gport mport < <(free_ports)
  if [ -z "${gport:-}" ] || [ -z "${mport:-}" ]; then fail "could not pick free ports"; fi
  log="$tmp/$name.log"
  mkdir -p "$tmp/data"
  # The tests' shared default world (WALKD_TEST_DEFAULT_WORLD), rather than one made again.
  if [ -f "${WALKD_TEST_DEFAULT_WORLD:-}/grid.walkgrid" ] && [ ! -e "$tmp/data/default-world" ]; then
    ln -s "$WALKD_TEST_DEFAULT_WORLD" "$tmp/data/default-world"
  fi
  echo "    starting: WALKD_BIN=$WALKD WALKD_LISTEN=127.0.0.1:$gport WALKD_METRICS_LISTEN=127.0.0.1:$mport WALKD_DATA=$tmp/data WALKD_SHUTDOWN_GRACE_S=5 $* $entry"
  env "$@" WALKD_BIN="$WALKD" WALKD_LISTEN="127.0.0.1:$gport" WALKD_METRICS_LISTEN="127.0.0.1:$mport" \
    WALKD_DATA="$tmp/data" WALKD_SHUTDOWN_GRACE_S=5 WALKD_ADDRESS_FILE="$tmp/address" \
    "$entry" > "$log" 2>&1 < /dev/null &
  pid=$!
  echo "    pid $pid, output in $log"
}

# wait_healthy SECONDS: poll `walkctl health` until it exits 0 (SECONDS times WALK_TEST_PATIENCE).
wait_healthy() {
  local limit=$(($1 * ${WALK_TEST_PATIENCE:-1})) start=$SECONDS tries=0
  while :; do
    if ! kill -0 "$pid" 2> /dev/null; then
      wait "$pid"
      local rc=$?
      pid=""
      fail "walkd exited with status $rc before becoming healthy"
    fi
    tries=$((tries + 1))
    with_timeout 10 "$WALKCTL" health --addr "127.0.0.1:$gport" --timeout-s 2 > "$tmp/health.out" 2>&1
    local hrc=$?
    if [ "$hrc" -eq 0 ]; then
      pass "walkctl health --addr 127.0.0.1:$gport exits 0 after $((SECONDS - start)) s ($tries tries)"
      return 0
    fi
    if [ "$hrc" -eq 2 ]; then # walkctl: bad usage; waiting will not help
      sed 's/^/      /' "$tmp/health.out"
      fail "'walkctl health --addr HOST:PORT --timeout-s 2' was rejected as bad usage (exit 2)"
    fi
    if [ $((SECONDS - start)) -ge "$limit" ]; then
      echo "    last walkctl health output:"
      sed 's/^/      /' "$tmp/health.out"
      fail "walkd not healthy within $limit s"
    fi
    sleep 0.5
  done
}

check_is_walkd() { # the entrypoint must have exec'd: its PID is now walkd itself
  if [ -r "/proc/$pid/comm" ]; then
    local comm want
    comm=$(cat "/proc/$pid/comm")
    want=$(basename "$WALKD" | cut -c1-15)
    [ "$comm" = "$want" ] || fail "pid $pid runs '$comm', not '$want': the entrypoint did not exec walkd"
    tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q -- "--listen 127.0.0.1:$gport" \
      || fail "walkd command line lacks --listen 127.0.0.1:$gport: $(tr '\0' ' ' < "/proc/$pid/cmdline")"
    pass "pid $pid is $comm itself (exec), command line: $(tr '\0' ' ' < "/proc/$pid/cmdline")"
  else
    echo "    (no /proc: exec check skipped)"
  fi
}

check_http() {
  local out status
  out=$(http_get "http://127.0.0.1:$mport/metrics")
  status=$(head -n 1 <<< "$out")
  [ "$status" = 200 ] || fail "GET /metrics: status $status: $(sed -n 2p <<< "$out")"
  grep -qE '^(walk_requests_total|process_resident_memory_bytes)' <<< "$out" \
    || fail "/metrics has neither walk_requests_total nor process_resident_memory_bytes"
  pass "GET http://127.0.0.1:$mport/metrics: 200, $(($(wc -l <<< "$out") - 1)) lines, walkd metrics present"
  for path in /healthz /readyz; do
    out=$(http_get "http://127.0.0.1:$mport$path")
    status=$(head -n 1 <<< "$out")
    [ "$status" = 200 ] || fail "GET $path: status $status (expected 200 while serving)"
    pass "GET $path: 200"
  done
}

# alive PID: the process exists and is not a zombie (bash may reap it at any time; then it is gone).
alive() {
  if [ -r "/proc/$1/stat" ]; then
    local state
    state=$(sed 's/^.*) //' "/proc/$1/stat" 2> /dev/null | cut -d' ' -f1)
    [ -n "$state" ] && [ "$state" != Z ]
  else
    kill -0 "$1" 2> /dev/null
  fi
}

# stop_daemon SECONDS: SIGTERM, wait for the exit (bounded, times WALK_TEST_PATIENCE), expect 0.
stop_daemon() {
  local limit=$(($1 * ${WALK_TEST_PATIENCE:-1})) start=$SECONDS rc
  kill -TERM "$pid" || fail "could not signal pid $pid"
  while alive "$pid"; do
    if [ $((SECONDS - start)) -ge "$limit" ]; then
      kill -KILL "$pid" 2> /dev/null
      wait "$pid" 2> /dev/null
      pid=""
      fail "walkd did not exit within $limit s of SIGTERM (killed it)"
    fi
    sleep 0.2
  done
  wait "$pid"
  rc=$?
  pid=""
  [ "$rc" -ne 143 ] || fail "walkd was killed by SIGTERM (status 143): it must catch SIGTERM, drain and exit 0"
  [ "$rc" -eq 0 ] || fail "walkd exited with status $rc after SIGTERM, expected 0"
  pass "SIGTERM -> exit status 0 after $((SECONDS - start)) s"
}

check_banner() {
  grep -qF "walkd: grpc listening on 127.0.0.1:$gport" "$log" \
    || fail "output lacks 'walkd: grpc listening on 127.0.0.1:$gport'"
  grep -qF "walkd: metrics on http://127.0.0.1:$mport/metrics" "$log" \
    || fail "output lacks 'walkd: metrics on http://127.0.0.1:$mport/metrics'"
  pass "printed 'walkd: grpc listening on ...' and 'walkd: metrics on ...'"
}

# check_health_command: the image's HEALTHCHECK (`docker-entrypoint.sh health`) asks the port
# walkd was started on (not 50051), from the address the entrypoint recorded.
check_health_command() {
  [ "$(cat "$tmp/address")" = "127.0.0.1:$gport" ] \
    || fail "the entrypoint recorded '$(cat "$tmp/address" 2> /dev/null)', not 127.0.0.1:$gport"
  env -u WALKD_LISTEN WALKCTL_BIN="$WALKCTL" WALKD_ADDRESS_FILE="$tmp/address" "$entry" health \
    > "$tmp/hc.out" 2>&1 || { sed 's/^/      /' "$tmp/hc.out"; fail "docker-entrypoint.sh health failed"; }
  pass "docker-entrypoint.sh health asks 127.0.0.1:$gport and exits 0"
}

step "3. walkd through the entrypoint"
start_daemon walkd
wait_healthy 60
check_health_command
check_is_walkd
check_http
stop_daemon 20
check_banner

step "4. walkd through the entrypoint with WALKD_CONFIG=deploy/walkd.toml"
start_daemon walkd-config WALKD_CONFIG="$root/deploy/walkd.toml"
wait_healthy 30
check_is_walkd
stop_daemon 20
check_banner

echo "entrypoint_test: all checks passed"
