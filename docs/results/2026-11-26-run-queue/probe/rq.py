import os, time, sys
out=open(sys.argv[1],'w')
def tomcat():
    for p in os.listdir('/proc'):
        if not p.isdigit(): continue
        try:
            c=open(f'/proc/{p}/cmdline','rb').read()
        except Exception: continue
        if b'catalina' in c and b'experiment-adaptive' in c: return p
    return None
end=time.time()+float(sys.argv[2])
while time.time()<end:
    pid=tomcat()
    if not pid: time.sleep(0.5); continue
    t0=time.monotonic_ns(); ex=0; dl=0; n=0; r=0
    try:
        for tid in os.listdir(f'/proc/{pid}/task'):
            try:
                a=open(f'/proc/{pid}/task/{tid}/schedstat').read().split()
                ex+=int(a[0]); dl+=int(a[1]); n+=1
                st=open(f'/proc/{pid}/task/{tid}/stat').read()
                if st[st.rindex(')')+2]=='R': r+=1
            except Exception: pass
    except Exception: pass
    t1=time.monotonic_ns()
    out.write(f"{t0} {pid} {ex} {dl} {n} {r} {t1-t0}\n"); out.flush()
    time.sleep(max(0,0.25-(t1-t0)/1e9))
