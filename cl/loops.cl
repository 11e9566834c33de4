/* The core's probe of an implementation's loop limit (host/core/fit.c,
 * clb_loop_limit): one work-item counts the iterations of a loop whose end
 * the compiler cannot know (the host's stop values are never all ones).
 * Mesa's llvmpipe ends every loop of a kernel after 65535 iterations in all
 * (LP_MAX_TGSI_LOOP_ITERATIONS) without an error: out[0] < n shows it. */
__kernel void loop_count(__global const uint *stop, __global uint *out, uint n)
{
    uint c = 0;
    for (uint i = 0; i < n; i++) {
        if (stop[i & 63] == 0xFFFFFFFFu)
            break;
        c++;
    }
    out[0] = c;
}
