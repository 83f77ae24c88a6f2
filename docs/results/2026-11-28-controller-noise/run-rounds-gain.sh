#!/bin/bash
# worktrees: /work/old at 243fe61, /work/wip at c795a94, /work/gain at c795a94 with
#   sed -i 's/static final double BUSY_GAIN = 0.5;/static final double BUSY_GAIN = 0.25;/' \
#     admission/src/main/java/io/tlsadmit/admission/control/ControlLaw.java
# (waits for run-rounds-1-2.sh to end; its last run, wip round 3, was stopped for the gate-cost benchmark)
COMMON="--modes adaptive --knee 55 --multipliers 2,4 --step-seconds 40 --warmup-seconds 15 --db mariadb --scale 0.01 --key rsa4096 --think-scale 0.1 --tls 1.3 --mix browsing --flash-crowd --flash-crowd-start warm-up-requests --cpu-change-kind taskset --cpu-change-seconds 20"
while pgrep -f /tmp/fc/run.sh > /dev/null; do sleep 5; done
for rv in gain:1 old:3 gain:2 wip:3; do
  v=${rv%%:*}; r=${rv##*:}
  echo "$(date -u +%H:%M:%S) start $v round $r" >> /tmp/fc/times.txt
  (cd /work/$v && bin/experiment $COMMON --out /tmp/fc/r$r-$v > /tmp/fc/r$r-$v.log 2>&1)
  echo "$(date -u +%H:%M:%S) end $v round $r rc=$?" >> /tmp/fc/times.txt
done
