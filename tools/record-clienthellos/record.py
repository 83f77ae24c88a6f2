#!/usr/bin/env python3
"""Record the ClientHellos of real TLS clients, and what a real server did with them.

A throwaway `openssl s_server` listens on 127.0.0.1, once TLS 1.3-capable and once with
`-no_tls1_3`. In front of it sits a loopback recording proxy. Each client opens a first
connection (a full handshake) and a second one that offers the session of the first.
For every connection the proxy keeps:
  - what the client sent before the server's first reply (the whole ClientHello), and
  - the server's bytes, from which we read what the server really did: TLS 1.3 resumed
    <=> its ServerHello carries pre_shared_key (41); TLS 1.2 resumed <=> its ServerHello
    echoes the client's non-empty session id and no Certificate message follows.

The ClientHello is parsed here by a small parser that shares nothing with the Java or C
classifiers, so the sidecar's `offered` facts are an independent check on them.

Python 3 standard library only. Touches nothing but 127.0.0.1.
"""

import argparse
import datetime
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CLIENTS_DIR = os.path.join(HERE, "clients")
SNI = "localhost"

VERSION_NAMES = {0x0300: "SSLv3", 0x0301: "TLSv1", 0x0302: "TLSv1.1", 0x0303: "TLSv1.2", 0x0304: "TLSv1.3"}
GROUP_NAMES = {0x0017: "secp256r1", 0x0018: "secp384r1", 0x0019: "secp521r1", 0x001D: "x25519",
               0x001E: "x448", 0x0100: "ffdhe2048", 0x0101: "ffdhe3072", 0x11EC: "X25519MLKEM768",
               0x6399: "X25519Kyber768Draft00"}
HRR_RANDOM = bytes.fromhex("CF21AD74E59A6111BE1D8C021E65B891C2A211167ABB8C5E079E09E2C8A8339C")

EXT_SERVER_NAME, EXT_ALPN, EXT_SESSION_TICKET = 0, 16, 35
EXT_PRE_SHARED_KEY, EXT_SUPPORTED_VERSIONS, EXT_KEY_SHARE = 41, 43, 51

# A TLS 1.3 server's Certificate message travels encrypted. Its presence is read from the
# size of the encrypted records of the server's first flight: our certificate alone is
# over 700 bytes DER, while EncryptedExtensions and Finished are well under 200.
TLS13_CERTIFICATE_RECORD_MIN = 600


def is_grease(value):
    return (value & 0x0F0F) == 0x0A0A and (value >> 8) == (value & 0xFF)


def version_name(value):
    if is_grease(value):
        return "GREASE(0x%04x)" % value
    return VERSION_NAMES.get(value, "0x%04x" % value)


def group_name(value):
    if is_grease(value):
        return "GREASE(0x%04x)" % value
    return GROUP_NAMES.get(value, "0x%04x" % value)


class Reader:
    """Bounds-checked big-endian reads over one bytes object; overruns raise ValueError."""

    def __init__(self, data):
        self.data, self.pos = data, 0

    def take(self, n):
        if self.pos + n > len(self.data):
            raise ValueError("need %d bytes at %d, have %d" % (n, self.pos, len(self.data)))
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk

    def u8(self):
        return self.take(1)[0]

    def u16(self):
        return int.from_bytes(self.take(2), "big")

    def u24(self):
        return int.from_bytes(self.take(3), "big")

    def vector(self, length_bytes):
        return self.take(int.from_bytes(self.take(length_bytes), "big"))

    def remaining(self):
        return len(self.data) - self.pos


def split_records(stream):
    """(type, payload, end offset) for each whole record; a trailing partial record is dropped."""
    records, pos = [], 0
    while pos + 5 <= len(stream):
        length = int.from_bytes(stream[pos + 3:pos + 5], "big")
        if pos + 5 + length > len(stream):
            break
        records.append((stream[pos], stream[pos + 5:pos + 5 + length], pos + 5 + length))
        pos += 5 + length
    return records


def parse_extensions(reader):
    extensions = []
    if reader.remaining() == 0:
        return extensions
    block = Reader(reader.vector(2))
    while block.remaining():
        ext_type = block.u16()
        extensions.append((ext_type, block.vector(2)))
    return extensions


