/* bchol_status_string: one constant phrase per status. */
#include "bchol.h"

const char *bchol_status_string(bchol_status status)
{
    switch (status) {
    case BCHOL_SUCCESS: return "success";
    case BCHOL_ERR_CONTEXT: return "bad argument: ctx is NULL";
    case BCHOL_ERR_UPLO: return "bad argument: uplo";
    case BCHOL_ERR_N: return "bad argument: n";
    case BCHOL_ERR_NRHS: return "bad argument: nrhs";
    case BCHOL_ERR_A: return "bad argument: A";
    case BCHOL_ERR_OFFSET_A: return "bad argument: offset of A";
    case BCHOL_ERR_LDA: return "bad argument: lda";
    case BCHOL_ERR_STRIDE_A: return "bad argument: stride of A";
    case BCHOL_ERR_B: return "bad argument: B";
    case BCHOL_ERR_OFFSET_B: return "bad argument: offset of B";
    case BCHOL_ERR_LDB: return "bad argument: ldb";
    case BCHOL_ERR_STRIDE_B: return "bad argument: stride of B";
    case BCHOL_ERR_BATCH: return "bad argument: batch";
    case BCHOL_ERR_INFO: return "bad argument: info";
    case BCHOL_ERR_A_SIZE: return "bad argument: buffer A too small for the batch";
    case BCHOL_ERR_B_SIZE: return "bad argument: buffer B too small for the batch";
    case BCHOL_ERR_INFO_SIZE: return "bad argument: buffer info too small for the batch";
    case BCHOL_ERR_CHUNK: return "bad argument: chunk";
    case BCHOL_ERR_MAX_N: return "bad argument: max_n";
    case BCHOL_ERR_N_ARRAY: return "bad argument: array of n";
    case BCHOL_ERR_M_ARRAY: return "bad argument: array of m";
    case BCHOL_ERR_LDA_ARRAY: return "bad argument: array of lda";
    case BCHOL_ERR_OFFSETS_A: return "bad argument: offsets of A";
    case BCHOL_ERR_NRHS_ARRAY: return "bad argument: array of nrhs";
    case BCHOL_ERR_LDB_ARRAY: return "bad argument: array of ldb";
    case BCHOL_ERR_OFFSETS_B: return "bad argument: offsets of B";
    case BCHOL_ERR_ARGUMENT: return "bad argument";
    case BCHOL_ERR_DEVICE_SPEC: return "bad argument: no device matches the device spec";
    case BCHOL_ERR_M: return "bad argument: m";
    case BCHOL_ERR_TRANS: return "bad argument: trans";
    case BCHOL_ERR_IPIV: return "bad argument: ipiv";
    case BCHOL_ERR_OFFSET_P: return "bad argument: offset of ipiv";
    case BCHOL_ERR_STRIDE_P: return "bad argument: stride of ipiv";
    case BCHOL_ERR_IPIV_SIZE: return "bad argument: buffer ipiv too small for the batch";
    case BCHOL_ERR_C: return "bad argument: C";
    case BCHOL_ERR_OFFSET_C: return "bad argument: offset of C";
    case BCHOL_ERR_LDC: return "bad argument: ldc";
    case BCHOL_ERR_STRIDE_C: return "bad argument: stride of C";
    case BCHOL_ERR_C_SIZE: return "bad argument: buffer C too small for the batch";
    case BCHOL_ERR_OFFSETS_P: return "bad argument: offsets of ipiv";
    case BCHOL_ERR_NO_FP64: return "double precision is not supported by the device";
    case BCHOL_ERR_UNSUPPORTED_SIZE: return "matrix size not supported on this device";
    case BCHOL_ERR_NO_DEVICE: return "no OpenCL device found";
    case BCHOL_ERR_QUEUE: return "invalid or out-of-order command queue";
    case BCHOL_ERR_BUILD: return "kernel build failed";
    case BCHOL_ERR_OUT_OF_MEMORY: return "out of memory";
    case BCHOL_ERR_OPENCL: return "OpenCL error";
    case BCHOL_ERR_KERNEL_SOURCE: return "kernel source not found";
    case BCHOL_ERR_RESOURCES: return "kernel needs more resources than the device has";
    }
    return "unknown status";
}
