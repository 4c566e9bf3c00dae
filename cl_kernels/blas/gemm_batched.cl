/* General batched GEMM, strided batch, column-major, no transposes:
 *
 *   C_b = alpha * A_b * B_b + beta * C_b,   C_b m-by-n, A_b m-by-k, B_b k-by-n,
 *
 * operand X of matrix b at X + offset_x + b*stride_x with leading dimension ldx. One
 * work-group computes a TM x TN tile of one C_b, k streamed KB at a time through local
 * memory; each work-item accumulates WM x WN results in registers at rows rx + i*RX and
 * columns cx + q*CX (strided: conflict-free local reads, consecutive work-items on
 * consecutive rows of C). beta = 0 does not read C (BLAS).
 *
 * Groups g0 + group id enumerate (matrix, tile row, tile column), tile rows fastest;
 * groups past the batch run on zeros and touch no global memory (no early return: PoCL
 * 3.1 hangs on returns before barriers).
 *
 * Build macros: TM, TN, WM, WN, KB (host/blas/tile_kernels.h's shape), REAL (common.cl).
 */
#ifndef TM
#define TM 64
#endif
#ifndef TN
#define TN 64
#endif
#ifndef WM
#define WM 4
#endif
#ifndef WN
#define WN 4
#endif
#ifndef KB
#define KB 16
#endif

#define RX (TM / WM)
#define CX (TN / WN)
#define GEMM_WG (RX * CX)
#define SLA (TM + 1)
#define SLB (TN + 1)

__attribute__((reqd_work_group_size(GEMM_WG, 1, 1)))
__kernel void gemm_batched(__global const REAL *A, const ulong offset_a, const int lda,
                           const ulong stride_a, __global const REAL *B, const ulong offset_b,
                           const int ldb, const ulong stride_b, __global REAL *C,
                           const ulong offset_c, const int ldc, const ulong stride_c,
                           const int m, const int n, const int k, const REAL alpha,
                           const REAL beta, const int tiles_m, const int tiles_n,
                           const ulong count, const ulong g0)
{
    __local REAL sA[KB * SLA], sB[KB * SLB];
    const int lid = (int)get_local_id(0);
    const ulong g = g0 + get_group_id(0);
    const ulong per = (ulong)tiles_m * (ulong)tiles_n;
    const ulong b = g / per;
    const int t = (int)(g % per);
    const int row0 = (t % tiles_m) * TM, col0 = (t / tiles_m) * TN;
    const int live = b < count;
    __global const REAL *Ab = A + offset_a + (live ? b * stride_a : 0);
    __global const REAL *Bb = B + offset_b + (live ? b * stride_b : 0);
    __global REAL *Cb = C + offset_c + (live ? b * stride_c : 0);
    const int rx = lid % RX, cx = lid / RX;

    REAL acc[WM][WN];
    for (int i = 0; i < WM; i++)
        for (int q = 0; q < WN; q++) acc[i][q] = (REAL)0;

    for (int k0 = 0; k0 < k; k0 += KB) {
        barrier(CLK_LOCAL_MEM_FENCE); /* the previous chunk is consumed */
        /* A(row0 + r, k0 + l): consecutive work-items on consecutive rows */
        for (int e = lid; e < TM * KB; e += GEMM_WG) {
            const int r = e % TM, l = e / TM;
            sA[l * SLA + r] = (live && row0 + r < m && k0 + l < k)
                                  ? Ab[(row0 + r) + (size_t)(k0 + l) * lda] : (REAL)0;
        }
        /* B(k0 + l, col0 + c): consecutive work-items down a column */
        for (int e = lid; e < TN * KB; e += GEMM_WG) {
            const int l = e % KB, c = e / KB;
            sB[l * SLB + c] = (live && col0 + c < n && k0 + l < k)
                                  ? Bb[(k0 + l) + (size_t)(col0 + c) * ldb] : (REAL)0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int l = 0; l < KB; l++) {
            REAL x[WM], y[WN];
            for (int i = 0; i < WM; i++) x[i] = sA[l * SLA + rx + i * RX];
            for (int q = 0; q < WN; q++) y[q] = sB[l * SLB + cx + q * CX];
            for (int i = 0; i < WM; i++)
                for (int q = 0; q < WN; q++) acc[i][q] = mad(x[i], y[q], acc[i][q]);
        }
    }
    if (live)
        for (int q = 0; q < WN; q++)
            for (int i = 0; i < WM; i++) {
                const int r = row0 + rx + i * RX, c = col0 + cx + q * CX;
                if (r < m && c < n) {
                    __global REAL *cc = Cb + r + (size_t)c * ldc;
                    *cc = beta == (REAL)0 ? alpha * acc[i][q] : alpha * acc[i][q] + beta * *cc;
                }
            }
}