def parse_client_hello(first_bytes):
    """The facts of the ClientHello at the start of first_bytes (which may span records)."""
    handshake = b""
    records = 0
    for rtype, payload, _ in split_records(first_bytes):
        if rtype != 22:
            raise ValueError("record type %d before the ClientHello was complete" % rtype)
        handshake += payload
        records += 1
        if len(handshake) >= 4 and len(handshake) >= 4 + int.from_bytes(handshake[1:4], "big"):
            break
    r = Reader(handshake)
    if r.u8() != 1:
        raise ValueError("first handshake message is not a ClientHello")
    hello_length = r.u24()
    body = Reader(r.take(hello_length))
    legacy_version = body.u16()
    body.take(32)
    session_id = body.vector(1)
    cipher_suites = len(body.vector(2)) // 2
    body.vector(1)
    extensions = parse_extensions(body)
    facts = {"session_id_len": len(session_id), "ticket_len": -1, "psk_identities": 0,
             "supported_versions": [], "legacy_version": version_name(legacy_version),
             "sni": None, "alpn": [], "key_shares": [], "cipher_suites": cipher_suites,
             "extensions": len(extensions), "hello_length": hello_length, "records": records}
    for ext_type, data in extensions:
        ext = Reader(data)
        if ext_type == EXT_SESSION_TICKET:
            facts["ticket_len"] = len(data)
        elif ext_type == EXT_PRE_SHARED_KEY:
            identities = Reader(ext.vector(2))
            while identities.remaining():
                identities.vector(2)
                identities.take(4)
                facts["psk_identities"] += 1
        elif ext_type == EXT_SUPPORTED_VERSIONS:
            versions = Reader(ext.vector(1))
            while versions.remaining():
                facts["supported_versions"].append(version_name(versions.u16()))
        elif ext_type == EXT_SERVER_NAME:
            names = Reader(ext.vector(2))
            while names.remaining():
                name_type, name = names.u8(), names.vector(2)
                if name_type == 0 and facts["sni"] is None:
                    facts["sni"] = name.decode("ascii", "replace")
        elif ext_type == EXT_ALPN:
            protocols = Reader(ext.vector(2))
            while protocols.remaining():
                facts["alpn"].append(protocols.vector(1).decode("ascii", "replace"))
        elif ext_type == EXT_KEY_SHARE:
            shares = Reader(ext.vector(2))
            while shares.remaining():
                group = shares.u16()
                shares.vector(2)
                facts["key_shares"].append(group_name(group))
    return session_id, facts


def parse_server_hello(body):
    r = Reader(body)
    legacy_version = r.u16()
    random = r.take(32)
    session_id = r.vector(1)
    r.u16()
    r.u8()
    extensions = dict(parse_extensions(r))
    version = legacy_version
    if EXT_SUPPORTED_VERSIONS in extensions:
        version = int.from_bytes(extensions[EXT_SUPPORTED_VERSIONS][:2], "big")
    return {"hrr": random == HRR_RANDOM, "version": version, "session_id": session_id,
            "psk": EXT_PRE_SHARED_KEY in extensions}


