import sys,re,gzip
for f in sys.argv[1:]:
    op = gzip.open if f.endswith('.gz') else open
    n=b=0; sum_rate=0; sum_first=0
    for line in op(f,'rt'):
        kv=dict(x.split('=',1) for x in line.split() if '=' in x)
        try:
            cc=float(kv['client_cost_ms']); cpus=float(kv['cpus']); mr=float(kv['model_rate'])
        except: continue
        if kv.get('binding')!='true' or cc!=cc: continue
        cap=cpus*0.97/(cc/1000)
        n+=1
        if abs(mr-cap)<0.05*cap: b+=1
    print(f, 'binding periods with learned cost', n, 'cap bound in', b, '(%.0f%%)'%(100*b/max(n,1)))
