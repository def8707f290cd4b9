# SPDX-License-Identifier: BSD-2-Clause
#
# crcref.py - reflected CRCs for the tests' independent models
# (crc64nvme-ref.py, storage-ref.py), from their published parameters: a
# byte table built a bit at a time from the reflected polynomial, the
# register all ones in and out (CRC-32C, CRC-64/NVME).


def table(poly):
    """The byte table of the reflected polynomial poly."""
    t = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ poly if c & 1 else c >> 1
        t.append(c)
    return t


def crc(t, width, data):
    """The CRC of data under table t, all ones in and out."""
    m = (1 << width) - 1
    c = m
    for x in data:
        c = (c >> 8) ^ t[(c ^ x) & 0xff]
    return c ^ m
