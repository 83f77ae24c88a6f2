#!/usr/bin/env python3
"""CPU 0's time per sweep step of a bin/experiment run, from cpu0-sampler.py's lines.

Usage: cpu0-breakdown.py ROUND_DIR   (reads its experiment.log, cpu0.jsonl.gz and steps.csv)
A step's window is its measured part: from the log's "sweep step" line + the warm-up (15 s) + 2 s for Gatling's
start, to + the step (40 s). Figures are CPUs (CPU-seconds a second) over that window, from clock ticks.
"""
import csv, datetime, gzip, json, re, sys

run = sys.argv[1].rstrip('/')
WARMUP, STEP = 15, 40
samples = [json.loads(l) for l in gzip.open(run + '/cpu0.jsonl.gz', 'rt')]
day = datetime.datetime.fromtimestamp(samples[0]['t'], datetime.timezone.utc).date()
windows = []
for line in open(run + '/experiment.log'):
    m = re.match(r'(\d\d):(\d\d):(\d\d) .*?\] (\w+), sweep step \d+/\d+: ([\d.]+) new users/s', line)
    if m:
        h, mi, s = map(int, m.group(1, 2, 3))
        start = datetime.datetime(day.year, day.month, day.day, h, mi, s, tzinfo=datetime.timezone.utc).timestamp()
        windows.append((m.group(4), float(m.group(5)), start + WARMUP + 2, start + STEP))
steps = {(r['mode'], float(r['users_per_sec'])): r for r in csv.DictReader(open(run + '/steps.csv'))
         if r['phase'] == 'sweep'}

def cpu_total(c):
    return sum(c)

print('mode,users_per_sec,replies_per_s,sessions_per_s,timeouts_per_s,page_p99_ms,driver_cpu_pct,refused_per_s,full_hs_per_s,full_hs_cpu_ms,cpu0_busy,cpu0_softirq,'
      'tomcat,acceptor,poller,compiler,ksoftirqd0,mariadbd,cpu0_rest,driver,cpu1_busy,acceptor_us_per_connection')
for mode, rate, a, b in windows:
    inside = [x for x in samples if a <= x['t'] <= b and 'tomcat' in x]
    if len(inside) < 2:
        continue
    f, l = inside[0], inside[-1]
    wall = l['t'] - f['t']
    hz = 100.0
    c0 = [y - x for x, y in zip(f['cpu']['cpu0'], l['cpu']['cpu0'])]
    total = cpu_total(c0)
    busy = 1 - (c0[3] + c0[4]) / total
    c1 = [y - x for x, y in zip(f['cpu']['cpu1'], l['cpu']['cpu1'])]
    busy1 = 1 - (c1[3] + c1[4]) / cpu_total(c1)
    softirq = (c0[5] + c0[6]) / total
    d = lambda k, s=None: ((l[k] if s is None else l[k][s]) - (f[k] if s is None else f[k][s])) / hz / wall
    tomcat = d('tomcat', 'all')
    acceptor = d('tomcat', 'acceptor')
    ks0 = d('ksoftirqd/0')
    rest = busy - softirq - tomcat - ks0
    r = steps.get((mode, rate), {})
    refused = float(r.get('refused_connections_per_s') or 0)
    # the server's handshake counters cover the whole step (and its drain), not only the window
    step = float(r.get('step_s') or STEP)
    full = float(r.get('server_full_handshakes') or 0) / step
    resumed = float(r.get('server_resumed_handshakes') or 0) / step
    conns = refused + full + resumed
    print(','.join([mode, f'{rate:g}', r.get('throughput_replies_per_s', ''), r.get('completed_sessions_per_s', ''),
                    r.get('timeouts_per_s', ''), r.get('page_p99_ms', ''), r.get('driver_cpu_pct', ''), f'{refused:.0f}', f'{full:.1f}',
                    r.get('server_full_hs_cpu_ms', ''), f'{busy:.3f}', f'{softirq:.3f}', f'{tomcat:.3f}',
                    f'{acceptor:.3f}', f"{d('tomcat', 'poller'):.3f}", f"{d('tomcat', 'compiler'):.3f}",
                    f'{ks0:.3f}', f"{d('mariadbd'):.3f}", f'{rest:.3f}', f"{d('driver'):.3f}", f'{busy1:.3f}',
                    f'{acceptor * 1e6 / conns:.1f}' if conns else '']))
