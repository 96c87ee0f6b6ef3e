#!/usr/bin/env python3
"""prometheus_live_test.py WALKD_BIN WALKCTL_BIN: a real Prometheus scrapes a real walkd.

    tests/deploy/prometheus_live_test.py build/server/walkd build/client/walkctl

1. Starts walkd on ephemeral loopback ports with a small live world (--live-worlds).
2. Starts Prometheus on a free loopback port with deploy/prometheus/prometheus.yml, the target
   replaced by walkd's metrics address, a 1 s scrape and evaluation interval, and alerts.yml.
3. Sends two rounds of traffic (walkctl: walks, an off-map walk, an unknown world, a batch, a
   table, info, health; the Python client: live paths, a cache hit, an update, reachability,
   nearest), each round waited for in Prometheus, so counters have risen between scrapes.
4. Asks Prometheus's HTTP API for every metric family docs/operations.md lists (Metrics), and
   checks that walkd exports no walk_/process_/exposer_ family the page leaves out.
5. Checks every rule of alerts.yml evaluates without error in the real Prometheus.
6. Evaluates every PromQL expression of deploy/grafana/dashboards/walkd.json (Grafana's
   variables replaced) and the variables' queries: each must parse and return data, and each
   panel query at least one finite value.
Exit 77 when Prometheus is not installed (Debian package 'prometheus'; PROMETHEUS=/path).
"""

import json
import math
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import walkd_harness as h  # noqa: E402
from check_deploy import load_yaml  # noqa: E402

# Families that appear only after an event this test cannot cause on its own, and why.
EXPECTED_ABSENT = {
    "walk_hybrid_walks_total": "counts hybrid walks, which need a world with a navmesh; the "
                               "test serves the generated default world, which has none",
}
# Grafana's variables, as the dashboard test evaluates them.
GRAFANA_VARIABLES = {
    "$__rate_interval": "1m", "$__interval": "1m", "$__range": "1h",
    "${job}": ".*", "$job": ".*", "${instance}": ".*", "$instance": ".*",
}


