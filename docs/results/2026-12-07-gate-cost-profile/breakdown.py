#!/usr/bin/env python3
"""Samples per 1,000 connections in each io.tlsadmit frame (inclusive), static against adaptive, from the
async-profiler collapsed stacks of bin/gate-cost-benchmark --async-profiler DIR and that run's rounds.csv.
One sample is 200 us of CPU, so 1 sample per 1,000 connections is 0.2 us per connection.
usage: breakdown.py <async-profiler DIR> <rounds.csv> [rows]"""
import collections
import csv
import re
import sys

profiles, rounds = sys.argv[1], sys.argv[2]
rows = int(sys.argv[3]) if len(sys.argv) > 3 else 20
connections = collections.Counter()
for r in csv.DictReader(open(rounds)):
    connections[r['variant']] += int(r['connections'])
inclusive, total = {}, {}
for variant in ('stock', 'static', 'adaptive'):
    counts, samples = collections.Counter(), 0
    for line in open('%s/%s.collapsed' % (profiles, variant)):
        stack, n = line.rsplit(' ', 1)
        samples += int(n)
        for frame in {re.sub(r'_\[.\]$', '', f) for f in stack.split(';') if 'io/tlsadmit' in f}:
            counts[frame] += int(n)
    inclusive[variant], total[variant] = counts, samples
for variant in total:
    print('%-8s %6d connections, %.1f samples per 1,000' % (variant, connections[variant],
                                                             1000 * total[variant] / connections[variant]))
per = lambda v, f: 1000 * inclusive[v][f] / connections[v]
frames = set(inclusive['static']) | set(inclusive['adaptive'])
print('\nadaptive - static, static, adaptive (samples per 1,000 connections), frame')
for f in sorted(frames, key=lambda f: per('static', f) - per('adaptive', f))[:rows]:
    print('%+7.2f %8.2f %8.2f  %s' % (per('adaptive', f) - per('static', f), per('static', f), per('adaptive', f),
                                      re.sub(r'\$\$Lambda\$.*', '$$Lambda', f)))
