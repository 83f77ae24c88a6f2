"""Where a control tick's CPU samples fall, from an async-profiler collapsed file: python3 tick_profile.py FILE.

The file is too large to keep (118 MB for 400 ticks at one sample per 100 us of CPU); this script's output is kept in
tick-profile.txt. Counts only stacks under AdmissionController.tick: the calls it makes, their callees, and the
callees of the three largest.
"""
import collections
import sys

path = sys.argv[1]
stacks = []
for line in open(path):
    stack, n = line.rsplit(' ', 1)
    if 'AdmissionController.tick' in stack:
        stacks.append((stack.split(';'), int(n)))
total = sum(n for _, n in stacks)
print('samples under AdmissionController.tick:', total)


def below(key, depth):
    counts = collections.Counter()
    for frames, n in stacks:
        hits = [k for k, f in enumerate(frames) if key in f]
        if hits:
            i = max(hits)
            counts[' > '.join(f.split('/')[-1] for f in frames[i + 1:i + 1 + depth]) or '(self)'] += n
    return counts


for key, depth, top in [('AdmissionController.tick', 1, 12), ('CpuAllocation.quotaNow', 4, 10),
                        ('CpuAllocation.neighboursNow', 3, 8), ('AdmissionController.read', 4, 8)]:
    counts = below(key, depth)
    within = sum(counts.values())
    print(f'\n{key}: {within} samples ({100 * within / total:.1f} % of the tick)')
    for name, n in counts.most_common(top):
        print(f'  {n:6d} {100 * n / within:5.1f} %  {name}')
