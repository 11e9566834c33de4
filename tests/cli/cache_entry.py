#!/usr/bin/env python3
"""Read and forge program-cache entries for test_cache.sh (the layout is
host/cache/bincache.c's: magic, u32 format, u32 fields, per field u64 length
and bytes, u64 binary length, u64 checksum, binary; host byte order).

  cache_entry.py find DIR TEXT          the entry whose source contains TEXT
  cache_entry.py rekey FILE FIELD TEXT  rewrite key field FIELD (0..7) as TEXT
"""
import os
import struct
import sys

MAGIC = b"CLBENCH-PROGRAM-BINARY\n"


def parse(data):
    assert data.startswith(MAGIC), "not an entry"
    pos = len(MAGIC)
    fmt, nf = struct.unpack_from("=II", data, pos)
    pos += 8
    fields = []
    for _ in range(nf):
        (n,) = struct.unpack_from("=Q", data, pos)
        fields.append(data[pos + 8:pos + 8 + n])
        pos += 8 + n
    return fmt, fields, data[pos:]


def main():
    cmd = sys.argv[1]
    if cmd == "find":
        d, text = sys.argv[2], sys.argv[3].encode()
        for name in sorted(os.listdir(d)):
            if name.endswith(".bin"):
                with open(os.path.join(d, name), "rb") as f:
                    _, fields, _ = parse(f.read())
                if text in fields[-1]:
                    print(os.path.join(d, name))
                    return 0
        return 1
    if cmd == "rekey":
        path, k, text = sys.argv[2], int(sys.argv[3]), sys.argv[4].encode()
        with open(path, "rb") as f:
            fmt, fields, tail = parse(f.read())
        fields[k] = text
        out = MAGIC + struct.pack("=II", fmt, len(fields))
        for v in fields:
            out += struct.pack("=Q", len(v)) + v
        with open(path, "wb") as f:
            f.write(out + tail)
        return 0
    return 2


sys.exit(main())
