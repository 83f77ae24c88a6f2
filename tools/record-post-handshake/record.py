#!/usr/bin/env python3
"""Records what an openssl s_client sends to a server over a whole connection, through a relay, for
RenegotiationWatchTest: testdata/post-handshake/<name>.bin (the client's bytes, from its first to its last) and
<name>.json (where its records start, which one is its Finished, which one follows). See testdata/README.md."""
import json, os, socket, subprocess, sys, tempfile, threading, time, datetime

OUT = sys.argv[1] if len(sys.argv) > 1 else "testdata/post-handshake"
RELAY, SERVER = 20100, 20101  # this recorder's ports (20000-20999)

def relay_once(recorded):
    listener = socket.socket(); listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", RELAY)); listener.listen(1)
    def run():
        client, _ = listener.accept()
        server = socket.create_connection(("127.0.0.1", SERVER))
        def pump(src, dst, keep):
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if keep is not None:
                    keep.extend(data)
                dst.sendall(data)
            try: dst.shutdown(socket.SHUT_WR)
            except OSError: pass
        back = threading.Thread(target=pump, args=(server, client, None)); back.start()
        pump(client, server, recorded); back.join(); client.close(); server.close(); listener.close()
    thread = threading.Thread(target=run); thread.start(); return thread

def records(data):
    at, out = 0, []
    while at + 5 <= len(data):
        length = (data[at + 3] << 8) | data[at + 4]
        out.append({"offset": at, "type": data[at], "length": length}); at += 5 + length
    return out

def record(name, server_args, client_args, commands, client_renegotiation):
    with tempfile.TemporaryDirectory() as tmp:
        key, cert = os.path.join(tmp, "k.pem"), os.path.join(tmp, "c.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                        "-days", "1", "-subj", "/CN=localhost"], check=True, capture_output=True)
        server = subprocess.Popen(["openssl", "s_server", "-accept", str(SERVER), "-key", key, "-cert", cert,
                                   ] + server_args, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        try:
            recorded, output = converse(server_args, client_args, commands)
        finally:
            server.kill()
    finish(name, recorded, output, server_args, client_args, commands, client_renegotiation)

def converse(server_args, client_args, commands):
    time.sleep(1)
    recorded = bytearray(); thread = relay_once(recorded)
    client = subprocess.Popen(["openssl", "s_client", "-connect", "127.0.0.1:%d" % RELAY] + client_args,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    for line in commands:
        time.sleep(0.5)
        try:
            client.stdin.write(line.encode()); client.stdin.flush()
        except BrokenPipeError:
            break  # s_client has ended the connection: what it sent is recorded
    time.sleep(1); output = client.communicate(timeout=10)[0].decode(errors="replace")
    thread.join(10)
    return recorded, output

def finish(name, recorded, output, server_args, client_args, commands, client_renegotiation):
    recs = records(bytes(recorded))
    ccs = next(i for i, r in enumerate(recs) if r["type"] == 20)
    finished = recs[ccs + 1]
    with open(os.path.join(OUT, name + ".bin"), "wb") as f:
        f.write(recorded)
    sidecar = {"client": subprocess.run(["openssl", "version"], capture_output=True, text=True).stdout.strip(),
               "client_args": client_args, "stdin": commands, "server_args": server_args,
               "server_allows_client_renegotiation": client_renegotiation,
               "records": recs, "client_finished_end": finished["offset"] + 5 + finished["length"],
               "handshake_records_after_finished": [r["offset"] for r in recs[ccs + 2:] if r["type"] == 22],
               "renegotiated": "RENEGOTIATING" in output, "bytes": len(recorded),
               "recorded": datetime.date.today().isoformat()}
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        json.dump(sidecar, f, indent=1); f.write("\n")
    print(name, len(recorded), "bytes,", len(recs), "records; after Finished, handshake records at",
          sidecar["handshake_records_after_finished"])

os.makedirs(OUT, exist_ok=True)
# a request, then R: a full renegotiation (OpenSSL 3 servers refuse a client's unless told otherwise), a request
record("openssl-tls12-renegotiation", ["-tls1_2", "-client_renegotiation"], ["-tls1_2"],
       ["GET one\n", "R\n", "GET two\n"], True)
# TLS 1.3: K sends a KeyUpdate, a post-handshake handshake message inside an application-data record
record("openssl-tls13-keyupdate", ["-tls1_3"], ["-tls1_3"], ["GET one\n", "K\n", "GET two\n"], False)
