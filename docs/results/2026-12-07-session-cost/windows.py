#!/usr/bin/env python3
"""Per 10 s of binding (40 control periods, >= 95 % of them binding) in each control trace given: the full
handshake's measured cost, the CPU used per admitted new client, and their ratio; then, with --after-spell T0 T1,
every period of the first trace between T0 and T1 seconds after its start, with the cap on the rate the learned
client cost gave (cpus x 0.97 / client_cost) and the model's uncapped rate.

  python3 windows.py rubis-ab/*/control-trace-adaptive.log.gz
  python3 windows.py rubis-ab/old-1/control-trace-adaptive.log.gz --after-spell 136 161
"""
import gzip
import sys


def periods(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt') as f:
        for line in f:
            fields = dict(kv.split('=', 1) for kv in line.split() if '=' in kv)
            if 'used' in fields:
                yield fields


def windows(path, size=40):
    rows = list(periods(path))
    t0 = int(rows[0]['t'])
    for i in range(0, len(rows) - size + 1, size):
        win = rows[i:i + size]
        if sum(r['binding'] == 'true' for r in win) < 0.95 * size:
            continue
        total = sum(float(r['period_ms']) for r in win)
        mean = lambda k: sum(float(r[k]) * float(r['period_ms']) for r in win) / total
        cost, used, admitted = mean('cost_ms'), mean('used'), mean('admitted_per_s')
        yield (int(win[0]['t']) - t0) / 1e9, cost, used / admitted * 1000


args = sys.argv[1:]
if '--after-spell' in args:
    i = args.index('--after-spell')
    start, end = float(args[i + 1]), float(args[i + 2])
    rows = list(periods(args[0]))
    t0 = int(rows[0]['t'])
    print('s cost_ms client_cost_ms used cap_per_s uncapped_per_s rate_per_s')
    for r in rows:
        t = (int(r['t']) - t0) / 1e9
        if start <= t <= end:
            cpus = float(r['cpus'])
            spare = max(0, cpus * 0.97 - float(r['busy_smoothed']) + float(r['correction']))
            uncapped = spare / float(r['cost_ms']) * 1000
            cap = cpus * 0.97 / float(r['client_cost_ms']) * 1000
            print(f"{t:.1f} {r['cost_ms']} {r['client_cost_ms']} {r['used']} {cap:.0f} {uncapped:.0f} {r['rate']}")
    sys.exit()
for path in args:
    print(path)
    for t, cost, per_client in windows(path):
        print(f"  {t:5.0f} s  handshake {cost:5.2f} ms  per client {per_client:5.1f} ms  ratio {per_client / cost:.2f}")
