/*
 * The native MPI backend of the pool (org.jvmreuse.pool.mpi.NativeMpi): the few MPI calls the
 * pool and the MPI shuffle make, over the MPI C API, so that any MPI with a C ABI works (Open MPI
 * 4 to 6, MPICH and its derivatives, vendor MPIs). Built with the site's mpicc. Buffers are
 * direct ByteBuffers passed by address; requests are MPI_Request structs in malloc'd memory,
 * freed when they complete. Errors are returned (MPI_ERRORS_RETURN) and thrown as
 * org.jvmreuse.pool.mpi.MpiException with the library's error string.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <jni.h>
#include <mpi.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The JVM loads this library with RTLD_LOCAL; MPI libraries that load their own plug-ins
 * (Open MPI's MCA components) need libmpi's symbols to be global, as Open MPI's Java bindings
 * also arrange. Re-opening the already loaded libmpi with RTLD_GLOBAL promotes it.
 */
JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
    (void)vm;
    (void)reserved;
    Dl_info info;
    if (dladdr((void *)&MPI_Init_thread, &info) && info.dli_fname != NULL) {
        dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
    }
    return JNI_VERSION_1_8;
}

static void throw_mpi(JNIEnv *env, const char *call, int code) {
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) {
        snprintf(text, sizeof text, "error code %d", code);
    }
    char message[MPI_MAX_ERROR_STRING + 64];
    snprintf(message, sizeof message, "%s failed: %s", call, text);
    jclass cls = (*env)->FindClass(env, "org/jvmreuse/pool/mpi/MpiException");
    if (cls != NULL) {
        (*env)->ThrowNew(env, cls, message);
    }
}

static void throw_plain(JNIEnv *env, const char *message) {
    jclass cls = (*env)->FindClass(env, "org/jvmreuse/pool/mpi/MpiException");
    if (cls != NULL) {
        (*env)->ThrowNew(env, cls, message);
    }
}

/* Java's wildcards (-1) to this MPI's: MPICH's MPI_ANY_SOURCE is -2, Open MPI's -1. */
static int source_of(jint source) { return source < 0 ? MPI_ANY_SOURCE : source; }
static int tag_of(jint tag) { return tag < 0 ? MPI_ANY_TAG : tag; }

static void *address_of(JNIEnv *env, jobject buffer) {
    void *address = (*env)->GetDirectBufferAddress(env, buffer);
    if (address == NULL) {
        throw_plain(env, "MPI buffers must be direct ByteBuffers");
    }
    return address;
}

JNIEXPORT jstring JNICALL Java_org_jvmreuse_pool_mpi_NativeMpi_nLibraryVersion(JNIEnv *env, jclass cls) {
    (void)cls;
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    if (MPI_Get_library_version(version, &length) != MPI_SUCCESS) {
        return (*env)->NewStringUTF(env, "unknown MPI");
    }
    version[strcspn(version, "\r\n")] = '\0'; /* the first line: name and version */
    return (*env)->NewStringUTF(env, version);
}

JNIEXPORT jint JNICALL Java_org_jvmreuse_pool_mpi_NativeMpi_nInitThread(JNIEnv *env, jclass cls, jint required) {
    (void)cls;
    static const int levels[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE};
    int provided = MPI_THREAD_SINGLE;
    int rc = MPI_Init_thread(NULL, NULL, levels[required < 0 ? 0 : required > 3 ? 3 : required], &provided);
    if (rc != MPI_SUCCESS) {
        throw_mpi(env, "MPI_Init_thread", rc);
        return 0;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    /*
     * MPICH's Hydra, launched with -disable-auto-cleanup, tells the ranks of a node that one of
     * them died with SIGUSR1, and MPICH's MPI_Init installs a handler that takes it as a fatal
     * failure (the JVM aborts). The pool handles a dead slot itself: job-scripts/lib/core/exec-jvm
     * asks for SIGUSR1 to be ignored from here on (docs/mpi.md, "Launchers").
     */
    const char *ignore = getenv("JVMREUSE_MPI_IGNORE_SIGUSR1");
    if (ignore != NULL && strcmp(ignore, "1") == 0) {
        signal(SIGUSR1, SIG_IGN);
    }
    for (int i = 3; i > 0; i--) {
        if (provided == levels[i]) {
            return i;
        }
    }
    return 0;
}

JNIEXPORT jint JNICALL Java_org_jvmreuse_pool_mpi_NativeMpi_nRank(JNIEnv *env, jclass cls) {
    (void)cls;
    int rank = -1;
    int rc = MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rc != MPI_SUCCESS) {
        throw_mpi(env, "MPI_Comm_rank", rc);
    }
    return rank;
}