def analyse_server(server_stream, flight_ends, client_session_id):
    """What the server did, read from its side of the connection.

    flight_ends[k] is the stream offset at which the client spoke again after the server's
    k-th flight: records ending at or before it belong to that flight.
    """
    def flight_of(end_offset):
        for k, limit in enumerate(flight_ends):
            if end_offset <= limit:
                return k
        return len(flight_ends)

    handshake, messages = b"", []
    server_hello, hello_flight = None, None
    encrypted_in_hello_flight = []
    for rtype, payload, end in split_records(server_stream):
        if rtype == 21:
            if server_hello is None:
                level, desc = (payload + b"\0\0")[:2]
                raise ValueError("server answered with alert level %d description %d" % (level, desc))
            continue
        if rtype == 20:
            # After its ChangeCipherSpec a TLS 1.2 server's handshake records are encrypted.
            # A TLS 1.3 server sends one only as middlebox camouflage (after a ServerHello or a
            # HelloRetryRequest); its real handshake is in application_data records anyway.
            if server_hello is not None and server_hello["version"] < 0x0304:
                break
            continue
        if rtype == 23:
            if server_hello is not None and flight_of(end) == hello_flight:
                encrypted_in_hello_flight.append(len(payload))
            continue
        if rtype != 22:
            continue
        handshake += payload
        while len(handshake) >= 4 and len(handshake) >= 4 + int.from_bytes(handshake[1:4], "big"):
            length = int.from_bytes(handshake[1:4], "big")
            msg_type, body = handshake[0], handshake[4:4 + length]
            handshake = handshake[4 + length:]
            if msg_type == 2:
                hello = parse_server_hello(body)
                if hello["hrr"]:
                    messages.append("HelloRetryRequest")
                    continue
                server_hello, hello_flight = hello, flight_of(end)
                messages.append("ServerHello")
            else:
                messages.append({11: "Certificate", 12: "ServerKeyExchange", 13: "CertificateRequest",
                                 14: "ServerHelloDone", 4: "NewSessionTicket", 22: "CertificateStatus"}
                                .get(msg_type, "type%d" % msg_type))
    if server_hello is None:
        raise ValueError("no ServerHello in the server's %d bytes" % len(server_stream))
    version = server_hello["version"]
    echoed = bool(client_session_id) and server_hello["session_id"] == client_session_id
    if version >= 0x0304:
        sent_certificate = any(n >= TLS13_CERTIFICATE_RECORD_MIN for n in encrypted_in_hello_flight)
        resumed = server_hello["psk"]
        if resumed == sent_certificate:
            raise ValueError("TLS 1.3: psk=%s but encrypted flight %s" % (resumed, encrypted_in_hello_flight))
    else:
        sent_certificate = "Certificate" in messages
        resumed = echoed and not sent_certificate
    return {"negotiated_version": version_name(version), "resumed": resumed, "echoed": echoed,
            "certificate": sent_certificate, "psk": server_hello["psk"],
            "hello_retry_request": "HelloRetryRequest" in messages,
            "server_messages": messages, "tls13_encrypted_first_flight": encrypted_in_hello_flight}


class Connection:
    """One proxied connection: the ordered list of (direction, bytes) that crossed it."""

    def __init__(self):
        self.events = []
        self.lock = threading.Lock()
        self.open_pumps = 2
        self.closed = threading.Event()
        self.sockets = []

    def record(self, direction, data):
        with self.lock:
            self.events.append((direction, data))

    def pump_done(self):
        with self.lock:
            self.open_pumps -= 1
            finished = self.open_pumps == 0
        if finished:
            self.close()

    def close(self):
        for s in self.sockets:
            try:
                s.close()
            except OSError:
                pass
        self.closed.set()

    def split(self):
        """(client's first bytes, server stream, offsets in it where the client spoke again)."""
        with self.lock:
            events = list(self.events)
        first, server, flight_ends = b"", b"", []
        for direction, data in events:
            if direction == "c2s":
                if not server:
                    first += data
                elif not flight_ends or flight_ends[-1] != len(server):
                    flight_ends.append(len(server))
            else:
                server += data
        return first, server, flight_ends


