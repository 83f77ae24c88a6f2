#!/usr/bin/env python3
"""Second by second through one sweep step: the CPUs of Tomcat (its acceptor apart), MariaDB and Gatling, and how
busy CPU 0 and CPU 1 were, from cpu0-sampler.py's lines; beside the step's own timeline (replies, timeouts).

Usage: per-second.py ROUND_DIR MODE USERS_PER_SEC   e.g. per-second.py round-2 adaptive 440
Seconds count from the log's "sweep step" line; Gatling's timeline starts about a second later.
"""
import datetime, glob, gzip, json, sys

run, mode, rate = sys.argv[1].rstrip('/'), sys.argv[2], float(sys.argv[3])
samples = [json.loads(l) for l in gzip.open(run + '/cpu0.jsonl.gz', 'rt')]
day = datetime.datetime.fromtimestamp(samples[0]['t'], datetime.timezone.utc)
start = None
for line in open(run + '/experiment.log'):
    if f'{mode}, sweep step' in line and f': {rate:.1f} new users/s' in line:
        h, m, s = map(int, line[:8].split(':'))
        start = day.replace(hour=h, minute=m, second=s, microsecond=0).timestamp()
if start is None:
    sys.exit(f'no sweep step of {mode} at {rate} in {run}/experiment.log')
timeline = {}
for path in glob.glob(f'{run}/runs/*-{mode}-sweep-{rate:.1f}/timeline.csv'):
    rows = [l.strip().split(',') for l in open(path)]
    head = rows[0]
    for r in rows[1:]:
        timeline[int(r[0])] = dict(zip(head, r))
print('second,tomcat,acceptor,mariadbd,gatling,cpu0_idle,cpu1_idle,replies,timeouts')
prev = None
for x in samples:
    if not (start <= x['t'] <= start + 45) or 'tomcat' not in x:
        continue
    if prev is not None:
        dt = x['t'] - prev['t']
        rate_of = lambda a, b: (a - b) / 100 / dt
        idle = lambda cpu: ((x['cpu'][cpu][3] - prev['cpu'][cpu][3]) /
                            max(1, sum(x['cpu'][cpu]) - sum(prev['cpu'][cpu])))
        second = int(x['t'] - start)
        t = timeline.get(second - 1, {})
        print(f"{second},{rate_of(x['tomcat']['all'], prev['tomcat']['all']):.2f},"
              f"{rate_of(x['tomcat']['acceptor'], prev['tomcat']['acceptor']):.2f},"
              f"{rate_of(x['mariadbd'], prev['mariadbd']):.2f},{rate_of(x['driver'], prev['driver']):.2f},"
              f"{idle('cpu0'):.2f},{idle('cpu1'):.2f},{t.get('replies', '')},{t.get('timeouts', '')}")
    prev = x
