#!/bin/bash
# Every 2 s: CPU seconds of the Tomcat JVM in all and of its JIT compiler threads (from /proc task stat).
while true; do
  pid=$(pgrep -f 'org.apache.catalina.startup.Bootstrap' | head -1)
  if [ -n "$pid" ]; then
    tot=0; jit=0
    for t in /proc/$pid/task/*; do
      read -r line < $t/stat 2>/dev/null || continue
      name=$(cat $t/comm 2>/dev/null)
      rest=${line##*) }; set -- $rest
      ticks=$(( ${12} + ${13} ))
      tot=$((tot + ticks))
      case "$name" in C1\ CompilerThre*|C2\ CompilerThre*) jit=$((jit + ticks));; esac
    done
    echo "$(date +%s) $pid total_ticks $tot jit_ticks $jit"
  fi
  sleep 2
done
