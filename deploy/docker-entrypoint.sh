#!/bin/sh
# docker-entrypoint.sh — container entrypoint for walkd (POSIX sh).
#
#   docker-entrypoint.sh [walkd] [WALKD_FLAGS...]   run walkd; env vars below become flags
#   docker-entrypoint.sh walkctl ARGS...            run walkctl instead (e.g. `walkctl info --addr ...`)
#   docker-entrypoint.sh walkgrid ARGS...           run walkgrid instead
#   docker-entrypoint.sh health                     the HEALTHCHECK: `walkctl health` on the
#                                                   address walkd was started with (below)
#   docker-entrypoint.sh COMMAND ARGS...            any other command is exec'd as is (e.g. `sh`)
#
# Environment -> walkd flag (default when WALKD_CONFIG is NOT set):
#   WALKD_LISTEN            --listen HOST:PORT          (0.0.0.0:50051)
#   WALKD_METRICS_LISTEN    --metrics-listen HOST:PORT  (0.0.0.0:9464)
#   WALKD_DATA              --data DIR                  (/var/lib/walkd)
#   WALKD_WORLDS            --worlds DIR                (unset: embedded "default" world)
#   WALKD_SHUTDOWN_GRACE_S  --shutdown-grace-s N        (unset: walkd's own default, 10)
#   WALKD_SEARCH_THREADS    --search-threads N          (unset: walkd's own default, 0 = one per core)
#   WALKD_CONFIG            --config FILE               (unset)
# When WALKD_CONFIG is set, only the variables that are actually set are turned into flags, so
# the config file's values are not overridden by the container defaults.
# A flag given explicitly on the command line wins over its environment variable (the variable
# is then not passed at all, so walkd never sees the flag twice).
#
# Binary overrides (for tests outside the image): WALKD_BIN, WALKCTL_BIN, WALKGRID_BIN
# (defaults: walkd, walkctl, walkgrid on PATH). Set WALKD_ENTRYPOINT_QUIET=1 to silence the
# one-line "exec ..." log on stderr.
#
# The final step is always `exec`, so walkd replaces this shell: it keeps the PID (PID 1 in a
# container) and receives SIGTERM from `docker stop` / Kubernetes directly.
#
# Before it execs walkd, the entrypoint writes the gRPC address walkd listens on (its --listen:
# from the command line, WALKD_LISTEN, the config file's `listen`, or the default) to
# WALKD_ADDRESS_FILE (/tmp/walkd-address), so the HEALTHCHECK asks the port walkd really uses.

set -eu

address_file=${WALKD_ADDRESS_FILE:-/tmp/walkd-address}

case "${1-}" in
  walkctl)
    shift
    exec "${WALKCTL_BIN:-walkctl}" "$@"
    ;;
  walkgrid)
    shift
    exec "${WALKGRID_BIN:-walkgrid}" "$@"
    ;;
  health)
    # A wildcard host is asked on loopback; the default when walkd has not started yet.
    address=$(cat "$address_file" 2> /dev/null || echo "${WALKD_LISTEN:-0.0.0.0:50051}")
    host=${address%:*}
    port=${address##*:}
    case "$host" in '' | 0.0.0.0 | '[::]' | '::') host=127.0.0.1 ;; esac
    exec "${WALKCTL_BIN:-walkctl}" health --addr "$host:$port" --timeout-s 2
    ;;
  walkd)
    shift
    ;;
  '' | -*)
    ;;
  *)
    exec "$@"
    ;;
esac

# has_flag NAME ARGS...: true if --NAME or --NAME=... appears among ARGS (before a bare "--").
has_flag() {
  _name=$1
  shift
  for _arg in "$@"; do
    case "$_arg" in
      --) return 1 ;;
      "--$_name" | "--$_name="*) return 0 ;;
    esac
  done
  return 1
}

# Container defaults apply only without a config file.
if [ -n "${WALKD_CONFIG-}" ]; then
  listen=${WALKD_LISTEN-}
  metrics_listen=${WALKD_METRICS_LISTEN-}
  data=${WALKD_DATA-}
else
  listen=${WALKD_LISTEN:-0.0.0.0:50051}
  metrics_listen=${WALKD_METRICS_LISTEN:-0.0.0.0:9464}
  data=${WALKD_DATA:-/var/lib/walkd}
fi
worlds=${WALKD_WORLDS-}
grace=${WALKD_SHUTDOWN_GRACE_S-}
search_threads=${WALKD_SEARCH_THREADS-}
config=${WALKD_CONFIG-}

# Prepend flags in reverse order so the final command line reads
#   walkd --config F --listen A --metrics-listen B --data D --worlds W --shutdown-grace-s N
#         --search-threads T ARGS...
if [ -n "$search_threads" ] && ! has_flag search-threads "$@"; then set -- --search-threads "$search_threads" "$@"; fi
if [ -n "$grace" ] && ! has_flag shutdown-grace-s "$@"; then set -- --shutdown-grace-s "$grace" "$@"; fi
if [ -n "$worlds" ] && ! has_flag worlds "$@"; then set -- --worlds "$worlds" "$@"; fi
if [ -n "$data" ] && ! has_flag data "$@"; then set -- --data "$data" "$@"; fi
if [ -n "$metrics_listen" ] && ! has_flag metrics-listen "$@"; then set -- --metrics-listen "$metrics_listen" "$@"; fi
if [ -n "$listen" ] && ! has_flag listen "$@"; then set -- --listen "$listen" "$@"; fi
if [ -n "$config" ] && ! has_flag config "$@"; then set -- --config "$config" "$@"; fi

walkd_bin=${WALKD_BIN:-walkd}

# flag_value NAME ARGS...: the value of --NAME VALUE or --NAME=VALUE among ARGS (the last one).
flag_value() {
  _name=$1
  shift
  _value=
  while [ $# -gt 0 ]; do
    case "$1" in
      --) break ;;
      "--$_name") [ $# -gt 1 ] && _value=$2 ;;
      "--$_name="*) _value=${1#--"$_name"=} ;;
    esac
    shift
  done
  printf '%s' "$_value"
}

effective_listen=$(flag_value listen "$@")
if [ -z "$effective_listen" ] && [ -n "$config" ] && [ -r "$config" ]; then
  effective_listen=$(sed -n 's/^ *listen *= *"\([^"]*\)".*/\1/p' "$config" | tail -n 1)
fi
printf '%s\n' "${effective_listen:-0.0.0.0:50051}" > "$address_file" 2> /dev/null || true

if [ "${WALKD_ENTRYPOINT_QUIET:-0}" != 1 ]; then
  echo "docker-entrypoint: exec $walkd_bin $*" >&2
fi

exec "$walkd_bin" "$@"
