#!/usr/bin/env python3
"""The table of docs/benchmarks.md section 4, "2026-11-28, afternoon", from the run directories here."""
import csv, glob, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from analyse import trace, noise

RUNS = [('r1-old', 'before, round 1'), ('r1-wip', 'CPU as spent, round 1'), ('r2-old', 'before, round 2'),
        ('r2-wip', 'CPU as spent, round 2'), ('r1-gain', 'busy gain ¼, round 1'), ('r3-old', 'before, round 3'),
        ('r2-gain', 'busy gain ¼, round 2')]
print('| run | 110/s (2× the given knee): sessions/s, page p99 | 220/s (4×): sessions/s, page p99 | busy σ / rate σ per period, '
      'periods > 10 % off the median rate (sweep; flash crowd) | flash crowd: sessions, gate held 90 % | '
      'CPU change 1 → 2 / 2 → 1: within 10 % from (s), share within 10 % after 1 s |')
print('|---|---|---|---|---|---|')
here = os.path.dirname(os.path.abspath(__file__))
for d, name in RUNS:
    d = os.path.join(here, d)
    sweep = {r['users_per_sec']: r for r in csv.DictReader(open(os.path.join(d, 'steps.csv'))) if r['phase'] == 'sweep'}
    s = noise(trace(glob.glob(os.path.join(d, 'runs', 'control-trace-001-*.log.gz'))[0]))
    f = noise(trace(glob.glob(os.path.join(d, 'runs', 'flash-*', 'control-trace.log.gz'))[0]))
    fc = next(csv.DictReader(open(os.path.join(d, 'flash-crowd.csv'))))
    cc = {r['change']: r for r in csv.DictReader(open(os.path.join(d, 'cpu-change-response.csv')))}
    step = lambda u: '%.1f, %s ms' % (float(sweep[u]['completed_sessions_per_s']), sweep[u]['page_p99_ms'])
    change = ' / '.join('%s, %.2f' % (cc[c]['seconds_to_within_10pct'] or 'never', float(cc[c]['share_within_10pct_after_1s']))
                        for c in ('1->2', '2->1') if c in cc) or 'not run'
    print('| %s | %s | %s | %.2f / %.1f, %.2f; %.2f / %.1f, %.2f | %s, %s | %s |' % (
        name, step('110'), step('220'), s['busy_sd'], s['rate_sd'], s['rate_off10'], f['busy_sd'], f['rate_sd'],
        f['rate_off10'], fc['sessions_completed'], (fc['server_seconds_to_90pct'] + ' s') if fc['server_seconds_to_90pct'] else 'never',
        change))
