/* Definitions shared by every bchol kernel. The scalar type comes from the host:
 * -D REAL=float|double -D PRECISION_DOUBLE=0|1; the defaults let a file compile alone. */
#ifndef REAL
#define REAL float
#endif
#ifndef PRECISION_DOUBLE
#define PRECISION_DOUBLE 0
#endif

#if PRECISION_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
/* NaN and Inf have every exponent bit set: a bit test, not a comparison. Fast math is
 * -cl-mad-enable -cl-no-signed-zeros, not -cl-fast-relaxed-math: that adds
 * -cl-finite-math-only, under which LLVM treats a NaN result as undefined, so a failed
 * pivot's info was lost (PoCL on AVX-512 stored none at all); nor the rest of
 * -cl-unsafe-math-optimizations, under which PoCL flushed a subnormal pivot to zero. */
#define IS_FINITE(x) ((as_ulong(x) & 0x7ff0000000000000UL) != 0x7ff0000000000000UL)
#else
#define IS_FINITE(x) ((as_uint(x) & 0x7f800000U) != 0x7f800000U)
#endif

/* A pivot passes only if positive and finite: a zero, negative, NaN or infinite pivot
 * means the leading minor is not (numerically) positive definite. */
#define PIVOT_OK(d) ((d) > (REAL)0 && IS_FINITE(d))

/* LU (the getrf kernels): the pivot search's order, |x| with NaN and infinities above every
 * finite value (so that they reach the pivot where they appear; LAPACK's idamax passes
 * over a NaN), and LAPACK's sfmin (dlamch('S')), the smallest number whose reciprocal does
 * not overflow: dgetf2 divides by smaller pivots instead of scaling by the reciprocal. */
#define PIVOT_KEY(x) (IS_FINITE(x) ? fabs(x) : (REAL)INFINITY)
#if PRECISION_DOUBLE
#define SFMIN DBL_MIN
#else
#define SFMIN FLT_MIN
#endif

/* Full unrolling keeps a GPU's register arrays in registers; on CPUs it only bloats the
 * code PoCL must compile (ten times the build time, no faster), so PoCL builds with
 * -D UNROLL=0. */
#ifndef UNROLL
#define UNROLL 1
#endif
#if UNROLL
#define PRAGMA_UNROLL _Pragma("unroll")
#else
#define PRAGMA_UNROLL
#endif
