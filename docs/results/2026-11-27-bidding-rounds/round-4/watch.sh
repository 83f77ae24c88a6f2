# $1 = experiment log, $2 = output file. For each measured step: 15 s in, 20 s of perf stat on Tomcat.
log=$1; out=$2; seen=0
runq() { local s=0; for f in /proc/$1/task/*/schedstat; do read a b c < $f 2>/dev/null && s=$((s+b)); done; echo $s; }
while true; do
  n=$(grep -c 'sweep step' $log 2>/dev/null); n=${n:-0}
  if [ "$n" -gt "$seen" ]; then
    seen=$n; line=$(grep 'sweep step' $log | tail -1 | sed 's/^.*left\] //')
    sleep 15
    pid=$(pgrep -f org.apache.catalina.startup.Bootstrap | head -1)
    r0=$(runq $pid); t0=$(date +%s.%N)
    perf stat -e context-switches,cpu-migrations,task-clock -p $pid -- sleep 20 2> /tmp/ab/perf.tmp
    r1=$(runq $pid); t1=$(date +%s.%N)
    echo "== $line pid $pid" >> $out
    grep -E 'context-switches|cpu-migrations|task-clock' /tmp/ab/perf.tmp >> $out
    echo "run-queue threads waiting (mean): $(echo "($r1-$r0)/(($t1-$t0)*1000000000)" | bc -l)" >> $out
  fi
  grep -q 'done. Charts' $log 2>/dev/null && break
  sleep 1
done
