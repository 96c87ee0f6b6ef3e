#!/bin/sh
# promtool_config_test.sh — validate the Prometheus config and alerting rules in deploy/prometheus.
#
#   tests/deploy/promtool_config_test.sh        (from anywhere; the repo root is found from here)
#
# 1. promtool check config deploy/prometheus/prometheus.yml   (also loads rule_files)
# 2. promtool check rules  deploy/prometheus/alerts.yml
# 3. promtool test rules  deploy/prometheus/alerts_test.yml: each alert fires on synthetic series
#    that should trigger it and stays quiet on series that should not.
# 4. promtool check rules  on the Grafana dashboard's expressions wrapped as recording rules.
# Exit 77 (CTest SKIP_RETURN_CODE) when promtool is not installed. PROMTOOL=/path overrides.

set -eu

here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
root=$(CDPATH='' cd -- "$here/../.." && pwd)
promtool=${PROMTOOL:-promtool}

if ! command -v "$promtool" > /dev/null 2>&1; then
  echo "SKIP: promtool not found (install the Debian package 'prometheus' or set PROMTOOL)"
  exit 77
fi

cd "$root"
echo "using $(command -v "$promtool") ($("$promtool" --version 2>&1 | head -n 1))"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

failed=0
run() {
  echo "+ $*"
  if ! "$@"; then
    echo "FAILED: $*"
    failed=$((failed + 1))
  fi
}

run "$promtool" check config deploy/prometheus/prometheus.yml
run "$promtool" check rules deploy/prometheus/alerts.yml

# Rule unit tests, committed beside the rules (check_deploy.py checks that every alert is tested
# both firing and quiet).
run "$promtool" test rules deploy/prometheus/alerts_test.yml

# The Grafana dashboard's PromQL must parse: wrap every target expr (with the Grafana variables
# replaced by plain values) into a recording rule and let promtool check it.
if command -v python3 > /dev/null 2>&1; then
  python3 - "$root/deploy/grafana/dashboards/walkd.json" "$tmp/dashboard_rules.yml" <<'EOF'
import json, sys
dash = json.load(open(sys.argv[1]))
subst = {"$__rate_interval": "1m", "$__interval": "1m", "$__range": "1h",
         "$job": "walkd", "$instance": ".*"}
lines = ["groups:", "  - name: dashboard_exprs", "    rules:"]
n = 0
for panel in dash.get("panels", []):
    for target in panel.get("targets", []):
        expr = target.get("expr", "")
        for k in sorted(subst, key=len, reverse=True):
            expr = expr.replace(k, subst[k])
        n += 1
        lines.append(f"      - record: dashboard:expr_{n}")
        lines.append(f"        expr: {json.dumps(expr)}")
open(sys.argv[2], "w").write("\n".join(lines) + "\n")
print(f"wrote {n} dashboard expressions")
EOF
  run "$promtool" check rules "$tmp/dashboard_rules.yml"
else
  echo "note: python3 not found, dashboard PromQL not checked"
fi

if [ "$failed" -ne 0 ]; then
  echo "promtool_config_test: $failed check(s) failed"
  exit 1
fi
echo "promtool_config_test: all checks passed"
