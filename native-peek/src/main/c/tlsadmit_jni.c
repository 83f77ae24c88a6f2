/*
 * JNI binding for io.tlsadmit.peek.NativePeek.
 *
 * The socket's file descriptor is read from the channel object here, in
 * native code: JNI field access is not subject to module encapsulation, so no
 * --add-opens is needed. JDK 17 and 25 both keep it in the channel's
 * `FileDescriptor fd` (sun.nio.ch.SocketChannelImpl and
 * ServerSocketChannelImpl), whose int `fd` becomes -1 once closed; the cached
 * `int fdVal` of the same classes is the fallback for an implementation
 * without the former.
 */
#define _GNU_SOURCE /* GNU strerror_r */
#include <errno.h>
#include <jni.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "io_tlsadmit_peek_NativePeek.h"
#include "tlsadmit_peek.h"

#define FLAG_EOF 1
#define FLAG_TIMED_OUT 2
#define FLAG_BUFFER_FULL 4

static jfieldID file_descriptor_fd; /* java.io.FileDescriptor.fd, resolved in JNI_OnLoad */

/* The JDK's own channel classes, resolved once: a field lookup by name on
 * every call costs more than the classification. Other channel classes take
 * the lookup path. Boot classes are never unloaded, so the IDs stay valid. */
typedef struct known_channel {
    jclass cls; /* global reference, or NULL if this JDK has no such class */
    jfieldID fd;
} known_channel;

static known_channel socket_channel, server_socket_channel;

static known_channel resolve_channel(JNIEnv *env, const char *name)
{
    known_channel known = {NULL, NULL};
    jclass cls = (*env)->FindClass(env, name);
    if (cls != NULL) {
        jfieldID fd = (*env)->GetFieldID(env, cls, "fd", "Ljava/io/FileDescriptor;");
        if (fd != NULL) {
            known.cls = (*env)->NewGlobalRef(env, cls);
            known.fd = fd;
        }
        (*env)->DeleteLocalRef(env, cls);
    }
    (*env)->ExceptionClear(env);
    return known;
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved)
{
    (void)reserved;
    JNIEnv *env;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK) return JNI_ERR;
    jclass fd_class = (*env)->FindClass(env, "java/io/FileDescriptor");
    if (fd_class == NULL) return JNI_ERR;
    file_descriptor_fd = (*env)->GetFieldID(env, fd_class, "fd", "I");
    (*env)->DeleteLocalRef(env, fd_class);
    if (file_descriptor_fd == NULL) return JNI_ERR;
    socket_channel = resolve_channel(env, "sun/nio/ch/SocketChannelImpl");
    server_socket_channel = resolve_channel(env, "sun/nio/ch/ServerSocketChannelImpl");
    return JNI_VERSION_1_8;
}

static jfieldID known_fd_field(JNIEnv *env, jobject channel)
{
    if (socket_channel.cls != NULL && (*env)->IsInstanceOf(env, channel, socket_channel.cls))
        return socket_channel.fd;
    if (server_socket_channel.cls != NULL && (*env)->IsInstanceOf(env, channel, server_socket_channel.cls))
        return server_socket_channel.fd;
    return NULL;
}

static void throw_named(JNIEnv *env, const char *class_name, const char *message)
{
    jclass cls = (*env)->FindClass(env, class_name);
    if (cls != NULL) (*env)->ThrowNew(env, cls, message);
}

static void throw_errno(JNIEnv *env, const char *what, int err)
{
    char text[128], message[256];
    const char *reason = strerror_r(err, text, sizeof text);
    snprintf(message, sizeof message, "%s: %s", what, reason);
    throw_named(env, "java/io/IOException", message);
}

/* The channel's descriptor, or -1 with a pending exception. */
static int channel_fd(JNIEnv *env, jobject channel)
{
    jfieldID known = known_fd_field(env, channel);
    if (known != NULL) {
        jobject descriptor = (*env)->GetObjectField(env, channel, known);
        int fd = descriptor == NULL ? -1 : (*env)->GetIntField(env, descriptor, file_descriptor_fd);
        if (descriptor != NULL) (*env)->DeleteLocalRef(env, descriptor);
        if (fd < 0) throw_named(env, "java/nio/channels/ClosedChannelException", NULL);
        return fd;
    }
    jclass cls = (*env)->GetObjectClass(env, channel);
    int fd = -1;
    jfieldID holder = (*env)->GetFieldID(env, cls, "fd", "Ljava/io/FileDescriptor;");
    if (holder != NULL) {
        jobject descriptor = (*env)->GetObjectField(env, channel, holder);
        if (descriptor != NULL) {
            fd = (*env)->GetIntField(env, descriptor, file_descriptor_fd);
            (*env)->DeleteLocalRef(env, descriptor);
        }
    } else {
        (*env)->ExceptionClear(env);
        jfieldID value = (*env)->GetFieldID(env, cls, "fdVal", "I");
        if (value == NULL) {
            (*env)->ExceptionClear(env);
            (*env)->DeleteLocalRef(env, cls);
            throw_named(env, "java/lang/UnsupportedOperationException",
                        "this channel implementation has neither an fd nor an fdVal field");
            return -1;
        }
        fd = (*env)->GetIntField(env, channel, value);
    }
    (*env)->DeleteLocalRef(env, cls);
    if (fd < 0) throw_named(env, "java/nio/channels/ClosedChannelException", NULL);
    return fd;
}

