"""Run queue counted (schedstat) against the one the full handshakes' stretch tells, per control period.

Usage: python3 stretch.py <experiment output dir>... (reads runs/control-trace-*.log[.gz]; traces written by a
build with both readings, as validation/ was: run_queue counted, stretch beside it).
"""
import glob, gzip, math, statistics, sys

def periods(path):
    opener = gzip.open if path.endswith('.gz') else open
    for line in opener(path, 'rt', errors='replace'):
        i = line.find('connector=')
        if i < 0:
            continue
        f = dict(kv.split('=', 1) for kv in line[i:].split() if '=' in kv)
        yield f

for d in sys.argv[1:]:
    for path in sorted(glob.glob(d + '/runs/control-trace-*.log*')):
        rows = []
        for f in periods(path):
            try:
                rq, st, cpus = float(f['run_queue']), float(f['stretch']), float(f['cpus'])
            except (KeyError, ValueError):
                continue
            rows.append((rq, st, cpus, f['binding'] == 'true', float(f['used'])))
        withst = [r for r in rows if not math.isnan(r[1])]
        both = [r for r in withst if not math.isnan(r[0])]
        print(f"{path.split('/')[-1]}: periods {len(rows)}, with stretch {len(withst)}, with both {len(both)}")
        if withst:
            est = [r[2] * (r[1] - 1) for r in withst]
            print(f"  from stretch: median {statistics.median(est):.2f}, mean {statistics.mean(est):.2f}")
        if len(both) > 2:
            x = [r[0] for r in both]; y = [r[2] * (r[1] - 1) for r in both]
            mx, my = statistics.mean(x), statistics.mean(y)
            sx, sy = statistics.pstdev(x), statistics.pstdev(y)
            cor = sum((a - mx) * (b - my) for a, b in zip(x, y)) / len(x) / (sx * sy) if sx and sy else float('nan')
            print(f"  counted: mean {mx:.2f}; stretch: mean {my:.2f}; correlation {cor:.2f}")
            # the guard's question at runQueueTarget=3 (one CPU here): more than 3 per CPU waiting?
            over = [(a > 3 * r[2], b > 3 * r[2]) for a, b, r in zip(x, y, both)]
            agree = sum(1 for a, b in over if a == b)
            print(f"  over 3 per CPU: counted {sum(a for a, _ in over)}, stretch {sum(b for _, b in over)},"
                  f" both {sum(a and b for a, b in over)}; the two agree in {agree} of {len(over)} periods")
            # binned by the counted run queue
            bins = [(0, 1), (1, 2), (2, 3), (3, 5), (5, 8), (8, 13), (13, 21), (21, 100)]
            for lo, hi in bins:
                sel = [(a, b) for a, b in zip(x, y) if lo <= a < hi]
                if sel:
                    print(f"    counted [{lo},{hi}): n={len(sel):4d} counted median {statistics.median(a for a, _ in sel):6.2f}"
                          f"  stretch median {statistics.median(b for _, b in sel):6.2f}")