JNIEXPORT jint JNICALL Java_org_jvmreuse_pool_mpi_NativeMpi_nSize(JNIEnv *env, jclass cls) {
    (void)cls;
    int size = 0;
    int rc = MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rc != MPI_SUCCESS) {
        throw_mpi(env, "MPI_Comm_size", rc);
    }
    return size;
}

JNIEXPORT jstring JNICALL Java_org_jvmreuse_pool_mpi_NativeMpi_nProcessorName(JNIEnv *env, jclass cls) {
    (void)cls;
    char name[MPI_MAX_PROCESSOR_NAME + 1];
    int length = 0;
    int rc = MPI_Get_processor_name(name, &length);
    if (rc != MPI_SUCCESS) {
        throw_mpi(env, "MPI_Get_processor_name", rc);
        return NULL;
    }
    name[length] = '\0';
    return (*env)->NewStringUTF(env, name);
}

JNIEXPORT jobjectArray JNICALL Java_org_jvmreuse_pool_mpi_NativeMpi_nAllGather(JNIEnv *env, jclass cls, jbyteArray mine) {
    (void)cls;
    int size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int own = (*env)->GetArrayLength(env, mine);
    int *counts = calloc((size_t)size, sizeof *counts);
    int *offsets = calloc((size_t)size, sizeof *offsets);
    jbyte *in = (*env)->GetByteArrayElements(env, mine, NULL);
    jobjectArray result = NULL;
    char *all = NULL;
    if (counts == NULL || offsets == NULL || in == NULL) {
        throw_plain(env, "MPI all-gather: out of memory");
        goto out;
    }
    int rc = MPI_Allgather(&own, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) {
        throw_mpi(env, "MPI_Allgather", rc);
        goto out;
    }
    long total = 0;
    for (int r = 0; r < size; r++) {
        offsets[r] = (int)total;
        total += counts[r];
    }
    all = malloc(total > 0 ? (size_t)total : 1);
    if (all == NULL) {
        throw_plain(env, "MPI all-gather: out of memory");
        goto out;
    }
    rc = MPI_Allgatherv(in, own, MPI_BYTE, all, counts, offsets, MPI_BYTE, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) {
        throw_mpi(env, "MPI_Allgatherv", rc);
        goto out;
    }
    result = (*env)->NewObjectArray(env, size, (*env)->FindClass(env, "[B"), NULL);
    for (int r = 0; result != NULL && r < size; r++) {
        jbyteArray one = (*env)->NewByteArray(env, counts[r]);
        if (one == NULL) {
            result = NULL;
            break;
        }
        (*env)->SetByteArrayRegion(env, one, 0, counts[r], (const jbyte *)all + offsets[r]);
        (*env)->SetObjectArrayElement(env, result, r, one);
        (*env)->DeleteLocalRef(env, one);
    }
out:
    if (in != NULL) {
        (*env)->ReleaseByteArrayElements(env, mine, in, JNI_ABORT);
    }
    free(all);
    free(counts);
    free(offsets);
    return result;
}

