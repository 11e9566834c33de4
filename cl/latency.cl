/* latency: one work-item follows a random cycle through a working set
 * (chain[p] is the word index of the next element), `loads` dependent loads
 * per launch. Every load waits for the one before: the time per load is the
 * latency of whichever level of the memory hierarchy holds the working set.
 * The position is kept in state[0] between launches, so that successive runs
 * walk on along the cycle instead of re-reading what the last run cached. */
__kernel void chase(__global const uint *chain, __global uint *state, uint loads)
{
    uint p = state[0];
    for (uint i = 0; i < loads / 8; i++) {
        p = chain[p];
        p = chain[p];
        p = chain[p];
        p = chain[p];
        p = chain[p];
        p = chain[p];
        p = chain[p];
        p = chain[p];
    }
    for (uint i = 0; i < loads % 8; i++)
        p = chain[p];
    state[0] = p;
}
