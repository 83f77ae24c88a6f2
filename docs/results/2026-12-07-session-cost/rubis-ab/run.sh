#!/bin/bash
out=/work/runs/rubis-ab; mkdir -p $out
for round in 1 2; do
  for v in old new; do
    echo "$(date -u +%T) start $v $round" >> $out/log.txt
    (cd /work/ob-$v && bin/experiment --modes adaptive --knee 60 --multipliers 2,4,8 --step-seconds 40 --warmup-seconds 15 \
      --db mariadb --scale 0.01 --key rsa4096 --think-scale 0.1 --tls 1.3 --mix browsing --no-flash-crowd --no-cpu-change \
      --out $out/$v-$round > $out/$v-$round.log 2>&1)
    echo "$(date -u +%T) end $v $round rc=$?" >> $out/log.txt
  done
done
echo done >> $out/log.txt
