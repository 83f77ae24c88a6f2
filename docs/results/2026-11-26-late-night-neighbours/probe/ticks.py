import os, time, random, sys
os.sched_setaffinity(0, {0})
duty = float(sys.argv[1]); secs = float(sys.argv[2]); period = float(sys.argv[3]) if len(sys.argv)>3 else 0.25
def busy0():
    for l in open('/proc/stat'):
        if l.startswith('cpu0 '):
            f = list(map(int, l.split()[1:]))
            user,nice,system,idle,iowait,irq,softirq,steal = f[:8]
            return user+nice+system+irq+softirq+steal, user+nice+system+idle+iowait+irq+softirq+steal
def own():
    f = open('/proc/self/stat').read().rsplit(')',1)[1].split()
    return int(f[11])+int(f[12])
res=[]
b0,t0=busy0(); o0=own(); nxt=time.monotonic()+period; end=time.monotonic()+secs
while time.monotonic()<end:
    s=time.monotonic()
    if random.random()<duty:
        while time.monotonic()-s<0.002: pass
    else:
        time.sleep(0.002)
    if time.monotonic()>=nxt:
        b,t=busy0(); o=own()
        res.append((b-b0,t-t0,o-o0)); b0,t0,o0=b,t,o; nxt+=period
from collections import Counter
c=Counter(r[0]-r[2] for r in res)
print('duty',duty,'period',period,'n',len(res),'mean total',sum(r[1] for r in res)/len(res),'mean own',sum(r[2] for r in res)/len(res))
print('others ticks distribution', sorted(c.items()))
import statistics
o=[r[0]-r[2] for r in res]
print('mean others', statistics.mean(o), 'max of 3 mean', statistics.mean(max(o[i:i+3]) for i in range(len(o)-2)))
