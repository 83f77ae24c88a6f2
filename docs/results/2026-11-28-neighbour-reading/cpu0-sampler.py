"""Every 100 ms: CPU 0's busy ticks (user..steal, /proc/stat) and, summed, the utime+stime of each java process
pinned to CPU 0 only (Tomcat under the experiment) and of mysqld; prints one line per interval."""
import os,time,sys
def cpu0():
    for l in open('/proc/stat'):
        if l.startswith('cpu0 '):
            f=[int(x) for x in l.split()[1:]]
            return f[0]+f[1]+f[2]+f[5]+f[6]+f[7], sum(f[:8])
def ticks(pid):
    try:
        s=open('/proc/%d/stat'%pid).read(); f=s[s.rindex(')')+2:].split()
        return int(f[11])+int(f[12])
    except Exception: return None
def comm(pid):
    try: return open('/proc/%d/comm'%pid).read().strip()
    except Exception: return ''
def pinned0(pid):
    try:
        for l in open('/proc/%d/status'%pid):
            if l.startswith('Cpus_allowed_list:'): return l.split()[1]=='0'
    except Exception: return False
end=time.time()+float(sys.argv[1])
prev=None
while time.time()<end:
    pids=[int(p) for p in os.listdir('/proc') if p.isdigit()]
    tom=[p for p in pids if comm(p)=='java' and pinned0(p)]
    my=[p for p in pids if comm(p) in ('mysqld','mariadbd')]
    b,t=cpu0(); tt=sum(ticks(p) or 0 for p in tom); mt=sum(ticks(p) or 0 for p in my)
    now=time.time()
    if prev and tom and prev[4]==tuple(tom):
        db,dt,dtom,dmy=b-prev[0],t-prev[1],tt-prev[2],mt-prev[3]
        print('%.1f busy0=%d total0=%d tomcat=%d mysqld_all_cpus=%d others0=%d'%(now,db,dt,dtom,dmy,db-dtom),flush=True)
    prev=(b,t,tt,mt,tuple(tom))
    time.sleep(0.25)
