/*
 * JNI helpers for a pool slot: things a run needs that Java cannot do for a running JVM.
 *  - chdir: a run's working directory must be the process's, for relative paths in open().
 *  - openStream/dup/dup2: a run's stdin/stdout/stderr must be fds 0/1/2, so that output written
 *    through FileDescriptor.out or by native code lands where the run's output goes; opened with
 *    O_NOCTTY, which Java's own file streams cannot ask for.
 *  - kill: signals for the processes a run started, which live outside its container's group.
 *  - stopThread: JVMTI StopThread, to end threads a run left behind; Thread.stop() throws
 *    UnsupportedOperationException from JDK 20 on, but the JVMTI function still works.
 *  - peerRead/bufferAddress: the MPI shuffle's single copy between two pool processes of one
 *    host, process_vm_readv(2) (Linux "cross memory attach", what Open MPI's shared-memory
 *    transport uses for large messages) from a mapped chunk in the Shuffle Manager straight into
 *    the reducer's Java array.
 *  - openRead/closeFd/peerFd/fileRead: the MPI shuffle's file lend between two pool processes of
 *    one host: the Shuffle Manager opens a map output, the reducer takes that open file out of
 *    its process (pidfd_getfd(2), Linux 5.6) and reads the segment with pread(2) straight into
 *    its Java array: one copy out of the page cache, no mapping, no message per chunk.
 *  - umask/limit/setLimit/nativeLocale: a run's start-up settings (startup_settings.h), which a
 *    new JVM takes from the process that starts it: set for the slot's process during the run.
 *  - mallocTrim: gives the C heap's free memory back to the system before the slot judges its
 *    resident size after a run.
 */
#define _GNU_SOURCE /* process_vm_readv */
#include <errno.h>
#include <fcntl.h>
#include <jni.h>
#include <jvmti.h>
#include <langinfo.h>
#include <locale.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include "startup_settings.h"

/* The same numbers on every Linux architecture since 5.1; older C headers lack the names. */
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

static jvmtiEnv *jvmti;

/*
 * JVMTI 21's can_support_virtual_threads, needed to suspend (and so stop) a virtual thread: bit 44
 * of the capabilities, which the headers of the build's JDK 17 leave unnamed.
 */
static void add_virtual_thread_capability(jvmtiCapabilities *caps) {
    unsigned int words[sizeof *caps / sizeof(unsigned int)];
    memcpy(words, caps, sizeof words);
    words[1] |= 1u << 12;
    memcpy(caps, words, sizeof words);
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
    (void)reserved;
    if ((*vm)->GetEnv(vm, (void **)&jvmti, JVMTI_VERSION_1_2) == JNI_OK) {
        jint version = 0;
        jvmtiCapabilities caps;
        memset(&caps, 0, sizeof caps);
        caps.can_signal_thread = 1;
        caps.can_suspend = 1;
        if ((*jvmti)->GetVersionNumber(jvmti, &version) == JVMTI_ERROR_NONE
                && ((version & JVMTI_VERSION_MASK_MAJOR) >> JVMTI_VERSION_SHIFT_MAJOR) >= 21) {
            add_virtual_thread_capability(&caps);
        }
        if ((*jvmti)->AddCapabilities(jvmti, &caps) != JVMTI_ERROR_NONE) {
            memset(&caps, 0, sizeof caps);
            caps.can_signal_thread = 1;
            if ((*jvmti)->AddCapabilities(jvmti, &caps) != JVMTI_ERROR_NONE) {
                jvmti = NULL;
            }
        }
    }
    return JNI_VERSION_1_8;
}

static void throw_io(JNIEnv *env, const char *what, const char *path, int err) {
    char message[1200];
    snprintf(message, sizeof message, "%s%s%s: %s", what, path ? " " : "", path ? path : "", strerror(err));
    jclass cls = (*env)->FindClass(env, "java/io/IOException");
    if (cls != NULL) {
        (*env)->ThrowNew(env, cls, message);
    }
}

JNIEXPORT void JNICALL Java_org_jvmreuse_pool_os_Native_chdir(JNIEnv *env, jclass cls, jstring dir) {
    (void)cls;
    const char *path = (*env)->GetStringUTFChars(env, dir, NULL);
    if (path == NULL) {
        return;
    }
    if (chdir(path) != 0) {
        throw_io(env, "cannot change the working directory to", path, errno);
    }
    (*env)->ReleaseStringUTFChars(env, dir, path);
}