static jlong start_request(JNIEnv *env, jobject buffer, jint count, jint peer, jint tag, int send) {
    void *address = address_of(env, buffer);
    if (address == NULL) {
        return 0;
    }
    MPI_Request *request = malloc(sizeof *request);
    if (request == NULL) {
        throw_plain(env, "MPI request: out of memory");
        return 0;
    }
    int rc = send ? MPI_Isend(address, count, MPI_BYTE, peer, tag, MPI_COMM_WORLD, request)
                  : MPI_Irecv(address, count, MPI_BYTE, source_of(peer), tag_of(tag), MPI_COMM_WORLD, request);
    if (rc != MPI_SUCCESS) {
        free(request);
        throw_mpi(env, send ? "MPI_Isend" : "MPI_Irecv", rc);
        return 0;
    }
    return (jlong)(intptr_t)request;
}

JNIEXPORT jlong JNICALL Java_org_jvmreuse_pool_mpi_NativeMpi_nISend(JNIEnv *env, jclass cls, jobject buffer, jint count,
                                                                    jint dest, jint tag) {
    (void)cls;
    return start_request(env, buffer, count, dest, tag, 1);
}

JNIEXPORT jlong JNICALL Java_org_jvmreuse_pool_mpi_NativeMpi_nIRecv(JNIEnv *env, jclass cls, jobject buffer, jint count,
                                                                    jint source, jint tag) {
    (void)cls;
    return start_request(env, buffer, count, source, tag, 0);
}

JNIEXPORT jboolean JNICALL Java_org_jvmreuse_pool_mpi_NativeMpi_nTest(JNIEnv *env, jclass cls, jlong handle) {
    (void)cls;
    MPI_Request *request = (MPI_Request *)(intptr_t)handle;
    int done = 0;
    int rc = MPI_Test(request, &done, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) {
        free(request);
        throw_mpi(env, "MPI_Test", rc);
        return JNI_FALSE;
    }
    if (done) {
        free(request);
    }
    return done ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT jboolean JNICALL Java_org_jvmreuse_pool_mpi_NativeMpi_nIProbe(JNIEnv *env, jclass cls, jint source, jint tag,
                                                                       jintArray envelope) {
    (void)cls;
    int flag = 0;
    MPI_Status status;
    int rc = MPI_Iprobe(source_of(source), tag_of(tag), MPI_COMM_WORLD, &flag, &status);
    if (rc != MPI_SUCCESS) {
        throw_mpi(env, "MPI_Iprobe", rc);
        return JNI_FALSE;
    }
    if (!flag) {
        return JNI_FALSE;
    }
    jint values[3] = {status.MPI_SOURCE, status.MPI_TAG, 0};
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    values[2] = count;
    (*env)->SetIntArrayRegion(env, envelope, 0, 3, values);
    return JNI_TRUE;
}

JNIEXPORT void JNICALL Java_org_jvmreuse_pool_mpi_NativeMpi_nRecv(JNIEnv *env, jclass cls, jobject buffer, jint count,
                                                                  jint source, jint tag) {
    (void)cls;
    void *address = address_of(env, buffer);
    if (address == NULL) {
        return;
    }
    int rc = MPI_Recv(address, count, MPI_BYTE, source_of(source), tag_of(tag), MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) {
        throw_mpi(env, "MPI_Recv", rc);
    }
}

JNIEXPORT void JNICALL Java_org_jvmreuse_pool_mpi_NativeMpi_nAbort(JNIEnv *env, jclass cls, jint code) {
    (void)env;
    (void)cls;
    MPI_Abort(MPI_COMM_WORLD, code);
}

JNIEXPORT void JNICALL Java_org_jvmreuse_pool_mpi_NativeMpi_nFinalize(JNIEnv *env, jclass cls) {
    (void)cls;
    int rc = MPI_Finalize();
    if (rc != MPI_SUCCESS) {
        throw_mpi(env, "MPI_Finalize", rc);
    }
}
