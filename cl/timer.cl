/* The core's timer check (host/core/timer.c): `items` work-items each run
 * `steps` dependent xorshift steps, a kernel as long as the host asks for
 * (more work-items, never longer loops: llvmpipe ends a work-item's loops
 * after 65535 iterations in all), whose events are compared with the host
 * clock. Integer steps: nothing a driver emulates. A nonzero seed never
 * reaches 0, which the compiler cannot know, so the loop stays. */
__kernel void spin(__global uint *out, uint steps)
{
    uint x = 0x9E3779B9u ^ (uint)get_global_id(0);
    for (uint i = 0; i < steps; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
    }
    if (x == 0u)
        out[0] = (uint)get_global_id(0);
}
