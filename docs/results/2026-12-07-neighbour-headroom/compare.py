#!/usr/bin/env python3
"""Before (base, 3cac7275) and after (var, the headroom lent regardless) side by side: per round and step the
replies/s, completed sessions/s, the server's CPU, page p99, client timeouts/s and the gate's CPU per full
handshake (the guest's slow spells show as more than 7.1 ms, against 6.1-7.0 outside them); then the medians,
each round's 8x step against its own peak, and from the controller's trace the CPUs planned for over the last 30 s
of the 8x step (median) with the CPUs' idle and interrupt shares and first and later pages' p99 of that step.

  python3 compare.py [DIR]
"""
import csv
import glob
import gzip
import os
import statistics
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
steps = {}
for path in sorted(glob.glob(os.path.join(root, '*-round*/steps.csv'))):
    variant, rnd = os.path.basename(os.path.dirname(path)).split('-round')
    rows = [r for r in csv.DictReader(open(path)) if r['mode'] == 'adaptive' and r['phase'] == 'sweep']
    steps[(variant, int(rnd))] = rows
    cells = ['%s/s: %s rep, %s ses, %s %% CPU, p99 %s ms, %s to/s, hs %s ms' % (
        r['users_per_sec'].split('.')[0], r['throughput_replies_per_s'], r['completed_sessions_per_s'],
        r['server_cpu_pct'], r['page_p99_ms'], r['timeouts_per_s'], r['server_full_hs_cpu_ms']) for r in rows]
    print('%-4s round %d | %s' % (variant, int(rnd), ' | '.join(cells)))
print()
for variant in ('base', 'var'):
    runs = [rows for (v, _), rows in sorted(steps.items()) if v == variant]
    for i, rate in enumerate(r['users_per_sec'] for r in runs[0]):
        col = lambda key: statistics.median(float(rows[i][key]) for rows in runs)
        print('%-4s %s/s median of %d rounds: %.0f rep, %.1f ses, %.1f %% CPU, p99 %.0f ms' % (
            variant, rate.split('.')[0], len(runs), col('throughput_replies_per_s'),
            col('completed_sessions_per_s'), col('server_cpu_pct'), col('page_p99_ms')))
    own = [float(rows[-1]['throughput_replies_per_s']) / max(float(r['throughput_replies_per_s']) for r in rows)
           for rows in runs]
    print('%-4s 8x of the round\'s own peak: %s' % (variant, ', '.join('%.2f' % x for x in own)))


def plan_at_8x(trace):
    rows = [dict(kv.split('=', 1) for kv in line.split() if '=' in kv) for line in gzip.open(trace, 'rt')]
    rows = [r for r in rows if 'used' in r]
    last = max(i for i, r in enumerate(rows) if r['binding'] == 'true')
    window = [r for r in rows[:last + 1] if int(rows[last]['t']) - int(r['t']) <= 30e9]
    return statistics.median(float(r['cpus']) for r in window), statistics.median(float(r['rate']) for r in window)


print()
for (variant, rnd), rows in sorted(steps.items()):
    cpus, rate = plan_at_8x(os.path.join(root, '%s-round%d' % (variant, rnd), 'control-trace-adaptive.log.gz'))
    r = rows[-1]
    print('%-4s round %d 8x: planned %.3f CPUs, rate %.0f/s; idle %s %%, interrupts %s %%; p99 first %s, later %s ms'
          % (variant, rnd, cpus, rate, r['server_cpus_idle_pct'], r['server_cpus_interrupt_pct'],
             r['first_page_p99_ms'], r['later_page_p99_ms']))
