import csv,statistics as st,sys
rows={}
for r in (1,2,3,4,5,6):
    try:
        for x in csv.DictReader(open(f'docs/results/2026-11-27-bidding-rounds/round-{r}/steps.csv')):
            if x['phase']!='sweep': continue
            rows[(r,x['mode'],x['users_per_sec'])]=x
    except FileNotFoundError: pass
for u in ('150','300'):
    ratios=[]
    for r in (1,2,3,4,5,6):
        s=rows.get((r,'static',u)); a=rows.get((r,'adaptive',u))
        if not s or not a: continue
        f=lambda x: f"{float(x['throughput_replies_per_s']):,.0f}, {float(x['completed_sessions_per_s']):.1f}, {float(x['page_p99_ms'])/1000:.1f} s, {float(x['server_cpu_pct']):.0f} %, {float(x['timeouts_per_s']):.1f} to/s, admitted {int(float(x['server_new_admitted']))} in the step"
        ratio=float(a['completed_sessions_per_s'])/float(s['completed_sessions_per_s'])
        ratios.append(ratio)
        print(u, r, 'static:', f(s), '| adaptive:', f(a), '| ratio %.2f'%ratio, 'load average', s.get('load_average'))
    if ratios: print(u,'median ratio %.2f'%st.median(ratios))