def documented_families():
    """The metric names of the table in docs/operations.md's Metrics section."""
    with open(os.path.join(h.ROOT, "docs", "operations.md"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^## Metrics\n(.*?)^#", text, re.S | re.M)
    h.require(m, "docs/operations.md has no '## Metrics' section")
    families = re.findall(r"^\| `([a-z_:][a-z0-9_:]*)` \|", m.group(1), re.M)
    h.require(len(families) >= 10, f"docs/operations.md's Metrics table lists only {families}")
    return families


def scrape_config(metrics_addr, alerts_path):
    docs = load_yaml(os.path.join(h.ROOT, "deploy", "prometheus", "prometheus.yml"))
    h.require(len(docs) == 1, "prometheus.yml should be one document")
    config = docs[0]
    jobs = [j for j in config.get("scrape_configs") or [] if j.get("job_name") == "walkd"]
    h.require(len(jobs) == 1, "prometheus.yml has no single scrape job 'walkd'")
    statics = jobs[0].get("static_configs") or []
    h.require(len(statics) == 1 and statics[0].get("targets"),
              f"job walkd should have one static_configs entry with targets: {statics}")
    statics[0]["targets"] = [metrics_addr]
    # A test cannot wait 15 s a scrape; the timeout may not exceed the interval.
    config.setdefault("global", {})
    config["global"].update(scrape_interval="1s", scrape_timeout="1s", evaluation_interval="1s")
    h.require(config.get("rule_files") == ["alerts.yml"], f"rule_files is {config.get('rule_files')}")
    config["rule_files"] = [alerts_path]
    return config


def walkd_counter_sum(walkd, families):
    """The sum of every sample of `families` in walkd's own /metrics now."""
    status, body = h.http_get(walkd.metrics_url + "/metrics", tries=5)
    h.require(status == 200, f"GET {walkd.metrics_url}/metrics: {status} {body[:200]}")
    total = 0.0
    for line in body.splitlines():
        name = re.split(r"[{ ]", line, 1)[0]
        if name in families:
            total += float(line.rsplit(" ", 1)[1])
    return total


def wait_scraped(prom, walkd):
    """Waits until Prometheus holds walkd's current request and pair counts."""
    families = ("walk_requests_total", "walk_live_requests_total", "walk_batch_pairs_total")
    want = walkd_counter_sum(walkd, families)
    expr = "sum({__name__=~\"%s\", job=\"walkd\"})" % "|".join(families)
    prom.wait_until(expr, lambda r: r and float(r[0]["value"][1]) >= want,
                    f"Prometheus to scrape {want:g} requests and pairs")
    h.ok(f"Prometheus has scraped {want:g} requests and pairs")


def traffic(walkd, client, tmp, round_number):
    w = walkd.walkctl
    w("walk", "--from", "771.9,246.9", "--to", "119.8,861.5", "--profile", "faction-a",
      "--band", "10")
    w("walk", "--from", "771.9,246.9", "--to", "119.8,861.5")
    w("walk", "--from", "100,100", "--to", "120,130", "--search", "grid")
    w("walk", "--from", "100,100", "--to", "5000,5000")  # off the map: an OK reply, off_map
    # Kept, so that the batch's line "a" below is a store hit in the first round already (an
    # off-map answer is never kept: it is no hit).
    w("walk", "--from", "100,100", "--to", "300,320")
    r = w("walk", "--world", "no-such-world", "--from", "1,1", "--to", "2,2", check=False)
    h.require(r.returncode != 0 and "NOT_FOUND" in r.stdout + r.stderr,
              f"a walk in an unknown world should be NOT_FOUND: {r.stdout}{r.stderr}")
    pairs = os.path.join(tmp, "pairs.jsonl")
    with open(pairs, "w") as f:
        f.write('{"id": "a", "from": [100, 100], "to": [300, 320]}\n'
                '{"id": "b", "from": [500, 520], "to": [600, 610], "band": 10}\n'
                '{"id": "c", "from": [100, 100], "to": [5000, 5000]}\n'
                f'{{"id": "d", "from": [{200 + round_number}, 200], "to": [700, 650]}}\n')
    w("batch", pairs, "--out", os.path.join(tmp, f"answers-{round_number}.jsonl"))
    w("table", "--sources", "100,100;200,200", "--targets", "300,300;400,400")
    w("info")
    w("health")
    # LiveService: walkctl has no live calls; the Python client has.
    world = "arena"
    first = client.live_path(world, (1, 1), (22, 14))
    h.require(first.status == client.pb.LIVE_PATH_STATUS_FOUND, f"live path: {first}")
    again = client.live_path(world, (1, 1), (22, 14))
    h.require(again.from_cache or round_number > 1, "the same live path again missed the cache")
    client.reachable(world, (1, 1), (22, 1))
    change = client.pb.BlockerChange(kind=client.pb.BlockerChange.KIND_ADD_BUILDING,
                                     id=100 + round_number, x0=2, y0=2, x1=4, y1=4)
    update = client.update_blockers(world, [change])
    h.require(update.revision >= round_number, f"update: {update}")
    client.live_path(world, (1, 1), (22, 14))
    client.live_stub.Nearest(client.pb.NearestRequest(world=world, cell=client.pb.Cell(x=12, y=5)),
                             timeout=10)
    h.ok(f"traffic round {round_number} sent")


def check_families(prom):
    documented = documented_families()
    missing = []
    for family in documented:
        expr = '{__name__=~"%s(_bucket|_count|_sum)?", job="walkd"}' % family
        found = prom.query(expr)
        if family in EXPECTED_ABSENT:
            h.require(not found, f"{family} now has samples: drop it from EXPECTED_ABSENT")
            h.ok(f"{family}: absent as expected ({EXPECTED_ABSENT[family]})")
        elif found:
            h.ok(f"{family}: {len(found)} series")
        else:
            missing.append(family)
    h.require(not missing, f"no samples in Prometheus for {missing}")
    exported = prom.query('group by (__name__) ({job="walkd", __name__=~"(walk|process|exposer)_.*"})')
    names = {re.sub(r"_(bucket|count|sum)$", "", r["metric"]["__name__"]) for r in exported}
    undocumented = sorted(n for n in names if n not in documented)
    h.require(not undocumented,
              f"walkd exports families docs/operations.md's Metrics table lacks: {undocumented}")
    h.ok(f"{len(documented)} documented families checked, {len(names)} exported, none undocumented")


def check_rules(prom):
    def evaluated(_):
        groups = prom.api("rules", type="alert")["groups"]
        rules = [r for g in groups for r in g["rules"]]
        return rules and all(not r.get("lastEvaluation", "").startswith("0001") for r in rules)

    prom.wait_until("vector(1)", evaluated, "every alert rule evaluated once")
    rules = [r for g in prom.api("rules", type="alert")["groups"] for r in g["rules"]]
    bad = [(r["name"], r.get("lastError")) for r in rules if r.get("health") != "ok"]
    h.require(not bad, f"alert rules that fail to evaluate: {bad}")
    firing = [r["name"] for r in rules if r.get("state") == "firing"]
    h.require(not firing, f"alerts firing against a healthy walkd: {firing}")
    h.ok(f"{len(rules)} alert rules evaluate cleanly, none firing: {[r['name'] for r in rules]}")


def substitute(expr):
    for k in sorted(GRAFANA_VARIABLES, key=len, reverse=True):
        expr = expr.replace(k, GRAFANA_VARIABLES[k])
    return expr


def dashboard_queries():
    with open(os.path.join(h.ROOT, "deploy", "grafana", "dashboards", "walkd.json")) as f:
        dashboard = json.load(f)
    panels = []
    for p in dashboard.get("panels") or []:
        for t in p.get("targets") or []:
            panels.append((f"panel {p.get('title')!r} {t.get('refId')}", substitute(t["expr"])))
    variables = []
    for v in (dashboard.get("templating") or {}).get("list") or []:
        q = v.get("query")
        q = q.get("query", "") if isinstance(q, dict) else (q or "")
        m = re.match(r"^label_values\((.*),\s*\w+\s*\)$", q.strip(), re.S)
        if m:
            variables.append((f"variable {v.get('name')!r}", substitute(m.group(1))))
    return panels, variables


def check_dashboard(prom):
    panels, variables = dashboard_queries()
    h.require(panels, "the dashboard has no queries")
    problems = []
    for what, expr in panels + variables:
        try:
            results = prom.query(expr)
        except h.TestFailure as e:
            problems.append(f"{what}: {e}")
            continue
        values = [float(r["value"][1]) for r in results]
        if not results:
            problems.append(f"{what}: no data for {expr}")
        elif (what, expr) in panels and not any(math.isfinite(v) for v in values):
            problems.append(f"{what}: only NaN/Inf for {expr}: {results}")
        else:
            h.ok(f"{what}: {len(results)} series")
    h.require(not problems, "dashboard queries:\n  " + "\n  ".join(problems))
    h.ok(f"{len(panels)} panel queries and {len(variables)} variable queries return data")


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    walkd_bin, walkctl_bin = (os.path.abspath(a) for a in sys.argv[1:])
    prometheus_bin = os.environ.get("PROMETHEUS") or shutil.which("prometheus")
    if not prometheus_bin:
        print("SKIP: prometheus not found (install the Debian package 'prometheus' or set PROMETHEUS)")
        return h.SKIP
    walkd_client = h.import_client()
    tmp = tempfile.mkdtemp(prefix="walkd-prometheus-test.")
    os.environ["WALKD_CLIENT_CACHE"] = os.path.join(tmp, "stubs")
    walkd = prom = None
    try:
        h.step("walkd with a live world")
        h.write_live_world(os.path.join(tmp, "live", "arena"))
        walkd = h.Walkd(walkd_bin, walkctl_bin, tmp, ["--live-worlds", os.path.join(tmp, "live")])
        walkd.wait_serving()
        client = walkd_client.WalkdClient(walkd.grpc)

        h.step("Prometheus scraping it")
        alerts = os.path.join(h.ROOT, "deploy", "prometheus", "alerts.yml")
        prom = h.Prometheus(prometheus_bin, scrape_config(walkd.metrics_addr, alerts), tmp)
        prom.wait_until('up{job="walkd"} == 1', bool, "walkd's target up")
        h.ok("target up")

        h.step("traffic, in two rounds each seen by Prometheus")
        for round_number in (1, 2):
            traffic(walkd, client, tmp, round_number)
            wait_scraped(prom, walkd)
        client.close()

        h.step("every documented metric family has samples")
        check_families(prom)
        h.step("alert rules in a real Prometheus")
        check_rules(prom)
        h.step("every dashboard query returns data")
        check_dashboard(prom)

        h.step("stop")
        prom.stop()
        prom = None
        walkd.stop()
        walkd = None
    finally:
        if prom:
            prom.stop()
        if walkd:
            walkd.process.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    print("prometheus_live_test: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(h.run_main(main))