/*
 * Opens path for a run's stdin, stdout or stderr: the descriptor (close-on-exec), which the slot
 * checks and then moves onto 0, 1 or 2. Writers open with O_APPEND (a fresh log file and a FIFO
 * both behave), O_CREAT only when asked (not for a stream the client handed: that file exists),
 * and O_NONBLOCK, so a FIFO without a reader fails at once with ENXIO instead of hanging the
 * slot; blocking mode is restored after the open. O_NOCTTY: a terminal handed as a stream must
 * not become the slot's controlling terminal.
 */
JNIEXPORT jint JNICALL Java_org_jvmreuse_pool_os_Native_openStream(JNIEnv *env, jclass cls, jstring jpath,
                                                                   jboolean write, jboolean create) {
    (void)cls;
    const char *path = (*env)->GetStringUTFChars(env, jpath, NULL);
    if (path == NULL) {
        return -1;
    }
    int flags = write ? (O_WRONLY | O_APPEND | (create ? O_CREAT : 0)) : O_RDONLY;
    int fd = open(path, flags | O_NOCTTY | O_NONBLOCK | O_CLOEXEC, 0666);
    if (fd < 0) {
        throw_io(env, write ? "cannot open for writing" : "cannot open for reading", path, errno);
    } else {
        int fl = fcntl(fd, F_GETFL);
        if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
            throw_io(env, "cannot make blocking", path, errno);
            close(fd);
            fd = -1;
        }
    }
    (*env)->ReleaseStringUTFChars(env, jpath, path);
    return fd;
}

JNIEXPORT jint JNICALL Java_org_jvmreuse_pool_os_Native_dup(JNIEnv *env, jclass cls, jint fd) {
    (void)cls;
    int copy = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    if (copy < 0) {
        throw_io(env, "cannot duplicate a file descriptor", NULL, errno);
    }
    return copy;
}

JNIEXPORT void JNICALL Java_org_jvmreuse_pool_os_Native_dup2(JNIEnv *env, jclass cls, jint from, jint to) {
    (void)cls;
    if (dup2(from, to) < 0) {
        throw_io(env, "cannot restore a file descriptor", NULL, errno);
    }
}

/* A virtual thread can be stopped only while suspended (JVMTI 21+). */
JNIEXPORT jboolean JNICALL Java_org_jvmreuse_pool_os_Native_stopThread(JNIEnv *env, jclass cls, jthread thread,
                                                                       jobject error) {
    (void)env;
    (void)cls;
    if (jvmti == NULL) {
        return JNI_FALSE;
    }
    jvmtiError result = (*jvmti)->StopThread(jvmti, thread, error);
    if (result == JVMTI_ERROR_THREAD_NOT_SUSPENDED && (*jvmti)->SuspendThread(jvmti, thread) == JVMTI_ERROR_NONE) {
        result = (*jvmti)->StopThread(jvmti, thread, error);
        (*jvmti)->ResumeThread(jvmti, thread);
    }
    return result == JVMTI_ERROR_NONE;
}

JNIEXPORT jboolean JNICALL Java_org_jvmreuse_pool_os_Native_kill(JNIEnv *env, jclass cls, jlong pid, jint sig) {
    (void)env;
    (void)cls;
    return pid > 0 && kill((pid_t)pid, sig) == 0;
}

JNIEXPORT jboolean JNICALL Java_org_jvmreuse_pool_os_Native_becomeSubreaper(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
}

JNIEXPORT jlong JNICALL Java_org_jvmreuse_pool_os_Native_reap(JNIEnv *env, jclass cls, jlong pid) {
    (void)env;
    (void)cls;
    int status;
    pid_t reaped = waitpid((pid_t)pid, &status, WNOHANG);
    return reaped < 0 ? -(jlong)errno : (jlong)reaped;
}

/* Where read_into_array reads: process pid's memory from address at, or file fd from position at. */
struct source {
    pid_t pid;
    jlong at;
    int fd;
};

/* How much read_into_array reads at a time into its thread's bounce buffer. */
#define BOUNCE_BYTES (256 << 10)

/* Each thread's bounce buffer, freed when the thread ends (a reducer's fetchers end with it). */
static pthread_key_t bounce_key;
static pthread_once_t bounce_once = PTHREAD_ONCE_INIT;

static void make_bounce_key(void) {
    pthread_key_create(&bounce_key, free);
}