class RecordingProxy:
    def __init__(self, upstream_port):
        self.upstream_port = upstream_port
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.connections = []
        self.lock = threading.Lock()
        self.stopping = False
        threading.Thread(target=self._accept_loop, daemon=True).start()

    def _accept_loop(self):
        while not self.stopping:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            connection = Connection()
            with self.lock:
                self.connections.append(connection)
            try:
                upstream = socket.create_connection(("127.0.0.1", self.upstream_port), timeout=10)
                upstream.settimeout(None)
            except OSError:
                client.close()
                connection.close()
                continue
            for s in (client, upstream):
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            connection.sockets = [client, upstream]
            threading.Thread(target=self._pump, args=(connection, client, upstream, "c2s"), daemon=True).start()
            threading.Thread(target=self._pump, args=(connection, upstream, client, "s2c"), daemon=True).start()

    @staticmethod
    def _pump(connection, source, sink, direction):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    sink.shutdown(socket.SHUT_WR)
                    break
                # Record before forwarding: the other side cannot answer bytes it has not
                # received, so the event order is the causal order.
                connection.record(direction, data)
                sink.sendall(data)
        except OSError:
            connection.close()
        finally:
            connection.pump_done()

    def take_connections(self, timeout):
        """The connections made since the last call, once closed (forced after timeout)."""
        deadline = time.monotonic() + timeout
        with self.lock:
            taken, self.connections = self.connections, []
        for connection in taken:
            if not connection.closed.wait(max(0.0, deadline - time.monotonic())):
                connection.close()
        return taken

    def close(self):
        self.stopping = True
        self.listener.close()


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """openssl s_server -WWW on 127.0.0.1, session cache and tickets at their defaults (on)."""

    def __init__(self, workdir, docroot, max_version):
        self.max_version = max_version
        self.port = free_port()
        command = ["openssl", "s_server", "-accept", "127.0.0.1:%d" % self.port, "-WWW",
                   "-cert", os.path.join(workdir, "cert.pem"), "-key", os.path.join(workdir, "key.pem")]
        if max_version == "1.2":
            command.append("-no_tls1_3")
        self.process = subprocess.Popen(command, cwd=docroot, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        log = ""
        while "ACCEPT" not in log:
            line = self.process.stdout.readline().decode(errors="replace")
            if not line:
                self.stop()
                raise RuntimeError("s_server did not start:\n%s" % log)
            log += line
        # Drain its log so that it never blocks on a full pipe.
        threading.Thread(target=self.process.stdout.read, daemon=True).start()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def run(command, timeout=60, input_text=None):
    """Run a client program in its own process group; its output, or raise when it fails.

    On a timeout the whole group is killed: browsers leave helper processes behind.
    """
    process = subprocess.Popen(command, stdin=subprocess.PIPE if input_text is not None else subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        output, _ = process.communicate(input_text.encode() if input_text is not None else None, timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise RuntimeError("timed out after %ds: %s" % (timeout, " ".join(command)))
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)  # stragglers of a finished client
        except ProcessLookupError:
            pass
    output = output.decode(errors="replace")
    if process.returncode != 0:
        raise RuntimeError("exit %d: %s\n%s" % (process.returncode, " ".join(command), output[-2000:]))
    return output


def first_line(command):
    return run(command, timeout=30).strip().splitlines()[0]


def reported_version(output):
    for line in output.splitlines():
        if line.startswith("client-version: "):
            return line[len("client-version: "):].strip()
    raise RuntimeError("client did not report its version:\n" + output[-2000:])


# ---- clients -------------------------------------------------------------------------------
# A driver makes a first connection and a second one offering the first's session, through
# the proxy at 127.0.0.1:port, with the client program `exe`; it returns the client's name
# and version for the sidecar.

def openssl_driver(extra_flags):
    def drive(ctx, port, exe):
        session = os.path.join(ctx.tmp, "openssl-session.pem")
        if os.path.exists(session):
            os.remove(session)
        request = "GET /index.html HTTP/1.0\r\nHost: %s\r\n\r\n" % SNI
        base = [exe, "s_client", "-connect", "127.0.0.1:%d" % port, "-servername", SNI,
                "-CAfile", ctx.cert, "-ign_eof"] + extra_flags
        for session_flag in ("-sess_out", "-sess_in"):
            run(base + [session_flag, session], input_text=request)
        return " ".join(["openssl s_client", first_line([exe, "version"]).split()[1]] + extra_flags)
    return drive


def curl_driver(ctx, port, exe):
    # One invocation, two URLs: curl's session cache offers the first session on the second.
    run([exe, "-sS", "-k", "--http1.1", "--resolve", "%s:%d:127.0.0.1" % (SNI, port),
         "-o", "/dev/null", "-o", "/dev/null",
         "https://%s:%d/index.html" % (SNI, port), "https://%s:%d/second.txt" % (SNI, port)])
    # "curl 7.88.1 (x86_64-pc-linux-gnu) libcurl/7.88.1 OpenSSL/3.0.19 zlib/..." -> up to the TLS library
    words = first_line([exe, "--version"]).split()
    tls = [i for i, w in enumerate(words) if "/" in w and not w.startswith("libcurl")]
    return " ".join(words[:tls[0] + 1] if tls else words[:2])


def java_driver(ctx, port, exe):
    output = run([exe, os.path.join(CLIENTS_DIR, "Client.java"), "127.0.0.1", str(port), SNI,
                  ctx.cert, "2", "index.html"], timeout=120)
    return reported_version(output)


def python_driver(extra):
    def drive(ctx, port, exe):
        output = run([exe, os.path.join(CLIENTS_DIR, "client.py"), "127.0.0.1", str(port), SNI,
                      ctx.cert, "2", "index.html"] + extra)
        return " ".join([reported_version(output)] + (["with OP_NO_TICKET"] if extra else []))
    return drive


def node_driver(ctx, port, exe):
    output = run([exe, os.path.join(CLIENTS_DIR, "client.js"), "127.0.0.1", str(port), SNI,
                  ctx.cert, "2", "index.html"])
    return reported_version(output)


def chromium_driver(ctx, port, exe):
    profile = tempfile.mkdtemp(prefix="chromium-", dir=ctx.tmp)
    output = run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--ignore-certificate-errors", "--user-data-dir=" + profile,
                  # Chromium still tries Google services despite the flags above; every name
                  # but ours resolves nowhere, so nothing leaves 127.0.0.1.
                  "--host-resolver-rules=MAP %s 127.0.0.1, MAP * ~NOTFOUND" % SNI,
                  # Keeps the browser alive until the page's fetches are done.
                  "--virtual-time-budget=5000", "--dump-dom",
                  "https://%s:%d/index.html" % (SNI, port)], timeout=90)
    if "fetched: third resource" not in output:
        print("    note: the page's fetches did not complete:\n" + output[-1000:], file=sys.stderr)
    # Debian's wrapper script may print shell noise around the version line.
    lines = run([exe, "--version"]).splitlines()
    return next((l.strip() for l in lines if l.startswith("Chromium")), lines[-1].strip())


