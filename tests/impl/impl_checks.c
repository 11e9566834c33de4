/* Two behaviours of an OpenCL implementation that clbench works around,
 * checked without clbench (docs/PORTABILITY.md, "Tiles that fit"):
 *   flush  does clFinish wait for commands a clFlush already submitted?
 *          (Mesa Rusticl 22.3.6: no; a marker's event, waited for, does)
 *   loops  how many loop iterations does one work-item run? (Mesa llvmpipe:
 *          65535 over all the loops of a kernel, then they end silently)
 * Built by CMake (it needs no clbench code) or by hand:
 *   cc -std=c11 -O1 -o impl_checks tests/impl/impl_checks.c -lOpenCL
 *   RUSTICL_ENABLE=llvmpipe ./impl_checks llvmpipe
 *   ./impl_checks pthread
 * Exit status 1 when either behaviour is seen. With a second argument, what
 * the device is expected to do: "seen" (both behaviours: Rusticl on llvmpipe,
 * Mesa 22.3) or "none" (PoCL); exit 0 when it does, 1 when not. CTest runs
 * both (impl_checks_pocl, impl_checks_rusticl: docs/PORTABILITY.md keeps its
 * claims checked). Exit 77 (skipped) when no device matches. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *src =
    "__kernel void fill(__global float *o) { size_t i = get_global_id(0); o[i] = (float)(i % 7 + 1); }\n"
    "__kernel void loops(__global const uint *stop, __global uint *out, uint n, uint m)\n"
    "{ uint c = 0;\n"
    "  for (uint i = 0; i < n; i++)\n"
    "    for (uint j = 0; j < m; j++) c += stop[j & 63] + 1; /* stop: zeros, unknown to the compiler */\n"
    "  out[0] = c; }\n";

#define CHECK(call)                                                            \
    do {                                                                       \
        cl_int e_ = (call);                                                    \
        if (e_ != CL_SUCCESS) {                                                \
            fprintf(stderr, "%s:%d: %s: error %d\n", __FILE__, __LINE__, #call, e_); \
            exit(2);                                                           \
        }                                                                      \
    } while (0)

static cl_device_id find(const char *want, char *name, size_t n)
{
    cl_platform_id p[16];
    cl_uint np = 0;
    CHECK(clGetPlatformIDs(16, p, &np));
    for (cl_uint i = 0; i < np && i < 16; i++) {
        cl_device_id d;
        if (clGetDeviceIDs(p[i], CL_DEVICE_TYPE_ALL, 1, &d, NULL) == CL_SUCCESS &&
            clGetDeviceInfo(d, CL_DEVICE_NAME, n, name, NULL) == CL_SUCCESS && strstr(name, want))
            return d;
    }
    return NULL;
}

/* fill, a non-blocking read, clFlush, clFinish: elements not there yet */
static size_t flush_check(cl_context c, cl_command_queue q, cl_kernel k)
{
    size_t n = 1 << 20, bad = 0;
    cl_int e;
    cl_mem b = clCreateBuffer(c, CL_MEM_READ_WRITE, n * 4, NULL, &e);
    CHECK(e);
    float *h = calloc(n, 4);
    if (!h)
        exit(2);
    CHECK(clSetKernelArg(k, 0, sizeof b, &b));
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, b, CL_FALSE, 0, n * 4, h, 0, NULL, NULL));
    CHECK(clFlush(q));
    CHECK(clFinish(q));
    for (size_t i = 0; i < n; i++)
        bad += h[i] != (float)(i % 7 + 1);
    cl_event m;
    CHECK(clEnqueueMarkerWithWaitList(q, 0, NULL, &m));
    CHECK(clWaitForEvents(1, &m)); /* the workaround: everything done before h is freed */
    clReleaseEvent(m);
    free(h);
    clReleaseMemObject(b);
    return bad;
}

/* one work-item, n x m iterations: how many ran */
static cl_uint loop_check(cl_context c, cl_command_queue q, cl_kernel k, cl_uint n, cl_uint m)
{
    cl_uint stop[64] = {0}, count = 0;
    cl_int e;
    cl_mem s = clCreateBuffer(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof stop, stop, &e);
    CHECK(e);
    cl_mem o = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof count, NULL, &e);
    CHECK(e);
    size_t one = 1;
    CHECK(clSetKernelArg(k, 0, sizeof s, &s));
    CHECK(clSetKernelArg(k, 1, sizeof o, &o));
    CHECK(clSetKernelArg(k, 2, sizeof n, &n));
    CHECK(clSetKernelArg(k, 3, sizeof m, &m));
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, o, CL_TRUE, 0, sizeof count, &count, 0, NULL, NULL));
    clReleaseMemObject(s);
    clReleaseMemObject(o);
    return count;
}

int main(int argc, char **argv)
{
    char name[256] = "";
    cl_device_id d = find(argc > 1 ? argv[1] : "", name, sizeof name);
    if (!d) {
        printf("skip: no OpenCL device matches '%s'\n", argc > 1 ? argv[1] : "");
        return 77;
    }
    cl_int e;
    cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
    CHECK(e);
    cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
    CHECK(e);
    cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, &e);
    CHECK(e);
    CHECK(clBuildProgram(p, 1, &d, "", NULL, NULL));
    cl_kernel kf = clCreateKernel(p, "fill", &e);
    CHECK(e);
    cl_kernel kl = clCreateKernel(p, "loops", &e);
    CHECK(e);
    size_t kwg = 0;
    CHECK(clGetKernelWorkGroupInfo(kf, d, CL_KERNEL_WORK_GROUP_SIZE, sizeof kwg, &kwg, NULL));
    printf("%s: CL_KERNEL_WORK_GROUP_SIZE of a one-line kernel: %zu\n", name, kwg);
    size_t bad = flush_check(c, q, kf);
    printf("flush: %zu of %d elements not yet read when clFinish (after clFlush) returned\n",
           bad, 1 << 20);
    static const cl_uint nm[][2] = {{1, 65535}, {1, 65536}, {1, 100000}, {2, 40000}, {256, 256}};
    int short_loops = 0;
    for (size_t i = 0; i < sizeof nm / sizeof *nm; i++) {
        cl_uint got = loop_check(c, q, kl, nm[i][0], nm[i][1]);
        printf("loops: %u x %u iterations asked, %u ran\n", nm[i][0], nm[i][1], got);
        short_loops |= got != nm[i][0] * nm[i][1];
    }
    clReleaseKernel(kf);
    clReleaseKernel(kl);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(c);
    if (argc > 2) { /* the expected behaviour: both seen, or neither */
        int seen = strcmp(argv[2], "seen") == 0, both = bad && short_loops,
            none = !bad && !short_loops;
        printf("%s: %s expected, %s\n", name, seen ? "both behaviours" : "neither behaviour",
               (seen ? both : none) ? "as documented" : "NOT as documented");
        return (seen ? both : none) ? 0 : 1;
    }
    return bad || short_loops;
}
