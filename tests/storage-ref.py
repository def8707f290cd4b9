#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""storage-ref.py - an independent model of the storage systems' digests
that multisum computes, written from their specifications (Hadoop's
sources, Dropbox's "Content Hash" page) with nothing of multisum's code:
hashlib for MD5 and SHA-256, CRC-32C from its polynomial (crcref.py).

    storage-ref.py ALGO [--bytes-per-crc N] [--block-size N] FILE...

prints one line per FILE as multisum -a ALGO prints it:
    hdfs-md5md5crc32c      NAME<TAB>MD5-of-CMD5-of-BCRC32C<TAB>HEX
    hdfs-composite-crc32c  NAME<TAB>COMPOSITE-CRC32C<TAB>HEX
    dropbox                HEX  NAME
"""
import hashlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crcref  # noqa: E402

CRC32C = crcref.table(0x82F63B78)   # Castagnoli, reflected


def crc32c(data):
    return crcref.crc(CRC32C, 32, data)


def java_buffer(data):
    """What DataOutputBuffer.getData() returns after writing data: the
    whole backing array, 32 bytes at first, doubled when full."""
    cap = 32
    while cap < len(data):
        cap *= 2
    return data + bytes(cap - len(data))


def hdfs_md5md5(data, bpc, block):
    """HDFS's MD5MD5CRC32FileChecksum (CRC32C): name and 28 bytes."""
    if not data:
        # no block: HDFS's fixed answer, named for CRC32 (gzip)
        md5 = hashlib.md5(bytes(32)).digest()
        return 'MD5-of-0MD5-of-0CRC32', bytes(12) + md5
    blocks = [data[i:i + block] for i in range(0, len(data), block)]
    md5s = b''
    for blk in blocks:
        crcs = b''.join(crc32c(blk[i:i + bpc]).to_bytes(4, 'big')
                        for i in range(0, len(blk), bpc))
        md5s += hashlib.md5(crcs).digest()
    cpb = block // bpc if len(blocks) > 1 else 0
    md5 = hashlib.md5(java_buffer(md5s)).digest()
    raw = bpc.to_bytes(4, 'big') + cpb.to_bytes(8, 'big') + md5
    return 'MD5-of-%dMD5-of-%dCRC32C' % (cpb, bpc), raw


def hdfs_composite(data):
    if not data:
        return hdfs_md5md5(data, 512, 1)
    return 'COMPOSITE-CRC32C', crc32c(data).to_bytes(4, 'big')


def dropbox(data):
    blocks = [data[i:i + (4 << 20)] for i in range(0, len(data), 4 << 20)]
    return hashlib.sha256(b''.join(hashlib.sha256(b).digest()
                                   for b in blocks)).hexdigest()


def main(argv):
    algo, bpc, block, names = argv[0], 512, 128 << 20, []
    args = iter(argv[1:])
    for a in args:
        if a == '--bytes-per-crc':
            bpc = int(next(args))
        elif a == '--block-size':
            block = int(next(args))
        else:
            names.append(a)
    for name in names:
        with open(name, 'rb') as f:
            data = f.read()
        if algo == 'dropbox':
            print('%s  %s' % (dropbox(data), name))
            continue
        if algo == 'hdfs-md5md5crc32c':
            alg, raw = hdfs_md5md5(data, bpc, block)
        elif algo == 'hdfs-composite-crc32c':
            alg, raw = hdfs_composite(data)
        else:
            sys.exit('storage-ref.py: unknown algorithm ' + algo)
        print('%s\t%s\t%s' % (name, alg, raw.hex()))


if __name__ == '__main__':
    main(sys.argv[1:])
