#!/usr/bin/env python3
"""The control trace in windows of 40 periods (10 s at 250 ms) after START seconds: medians of the planned CPUs,
used and busy CPUs, the compiler's CPU, admitted/s, binding periods, queue delay, run queue, handshake cost, the
learned client cost, the correction, the model's rate, the cap from the client cost (at targetUtilization 0.97),
guard cuts, the rate.

  python3 trace10s.py <(zcat round1/control-trace-adaptive.log.gz) 60
"""
import sys

rows = []
for line in open(sys.argv[1]):
    fields = dict(kv.split('=', 1) for kv in line.split() if '=' in kv)
    if 'used' in fields:
        rows.append(fields)
t0 = int(rows[0]['t'])
start = float(sys.argv[2]) if len(sys.argv) > 2 else 0


def median(window, key):
    values = sorted(float(r[key]) for r in window if r[key] != 'NaN')
    return values[len(values) // 2] if values else float('nan')


for i in range(0, len(rows), 40):
    w = rows[i:i + 40]
    at = (int(w[0]['t']) - t0) / 1e9
    if at < start:
        continue
    caps = sorted(float(r['cpus']) * 0.97 / float(r['client_cost_ms']) * 1000 for r in w
                  if r['client_cost_ms'] != 'NaN')
    print('%5.0fs cpus %.2f used %.2f busy %.2f comp %.3f adm %.0f bind %d/%d q %.0fms rq %.1f cost %.2f cc %s'
          ' corr %.2f model %.0f cap %s guard<1: %d rate %.0f src %s' % (
              at, median(w, 'cpus'), median(w, 'used'), median(w, 'busy_smoothed'), median(w, 'compiler'),
              median(w, 'admitted_per_s'), sum(r['binding'] == 'true' for r in w), len(w),
              median(w, 'queue_delay_ms'), median(w, 'run_queue'), median(w, 'cost_ms'), w[-1]['client_cost_ms'],
              median(w, 'correction'), median(w, 'model_rate'), '%.0f' % caps[len(caps) // 2] if caps else '-',
              sum(float(r['guard']) < 1 for r in w), median(w, 'rate'), w[-1]['cpu_source']))
