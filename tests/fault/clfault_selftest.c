/* Self-test of the fault injector, for the calls no workload may make yet
 * (map, unmap): run under LD_PRELOAD=libclfault.so with
 *   CLBENCH_FAULT=clEnqueueMapBuffer:2,clEnqueueUnmapMemObject:2
 *   CLBENCH_CORRUPT=1
 * and check that each call fails exactly as documented, once, and that a
 * blocking read map returns one corrupted element, and that a process this
 * one starts runs without the preload. Exit 0 when it does. */
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>

#define N 1024
static int fails;

static void expect(int cond, const char *what)
{
    printf("%s: %s\n", cond ? "ok" : "FAIL", what);
    fails += !cond;
}

int main(void)
{
    cl_platform_id plat;
    cl_device_id dev;
    cl_uint n;
    if (clGetPlatformIDs(1, &plat, &n) != CL_SUCCESS || n == 0 ||
        clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, &n) != CL_SUCCESS) {
        fprintf(stderr, "no OpenCL device\n");
        return 1;
    }
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    float host[N];
    for (int i = 0; i < N; i++)
        host[i] = (float)i + 0.5f;
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host, host,
                                &err);
    expect(err == CL_SUCCESS, "clCreateBuffer forwarded");

    /* map 1: forwarded, one element corrupted (CLBENCH_CORRUPT=1) */
    float *p = clEnqueueMapBuffer(q, buf, CL_TRUE, CL_MAP_READ, 0, sizeof host, 0, NULL, NULL, &err);
    expect(p && err == CL_SUCCESS, "map #1 forwarded");
    int wrong = 0;
    for (int i = 0; p && i < N; i++)
        wrong += p[i] != host[i];
    expect(wrong == 1, "map #1: exactly one element corrupted");
    /* unmap 1: forwarded */
    expect(p && clEnqueueUnmapMemObject(q, buf, p, 0, NULL, NULL) == CL_SUCCESS, "unmap #1 forwarded");
    /* map 2: fails with CL_MAP_FAILURE */
    p = clEnqueueMapBuffer(q, buf, CL_TRUE, CL_MAP_READ, 0, sizeof host, 0, NULL, NULL, &err);
    expect(!p && err == CL_MAP_FAILURE, "map #2 fails with CL_MAP_FAILURE");
    /* map 3 forwarded, unmap 2 fails (after really unmapping) */
    p = clEnqueueMapBuffer(q, buf, CL_TRUE, CL_MAP_READ, 0, sizeof host, 0, NULL, NULL, &err);
    expect(p && err == CL_SUCCESS, "map #3 forwarded");
    cl_event ev = NULL;
    err = p ? clEnqueueUnmapMemObject(q, buf, p, 0, NULL, &ev) : CL_INVALID_VALUE;
    expect(err == CL_OUT_OF_RESOURCES && ev == NULL, "unmap #2 fails with CL_OUT_OF_RESOURCES, no event");
    /* (on a CPU device a map may alias the buffer: its content is not checked) */
    float back[N];
    err = clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL);
    expect(err == CL_SUCCESS, "read forwarded");
    clFinish(q);
    /* the injector keeps to this process: a child (PoCL's linker) has no preload */
    expect(system("test -z \"${LD_PRELOAD-}\"") == 0, "no LD_PRELOAD in a child process");
    clReleaseMemObject(buf);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return fails ? 1 : 0;
}
