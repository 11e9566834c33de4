/* Shared by every kernel file (prepended by the host). The host passes
 *   -DT=float|double   the scalar element type
 *   -DUSE_FP64=1       when T is double
 * plus workload-specific options. Kernels are OpenCL C 1.2. */
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#define CLB_CAT_(a, b) a##b
#define CLB_CAT(a, b) CLB_CAT_(a, b)
