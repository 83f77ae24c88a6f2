#!/bin/bash
# How long a gated Tomcat takes to stop (SIGTERM to exit), and whether the acceptor stopped cleanly, per gate jar.
# usage: shutdown.sh <label> <gate jar> <runs>, from the repository's root after `mvn -pl valve -am verify` (which
# unpacks the Tomcat distribution and makes the test keystore under valve/target/tomcat)
set -euo pipefail
label=$1; jar=$2; runs=$3
home=$PWD/valve/target/tomcat/apache-tomcat-11.0.25
ks=$PWD/valve/target/tomcat/keystores/server-rsa-2048.p12
for n in $(seq 1 "$runs"); do
  base=$(mktemp -d)
  mkdir -p "$base"/{conf,lib,logs,temp,webapps/ROOT,work}
  cp "$home"/conf/{web.xml,catalina.properties,logging.properties,context.xml} "$base/conf/"
  cp "$jar" "$base/lib/"
  echo ok > "$base/webapps/ROOT/index.html"
  port=$((20000 + RANDOM % 20000))
  cat > "$base/conf/server.xml" <<XML
<Server port="-1" shutdown="SHUTDOWN">
  <Service name="Catalina">
    <Connector port="$port" address="127.0.0.1" protocol="io.tlsadmit.tomcat.AdmissionNioProtocol" SSLEnabled="true"
               scheme="https" secure="true" budget="static" maxFullHandshakesPerSecond="1000" fullHandshakeBurst="1000">
      <SSLHostConfig protocols="TLSv1.2+TLSv1.3"><Certificate certificateKeystoreFile="$ks"
        certificateKeystorePassword="changeit" certificateKeystoreType="PKCS12" type="RSA"/></SSLHostConfig>
    </Connector>
    <Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps" autoDeploy="false"/></Engine>
  </Service>
</Server>
XML
  CATALINA_HOME=$home CATALINA_BASE=$base "$home/bin/catalina.sh" run > "$base/logs/catalina.out" 2>&1 &
  pid=$!
  for i in $(seq 1 300); do grep -q 'Server startup' "$base/logs/catalina.out" && break; sleep 0.1; done
  curl -sk -o /dev/null "https://127.0.0.1:$port/" || true
  java_pid=$(pgrep -f "catalina.base=$base" | head -1)
  start=$(date +%s.%N)
  kill -TERM "$java_pid"
  while kill -0 "$java_pid" 2>/dev/null; do sleep 0.02; done
  end=$(date +%s.%N)
  wait "$pid" 2>/dev/null || true
  warn=$(grep -c 'did not stop cleanly' "$base/logs/catalina.out" || true)
  printf '%s run %d: stop took %.2f s, acceptor warnings %s\n' "$label" "$n" "$(echo "$end - $start" | bc)" "$warn"
  rm -rf "$base"
done
