/* Vectors of VW elements (1, 2, 4, 8 or 16; default 8) for the kernels that run a matrix per
 * work-item on CPUs (chol/potrf_workitem.cl, chol/potrs_workitem.cl, lu/getrf_workitem.cl):
 * REALV, VLOAD and VSTORE of VW consecutive elements, and hsum, the sum of a vector's
 * elements. Built after common/common.cl (REAL). */
#ifndef BCHOL_VECTOR_CL
#define BCHOL_VECTOR_CL

#ifndef VW
#define VW 8
#endif

#define VEC_CAT_(a, b) a##b
#define VEC_CAT(a, b) VEC_CAT_(a, b)
#if VW == 1
typedef REAL REALV;
#define VLOAD(p) (*(p))
#define VSTORE(v, p) (*(p) = (v))
#else
typedef VEC_CAT(REAL, VW) REALV;
#define VLOAD(p) VEC_CAT(vload, VW)(0, p)
#define VSTORE(v, p) VEC_CAT(vstore, VW)(v, 0, p)
#endif

inline REAL hsum(REALV v)
{
#if VW == 1
    return v;
#elif VW == 2
    return v.s0 + v.s1;
#elif VW == 4
    return (v.s0 + v.s1) + (v.s2 + v.s3);
#elif VW == 8
    const VEC_CAT(REAL, 4) h = v.lo + v.hi;
    return (h.s0 + h.s1) + (h.s2 + h.s3);
#else
    const VEC_CAT(REAL, 8) h8 = v.lo + v.hi;
    const VEC_CAT(REAL, 4) h = h8.lo + h8.hi;
    return (h.s0 + h.s1) + (h.s2 + h.s3);
#endif
}

#endif
