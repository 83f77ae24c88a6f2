#!/bin/bash
# runQueueTarget 3, 6, 10 and the default (no run-queue target), ABCD DCBA, on 00f0ed50
COMMON="--knee 55 --multipliers 2,4,8 --step-seconds 40 --warmup-seconds 15 --db mariadb --scale 0.01 --key rsa4096 --think-scale 0.1 --tls 1.3 --mix browsing --no-flash-crowd --no-cpu-change"
run() { # name round args...
  local name=$1 round=$2; shift 2
  (cd /work/sweep && bin/experiment $COMMON "$@" --out /tmp/rq/sweep/$name-$round > /tmp/rq/sweep/$name-$round.log 2>&1)
}
for round in 1 2; do
  if [ $round = 1 ]; then order="rq3 rq6 rq10 default"; else order="default rq10 rq6 rq3"; fi
  for v in $order; do
    case $v in
      default) run default $round --modes adaptive ;;
      rq*) run $v $round --modes adaptive-runqueue --gate-attribute runQueueTarget=${v#rq} ;;
    esac
  done
done
echo done > /tmp/rq/sweep/DONE
