#include "cpu_peer.h"
#include "cpu_topology.h"

#ifdef BCHOL_HAVE_LAPACKE
#include <lapacke.h>
#include <omp.h>

#ifdef BCHOL_HAVE_OPENBLAS_THREADS
void openblas_set_num_threads(int);
#endif

int cpu_peer_available(void) { return 1; }

/* One thread per physical core (hwloc's count, not the PU count), each bound to its
 * core, so that hyperthreads never share a core's FPUs. */
static int threads(void)
{
    int cores = cpu_topology_cores();
    return cores > 0 ? cores : omp_get_max_threads();
}

int cpu_peer_threads(void) { return threads(); }

static void bind_threads(void)
{
    static int done;
    if (done || cpu_topology_cores() <= 0) return;
#pragma omp parallel num_threads(threads())
    cpu_topology_bind_core(omp_get_thread_num());
    done = 1;
}

/* One core per matrix: a threaded BLAS inside would fight the OpenMP loop. */
static void prepare(void)
{
#ifdef BCHOL_HAVE_OPENBLAS_THREADS
    openblas_set_num_threads(1);
#endif
    bind_threads();
}

double cpu_peer_potrf(int dbl, char uplo, int n, void *A, int lda, int64_t stride, int64_t batch,
                      int *info)
{
    prepare();
    double t0 = omp_get_wtime();
#pragma omp parallel for schedule(dynamic) num_threads(threads())
    for (int64_t b = 0; b < batch; b++) {
        if (dbl)
            info[b] = LAPACKE_dpotrf(LAPACK_COL_MAJOR, uplo, n, (double *)A + b * stride, lda);
        else
            info[b] = LAPACKE_spotrf(LAPACK_COL_MAJOR, uplo, n, (float *)A + b * stride, lda);
    }
    return (omp_get_wtime() - t0) * 1e3;
}

double cpu_peer_potrf_vbatched(int dbl, char uplo, const int *n, const int *lda,
                               const int64_t *offset, void *A, int64_t batch, int *info)
{
    prepare();
    double t0 = omp_get_wtime();
    /* dynamic: the orders vary, so equal shares of matrices are unequal shares of work */
#pragma omp parallel for schedule(dynamic) num_threads(threads())
    for (int64_t b = 0; b < batch; b++) {
        if (dbl)
            info[b] = LAPACKE_dpotrf(LAPACK_COL_MAJOR, uplo, n[b], (double *)A + offset[b], lda[b]);
        else
            info[b] = LAPACKE_spotrf(LAPACK_COL_MAJOR, uplo, n[b], (float *)A + offset[b], lda[b]);
    }
    return (omp_get_wtime() - t0) * 1e3;
}

double cpu_peer_potrs(int dbl, char uplo, int n, int nrhs, const void *A, int lda,
                      int64_t stride_a, void *B, int ldb, int64_t stride_b, int64_t batch)
{
    prepare();
    double t0 = omp_get_wtime();
#pragma omp parallel for schedule(dynamic) num_threads(threads())
    for (int64_t b = 0; b < batch; b++) {
        if (dbl)
            LAPACKE_dpotrs(LAPACK_COL_MAJOR, uplo, n, nrhs, (const double *)A + b * stride_a, lda,
                           (double *)B + b * stride_b, ldb);
        else
            LAPACKE_spotrs(LAPACK_COL_MAJOR, uplo, n, nrhs, (const float *)A + b * stride_a, lda,
                           (float *)B + b * stride_b, ldb);
    }
    return (omp_get_wtime() - t0) * 1e3;
}

double cpu_peer_posv(int dbl, char uplo, int n, int nrhs, void *A, int lda, int64_t stride_a,
                     void *B, int ldb, int64_t stride_b, int64_t batch, int *info)
{
    prepare();
    double t0 = omp_get_wtime();
#pragma omp parallel for schedule(dynamic) num_threads(threads())
    for (int64_t b = 0; b < batch; b++) {
        if (dbl)
            info[b] = LAPACKE_dposv(LAPACK_COL_MAJOR, uplo, n, nrhs, (double *)A + b * stride_a, lda,
                                    (double *)B + b * stride_b, ldb);
        else
            info[b] = LAPACKE_sposv(LAPACK_COL_MAJOR, uplo, n, nrhs, (float *)A + b * stride_a, lda,
                                    (float *)B + b * stride_b, ldb);
    }
    return (omp_get_wtime() - t0) * 1e3;
}

double cpu_peer_posv_vbatched(int dbl, char uplo, const int *n, const int *nrhs, void *A,
                              const int64_t *offsets_a, void *B, const int64_t *offsets_b,
                              int64_t batch, int *info)
{
    prepare();
    double t0 = omp_get_wtime();
#pragma omp parallel for schedule(dynamic) num_threads(threads())
    for (int64_t b = 0; b < batch; b++) {
        const int ld = n[b] > 1 ? n[b] : 1;
        if (dbl)
            info[b] = LAPACKE_dposv(LAPACK_COL_MAJOR, uplo, n[b], nrhs[b],
                                    (double *)A + offsets_a[b], ld, (double *)B + offsets_b[b], ld);
        else
            info[b] = LAPACKE_sposv(LAPACK_COL_MAJOR, uplo, n[b], nrhs[b],
                                    (float *)A + offsets_a[b], ld, (float *)B + offsets_b[b], ld);
    }
    return (omp_get_wtime() - t0) * 1e3;
}
/* bchol's pivots are int32; LAPACKE takes lapack_int arrays */
_Static_assert(sizeof(lapack_int) == sizeof(int), "the LU peer needs a 32-bit lapack_int");

