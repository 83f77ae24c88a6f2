#!/usr/bin/env python3
"""Compares bin/experiment result directories: each step, and how steady the budget was in each CPU phase (share of
its 100 ms samples within 10 % of the median of the phase's last 10 s) and when it settled. Usage: compare.py DIR..."""
import csv, sys, statistics as st
for d in sys.argv[1:]:
    print("==", d)
    for r in csv.DictReader(open(f"{d}/steps.csv")):
        print(f"  {r['users_per_sec']:>4}/s replies {float(r['throughput_replies_per_s']):7.1f} sess {float(r['completed_sessions_per_s']):5.1f} "
              f"refused {float(r['refused_connections_per_s']):6.1f} cpu {float(r['server_cpu_pct']):5.1f} p99 {r['page_p99_ms']:>5} "
              f"first {r['first_page_p99_ms']:>5} later {r['later_page_p99_ms']:>5} timeouts {r['timeouts_per_s']} resumed {r['resumed_share']}")
    for kind in ("cpu-change", "cpu-quota-change"):
        try:
            resp = list(csv.DictReader(open(f"{d}/{kind}-response.csv")))
            rows = list(csv.DictReader(open(f"{d}/{kind}-budget.csv")))
        except FileNotFoundError:
            continue
        phases = []
        for r in rows:
            c = r['server_cpus']
            if not phases or phases[-1][0] != c:
                phases.append((c, []))
            phases[-1][1].append((int(r['ms']), float(r['budget_full_handshakes_per_s'])))
        out = []
        for c, s in phases:
            end = s[-1][0]
            late = [v for t, v in s if t >= end - 10000]
            med = st.median(late)
            within = sum(abs(v - med) <= 0.1 * med for v in late) / len(late)
            out.append(f"{c}cpu med {med:.0f} within10 {within:.2f}")
        print(f"  {kind}: " + "; ".join(out) + " | settle " + ", ".join(f"{r['change']} {r['rate_before']}->{r['steady_rate']} in {r['seconds_to_within_10pct'] or 'never'}" for r in resp))