def jdk(major):
    """The java launcher of an installed JDK of that major version, if any."""
    def locate():
        root = "/usr/lib/jvm"
        names = sorted(os.listdir(root), reverse=True) if os.path.isdir(root) else []
        for name in names:
            if ("-%d-" % major) in name or name.endswith("-%d" % major):
                candidate = os.path.join(root, name, "bin", "java")
                if os.access(candidate, os.X_OK):
                    return candidate
        return None
    return locate


def program(*names):
    return lambda: next((shutil.which(n) for n in names if shutil.which(n)), None)


class Client:
    def __init__(self, name, servers, locate, requirement, drive):
        self.name, self.servers, self.locate = name, servers, locate
        self.requirement, self.drive = requirement, drive


BOTH = ("server13", "server12")
CLIENTS = [
    Client("openssl", BOTH, program("openssl"), "openssl", openssl_driver([])),
    Client("openssl_noticket", BOTH, program("openssl"), "openssl", openssl_driver(["-no_ticket"])),
    # A TLS 1.2-only client in front of a TLS 1.3 server: the 1.2 path of a 1.3 server.
    Client("openssl_tls12", ("server13",), program("openssl"), "openssl", openssl_driver(["-tls1_2"])),
    Client("curl", BOTH, program("curl"), "curl", curl_driver),
    Client("jdk17", BOTH, jdk(17), "a JDK 17 under /usr/lib/jvm", java_driver),
    Client("python", BOTH, lambda: sys.executable, "python3", python_driver([])),
    Client("python_noticket", ("server12",), lambda: sys.executable, "python3", python_driver(["--no-ticket"])),
    Client("node", BOTH, program("node", "nodejs"), "node", node_driver),
    Client("jdk25", BOTH, jdk(25), "a JDK 25 under /usr/lib/jvm", java_driver),
    Client("chromium", BOTH, program("chromium", "chromium-browser"),
           "chromium (apt-get install -y chromium)", chromium_driver),
]


def expected_verdict(handshake, negotiated, offered):
    if handshake == "full":
        return "NEW"
    if negotiated == "TLSv1.3":
        return "RESUME_PSK"
    return "RESUME_TICKET" if offered["ticket_len"] > 0 else "RESUME_SESSION_ID"


class Context:
    pass


def make_certificate(workdir):
    run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", "/CN=%s" % SNI, "-addext", "subjectAltName=DNS:%s,IP:127.0.0.1" % SNI,
         "-keyout", os.path.join(workdir, "key.pem"), "-out", os.path.join(workdir, "cert.pem")])


