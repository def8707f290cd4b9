# SPDX-License-Identifier: BSD-2-Clause
#
# crc64nvme-ref.py - an independent CRC-64/NVME for the tests (crcref.py),
# from the published parameters (poly 0xad93d23594c93659, reflected, init
# and xorout all ones).  Prints "HEX  NAME" for each file named, as
# multisum -a crc64nvme does.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crcref  # noqa: E402

T = crcref.table(0x9a6c9329ac4bc9b5)    # 0xad93d23594c93659, reflected
for name in sys.argv[1:]:
    with open(name, 'rb') as f:
        print('%016x  %s' % (crcref.crc(T, 64, f.read()), name))
