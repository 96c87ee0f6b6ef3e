#!/bin/sh
# promtool_config_test.sh — validate the Prometheus config and alerting rules in deploy/prometheus.
#
#   tests/deploy/promtool_config_test.sh        (from anywhere; the repo root is found from here)
#
# 1. promtool check config deploy/prometheus/prometheus.yml   (also loads rule_files)
# 2. promtool check rules  deploy/prometheus/alerts.yml
# 3. promtool test rules   on a generated unit test: each alert fires on synthetic series that
#    should trigger it and stays quiet on series that should not.
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

# Rule unit tests. Absolute rule_files path: promtool resolves relative ones against the test
# file's directory, which is a temp dir here.
cat > "$tmp/alerts_test.yml" <<EOF
rule_files:
  - "$root/deploy/prometheus/alerts.yml"
evaluation_interval: 1m
tests:
  # A scrape target that is down; a healthy one must not alert.
  - interval: 1m
    input_series:
      - series: 'up{job="walkd", instance="a:9464"}'
        values: '1 1 0 0 0 0 0 0'
      - series: 'up{job="walkd", instance="b:9464"}'
        values: '1 1 1 1 1 1 1 1'
    alert_rule_test:
      - eval_time: 2m
        alertname: WalkdDown
        exp_alerts: []
      - eval_time: 5m
        alertname: WalkdDown
        exp_alerts:
          - exp_labels: {severity: critical, job: walkd, instance: "a:9464"}
            exp_annotations:
              summary: "walkd target a:9464 is down"
              description: "Prometheus has failed to scrape a:9464 (job walkd) for more than 1 minute."
      - eval_time: 10m
        alertname: WalkdTargetMissing
        exp_alerts: []

  # No walkd target at all.
  - interval: 1m
    input_series:
      - series: 'up{job="other", instance="x:1"}'
        values: '1x20'
    alert_rule_test:
      - eval_time: 10m
        alertname: WalkdTargetMissing
        exp_alerts:
          - exp_labels: {severity: critical, job: walkd}
            exp_annotations:
              summary: "No walkd target is being scraped"
              description: "There is no up{job=\"walkd\"} series: service discovery finds no walkd instance."

  # Instance a: 1 req/s OK + 0.2 req/s INTERNAL (17% errors) -> alert.
  # Instance b: 1 req/s OK + 0.5 req/s INVALID_ARGUMENT (client errors) -> no alert.
  # Instance c: idle, a single INTERNAL error -> no alert (below the minimum rate).
  - interval: 1m
    input_series:
      - series: 'walk_requests_total{job="walkd", instance="a", method="Walk", code="OK"}'
        values: '0+60x30'
      - series: 'walk_requests_total{job="walkd", instance="a", method="Walk", code="INTERNAL"}'
        values: '0+12x30'
      - series: 'walk_requests_total{job="walkd", instance="b", method="Walk", code="OK"}'
        values: '0+60x30'
      - series: 'walk_requests_total{job="walkd", instance="b", method="Walk", code="INVALID_ARGUMENT"}'
        values: '0+30x30'
      - series: 'walk_requests_total{job="walkd", instance="c", method="Walk", code="OK"}'
        values: '0x30'
      - series: 'walk_requests_total{job="walkd", instance="c", method="Walk", code="INTERNAL"}'
        values: '0x10 1x20'
    alert_rule_test:
      - eval_time: 5m
        alertname: WalkdHighErrorRatio
        exp_alerts: []
      - eval_time: 20m
        alertname: WalkdHighErrorRatio
        exp_alerts:
          - exp_labels: {severity: warning, job: walkd, instance: a}
            exp_annotations:
              summary: "walkd a: 16.67% of requests fail"
              description: "More than 5% of gRPC requests on a ended with a server-side error code over the last 10 minutes."

  # Instance a: every Walk takes between 0.5 s and 2 s -> p99 ~ 2 s -> alert.
  # Instance b: everything under 0.1 s -> no alert.
  - interval: 1m
    input_series:
      - series: 'walk_request_duration_seconds_bucket{job="walkd", instance="a", method="Walk", le="0.1"}'
        values: '0x30'
      - series: 'walk_request_duration_seconds_bucket{job="walkd", instance="a", method="Walk", le="0.5"}'
        values: '0x30'
      - series: 'walk_request_duration_seconds_bucket{job="walkd", instance="a", method="Walk", le="2"}'
        values: '0+60x30'
      - series: 'walk_request_duration_seconds_bucket{job="walkd", instance="a", method="Walk", le="+Inf"}'
        values: '0+60x30'
      - series: 'walk_request_duration_seconds_bucket{job="walkd", instance="b", method="Walk", le="0.1"}'
        values: '0+60x30'
      - series: 'walk_request_duration_seconds_bucket{job="walkd", instance="b", method="Walk", le="0.5"}'
        values: '0+60x30'
      - series: 'walk_request_duration_seconds_bucket{job="walkd", instance="b", method="Walk", le="2"}'
        values: '0+60x30'
      - series: 'walk_request_duration_seconds_bucket{job="walkd", instance="b", method="Walk", le="+Inf"}'
        values: '0+60x30'
    alert_rule_test:
      - eval_time: 20m
        alertname: WalkdHighLatencyP99
        exp_alerts:
          - exp_labels: {severity: warning, job: walkd, instance: a, method: Walk}
            exp_annotations:
              summary: "walkd a: p99 latency of Walk is 1.985s"
              description: "The 99th percentile of Walk request duration has been above 500ms for 10 minutes."

  # Instance a lost its worlds; instance b has two.
  - interval: 1m
    input_series:
      - series: 'walk_worlds_loaded{job="walkd", instance="a"}'
        values: '1 1 0x20'
      - series: 'walk_worlds_loaded{job="walkd", instance="b"}'
        values: '2x22'
    alert_rule_test:
      - eval_time: 4m
        alertname: WalkdNoWorldsLoaded
        exp_alerts: []
      - eval_time: 10m
        alertname: WalkdNoWorldsLoaded
        exp_alerts:
          - exp_labels: {severity: critical, job: walkd, instance: a}
            exp_annotations:
              summary: "walkd a has no worlds loaded"
              description: "walk_worlds_loaded is 0: every Walk call fails. Check --worlds / --data and the walkd log."
EOF
run "$promtool" test rules "$tmp/alerts_test.yml"

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
