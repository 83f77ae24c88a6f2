#!/usr/bin/env python3
"""Per run directory of bin/experiment (adaptive only, --cpu-change-kind taskset, --flash-crowd): the figures of the
2026-11-28 evening entries of docs/benchmarks.md section 4.

Table 1: completed sessions/s, page p99 and server CPU at the two sweep steps; the full handshake's measured cost
(the machine's speed: it drifted between runs); the rate's spread over the 4x step's binding periods after the
first 75 s of the sweep server; the CPU change's share of 100 ms samples within 10 % of the new steady rate after 1 s
(and when it held to the end); the flash crowd's admitted rate (the gate's, held 90 % of steady from; steady).
Table 2: the CPUs the budget planned for while Tomcat's mask was one CPU (cpuCapacity="measured"), over every control
period of the run's servers: mean, share of periods below 0.9 and 0.75 of the CPU, lowest."""
import csv, glob, gzip, os, statistics as st, sys

def trace(path):
    op = gzip.open if path.endswith('.gz') else open
    with op(path, 'rt') as f:
        return [dict(kv.split('=', 1) for kv in line.split() if '=' in kv) for line in f]

def traces(d):
    return (sorted(glob.glob(os.path.join(d, 'runs', 'control-trace-*.log*')))
            + sorted(glob.glob(os.path.join(d, 'runs', '*', 'control-trace.log*'))))

print('| run | sessions/s 110 / 220 | page p99 ms 110 / 220 | CPU % | cost ms | rate sd / median at 220 '
      '| CPU change 1->2, 2->1: share within 10 % after 1 s (held from) | flash crowd: held 90 % from, steady admitted/s |')
print('|---|---|---|---|---|---|---|---|')
for d in sys.argv[1:]:
    steps = {float(r['users_per_sec']): r for r in csv.DictReader(open(os.path.join(d, 'steps.csv'))) if r['phase'] == 'sweep'}
    a, b = steps[110.0], steps[220.0]
    t = 0; late = []
    for r in trace(traces(d)[0]):
        t += float(r['period_ms'])
        if r['binding'] == 'true' and t > 75000:
            late.append(r)
    rate = [float(r['rate']) for r in late]; cost = [float(r['cost_ms']) for r in late]
    cc = list(csv.DictReader(open(os.path.join(d, 'cpu-change-response.csv'))))
    fc = list(csv.DictReader(open(os.path.join(d, 'flash-crowd.csv'))))[0]
    print('| %s | %s / %s | %s / %s | %s / %s | %.2f | %.1f / %.1f | %s | %s, %s |' % (
        os.path.basename(d.rstrip('/')), a['completed_sessions_per_s'], b['completed_sessions_per_s'], a['page_p99_ms'],
        b['page_p99_ms'], a['server_cpu_pct'], b['server_cpu_pct'], st.median(cost), st.pstdev(rate), st.median(rate),
        ', '.join('%s (%s)' % (r['share_within_10pct_after_1s'], (r['seconds_to_within_10pct'] + ' s') if r['seconds_to_within_10pct'] else 'never') for r in cc),
        (fc['server_seconds_to_90pct'] + ' s') if fc['server_seconds_to_90pct'] else 'never', fc['server_steady_new_admitted_per_s']))
print()
print('| run | periods on one CPU | CPUs planned, mean | below 0.9 | below 0.75 | lowest |')
print('|---|---|---|---|---|---|')
for d in sys.argv[1:]:
    vals = [float(r['cpus']) for p in traces(d) for r in trace(p)
            if r.get('cpu_source') in ('NEIGHBOURS', 'AFFINITY') and float(r['cpus']) <= 1.001]
    print('| %s | %d | %.3f | %.1f %% | %.1f %% | %.2f |' % (os.path.basename(d.rstrip('/')), len(vals), st.mean(vals),
        100 * sum(v < 0.9 for v in vals) / len(vals), 100 * sum(v < 0.75 for v in vals) / len(vals), min(vals)))
