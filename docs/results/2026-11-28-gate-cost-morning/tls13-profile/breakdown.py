"""Samples per 1,000 connections by where they fell, from async-profiler's collapsed stacks.

usage: python3 breakdown.py DIR ROUNDS_CSV   (DIR holds <variant>.collapsed as bin/gate-cost-benchmark
--async-profiler writes them; ROUNDS_CSV is the same run's rounds.csv, for the connections per variant).
One sample is 200 µs of CPU, so one sample per 1,000 connections is 0.2 µs per connection. A stack goes to the
first category whose frame it holds, in the order below.
"""
import collections
import csv
import sys

CATEGORIES = [
    ("JIT compiler threads", "CompileBroker::compiler_thread_loop"),
    ("control loop (ControlLoop.runOnce)", "ControlLoop.runOnce"),
    ("thread CPU clock readings (ThreadCpuClock.nanos)", "ThreadCpuClock.nanos"),
    ("acceptor (Acceptor.run)", "Acceptor.run"),
    ("poller (Poller.run)", "NioEndpoint$Poller.run"),
    ("workers (SocketProcessorBase.run)", "SocketProcessorBase.run"),
]
VARIANTS = ("stock", "static", "adaptive")


def main(directory, rounds_csv):
    connections = collections.Counter()
    with open(rounds_csv) as f:
        for row in csv.DictReader(f):
            connections[row["variant"]] += int(row["connections"])
    per_thousand = {}
    for variant in VARIANTS:
        counts = collections.Counter()
        with open(f"{directory}/{variant}.collapsed") as f:
            for line in f:
                stack, n = line.rsplit(" ", 1)
                n = int(n)
                counts["all"] += n
                for name, frame in CATEGORIES:
                    if frame in stack:
                        counts[name] += n
                        break
                else:
                    counts["everything else"] += n
        per_thousand[variant] = {k: v * 1000 / connections[variant] for k, v in counts.items()}
    print("| where | " + " | ".join(VARIANTS) + " | adaptive - static |")
    print("|---|" + "---|" * (len(VARIANTS) + 1))
    for name in [c[0] for c in CATEGORIES] + ["everything else", "all"]:
        values = [per_thousand[v].get(name, 0.0) for v in VARIANTS]
        print(f"| {name} | " + " | ".join(f"{x:.1f}" for x in values) + f" | {values[2] - values[1]:+.1f} |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
