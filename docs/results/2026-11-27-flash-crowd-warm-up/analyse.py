import csv,sys,glob,os,statistics
# per flash crowd: sessions, timeouts, replies/s (median of seconds 10-29), seconds to 90 %, and from the
# controller trace (adaptive and static both have one): process CPU (compiler excluded), compiler CPU, CPU per reply
rows=[]
for run in sys.argv[1:]:
    fc={ (r['mode']):r for r in csv.DictReader(open(run+'/flash-crowd.csv'))}
    for d in sorted(g for g in glob.glob(run+'/runs/flash-*') if not g.endswith('-warmup')):
        mode=os.path.basename(d).split('-')[1]
        tl=list(csv.DictReader(open(d+'/timeline.csv')))[:30]
        rep=[int(r['replies']) for r in tl]
        med=statistics.median(rep[10:30])
        per=[]
        t=0
        trace=d+'/control-trace.log'
        if not os.path.exists(trace):
            f=fc[mode]
            print(f"{os.path.basename(run):24s} {mode:8s} start={f['server_start']:16s} sessions={f['sessions_completed']:>5s} timeouts={f['timeouts']:>4s} replies/s(10-29)={med:6.0f} steady={float(f['steady_replies_per_s']):6.0f} to90={f['seconds_to_90pct'] or '-':>3s}")
            continue
        for line in open(trace):
            v=dict(x.split('=',1) for x in line.split() if '=' in x)
            t+=float(v['period_ms'])/1000
            per.append((t,float(v['used']),float(v['compiler']),float(v['admitted_per_s'])))
        start=next(per[i][0] for i in range(len(per)-1) if per[i][3]>40 and per[i+1][3]>40)  # first period with the crowd's admissions
        win=[p for p in per if start+10<=p[0]<start+30]
        used=statistics.mean(p[1] for p in win); comp=statistics.mean(p[2] for p in win)
        adm=statistics.mean(p[3] for p in win)
        f=fc[mode]
        print(f"{os.path.basename(run):24s} {mode:8s} start={f['server_start']:16s} sessions={f['sessions_completed']:>5s} timeouts={f['timeouts']:>4s} "
              f"replies/s(10-29)={med:6.0f} steady={float(f['steady_replies_per_s']):6.0f} to90={f['seconds_to_90pct'] or '-':>3s} "
              f"used={used:.3f} jit={comp:.3f} ms/reply={1000*(used+comp)/med:.3f} admitted/s={adm:5.1f}")
