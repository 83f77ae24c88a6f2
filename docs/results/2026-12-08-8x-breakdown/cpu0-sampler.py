#!/usr/bin/env python3
"""Where CPU 0's time goes during bin/experiment: one JSON line a second.

Reads /proc only (clock ticks, 10 ms): the two CPUs' /proc/stat lines; the gated Tomcat's process and its
acceptor, poller, compiler and GC threads (thread names from one `jcmd Thread.print` per Tomcat, since every
connector thread's comm is the same 15 characters); ksoftirqd/0 and /1; mariadbd; the experiment's JVM (Gatling).
Usage: cpu0-sampler.py OUT.jsonl   (runs until killed)
"""
import json, os, re, subprocess, sys, time


def ticks(path):
    try:
        with open(path) as f:
            s = f.read()
    except OSError:
        return None
    fields = s[s.rindex(')') + 2:].split()
    return int(fields[11]) + int(fields[12])  # utime, stime


def comm(pid):
    try:
        with open(f'/proc/{pid}/comm') as f:
            return f.read().strip()
    except OSError:
        return ''


def cmdline(pid):
    try:
        with open(f'/proc/{pid}/cmdline', 'rb') as f:
            return f.read().replace(b'\0', b' ').decode(errors='replace')
    except OSError:
        return ''


def cpus():
    out = {}
    with open('/proc/stat') as f:
        for line in f:
            if line.startswith('cpu0 ') or line.startswith('cpu1 '):
                p = line.split()
                out[p[0]] = [int(x) for x in p[1:9]]  # user nice system idle iowait irq softirq steal
    return out


def thread_names(pid):
    try:
        text = subprocess.run(['jcmd', str(pid), 'Thread.print'], capture_output=True, text=True,
                              timeout=20).stdout
    except (subprocess.SubprocessError, OSError):
        return {}
    names = {}
    for m in re.finditer(r'^"([^"]+)".*? nid=0x([0-9a-f]+)', text, re.M):
        names[int(m.group(2), 16)] = m.group(1)
    return names


def main():
    out = open(sys.argv[1], 'a', buffering=1)
    tomcat, names, seen_at, tries, tried_at = None, {}, 0, 0, 0
    while True:
        now = time.time()
        pids = [int(p) for p in os.listdir('/proc') if p.isdigit()]
        rec = {'t': now, 'cpu': cpus()}
        cat = [p for p in pids if comm(p) == 'java' and 'org.apache.catalina.startup.Bootstrap' in cmdline(p)]
        if cat:
            if cat[0] != tomcat:
                tomcat, names, seen_at, tries, tried_at = cat[0], {}, now, 0, 0
            # one jcmd per Tomcat (a second try 10 s later if the first came too early): attaching costs its CPU
            if not any(n.endswith('-Acceptor') for n in names.values()) and now - seen_at > 3 and tries < 2 \
                    and now - tried_at > 10:
                names, tries, tried_at = thread_names(tomcat), tries + 1, now
            m = re.search(r'bases/experiment-([a-z-]+?)-\d', cmdline(tomcat))
            rec['tomcat'] = {'pid': tomcat, 'mode': m.group(1) if m else '?', 'all': ticks(f'/proc/{tomcat}/stat')}
            parts = {'acceptor': 0, 'poller': 0, 'compiler': 0, 'gc': 0}
            try:
                tids = [int(t) for t in os.listdir(f'/proc/{tomcat}/task')]
            except OSError:
                tids = []
            for tid in tids:
                n = names.get(tid, '')
                c = comm_t = ''
                try:
                    with open(f'/proc/{tomcat}/task/{tid}/comm') as f:
                        comm_t = f.read().strip()
                except OSError:
                    pass
                if n.endswith('-Acceptor'):
                    c = 'acceptor'
                elif n.endswith('-Poller'):
                    c = 'poller'
                elif comm_t.startswith('C2 Compiler') or comm_t.startswith('C1 Compiler'):
                    c = 'compiler'
                elif comm_t.startswith('GC Thread') or comm_t.startswith('G1 '):
                    c = 'gc'
                if c:
                    v = ticks(f'/proc/{tomcat}/task/{tid}/stat')
                    parts[c] += v or 0
            rec['tomcat'].update(parts)
        for p in pids:
            c = comm(p)
            if c in ('ksoftirqd/0', 'ksoftirqd/1', 'mariadbd'):
                rec[c] = ticks(f'/proc/{p}/stat')
            elif c == 'java' and 'io.tlsadmit.experiment' in cmdline(p):
                rec['driver'] = ticks(f'/proc/{p}/stat')
        out.write(json.dumps(rec) + '\n')
        time.sleep(max(0.0, 1.0 - (time.time() - now)))


if __name__ == '__main__':
    main()
