<%@ page contentType="text/plain" session="false" %><%--
  Names the replica that answered (TLSADMIT_NODE in compose, or -Dtlsadmit.node) and how this connection
  was admitted, so a client can see where its resumption landed:  curl -k https://localhost:9443/node.jsp
--%>node=<%= System.getProperty("tlsadmit.node", String.valueOf(System.getenv("TLSADMIT_NODE"))) %>
verdict=<%= request.getAttribute("io.tlsadmit.verdict") %>
handshake=<%= request.getAttribute("io.tlsadmit.handshake") %>
