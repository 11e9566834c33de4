/* Pinned host memory for the workloads (clb_pinned, clb_workload.h): host
 * buffers the device reads and writes at the bus's full rate. */
#include "clb_workload.h"

int clb_pinned(struct clb_env *env, size_t bytes, const char *what, cl_mem *buf, void **ptr)
{
    int rc = clb_buffer(env->dev, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, buf);
    if (rc)
        return rc;
    cl_int err;
    *ptr = clEnqueueMapBuffer(env->dev->queue, *buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                              bytes, 0, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        *ptr = NULL;
        return clb_err(CLB_ECL, "clEnqueueMapBuffer (%s, %zu bytes): %s", what, bytes,
                                clb_cl_errstr(err));
    }
    return CLB_OK;
}