static char *thread_bounce(void) {
    pthread_once(&bounce_once, make_bounce_key);
    char *buffer = pthread_getspecific(bounce_key);
    if (buffer == NULL && (buffer = malloc(BOUNCE_BYTES)) != NULL && pthread_setspecific(bounce_key, buffer) != 0) {
        free(buffer);
        buffer = NULL;
    }
    return buffer;
}

/*
 * Reads up to length bytes from `from` into into[offset..], looping over short reads: the count,
 * or -errno. Memory ends a read with EFAULT where nothing more can be copied; a file ends it
 * early, without error, at its end. The reads go into a native buffer of the calling thread, and
 * only the copy into the array is done by the JVM (SetByteArrayRegion): a read that waits on the
 * disk, a network file system or a page of the other process that is swapped out never holds the
 * array pinned, so the garbage collector (and every thread waiting for it) never waits on I/O.
 * The price is one more copy of each byte in memory.
 */
static jint read_into_array(JNIEnv *env, jbyteArray into, jint offset, jint length, const struct source *from) {
    if (offset < 0 || length < 0 || offset > (*env)->GetArrayLength(env, into) - length) {
        return -EINVAL;
    }
    char *bounce = thread_bounce();
    if (bounce == NULL) {
        return -ENOMEM;
    }
    jint total = 0;
    int err = 0;
    while (total < length) {
        size_t want = (size_t)(length - total) < BOUNCE_BYTES ? (size_t)(length - total) : BOUNCE_BYTES;
        ssize_t n;
        if (from->fd >= 0) {
            n = pread(from->fd, bounce, want, (off_t)(from->at + total));
        } else {
            struct iovec local = {bounce, want};
            struct iovec remote = {(void *)(intptr_t)(from->at + total), want};
            n = process_vm_readv(from->pid, &local, 1, &remote, 1, 0);
        }
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0 || (n == 0 && from->fd < 0)) {
            err = n < 0 ? errno : EFAULT;
            break;
        }
        if (n == 0) {
            break; /* the end of the file */
        }
        (*env)->SetByteArrayRegion(env, into, offset + total, (jsize)n, (const jbyte *)bounce);
        total += (jint)n;
    }
    return err != 0 ? -err : total;
}

/*
 * Copies length bytes at address in process pid into into[offset..]: the bytes read (length),
 * or -errno (EPERM: this process may not read that one's memory; ESRCH: it is gone; EFAULT: the
 * range is not mapped there).
 */
JNIEXPORT jint JNICALL Java_org_jvmreuse_pool_os_Native_peerRead(JNIEnv *env, jclass cls, jlong pid, jlong address,
                                                                   jbyteArray into, jint offset, jint length) {
    (void)cls;
    struct source from = {.pid = (pid_t)pid, .at = address, .fd = -1};
    return read_into_array(env, into, offset, length, &from);
}

/* The address of a direct buffer's first byte (0 for a heap buffer). */
JNIEXPORT jlong JNICALL Java_org_jvmreuse_pool_os_Native_bufferAddress(JNIEnv *env, jclass cls, jobject buffer) {
    (void)cls;
    void *address = (*env)->GetDirectBufferAddress(env, buffer);
    return (jlong)(intptr_t)address;
}

