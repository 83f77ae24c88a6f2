#!/bin/bash
# interleaved: the code before (243fe61) and after (c795a94) handshake CPU reported as spent
COMMON="--modes adaptive --knee 55 --multipliers 2,4 --step-seconds 40 --warmup-seconds 15 --db mariadb --scale 0.01 --key rsa4096 --think-scale 0.1 --tls 1.3 --mix browsing --flash-crowd --flash-crowd-start warm-up-requests --cpu-change-kind taskset --cpu-change-seconds 20"
for r in 1 2; do
  for v in old wip; do
    echo "$(date -u +%H:%M:%S) start $v round $r" >> /tmp/fc/times.txt
    (cd /work/$v && bin/experiment $COMMON --out /tmp/fc/r$r-$v > /tmp/fc/r$r-$v.log 2>&1)
    echo "$(date -u +%H:%M:%S) end $v round $r rc=$?" >> /tmp/fc/times.txt
  done
done
