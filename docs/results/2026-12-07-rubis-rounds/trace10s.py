#!/usr/bin/env python3
"""The control trace in windows of 40 periods (10 s at 250 ms) after START seconds: medians of the planned CPUs,
used and busy CPUs, the compiler's CPU, admitted/s, binding periods, queue delay, run queue, handshake cost, the
learned client cost, the correction, the model's rate, the cap from the client cost, guard cuts, the rate.

  python3 trace10s.py <(zcat round1/control-trace-adaptive.log.gz) 60
"""
import sys
rows=[]
for line in open(sys.argv[1]):
    f=dict(kv.split('=',1) for kv in line.split() if '=' in kv)
    if 'used' in f: rows.append(f)
t0=int(rows[0]['t'])
start=float(sys.argv[2]) if len(sys.argv)>2 else 0
for i in range(0,len(rows),40):
    w=rows[i:i+40]
    if (int(w[0]['t'])-t0)/1e9 < start: continue
    g=lambda k: [float(r[k]) for r in w if r[k] not in ('NaN',)]
    med=lambda k: sorted(g(k))[len(g(k))//2] if g(k) else float('nan')
    cap=[float(r['cpus'])*0.97/float(r['client_cost_ms'])*1000 for r in w if r['client_cost_ms']!='NaN']
    print('%5.0fs cpus %.2f used %.2f busy %.2f comp %.3f adm %.0f bind %d/%d q %.0fms rq %.1f cost %.2f cc %s corr %.2f model %.0f cap %s guard<1: %d rate %.0f src %s' % (
      (int(w[0]['t'])-t0)/1e9, med('cpus'), med('used'), med('busy_smoothed'), med('compiler'), med('admitted_per_s'), sum(r['binding']=='true' for r in w), len(w),
      med('queue_delay_ms'), med('run_queue'), med('cost_ms'), w[-1]['client_cost_ms'], med('correction'), med('model_rate'), '%.0f'%(sorted(cap)[len(cap)//2]) if cap else '-', sum(float(r['guard'])<1 for r in w), med('rate'), w[-1]['cpu_source']))
