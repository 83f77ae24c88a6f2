#!/usr/bin/env python3
"""Per run directory of bin/experiment (adaptive): how noisy the control loop's inputs and rate were.

For each control trace (the sweep servers', the flash crowd's): over the periods in which the budget bound, after
the first 5 s of binding, the standard deviation of the per-period busy CPUs (everything but new clients' full
handshakes) and of the CPUs used, the handshakes the period's full-handshake CPU stands for (used - busy over the
cost) against the tokens granted, and the rate's spread: share of periods more than 10 % off the median rate."""
import csv, glob, gzip, os, statistics as st, sys

def trace(path):
    op = gzip.open if path.endswith('.gz') else open
    rows = []
    with op(path, 'rt') as f:
        for line in f:
            d = dict(kv.split('=', 1) for kv in line.split() if '=' in kv)
            rows.append(d)
    return rows

def noise(rows):
    t = 0; out = []
    for r in rows:
        t += float(r['period_ms'])
        if r['binding'] == 'true':
            out.append((t, r))
    if not out:
        return None
    start = out[0][0] + 5000
    b = [r for t, r in out if t >= start]
    if len(b) < 8:
        return None
    f = lambda k: [float(r[k]) for r in b]
    busy, used, rate = f('busy'), f('used'), f('rate')
    implied = [(float(r['used']) - float(r['busy'])) * float(r['period_ms']) / float(r['cost_ms']) for r in b]
    granted = [float(r['admitted_per_s']) * float(r['period_ms']) / 1000 for r in b]
    med = st.median(rate)
    off = sum(1 for x in rate if abs(x - med) > 0.1 * med) / len(rate)
    return dict(periods=len(b), busy_sd=st.pstdev(busy), used_sd=st.pstdev(used), used=st.mean(used),
                implied_sd=st.pstdev(implied), granted_sd=st.pstdev(granted), granted=st.mean(granted),
                rate_median=med, rate_sd=st.pstdev(rate), rate_off10=off)

for d in sys.argv[1:]:
    print('==', d)
    for path in sorted(glob.glob(os.path.join(d, 'runs', 'control-trace-*.log*')) +
                       glob.glob(os.path.join(d, 'runs', 'flash-*', 'control-trace.log*'))):
        n = noise(trace(path))
        if n:
            print('  %-60s ' % os.path.relpath(path, d) + ' '.join(
                '%s=%s' % (k, ('%.3f' % v) if isinstance(v, float) else v) for k, v in n.items()))
    fc = os.path.join(d, 'flash-crowd.csv')
    if os.path.exists(fc):
        for r in csv.DictReader(open(fc)):
            print('  flash: to90 %s server_to90 %s steady %s admitted %s sessions %s timeouts %s refused %s' % (
                r['seconds_to_90pct'], r['server_seconds_to_90pct'], r['steady_replies_per_s'],
                r['server_steady_new_admitted_per_s'], r['sessions_completed'], r['timeouts'], r['refused_connections']))
    cc = os.path.join(d, 'cpu-change-response.csv')
    if os.path.exists(cc):
        for r in csv.DictReader(open(cc)):
            print('  cpu change %s: steady %s within10 from %s first %s share_after_1s %s' % (
                r['change'], r['steady_rate'], r['seconds_to_within_10pct'], r['seconds_to_first_within_10pct'],
                r['share_within_10pct_after_1s']))
    sp = os.path.join(d, 'steps.csv')
    for r in csv.DictReader(open(sp)):
        if r.get('phase') == 'sweep':
            print('  sweep %s: replies %s sessions %s cpu %s p99 %s refused %s' % (r['users_per_sec'],
                r['throughput_replies_per_s'], r['completed_sessions_per_s'], r['server_cpu_pct'], r['page_p99_ms'],
                r['refused_connections_per_s']))
