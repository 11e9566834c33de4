/* launch: the cost of a kernel launch. The kernel does nothing but let its
 * first work-item store the launch's number, which the host checks after
 * the last launch (so the launches ran, in order, to the end). */
__kernel void empty(__global uint *out, uint v)
{
    if (get_global_id(0) == 0)
        out[0] = v;
}
