#!/bin/bash
# three rounds, static and adaptive side by side (the experiment runs static first whatever the order given)
cd /work/main
COMMON="--knee 60 --multipliers 1,2,4,8 --step-seconds 40 --warmup-seconds 15 --db mariadb --scale 0.01"
COMMON="$COMMON --key rsa4096 --think-scale 0.1 --tls 1.3 --mix browsing --no-flash-crowd --no-cpu-change"
for r in 1 2 3; do
  if [ $((r % 2)) = 1 ]; then modes=static,adaptive; else modes=adaptive,static; fi
  echo "round $r $modes $(date -u +%H:%M:%S)" >> /work/runs/rubis.log
  bin/experiment --modes $modes $COMMON --out /work/runs/rubis-r$r > /work/runs/rubis-r$r.log 2>&1
  echo "round $r exit $? $(date -u +%H:%M:%S)" >> /work/runs/rubis.log
done
