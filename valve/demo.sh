#!/usr/bin/env bash
# The gate in a real Tomcat: a new client gets the only token (full handshake), comes back and resumes
# although the budget is empty, and another new client is refused before any crypto; then the metrics.
# Needs valve/target/tlsadmit-tomcat.jar (mvn -pl valve -am package -DskipTests), openssl, curl.
# Ports 18443 (TLS) and 18080 (plain, metrics) on 127.0.0.1. Stops Tomcat when done.
set -euo pipefail
cd "$(dirname "$0")/.."
test -f valve/target/tlsadmit-tomcat.jar || { echo "build first: mvn -pl valve -am package -DskipTests" >&2; exit 2; }
mvn -B -ntp -q -pl valve generate-test-resources        # unpacks the Tomcat tar.gz into valve/target/tomcat
# The newest: the suite also unpacks older releases there (the compatibility tests), which the gate refuses.
home=$(ls -d "$PWD"/valve/target/tomcat/apache-tomcat-11.* | sort -V | tail -n 1)
base=$(mktemp -d /tmp/tlsadmit-demo.XXXX)
mkdir -p "$base"/{conf,lib,logs,temp,work,webapps/ROOT}
cp -r "$home"/conf/* "$base/conf/"
cp valve/target/tlsadmit-tomcat.jar "$base/lib/"
echo "hello through the gate" > "$base/webapps/ROOT/index.html"
keytool -genkeypair -alias tomcat -keyalg RSA -keysize 2048 -validity 2 -dname CN=localhost \
  -ext SAN=dns:localhost,ip:127.0.0.1 -storetype PKCS12 -keystore "$base/conf/server.p12" -storepass changeit 2>/dev/null
keytool -exportcert -rfc -alias tomcat -keystore "$base/conf/server.p12" -storepass changeit -file "$base/conf/server.pem" 2>/dev/null
cat > "$base/conf/server.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<Server port="-1" shutdown="SHUTDOWN">
  <Service name="Catalina">
    <!-- the default adaptive budget, capped for the demo at one new full handshake per 20 s, burst 1:
         the first new client gets in, the next is refused (without the cap the adaptive budget would
         admit what this machine's CPUs can serve) -->
    <Connector port="18443" address="127.0.0.1" protocol="io.tlsadmit.tomcat.AdmissionNioProtocol" SSLEnabled="true"
               maxFullHandshakesPerSecond="0.05" fullHandshakeBurst="1">
      <SSLHostConfig protocols="TLSv1.2+TLSv1.3">
        <Certificate certificateKeystoreFile="conf/server.p12" certificateKeystorePassword="changeit"
                     certificateKeystoreType="PKCS12" type="RSA"/>
      </SSLHostConfig>
    </Connector>
    <!-- plain HTTP on loopback, for the metrics (a curl over TLS would be a new client, refused) -->
    <Connector port="18080" address="127.0.0.1" protocol="HTTP/1.1"/>
    <Engine name="Catalina" defaultHost="localhost">
      <!-- newSessionPolicy off: this demo shows the TLS gate alone (on, a client without an HTTP
           session would get 503 while the budget is spent) -->
      <Valve className="io.tlsadmit.tomcat.TlsAdmissionValve" newSessionPolicy="off"/>
      <Host name="localhost" appBase="webapps"/>
    </Engine>
  </Service>
</Server>
XML
export CATALINA_HOME="$home" CATALINA_BASE="$base" CATALINA_PID="$base/tomcat.pid"
"$home/bin/catalina.sh" start >/dev/null
trap '"$home/bin/catalina.sh" stop 5 -force >/dev/null 2>&1 || true; rm -rf "$base"' EXIT
for _ in $(seq 120); do
  grep -q "Server startup in" "$base/logs/catalina.out" 2>/dev/null && break
  if grep -q "failed to start\|SEVERE" "$base/logs/catalina.out" 2>/dev/null; then
    grep -A2 "SEVERE" "$base/logs/catalina.out" >&2; exit 1
  fi
  sleep 0.5
done
grep -q "Server startup in" "$base/logs/catalina.out" || { echo "Tomcat did not start within 60 s: $base/logs/catalina.out" >&2; exit 1; }
grep "tlsadmit:" "$base/logs/catalina.out" | sed 's/.*tlsadmit:/  tlsadmit:/'
client() {  # $@: extra s_client options; prints what s_client says about the session and the HTTP status
  printf 'GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n' |
    openssl s_client -connect 127.0.0.1:18443 -servername localhost -CAfile "$base/conf/server.pem" -ign_eof "$@" 2>&1 |
    grep -oE "^(New|Reused), [^,]*|HTTP/1\.1 [0-9]{3}|handshake has read [0-9]+ bytes" | sed 's/^/    /' || true
}
echo "== 1. a new client: full handshake (takes the only token), session saved"
client -sess_out "$base/session.pem"
echo "== 2. the same client comes back: resumption, admitted although the budget is empty"
client -sess_in "$base/session.pem"
echo "== 3. a new client on another host: refused before any crypto (the server sends nothing)"
# From 127.0.0.2: the first client's host may open a few more connections for its page within 2 s
# (connectionsPerNewUser), so a newcomer must come from elsewhere to meet the empty budget.
client -bind 127.0.0.2:0
echo "== metrics (curl http://127.0.0.1:18080/tlsadmit/metrics, non-zero tlsadmit lines)"
curl -s http://127.0.0.1:18080/tlsadmit/metrics |
  grep -E '^tlsadmit_(connections_total|handshakes_total|cpus_allocated|budget_full_handshakes_per_second)' |
  grep -v ' 0.0$' | sed 's/^/    /'
