#!/bin/bash
out=/work/runs/cpu-ab; mkdir -p $out
for v in old new; do
  echo "$(date -u +%T) start $v" >> $out/log.txt
  (cd /work/ob-$v && bin/experiment --modes adaptive --knee 60 --multipliers 2 --step-seconds 40 --warmup-seconds 15 \
    --db mariadb --scale 0.01 --key rsa4096 --think-scale 0.1 --tls 1.3 --mix browsing --no-flash-crowd \
    --cpu-change-kind taskset --cpu-change-seconds 20 --out $out/$v > $out/$v.log 2>&1)
  echo "$(date -u +%T) end $v rc=$?" >> $out/log.txt
done
echo done >> $out/log.txt
