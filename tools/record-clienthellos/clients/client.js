// Node tls client for the recorder: COUNT connections, each offering the session that the
// previous one reported through the 'session' event.
// usage: node client.js HOST PORT SNI CA_PEM COUNT PATH
'use strict';
const fs = require('fs');
const tls = require('tls');

const [host, port, sni, caFile, count, path] = process.argv.slice(2);
const ca = fs.readFileSync(caFile);
console.log(`client-version: Node.js ${process.version} tls (OpenSSL ${process.versions.openssl})`);

function connect(i, session) {
  if (i > Number(count)) return;
  let latest = session;
  let received = 0;
  const socket = tls.connect({ host, port: Number(port), servername: sni, ca, session }, () => {
    socket.write(`GET /${path} HTTP/1.0\r\nHost: ${sni}\r\n\r\n`);
  });
  // TLS 1.3 tickets arrive after the handshake; keep the last one seen.
  socket.on('session', (s) => { latest = s; });
  socket.on('data', (d) => { received += d.length; });
  socket.on('error', (e) => { console.error(`connection ${i}: ${e.message}`); process.exitCode = 1; });
  socket.on('close', () => {
    console.log(`connection ${i}: ${socket.getProtocol()} reused=${socket.isSessionReused()} ${received} bytes`);
    connect(i + 1, latest);
  });
}

connect(1, undefined);
