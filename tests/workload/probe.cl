/* The interface test's kernels (tests/workload/probe.c). */
__kernel void copy(__global const float *in, __global float *out)
{
    size_t i = get_global_id(0);
    out[i] = in[i];
}

__kernel void twice(__global const float *in, __global float *out)
{
    size_t i = get_global_id(0);
    out[i] = 2.0f * in[i];
}
