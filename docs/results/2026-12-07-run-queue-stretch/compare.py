"""Per run and step: sessions, replies, page p99 (first; later), CPU (idle), refused; from the trace the
handshake cost (the guest's speed), CPUs planned, the guard's cuts and the run queue in binding periods.

Usage: python3 compare.py ab/counted1 ab/stretch1 ab/variant1 ab/variant2 ab/stretch2 ab/counted2
"""
import csv, glob, gzip, statistics, sys, os

def trace(d):
    paths = glob.glob(d + '/runs/control-trace-*.log*')
    rows = []
    for p in paths:
        op = gzip.open if p.endswith('.gz') else open
        for line in op(p, 'rt', errors='replace'):
            i = line.find('connector=')
            if i >= 0:
                rows.append(dict(kv.split('=', 1) for kv in line[i:].split() if '=' in kv))
    return rows

def num(v):
    try:
        return float(v)
    except ValueError:
        return float('nan')

print("run | users/s | sessions/s | replies/s | page p99 (first; later) ms | CPU % (idle) | refused/s | driver %")
for d in sys.argv[1:]:
    name = os.path.basename(d.rstrip('/'))
    for r in csv.DictReader(open(d + '/steps.csv')):
        if r['phase'] != 'sweep':
            continue
        print(f"{name} | {float(r['users_per_sec']):.0f} | {float(r['completed_sessions_per_s']):.1f} | "
              f"{float(r['throughput_replies_per_s']):.0f} | {float(r['page_p99_ms']):.0f} ({float(r['first_page_p99_ms']):.0f}; "
              f"{float(r['later_page_p99_ms']):.0f}) | {float(r['server_cpu_pct']):.1f} ({float(r['server_cpus_idle_pct']):.1f}) | "
              f"{float(r['refused_connections_per_s']):.0f} | {float(r['driver_cpu_pct']):.0f}")
print()
print("run | cost ms (median) | binding periods | CPUs planned (mean) | guard < 1 (share) | run queue median (p90)"
      " | rate σ/median | compiler CPUs (median) | run-queue target with the warm-up allowance, per CPU (median)")
for d in sys.argv[1:]:
    name = os.path.basename(d.rstrip('/'))
    rows = [f for f in trace(d) if f.get('binding') == 'true']
    if not rows:
        continue
    cost = statistics.median(num(f['cost_ms']) for f in rows)
    cpus = statistics.mean(num(f['cpus']) for f in rows)
    cut = sum(1 for f in rows if num(f['guard']) < 1) / len(rows)
    rq = sorted(x for x in (num(f['run_queue']) for f in rows) if x == x)
    rates = [num(f['rate']) for f in rows]
    med = statistics.median(rq) if rq else float('nan')
    p90 = rq[int(0.9 * (len(rq) - 1))] if rq else float('nan')
    compiler = [num(f['compiler']) for f in rows]
    # ControlLaw.queueDelayTarget's allowance, as it stretched runQueueTarget=3 up to 4df05a07
    allowed = [3 * (1 + 9 * min(1, num(f['compiler']) / (0.1 * num(f['cpus'])))) for f in rows]
    print(f"{name} | {cost:.2f} | {len(rows)} | {cpus:.3f} | {cut:.2f} | {med:.1f} ({p90:.1f}) | "
          f"{statistics.pstdev(rates):.1f}/{statistics.median(rates):.1f} | {statistics.median(compiler):.3f} | "
          f"{statistics.median(allowed):.1f}")
