#!/usr/bin/env python3
"""The figures of docs/benchmarks.md section 4, "2026-11-26, last hour", from this directory.

Per run: the sweep steps (steps.csv), the flash crowd's admissions per second (flash/admitted-new.csv) and, from the
controller's per-period counters (probe/sweep.log, written by probe.patch), the noise of busy as the controller of
main measured it (process CPU less the CPU of the full handshakes that ended in the period) and as the variant did
(half of each admitted handshake's cost counted at admission, the rest at its end).

probe line: tick_ns elapsed_ns process_cpu_ns ended_full_cpu_ns resumed_cpu_ns compiler_cpu_ns admitted refused
            ended_full_total queue_delay_sum_ns queue_delay_count
Usage: compare.py [DIR]  (default: this script's directory)
"""
import csv
import os
import statistics as st
import sys

HERE = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
KNEE = 90
COST_NS = 8.5e6  # the measured cost of one RSA-4096 full handshake in these runs (8.2-8.9 ms)
# seconds after the sweep server's first period: 20 s warm-up, then 40 s steps 45 s apart; their first 15 s left out
STEPS = {2: 35, 4: 80, 8: 125}


def corr(x, y):
    mx, my = st.mean(x), st.mean(y)
    num = sum((a - mx) * (b - my) for a, b in zip(x, y))
    den = (sum((a - mx) ** 2 for a in x) * sum((b - my) ** 2 for b in y)) ** 0.5
    return num / den if den else 0.0


def probe(path):
    rows = [list(map(int, line.split())) for line in open(path) if line.strip()]
    t0 = rows[0][0]
    out = {}
    for mult, start in STEPS.items():
        idx = [i for i, r in enumerate(rows) if i > 0 and start <= (r[0] - t0) / 1e9 < start + 25]
        if len(idx) < 10:
            continue
        proc = [rows[i][2] / rows[i][1] for i in idx]
        old = [(rows[i][2] - rows[i][3] - rows[i][5]) / rows[i][1] for i in idx]
        ended = [rows[i][8] - rows[i - 1][8] for i in idx]
        new = [(rows[i][2] - rows[i][5] - (rows[i][3] + 0.5 * COST_NS * (rows[i][6] - e))) / rows[i][1]
               for i, e in zip(idx, ended)]
        admitted = [rows[i][6] * 1e9 / rows[i][1] for i in idx]
        out[mult] = dict(proc=(st.mean(proc), st.pstdev(proc)), old=(st.mean(old), st.pstdev(old)),
                         new=(st.mean(new), st.pstdev(new)), lag1=corr(old[:-1], old[1:]),
                         admitted=(st.mean(admitted), st.pstdev(admitted)))
    return out


def flash(path):
    rows = [(float(r['ms']), float(r['admitted_new_total'])) for r in csv.DictReader(open(path))]
    first = next(i for i in range(1, len(rows)) if rows[i][1] > rows[0][1])
    t0, last, per = rows[first - 1][0], rows[first - 1][1], {}
    for ms, total in rows[first:]:
        per[int((ms - t0) // 1000)] = total
    seconds = []
    for s in sorted(per):
        seconds.append(int(per[s] - last))
        last = per[s]
    return seconds[:30]


for run in sorted(d for d in os.listdir(HERE) if os.path.exists(os.path.join(HERE, d, 'steps.csv'))):
    d = os.path.join(HERE, run)
    print(f'== {run}')
    for r in csv.DictReader(open(os.path.join(d, 'steps.csv'))):
        if r['phase'] != 'sweep':
            continue
        print(f"  {float(r['users_per_sec']) / KNEE:.0f}x: {float(r['throughput_replies_per_s']):.0f} replies/s, "
              f"{float(r['completed_sessions_per_s']):.1f} sessions/s, page p99 {float(r['page_p99_ms']):.0f} ms "
              f"(first {float(r['first_page_p99_ms']):.0f}, later {float(r['later_page_p99_ms']):.0f}), "
              f"CPU {float(r['server_cpu_pct']):.1f} %, refused {float(r['refused_connections_per_s']):.0f}/s, "
              f"timeouts {float(r['timeouts_per_s']):.1f}/s")
    if os.path.exists(os.path.join(d, 'probe', 'sweep.log')):
        for mult, p in probe(os.path.join(d, 'probe', 'sweep.log')).items():
            print(f"  probe {mult}x: process CPU {p['proc'][0]:.3f} ± {p['proc'][1]:.3f}, busy as main reads it "
                  f"{p['old'][0]:.2f} ± {p['old'][1]:.2f} (lag-1 {p['lag1']:+.2f}), as the variant reads it "
                  f"{p['new'][0]:.2f} ± {p['new'][1]:.2f}; admitted {p['admitted'][0]:.0f} ± {p['admitted'][1]:.0f}/s")
    if os.path.exists(os.path.join(d, 'flash', 'admitted-new.csv')):
        print('  flash crowd, admitted per second:', flash(os.path.join(d, 'flash', 'admitted-new.csv')))
