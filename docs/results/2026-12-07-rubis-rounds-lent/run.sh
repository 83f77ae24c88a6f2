#!/bin/bash
# three rounds, static and adaptive side by side (the experiment runs static first whatever the order given)
cd /work/main
COMMON="--knee 60 --multipliers 1,2,4,8 --step-seconds 40 --warmup-seconds 15 --db mariadb --scale 0.01"
COMMON="$COMMON --key rsa4096 --think-scale 0.1 --tls 1.3 --mix browsing --no-flash-crowd --no-cpu-change"
for r in 1 2 3; do
  echo "round $r $(date -u +%H:%M:%S)" >> <dir>/rubis.log
  bin/experiment --modes static,adaptive $COMMON --out <dir>/rubis-r$r > <dir>/rubis-r$r.log 2>&1
  echo "round $r exit $? $(date -u +%H:%M:%S)" >> <dir>/rubis.log
done