def record_client(ctx, proxy, server, client, exe, out_dir, server_label, recorded):
    name = client.name
    proxy.take_connections(0)  # forget anything stray
    try:
        client_version = client.drive(ctx, proxy.port, exe)
    finally:
        connections = proxy.take_connections(15)
    for old in os.listdir(out_dir):
        if old.startswith("%s-%s-" % (name, server_label)):
            os.remove(os.path.join(out_dir, old))
    server_version = "openssl s_server " + first_line(["openssl", "version"]).split()[1]
    written = []
    for n, connection in enumerate(connections, 1):
        first, server_stream, flight_ends = connection.split()
        if not first:
            print("    connection %d: client sent nothing, skipped" % n, file=sys.stderr)
            continue
        try:
            session_id, offered = parse_client_hello(first)
            did = analyse_server(server_stream, flight_ends, session_id)
        except ValueError as e:
            print("    connection %d: skipped: %s" % (n, e), file=sys.stderr)
            continue
        handshake = "resumed" if did["resumed"] else "full"
        stem = "%s-%s-%d-%s" % (name, server_label, n, "resumed" if did["resumed"] else "new")
        sidecar = {
            "client": client_version,
            "server": server_version,
            "server_max_version": server.max_version,
            "handshake": handshake,
            "negotiated_version": did["negotiated_version"],
            "server_echoed_session_id": did["echoed"],
            "server_sent_certificate": did["certificate"],
            "server_psk": did["psk"],
            "hello_retry_request": did["hello_retry_request"],
            "server_plaintext_handshake": did["server_messages"],
            "offered": offered,
            "first_bytes": len(first),
            "expected_verdict": expected_verdict(handshake, did["negotiated_version"], offered),
            "recorded": recorded,
        }
        if did["negotiated_version"] == "TLSv1.3":
            sidecar["tls13_encrypted_first_flight"] = did["tls13_encrypted_first_flight"]
        with open(os.path.join(out_dir, stem + ".bin"), "wb") as f:
            f.write(first)
        with open(os.path.join(out_dir, stem + ".json"), "w") as f:
            json.dump(sidecar, f, indent=2)
            f.write("\n")
        written.append(stem)
        print("    %-40s %5d bytes  sid=%-2d ticket=%-4d psk=%d  -> %s" % (
            stem, len(first), offered["session_id_len"], offered["ticket_len"], offered["psk_identities"],
            sidecar["expected_verdict"]))
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(HERE, "..", "..", "testdata", "clienthello"),
                        help="directory for the vectors (default: testdata/clienthello)")
    parser.add_argument("--only", default="",
                        help="comma-separated client names to record (default: all): "
                             + ",".join(c.name for c in CLIENTS))
    args = parser.parse_args()
    only = [n for n in args.only.split(",") if n]
    unknown = [n for n in only if n not in [c.name for c in CLIENTS]]
    if unknown:
        parser.error("unknown client(s): %s" % ", ".join(unknown))
    if not shutil.which("openssl"):
        sys.exit("record: openssl is required (it is the server)")
    out_dir = os.path.abspath(args.out)
    os.makedirs(out_dir, exist_ok=True)
    recorded = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")

    ctx = Context()
    ctx.tmp = tempfile.mkdtemp(prefix="record-clienthellos-")
    servers = []
    failures = 0
    try:
        make_certificate(ctx.tmp)
        ctx.cert = os.path.join(ctx.tmp, "cert.pem")
        docroot = os.path.join(ctx.tmp, "www")
        os.makedirs(docroot)
        for page in ("index.html", "second.txt", "third.txt"):
            shutil.copy(os.path.join(CLIENTS_DIR, page), docroot)
        for label, max_version in (("server13", "1.3"), ("server12", "1.2")):
            server = Server(ctx.tmp, docroot, max_version)
            servers.append((label, server, RecordingProxy(server.port)))
        for client in CLIENTS:
            if only and client.name not in only:
                continue
            exe = client.locate()
            if not exe:
                print("%s: skipped, not installed (needs %s)" % (client.name, client.requirement))
                continue
            for label, server, proxy in servers:
                if label not in client.servers:
                    continue
                print("%s against %s (TLS max %s):" % (client.name, label, server.max_version))
                try:
                    if not record_client(ctx, proxy, server, client, exe, out_dir, label, recorded):
                        failures += 1
                except (RuntimeError, OSError) as e:
                    print("    failed: %s" % e)
                    failures += 1
    finally:
        for _, server, proxy in servers:
            proxy.close()
            server.stop()
        shutil.rmtree(ctx.tmp, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
