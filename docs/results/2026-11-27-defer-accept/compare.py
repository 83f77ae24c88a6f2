#!/usr/bin/env python3
"""The figures of docs/benchmarks.md section 4, "2026-11-27", from this directory.

old1..N: main before TCP_DEFER_ACCEPT (73cff11); new1..N: with it (f218be2); alternated old1, new1, old2, ...
Per step (multiple of the knee, KNEE in the environment, 36 unless set): each round's figure, the medians, and new / old
of the medians. Usage: compare.py [DIR]; KNEE=90 compare.py knee-90 for the first, aborted, rounds.
"""
import csv
import gzip
import os
import statistics as st
import sys

HERE = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
KNEE = float(os.environ.get("KNEE", 36))
FIGURES = [('completed_sessions_per_s', 'sessions/s', '{:.1f}'),
           ('throughput_replies_per_s', 'replies/s', '{:.0f}'),
           ('page_p99_ms', 'page p99 ms', '{:.0f}'),
           ('server_cpu_pct', 'Tomcat CPU %', '{:.1f}'),
           ('refused_connections_per_s', 'refused/s', '{:.0f}'),
           ('timeouts_per_s', 'timeouts/s', '{:.1f}'),
           ('driver_cpu_pct', 'Gatling CPU %', '{:.0f}'),
           ('server_cpus_steal_pct', 'CPU 0 stolen %', '{:.1f}')]


def runs(prefix):
    names = sorted(d for d in os.listdir(HERE) if d.startswith(prefix) and d[len(prefix):].isdigit())
    out = []
    for name in names:
        path = os.path.join(HERE, name, 'steps.csv')
        if os.path.exists(path):
            out.append({round(float(r['users_per_sec']) / KNEE, 1): r
                        for r in csv.DictReader(open(path)) if r['phase'] == 'sweep' and r['mode'] == 'adaptive'})
    return out


old, new = runs('old'), runs('new')
print(f"rounds: {len(old)} old, {len(new)} new")
for x in sorted(old[0]):
    print(f"== {x}x the knee ({x * KNEE:.0f} new users/s)")
    for column, label, fmt in FIGURES:
        a = [float(r[x][column]) for r in old if x in r]
        b = [float(r[x][column]) for r in new if x in r]
        ratio = st.median(b) / st.median(a) if a and b and st.median(a) else float('nan')
        print(f"  {label:14s} old {', '.join(fmt.format(v) for v in a):30s} median {fmt.format(st.median(a)):>7s} | "
              f"new {', '.join(fmt.format(v) for v in b):30s} median {fmt.format(st.median(b)):>7s} | new/old {ratio:.2f}")
for tag, rs in (('old', old), ('new', new)):
    for i, r in enumerate(rs, 1):
        peak = max(float(s['completed_sessions_per_s']) for s in r.values())
        print(f"{tag}{i}: sessions as a fraction of own peak: "
              + ', '.join(f"{x}x {float(r[x]['completed_sessions_per_s']) / peak:.2f}" for x in sorted(r)))

# The machine's speed as the controller saw it: the full handshake's measured CPU cost (the same code in both builds).
for tag in ('old', 'new'):
    for name in sorted(d for d in os.listdir(HERE) if d.startswith(tag) and d[len(tag):].isdigit()):
        path = os.path.join(HERE, name, 'control-trace.log.gz')
        if os.path.exists(path):
            with gzip.open(path, 'rt') as f:
                costs = [float(kv.split('=')[1]) for line in f for kv in line.split() if kv.startswith('cost_ms=')]
            print(f"{name}: full handshake cost in the control trace, median {st.median(costs):.2f} ms "
                  f"(quartiles {st.quantiles(costs, n=4)[0]:.2f}-{st.quantiles(costs, n=4)[2]:.2f})")
