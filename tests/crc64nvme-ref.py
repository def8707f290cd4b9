# SPDX-License-Identifier: BSD-2-Clause
#
# crc64nvme-ref.py - an independent CRC-64/NVME for the tests: bit at a
# time into a byte table, from the published parameters (poly
# 0xad93d23594c93659, reflected, init and xorout all ones).  Prints
# "HEX  NAME" for each file named, as multisum -a crc64nvme does.
import sys

P = 0x9a6c9329ac4bc9b5    # 0xad93d23594c93659, reflected
M = (1 << 64) - 1
t = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ P if c & 1 else c >> 1
    t.append(c)
for name in sys.argv[1:]:
    c = M
    with open(name, 'rb') as f:
        for x in f.read():
            c = (c >> 8) ^ t[(c ^ x) & 0xff]
    print('%016x  %s' % (c ^ M, name))
