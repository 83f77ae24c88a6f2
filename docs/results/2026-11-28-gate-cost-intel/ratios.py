#!/usr/bin/env python3
"""From a bin/gate-cost-benchmark rounds.csv: each variant's median of per-round ratios to stock, over all rounds,
less the JIT compiler threads' CPU, and over the rounds in which no JIT was at work (compiler at most 2 ms/s in every
variant); the control loop's median CPU under load. Usage: python3 ratios.py DIR/rounds.csv"""
import csv, statistics as st, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {}
for r in rows:
    by.setdefault(int(r['round']), {})[r['variant']] = r
variants = [v for v in by[1] if v != 'stock']
quiet = [k for k, vs in by.items() if all(float(x['compiler_cpu_s']) / float(x['seconds']) <= 0.002 for x in vs.values())]
print('stock ms/conn median %.4f range %.4f-%.4f, conn/s %s' % (
    st.median(float(by[k]['stock']['cpu_ms_per_connection']) for k in by),
    min(float(by[k]['stock']['cpu_ms_per_connection']) for k in by),
    max(float(by[k]['stock']['cpu_ms_per_connection']) for k in by),
    [by[k]['stock']['connections_per_s'] for k in sorted(by)]))
print('quiet rounds', sorted(quiet))
for v in variants:
    a = [float(by[k][v]['cpu_ms_per_connection']) / float(by[k]['stock']['cpu_ms_per_connection']) for k in by]
    b = [float(by[k][v]['cpu_ms_per_connection_without_compiler']) / float(by[k]['stock']['cpu_ms_per_connection_without_compiler']) for k in by]
    q = [float(by[k][v]['cpu_ms_per_connection']) / float(by[k]['stock']['cpu_ms_per_connection']) for k in quiet]
    loop = [1000 * float(by[k][v]['control_cpu_s']) / float(by[k][v]['seconds']) for k in by]
    print('%-10s all %.3f  less-compiler %.3f  quiet %s  loop ms/s %.2f  per-round %s' % (v, st.median(a), st.median(b),
          ('%.3f' % st.median(q)) if q else '-', st.median(loop), ' '.join('%.3f' % x for x in a)))
