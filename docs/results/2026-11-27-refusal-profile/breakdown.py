"""Where the samples of an async-profiler collapsed profile went: by thread role, then, for the acceptor, by the
call below Tomcat's Acceptor.run down to the first kernel frame. Usage: python3 breakdown.py FILE.collapsed"""
import collections
import sys


def role(frames):
    if any('Acceptor.run' in f for f in frames):
        return 'acceptor'
    if any('Poller.run' in f for f in frames):
        return 'poller'
    if any('ThreadPoolExecutor' in f or 'SocketProcessor' in f for f in frames):
        return 'worker'
    if any('CompileBroker::' in f for f in frames):
        return 'JIT compiler'
    if any('Thread.run' in f for f in frames):
        return 'other Java threads'
    return 'other JVM threads (GC, VM)'


def main(path):
    total = 0
    roles = collections.Counter()
    paths = collections.Counter()
    for line in open(path):
        stack, count = line.rsplit(' ', 1)
        count = int(count)
        total += count
        frames = stack.split(';')
        r = role(frames)
        roles[r] += count
        if r != 'acceptor':
            continue
        shown = []
        for f in frames:
            if f.endswith('_[k]'):
                shown.append('(kernel)')
                break
            shown.append(f.split('/')[-1])
        starts = [i for i, f in enumerate(shown)
                  if f.startswith('AdmissionNioEndpoint.setSocketOptions') or f.startswith('NioEndpoint.serverSocketAccept')]
        shown = shown[starts[0]:] if starts else shown
        # collapse the recursive first frame and keep four levels below it
        key = ' > '.join(dict.fromkeys(shown[:6]))
        paths[key] += count
    print(f'{total} samples')
    print('\nby thread role:')
    for k, v in roles.most_common():
        print(f'{v / total:6.1%}  {k}')
    print('\nthe acceptor, by path (share of all samples; under 0.5 % left out):')
    for k, v in paths.most_common():
        if v / total >= 0.005:
            print(f'{v / total:6.1%}  {k}')


if __name__ == '__main__':
    main(sys.argv[1])