static tlsadmit_policy policy_of(jint max_version, jint max_hello_length)
{
    tlsadmit_policy policy = {.max_version = (uint16_t)max_version,
                              .max_hello_length = max_hello_length < 0 ? 0 : (uint32_t)max_hello_length};
    return policy;
}

JNIEXPORT jlong JNICALL Java_io_tlsadmit_peek_NativePeek_peek0(JNIEnv *env, jclass cls, jobject channel,
                                                               jobject buffer, jint capacity,
                                                               jint max_version, jint max_hello_length,
                                                               jint timeout_millis)
{
    (void)cls;
    uint8_t *buf = (*env)->GetDirectBufferAddress(env, buffer);
    jlong real_capacity = (*env)->GetDirectBufferCapacity(env, buffer);
    if (buf == NULL || capacity < 0 || capacity > real_capacity) {
        throw_named(env, "java/lang/IllegalArgumentException", "not a direct buffer, or bad capacity");
        return 0;
    }
    int fd = channel_fd(env, channel);
    if (fd < 0) return 0;
    tlsadmit_policy policy = policy_of(max_version, max_hello_length);
    tlsadmit_hello_facts facts;
    tlsadmit_peek_result result;
    tlsadmit_verdict verdict = tlsadmit_peek(fd, buf, (size_t)capacity, timeout_millis, &policy, &facts, &result);
    if (result.error != 0) {
        throw_errno(env, "peek at the client's first bytes failed", result.error);
        return 0;
    }
    jlong flags = (result.eof ? FLAG_EOF : 0) | (result.timed_out ? FLAG_TIMED_OUT : 0) |
                  (result.buffer_full ? FLAG_BUFFER_FULL : 0);
    return (jlong)verdict | flags << 8 | (jlong)result.length << 16;
}

JNIEXPORT jlong JNICALL Java_io_tlsadmit_peek_NativePeek_classify0(JNIEnv *env, jclass cls, jobject buffer,
                                                                   jint position, jint limit,
                                                                   jint max_version, jint max_hello_length)
{
    (void)cls;
    uint8_t *buf = (*env)->GetDirectBufferAddress(env, buffer);
    jlong capacity = (*env)->GetDirectBufferCapacity(env, buffer);
    if (buf == NULL || position < 0 || limit < position || limit > capacity) {
        throw_named(env, "java/lang/IllegalArgumentException", "not a direct buffer, or bad position/limit");
        return 0;
    }
    tlsadmit_policy policy = policy_of(max_version, max_hello_length);
    tlsadmit_hello_facts facts;
    tlsadmit_verdict verdict = tlsadmit_classify(buf + position, (size_t)(limit - position), &policy, &facts);
    return (jlong)verdict | (jlong)facts.bytes_needed << 16;
}

JNIEXPORT void JNICALL Java_io_tlsadmit_peek_NativePeek_deferAccept0(JNIEnv *env, jclass cls, jobject channel,
                                                                     jint seconds)
{
    (void)cls;
    int fd = channel_fd(env, channel);
    if (fd < 0) return;
    int err = tlsadmit_defer_accept(fd, seconds);
    if (err != 0) throw_errno(env, "setsockopt(TCP_DEFER_ACCEPT) failed", err);
}

JNIEXPORT jint JNICALL Java_io_tlsadmit_peek_NativePeek_discard0(JNIEnv *env, jclass cls, jobject channel,
                                                                  jint max_bytes)
{
    (void)cls;
    int fd = channel_fd(env, channel);
    if (fd < 0) return 0;
    size_t dropped;
    int err = tlsadmit_discard(fd, (size_t)max_bytes, &dropped);
    if (err != 0) {
        throw_errno(env, "dropping the client's unread bytes failed", err);
        return 0;
    }
    return (jint)dropped;
}

JNIEXPORT jint JNICALL Java_io_tlsadmit_peek_NativePeek_allowedCpus0(JNIEnv *env, jclass cls)
{
    (void)env;
    (void)cls;
    return tlsadmit_allowed_cpus();
}

JNIEXPORT jintArray JNICALL Java_io_tlsadmit_peek_NativePeek_allowedCpuList0(JNIEnv *env, jclass cls)
{
    (void)cls;
    jint cpus[CPU_SETSIZE];
    int count = tlsadmit_allowed_cpu_list((int *)cpus, CPU_SETSIZE);
    if (count < 0) {
        throw_errno(env, "sched_getaffinity failed", -count);
        return NULL;
    }
    jintArray list = (*env)->NewIntArray(env, count);
    if (list != NULL) (*env)->SetIntArrayRegion(env, list, 0, count, cpus);
    return list;
}

JNIEXPORT jlong JNICALL Java_io_tlsadmit_peek_NativePeek_threadCpuNanos0(JNIEnv *env, jclass cls, jint tid)
{
    (void)env;
    (void)cls;
    int64_t nanos = tlsadmit_thread_cpu_nanos((int)tid);
    return nanos < 0 ? -1 : (jlong)nanos;
}
