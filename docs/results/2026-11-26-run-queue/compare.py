#!/usr/bin/env python3
"""The figures of docs/benchmarks.md section 4, "2026-11-26, midnight", from this directory.

probe/: the current adaptive budget at 0.5-8x with its threads' run-queue wait read from outside (rq.py: every
        250 ms, the sum of run_delay in /proc/<tomcat>/task/*/schedstat); per step the mean number of threads waiting.
ab/:    old1-3 (main at 14ca956) and new1-3 (the guard also cut for more than 3 threads waiting per CPU),
        alternated; per step the figures, and from each run's control trace the guard's cuts and the run queue.
verify/ (when present): adaptive and adaptive-runqueue side by side in one run, on the code that landed.
Usage: compare.py [DIR]
"""
import csv
import gzip
import os
import statistics as st
import sys

HERE = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
KNEE = 90


def steps(path):
    for r in csv.DictReader(open(path)):
        if r['phase'] != 'sweep':
            continue
        yield r['mode'], (f"{float(r['users_per_sec']) / KNEE:.1f}x: {float(r['completed_sessions_per_s']):.1f} "
                          f"sessions/s, {float(r['throughput_replies_per_s']):.0f} replies/s, page p99 "
                          f"{float(r['page_p99_ms']):.0f} ms (first {float(r['first_page_p99_ms']):.0f}, later "
                          f"{float(r['later_page_p99_ms']):.0f}), CPU {float(r['server_cpu_pct']):.1f} %, refused "
                          f"{float(r['refused_connections_per_s']):.0f}/s, timeouts {float(r['timeouts_per_s']):.1f}/s, "
                          f"Gatling {float(r['driver_cpu_pct']):.0f} %")


def trace(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt') as f:
        lines = [dict(kv.split('=', 1) for kv in line.split()) for line in f if line.startswith('connector=')]
    guard = [float(line['guard']) for line in lines]
    queue = [float(line['run_queue']) for line in lines if 'run_queue' in line and line['run_queue'] != 'NaN']
    text = f"{len(lines)} periods, guard under 1 in {sum(1 for g in guard if g < 1) / len(guard):.0%} of them"
    if queue:
        text += f", threads waiting for the CPU: median {st.median(queue):.1f}"
    return text


probe = os.path.join(HERE, 'probe')
if os.path.isdir(probe):
    print('== probe')
    for _, line in steps(os.path.join(probe, 'steps.csv')):
        print('  ' + line)
    rows = [list(map(int, line.split()[:6])) for line in open(os.path.join(probe, 'rq.log')) if line.strip()]
    t0 = rows[0][0]
    per = []
    for a, b in zip(rows, rows[1:]):
        if a[1] == b[1] and b[0] > a[0] and b[3] >= a[3]:
            per.append(((b[0] - t0) / 1e9, (b[3] - a[3]) / (b[0] - a[0])))
    # steps of 40 s, 45 s apart, from 25 s after the probe started; their last 20 s are the measured part
    for name, start in (('0.5x', 25), ('0.8x', 70), ('2x', 115), ('4x', 160), ('8x', 205)):
        waiting = [w for t, w in per if start + 20 <= t < start + 40]
        if waiting:
            print(f"  {name}: threads waiting for the CPU, mean {st.mean(waiting):.1f}, "
                  f"p90 {sorted(waiting)[int(0.9 * len(waiting))]:.1f}")
for group in ('ab', 'verify'):
    root = os.path.join(HERE, group)
    if not os.path.isdir(root):
        continue
    runs = [''] if os.path.exists(os.path.join(root, 'steps.csv')) else sorted(os.listdir(root))
    for run in runs:
        d = os.path.join(root, run)
        print(f'== {group}/{run}'.rstrip('/'))
        for mode, line in steps(os.path.join(d, 'steps.csv')):
            print(f'  {mode} {line}')
        for f in sorted(os.listdir(d)):
            if f.startswith('control-trace'):
                print(f'  {f}: {trace(os.path.join(d, f))}')
