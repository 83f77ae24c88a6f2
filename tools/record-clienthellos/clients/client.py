"""Python ssl client for the recorder: COUNT connections, each offering the previous session.

usage: client.py HOST PORT SNI CA_PEM COUNT PATH [--no-ticket]
"""
import socket
import ssl
import sys


def main():
    host, port, sni, ca, count, path = sys.argv[1:7]
    context = ssl.create_default_context(cafile=ca)
    if "--no-ticket" in sys.argv[7:]:
        context.options |= ssl.OP_NO_TICKET
    print("client-version: Python %s ssl (%s)" % (sys.version.split()[0], ssl.OPENSSL_VERSION))
    session = None
    for i in range(1, int(count) + 1):
        with socket.create_connection((host, int(port)), timeout=10) as tcp:
            with context.wrap_socket(tcp, server_hostname=sni, session=session) as tls:
                tls.sendall(("GET /%s HTTP/1.0\r\nHost: %s\r\n\r\n" % (path, sni)).encode("ascii"))
                # Read to EOF so that TLS 1.3 NewSessionTicket messages are processed.
                received = 0
                while True:
                    try:
                        chunk = tls.recv(65536)
                    except ssl.SSLEOFError:
                        break
                    if not chunk:
                        break
                    received += len(chunk)
                print("connection %d: %s reused=%s %d bytes" % (i, tls.version(), tls.session_reused, received))
                session = tls.session


if __name__ == "__main__":
    main()
