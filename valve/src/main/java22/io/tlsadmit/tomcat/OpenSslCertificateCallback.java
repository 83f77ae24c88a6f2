package io.tlsadmit.tomcat;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationTargetException;
import org.apache.juli.logging.Log;
import org.apache.juli.logging.LogFactory;
import org.apache.tomcat.util.net.SSLContext;

/**
 * The late gate on Tomcat's OpenSSL: {@code SSL_CTX_set_cert_cb} on each context. OpenSSL 3 calls the certificate
 * callback from its ClientHello processing only when the handshake is not a resumption ({@code !s->hit}: a TLS 1.3
 * PSK or a TLS 1.2 ticket or session id it accepted skips it), after it has tried and failed to resume, and before it
 * chooses the cipher, the signature algorithm and the key share: nothing expensive has been done yet. Returning 0
 * fails the handshake with an alert ({@code SSL_R_CERT_CB_ERROR}); 1 lets it go on. (-1 would suspend the handshake
 * for an asynchronous answer; the gate answers at once.)
 *
 * <p>The callback gets the native {@code SSL*} only. It runs synchronously inside {@code SSL_do_handshake} or
 * {@code SSL_read}, on the thread that called the engine's unwrap, so the connection is the one whose channel is
 * driving an engine on this thread ({@link AdmissionChannel#drivingEngine()}). No connection there (the connector's
 * warm-up, or the context used outside a gated connector): the handshake goes on, as JSSE's key manager does for an
 * engine no gate bound.
 *
 * <p>A context has one certificate callback. Tomcat 11's OpenSSL code installs none (its bindings do not even include
 * {@code SSL_CTX_set_cert_cb}), and OpenSSL offers no way to read one to chain to it, so {@link #install} refuses to
 * run on a Tomcat whose bindings include it rather than replace a callback it may have set.
 */
final class OpenSslCertificateCallback {

    private static final Log log = LogFactory.getLog(OpenSslCertificateCallback.class);

    private static final String TOMCAT_BINDINGS = "org.apache.tomcat.util.openssl.openssl_h";
    private static final int GO_ON = 1;
    private static final int REFUSE = 0;

    /** void SSL_CTX_set_cert_cb(SSL_CTX *ctx, int (*cb)(SSL *ssl, void *arg), void *arg) */
    private static final MethodHandle SET_CERT_CB;
    /** The one upcall stub every context shares, for the life of the JVM. */
    private static final MemorySegment CALLBACK;

    static {
        Linker linker = Linker.nativeLinker();
        SymbolLookup openssl = tomcatsLibrary();
        SET_CERT_CB = linker.downcallHandle(
                openssl.find("SSL_CTX_set_cert_cb").orElseThrow(
                        () -> new IllegalStateException("libssl has no SSL_CTX_set_cert_cb (OpenSSL 1.0.2 or later needed)")),
                FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
        try {
            MethodHandle target = MethodHandles.lookup().findStatic(OpenSslCertificateCallback.class, "certificateNeeded",
                    MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class));
            CALLBACK = linker.upcallStub(target,
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS), Arena.global());
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private OpenSslCertificateCallback() {
    }

    /**
     * The library Tomcat's bindings loaded, found the way they find it: {@code System.loadLibrary} in this class
     * loader when {@code org.apache.tomcat.util.openssl.USE_SYSTEM_LOAD_LIBRARY} is set, else by name
     * ({@code LIBRARY_NAME}, default {@code ssl}), which the dynamic linker resolves to the copy already loaded.
     */
    private static SymbolLookup tomcatsLibrary() {
        try {
            Class<?> bindings = Class.forName(TOMCAT_BINDINGS, true, OpenSslCertificateCallback.class.getClassLoader());
            if (bindings.getField("USE_SYSTEM_LOAD_LIBRARY").getBoolean(null)) {
                return SymbolLookup.loaderLookup();
            }
            String name = (String) bindings.getField("LIBRARY_NAME").get(null);
            return SymbolLookup.libraryLookup(System.mapLibraryName(name), Arena.global());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot find how Tomcat loads OpenSSL (" + TOMCAT_BINDINGS + ")", e);
        }
    }

    /** Sets the callback on the native context of one of Tomcat's OpenSSL contexts (made, not yet serving). */
    static void install(SSLContext context) {
        if (tomcatBindsCertCallback(context.getClass().getClassLoader())) {
            throw new IllegalStateException("this Tomcat's OpenSSL code can set a certificate callback of its own, which"
                    + " the late gate's would replace: use sslImplementationName=" + GatedOpenSslImplementation.TOMCAT_OPENSSL
                    + " (no late gate) or JSSE (the default)");
        }
        MemorySegment sslCtx = nativeContext(context);
        try {
            SET_CERT_CB.invokeExact(sslCtx, CALLBACK, MemorySegment.NULL);
        } catch (Throwable e) {
            throw new IllegalStateException("SSL_CTX_set_cert_cb failed", e);
        }
    }

    private static boolean tomcatBindsCertCallback(ClassLoader loader) {
        try {
            Class.forName(TOMCAT_BINDINGS + "$SSL_CTX_set_cert_cb", false, loader);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** {@code OpenSSLContext.getSSLContext()}: public, but in a class this module does not compile against. */
    private static MemorySegment nativeContext(SSLContext context) {
        try {
            Object sslCtx = context.getClass().getMethod("getSSLContext").invoke(context);
            if (sslCtx instanceof MemorySegment segment && !MemorySegment.NULL.equals(segment)) {
                return segment;
            }
            throw new IllegalStateException(context.getClass().getName() + ".getSSLContext() gave " + sslCtx);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(context.getClass().getName() + ".getSSLContext() failed", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(context.getClass().getName()
                    + " is not Tomcat's OpenSSL context (no public getSSLContext())", e);
        }
    }

    /** int cert_cb(SSL *ssl, void *arg): OpenSSL needs the certificate, so this handshake will be a full one. */
    private static int certificateNeeded(MemorySegment ssl, MemorySegment arg) {
        try {
            AdmissionChannel channel = AdmissionChannel.drivingEngine();
            return channel == null || channel.certificateNeeded() ? GO_ON : REFUSE;
        } catch (Throwable e) {
            // Nothing may be thrown back into OpenSSL (the JVM would end); a failing gate must not fail the handshake.
            log.error("tlsadmit: the late gate failed in OpenSSL's certificate callback; the handshake goes on", e);
            return GO_ON;
        }
    }
}
