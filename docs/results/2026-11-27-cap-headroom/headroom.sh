for r in 1 2 3; do
  for v in main wip; do
    cd /work/$v
    bin/experiment --modes adaptive --knee 75 --multipliers 2,4 --step-seconds 40 --warmup-seconds 15 --db mariadb --scale 0.01 --key rsa4096 --tls 1.3 --mix bidding --no-cpu-change --no-flash-crowd --out /tmp/ab/hr-$v-$r > /tmp/ab/hr-$v-$r.log 2>&1
  done
done
