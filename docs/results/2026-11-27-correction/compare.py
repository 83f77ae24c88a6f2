#!/usr/bin/env python3
"""The table of docs/benchmarks.md section 4, "2026-11-27: the correction learns only from idle that persists".

Three rounds, each the controller before (old1..3: 8d99a5b) and after (new1..3: e440bf4), adaptive only but for
round 1, which also ran static (and, new1, stock and the knee search). Per step: every round's completed sessions/s
and page p99, their medians, and the ratio of the medians after/before.
Usage: compare.py [DIR]  (default: this script's directory)
"""
import csv
import os
import statistics as st
import sys

HERE = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))


def adaptive_steps(run):
    with open(os.path.join(HERE, run, "steps.csv")) as f:
        return {float(r["users_per_sec"]): r for r in csv.DictReader(f) if r["mode"] == "adaptive"}


def column(runs, rate, name):
    return [float(adaptive_steps(run)[rate][name]) for run in runs]


old, new = ["old1", "old2", "old3"], ["new1", "new2", "new3"]
print("| new users/s | sessions/s before (median) | after (median) | after ÷ before | page p99 ms before (median)"
      " | after (median) | after ÷ before | server CPU % before | after |")
print("|---|---|---|---|---|---|---|---|---|")
for rate in sorted(adaptive_steps("new1")):
    cells = []
    for name in ("completed_sessions_per_s", "page_p99_ms"):
        b, a = column(old, rate, name), column(new, rate, name)
        cells += [f"{', '.join(f'{v:g}' for v in b)} ({st.median(b):g})",
                  f"{', '.join(f'{v:g}' for v in a)} ({st.median(a):g})",
                  f"{st.median(a) / st.median(b):.2f}"]
    cpu_b, cpu_a = column(old, rate, "server_cpu_pct"), column(new, rate, "server_cpu_pct")
    cells += [f"{min(cpu_b):g}–{max(cpu_b):g}", f"{min(cpu_a):g}–{max(cpu_a):g}"]
    print(f"| {rate:g} | " + " | ".join(cells) + " |")