double cpu_peer_getrf(int dbl, int n, void *A, int lda, int64_t stride_a, int *ipiv,
                      int64_t stride_p, int64_t batch, int *info)
{
    prepare();
    double t0 = omp_get_wtime();
#pragma omp parallel for schedule(dynamic) num_threads(threads())
    for (int64_t b = 0; b < batch; b++) {
        if (dbl)
            info[b] = LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, (double *)A + b * stride_a, lda,
                                     ipiv + b * stride_p);
        else
            info[b] = LAPACKE_sgetrf(LAPACK_COL_MAJOR, n, n, (float *)A + b * stride_a, lda,
                                     ipiv + b * stride_p);
    }
    return (omp_get_wtime() - t0) * 1e3;
}

double cpu_peer_getrs(int dbl, char trans, int n, int nrhs, const void *A, int lda,
                      int64_t stride_a, const int *ipiv, int64_t stride_p, void *B, int ldb,
                      int64_t stride_b, int64_t batch)
{
    prepare();
    double t0 = omp_get_wtime();
#pragma omp parallel for schedule(dynamic) num_threads(threads())
    for (int64_t b = 0; b < batch; b++) {
        if (dbl)
            LAPACKE_dgetrs(LAPACK_COL_MAJOR, trans, n, nrhs, (const double *)A + b * stride_a, lda,
                           ipiv + b * stride_p, (double *)B + b * stride_b, ldb);
        else
            LAPACKE_sgetrs(LAPACK_COL_MAJOR, trans, n, nrhs, (const float *)A + b * stride_a, lda,
                           ipiv + b * stride_p, (float *)B + b * stride_b, ldb);
    }
    return (omp_get_wtime() - t0) * 1e3;
}

double cpu_peer_gesv(int dbl, int n, int nrhs, void *A, int lda, int64_t stride_a, int *ipiv,
                     int64_t stride_p, void *B, int ldb, int64_t stride_b, int64_t batch,
                     int *info)
{
    prepare();
    double t0 = omp_get_wtime();
#pragma omp parallel for schedule(dynamic) num_threads(threads())
    for (int64_t b = 0; b < batch; b++) {
        if (dbl)
            info[b] = LAPACKE_dgesv(LAPACK_COL_MAJOR, n, nrhs, (double *)A + b * stride_a, lda,
                                    ipiv + b * stride_p, (double *)B + b * stride_b, ldb);
        else
            info[b] = LAPACKE_sgesv(LAPACK_COL_MAJOR, n, nrhs, (float *)A + b * stride_a, lda,
                                    ipiv + b * stride_p, (float *)B + b * stride_b, ldb);
    }
    return (omp_get_wtime() - t0) * 1e3;
}

double cpu_peer_getrf_getri(int dbl, int n, void *A, int lda, int64_t stride_a, int *ipiv,
                            int64_t stride_p, int64_t batch, int *info)
{
    prepare();
    double t0 = omp_get_wtime();
#pragma omp parallel for schedule(dynamic) num_threads(threads())
    for (int64_t b = 0; b < batch; b++) {
        int *p = ipiv + b * stride_p;
        if (dbl) {
            double *a = (double *)A + b * stride_a;
            info[b] = LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, a, lda, p);
            if (!info[b]) info[b] = LAPACKE_dgetri(LAPACK_COL_MAJOR, n, a, lda, p);
        } else {
            float *a = (float *)A + b * stride_a;
            info[b] = LAPACKE_sgetrf(LAPACK_COL_MAJOR, n, n, a, lda, p);
            if (!info[b]) info[b] = LAPACKE_sgetri(LAPACK_COL_MAJOR, n, a, lda, p);
        }
    }
    return (omp_get_wtime() - t0) * 1e3;
}
#else
int cpu_peer_available(void) { return 0; }
int cpu_peer_threads(void) { return 0; }
double cpu_peer_potrf(int dbl, char uplo, int n, void *A, int lda, int64_t stride, int64_t batch,
                      int *info)
{
    return -1;
}
double cpu_peer_potrf_vbatched(int dbl, char uplo, const int *n, const int *lda,
                               const int64_t *offset, void *A, int64_t batch, int *info)
{
    return -1;
}
double cpu_peer_potrs(int dbl, char uplo, int n, int nrhs, const void *A, int lda,
                      int64_t stride_a, void *B, int ldb, int64_t stride_b, int64_t batch)
{
    return -1;
}
double cpu_peer_posv(int dbl, char uplo, int n, int nrhs, void *A, int lda, int64_t stride_a,
                     void *B, int ldb, int64_t stride_b, int64_t batch, int *info)
{
    return -1;
}
double cpu_peer_posv_vbatched(int dbl, char uplo, const int *n, const int *nrhs, void *A,
                              const int64_t *offsets_a, void *B, const int64_t *offsets_b,
                              int64_t batch, int *info)
{
    return -1;
}
double cpu_peer_getrf(int dbl, int n, void *A, int lda, int64_t stride_a, int *ipiv,
                      int64_t stride_p, int64_t batch, int *info)
{
    return -1;
}
double cpu_peer_getrs(int dbl, char trans, int n, int nrhs, const void *A, int lda,
                      int64_t stride_a, const int *ipiv, int64_t stride_p, void *B, int ldb,
                      int64_t stride_b, int64_t batch)
{
    return -1;
}
double cpu_peer_gesv(int dbl, int n, int nrhs, void *A, int lda, int64_t stride_a, int *ipiv,
                     int64_t stride_p, void *B, int ldb, int64_t stride_b, int64_t batch,
                     int *info)
{
    return -1;
}
double cpu_peer_getrf_getri(int dbl, int n, void *A, int lda, int64_t stride_a, int *ipiv,
                            int64_t stride_p, int64_t batch, int *info)
{
    return -1;
}
#endif
