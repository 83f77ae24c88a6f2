#!/usr/bin/env python3
"""Replies/s and completed sessions/s of each mode's sweep steps in every round, as fractions of that round's peak,
and the medians across the rounds as fractions of the largest median.

  python3 rounds.py round1/steps.csv round2/steps.csv round3/steps.csv
"""
import csv
import statistics
import sys

steps = {}
for r, path in enumerate(sys.argv[1:], 1):
    for row in csv.DictReader(open(path)):
        if row['phase'] == 'sweep':
            steps.setdefault(row['mode'], {}).setdefault(r, []).append(row)
for mode, rounds in steps.items():
    loads = [row['users_per_sec'] for row in rounds[1]]
    for column in ('throughput_replies_per_s', 'completed_sessions_per_s'):
        for r, rows in sorted(rounds.items()):
            peak = max(float(row[column]) for row in rows)
            print(mode, column, 'round', r, ' '.join('%s: %.1f (%.2f)' % (row['users_per_sec'], float(row[column]),
                                                                        float(row[column]) / peak) for row in rows))
        median = {u: statistics.median(float(row[column]) for rows in rounds.values() for row in rows
                                       if row['users_per_sec'] == u) for u in loads}
        peak = max(median.values())
        print(mode, column, 'median', ' '.join('%s: %.1f (%.2f)' % (u, median[u], median[u] / peak) for u in loads))
