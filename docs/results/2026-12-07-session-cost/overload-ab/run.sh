#!/bin/bash
# interleaved A/B of the overload benchmark, adaptive only, fixed capacity
cap=$1; shift
out=/work/runs/ab; mkdir -p $out
for round in 1 2; do
  for v in old new; do
    t=/work/ob-$v
    home=$(ls -d $t/overload-bench/target/tomcat/apache-tomcat-* | sort -V | tail -1)
    echo "$(date -u +%T) start $v round $round" >> $out/log.txt
    (cd $t && java -Dtlsadmit.root=$t -Dtlsadmit.catalina.home=$home -jar overload-bench/target/overload-bench.jar \
      --key rsa4096 --multipliers 1,2,4,8 --step-seconds 40 --modes adaptive --capacity $cap "$@" \
      --out $out/$v-$round > $out/$v-$round.log 2>&1)
    echo "$(date -u +%T) end $v round $round rc=$?" >> $out/log.txt
  done
done
echo done >> $out/log.txt
