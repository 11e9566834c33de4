#!/usr/bin/env python3
"""DRAM reads per odd-site vector in one dslash sweep (docs/workloads/dslash.md, "Reading the
rates against the model"). A vector is read by its 16 even neighbours (+-1, +-3 in
x, y, z, t). Reads are counted at the granularity of planes (z, t): the x and y
readers sit in the vector's own plane, within a plane of it, and a plane is far
smaller than the cache. A read comes from DRAM when more than `window` sites were
swept since the previous read of the same vector: an LRU cache of CACHE_MB that
the sweep fills with SITE_BYTES a site. Planes are swept in the kernel's order,
the layout's (zstrip 0) or strips of zstrip z-planes with t inside (cl/dslash.cl,
site_of).
usage: dslash_reuse.py LxxLyxLzxLt CACHE_MB SITE_BYTES[,...] ZSTRIP[,...]"""
import sys


def order(lz, lt, zs):
    """position in the sweep of plane (z, t)"""
    if zs == 0:
        return lambda z, t: t * lz + z
    return lambda z, t: (z // zs) * (zs * lt) + t * zs + z % zs


def dram_reads(L, zs, window):
    lx, ly, lz, lt = L
    plane = lx // 2 * ly
    q = order(lz, lt, zs)
    total = 0
    for t in range(lt):
        for z in range(lz):
            readers = [q(z, t)] * 8  # the x and y neighbours
            for d in (1, -1, 3, -3):
                readers.append(q((z + d) % lz, t))
                readers.append(q(z, (t + d) % lt))
            readers.sort()
            total += 1 + sum((b - a) * plane > window for a, b in zip(readers, readers[1:]))
    return total / (lz * lt)


def main(argv):
    L = [int(v) for v in argv[1].split("x")]
    cache_mb = float(argv[2])
    zss = [int(v) for v in argv[4].split(",")]
    for sb in [float(b) for b in argv[3].split(",")]:
        window = cache_mb * 1e6 / sb
        reads = " ".join(f"{dram_reads(L, zs, window):.2f}" for zs in zss)
        print(f"{argv[1]}, {cache_mb:g} MB, {sb:.0f} B a site ({window:.0f} sites): "
              f"DRAM reads a vector at zstrip {argv[4]}: {reads}")


if __name__ == "__main__":
    main(sys.argv)