/* Opens path read-only (close-on-exec): the descriptor, or -errno. */
JNIEXPORT jint JNICALL Java_org_jvmreuse_pool_os_Native_openRead(JNIEnv *env, jclass cls, jstring jpath) {
    (void)cls;
    const char *path = (*env)->GetStringUTFChars(env, jpath, NULL);
    if (path == NULL) {
        return -ENOMEM;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    int err = errno;
    (*env)->ReleaseStringUTFChars(env, jpath, path);
    return fd >= 0 ? fd : -err;
}

/* close(2): 0 or -errno. */
JNIEXPORT jint JNICALL Java_org_jvmreuse_pool_os_Native_closeFd(JNIEnv *env, jclass cls, jint fd) {
    (void)env;
    (void)cls;
    return close(fd) == 0 ? 0 : -errno;
}

/*
 * A descriptor in this process for the open file that is descriptor fd of process pid (same
 * host): the new descriptor (close-on-exec), or -errno (EPERM: this process may not trace that
 * one, as for process_vm_readv; ENOSYS: a kernel before 5.6; ESRCH: it is gone; EBADF: no such
 * descriptor there).
 */
JNIEXPORT jint JNICALL Java_org_jvmreuse_pool_os_Native_peerFd(JNIEnv *env, jclass cls, jlong pid, jint fd) {
    (void)env;
    (void)cls;
    long pidfd = syscall(SYS_pidfd_open, (pid_t)pid, 0);
    if (pidfd < 0) {
        return -errno;
    }
    long copy = syscall(SYS_pidfd_getfd, (int)pidfd, fd, 0);
    int err = errno;
    close((int)pidfd);
    return copy >= 0 ? (jint)copy : -err;
}

/*
 * pread(2) of up to length bytes at position of fd into into[offset..]: the bytes read (fewer
 * only at the end of the file), or -errno (EBADF: no such descriptor).
 */
JNIEXPORT jint JNICALL Java_org_jvmreuse_pool_os_Native_fileRead(JNIEnv *env, jclass cls, jint fd, jlong position,
                                                                   jbyteArray into, jint offset, jint length) {
    (void)cls;
    if (fd < 0) {
        return -EBADF;
    }
    if (position < 0) {
        return -EINVAL;
    }
    struct source from = {.pid = 0, .at = position, .fd = fd};
    return read_into_array(env, into, offset, length, &from);
}

JNIEXPORT jint JNICALL Java_org_jvmreuse_pool_os_Native_umask(JNIEnv *env, jclass cls, jint mask) {
    (void)env;
    (void)cls;
    return (jint)umask((mode_t)mask);
}

/* The resource of a startup_rlimits name, or -1. */
static int rlimit_resource(JNIEnv *env, jstring jname) {
    const char *name = (*env)->GetStringUTFChars(env, jname, NULL);
    int resource = -1;
    if (name == NULL)
        return -1;
    for (size_t i = 0; i < N_STARTUP_RLIMITS; i++)
        if (strcmp(startup_rlimits[i].name, name) == 0)
            resource = startup_rlimits[i].resource;
    (*env)->ReleaseStringUTFChars(env, jname, name);
    return resource;
}

/* {soft, hard} of this process, -1 for unlimited; null for a name not in startup_rlimits. */
JNIEXPORT jlongArray JNICALL Java_org_jvmreuse_pool_os_Native_limit(JNIEnv *env, jclass cls, jstring jname) {
    (void)cls;
    int resource = rlimit_resource(env, jname);
    struct rlimit limit;
    if (resource < 0 || getrlimit(resource, &limit) != 0)
        return NULL;
    jlong values[2] = {
        limit.rlim_cur == RLIM_INFINITY ? -1 : (jlong)limit.rlim_cur,
        limit.rlim_max == RLIM_INFINITY ? -1 : (jlong)limit.rlim_max,
    };
    jlongArray result = (*env)->NewLongArray(env, 2);
    if (result != NULL)
        (*env)->SetLongArrayRegion(env, result, 0, 2, values);
    return result;
}

/* setrlimit(2) of this process (-1: unlimited): 0 or -errno. */
JNIEXPORT jint JNICALL Java_org_jvmreuse_pool_os_Native_setLimit(JNIEnv *env, jclass cls, jstring jname,
                                                                   jlong soft, jlong hard) {
    (void)cls;
    int resource = rlimit_resource(env, jname);
    if (resource < 0)
        return -EINVAL;
    struct rlimit limit = {
        soft < 0 ? RLIM_INFINITY : (rlim_t)soft,
        hard < 0 ? RLIM_INFINITY : (rlim_t)hard,
    };
    return setrlimit(resource, &limit) == 0 ? 0 : -errno;
}

/*
 * The C library's locale this process's environment gives, as the JVM found it at start-up and
 * as the client finds it for a run: LC_CTYPE's name, LC_MESSAGES's, and the codeset, one a line.
 */
JNIEXPORT jstring JNICALL Java_org_jvmreuse_pool_os_Native_nativeLocale(JNIEnv *env, jclass cls) {
    (void)cls;
    char text[1024];
    setlocale(LC_ALL, "");
    const char *ctype = setlocale(LC_CTYPE, NULL);
    const char *messages = setlocale(LC_MESSAGES, NULL);
    snprintf(text, sizeof text, "%s\n%s\n%s", ctype ? ctype : "", messages ? messages : "", nl_langinfo(CODESET));
    return (*env)->NewStringUTF(env, text);
}

/* malloc_trim(3): whether memory was given back (glibc only; elsewhere nothing to do). */
JNIEXPORT jboolean JNICALL Java_org_jvmreuse_pool_os_Native_mallocTrim(JNIEnv *env, jclass cls) {
    (void)env;
    (void)cls;
#ifdef __GLIBC__
    return malloc_trim(0) ? JNI_TRUE : JNI_FALSE;
#else
    return JNI_FALSE;
#endif
}
