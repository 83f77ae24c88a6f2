#!/bin/bash
# worktrees: /work/old at a72e03f, /work/main at b784965 (bin/experiment builds the tree it runs from)
COMMON="--modes adaptive --knee 55 --multipliers 2,4 --step-seconds 40 --warmup-seconds 15 --db mariadb --scale 0.01 --key rsa4096 --think-scale 0.1 --tls 1.3 --mix browsing --flash-crowd --flash-crowd-start warm-up-requests --cpu-change-kind taskset --cpu-change-seconds 20"
for rv in old:1 main:1 main:2 old:2; do
  v=${rv%%:*}; r=${rv##*:}
  (cd /work/$v && bin/experiment $COMMON --out /tmp/ab2/r$r-$v > /tmp/ab2/r$r-$v.log 2>&1)
done
# then new3: taskset -c 1 python3 cpu0-sampler.py 320 > cpu0-sampler.txt & (cd /work/main && bin/experiment $COMMON --out /tmp/ab3/r3-main)
# then new4, old3, old4, new5 the same way, from worktrees of b784965 and a72e03f (16:14-16:35 UTC)
