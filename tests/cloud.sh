#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# cloud.sh - Amazon S3's multipart checksums: s3etag and the composite
# s3-crc32, s3-crc32c, s3-sha1 and s3-sha256, against an independent
# computation in Python (hashlib, zlib, and a CRC-32C written here), with
# the part boundaries hit exactly and missed by one either way, and at
# every CRC code path.

. "$TESTS_SRCDIR/lib.sh"

have python3 || { echo "1..0 # SKIP python3 absent"; exit 0; }

# S3's smallest part (5 MiB); --part-size refuses less
PART=5242880
SIZES="0 1 5242879 5242880 5242881 10485761"

# reference PART ALGOS FILE...: "ETAG CRC32 CRC32C SHA1 SHA256  NAME" per
# file (ALGOS "all", or a comma list of md5, crc32, ...), as S3 reports an
# upload by the AWS CLI with threshold = chunk = PART.
reference() {
	python3 - "$@" <<'PY'
import base64, hashlib, sys, zlib

def table():
    t = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82f63b78 if c & 1 else c >> 1
        t.append(c)
    return t
T = table()

def crc32c(b):
    c = 0xffffffff
    for x in b:
        c = T[(c ^ x) & 0xff] ^ (c >> 8)
    return c ^ 0xffffffff

algos = {
    'md5':    lambda b: hashlib.md5(b).digest(),
    'crc32':  lambda b: zlib.crc32(b).to_bytes(4, 'big'),
    'crc32c': lambda b: crc32c(b).to_bytes(4, 'big'),
    'sha1':   lambda b: hashlib.sha1(b).digest(),
    'sha256': lambda b: hashlib.sha256(b).digest(),
}
part = int(sys.argv[1])
only = sys.argv[2].split(',') if sys.argv[2] != 'all' else list(algos)
for name in sys.argv[3:]:
    data = open(name, 'rb').read()
    out = []
    for a, f in algos.items():
        if a not in only:
            continue
        if len(data) < part:
            d, n = f(data), 0
        else:
            parts = [data[i:i + part] for i in range(0, len(data), part)]
            d, n = f(b''.join(f(p) for p in parts)), len(parts)
        t = d.hex() if a == 'md5' else base64.b64encode(d).decode()
        out.append(t + ('-%d' % n if n else ''))
    print(' '.join(out) + '  ' + name)
PY
}

make_files() {
	for n in $SIZES; do
		random_file "f$n" "$n"
	done
}

# mine PART FILE...: the same line from multisum.
mine() {
	p=$1
	shift
	for f in "$@"; do
		line=
		for a in s3etag s3-crc32 s3-crc32c s3-sha1 s3-sha256; do
			d=$(multisum --part-size="$p" -a $a "$f" | sed 's/  .*//')
			line="$line${line:+ }$d"
		done
		printf '%s  %s\n' "$line" "$f"
	done
}

test_against_python() {
	make_files
	reference $PART all f* > want
	check "the reference ran" test -s want
	mine $PART f* > got
	same got want "s3etag and s3-* match Python at every boundary"
	has_line got "$(grep '^[^ ]* .*  f5242880$' want)" "exactly one part"
	check "one part is '-1'" grep -q -- '-1 .*  f5242880$' got
	check "one byte short of a part is a single PUT" \
	    grep -q '^[0-9a-f]\{32\} .*  f5242879$' got
	check "one byte over is two parts" grep -q -- '-2 .*  f5242881$' got
}

test_every_crc_level() {
	random_file f1 1
	random_file f5242881 5242881
	reference $PART crc32c f* > want
	for l in $(runnable_levels MULTISUM_CRC_LEVEL crc32c table sse42 pclmul \
	    vpclmul); do
		MULTISUM_CRC_LEVEL=$l multisum --part-size=$PART -a s3-crc32c f* \
		    > "got-$l"
		same "got-$l" want "s3-crc32c at $l"
	done
}

test_default_part_size() {
	random_file big 8388609
	random_file small 8388607
	reference 8388608 md5 big small > want
	multisum -a s3etag big small > got
	same got want "the default part is 8 MiB, as the AWS CLI's"
	multisum --part-size=8M -a s3etag big small > got
	same got want "--part-size=8M says the same"
}

test_output_forms() {
	printf abc > abc
	is "$(multisum -a s3etag abc)" "900150983cd24fb0d6963f7d28e17f72  abc" \
	    "a single PUT's ETag is the MD5"
	random_file obj 5242881
	is "$(multisum --part-size=5M -a s3etag --tag obj)" \
	    "S3ETAG (obj) = $(reference $PART md5 obj | sed 's/  .*//')" \
	    "--tag: S3ETAG (NAME) = ETAG-N"
	usage_error "--part-size=0 is refused" --part-size=0 -a s3etag abc
	usage_error "--part-size=x is refused" --part-size=x -a s3etag abc
	# S3's limits: parts of 5 MiB to 5 GiB
	for p in 1 5242879 5368709121 6G; do
		usage_error "--part-size=$p, outside S3's limits, is refused" \
		    --part-size=$p -a s3etag abc
		multisum --part-size=$p -a s3etag abc 2> err
		check "--part-size=$p: they are named" \
		    grep -q "S3's parts are 5M to 5G" err
	done
	check "5M is S3's least" multisum --part-size=5M -a s3etag abc
	check "5G its most" multisum --part-size=5G -a s3etag abc
	# 10,000 parts at most: a file that needs more is refused by name,
	# unread (sparse, 50 GiB), the others hashed
	truncate -s 52428800001 huge
	status_is 1 "10001 parts of 5M are refused" \
	    multisum --part-size=5M -a md5,s3etag abc huge > out 2> err
	is "$(cat err)" "multisum: huge: s3etag: 10001 parts, more than S3's 10000 (give a larger --part-size)" \
	    "one line, naming the file"
	is "$(grep -c abc out)" 2 "the other file hashed"
	check "other digests do not count parts" \
	    multisum -a crc32c --part-size=5M abc
}

test_expect_spellings() {
	random_file obj 5243380
	etag=$(reference $PART md5 obj | sed 's/  .*//')
	comp=$(reference $PART crc32c obj | sed 's/  .*//')
	sha=$(reference $PART sha256 obj | sed 's/  .*//')
	md5b64=$(python3 -c 'import base64, hashlib, sys
print(base64.b64encode(hashlib.md5(open(sys.argv[1], "rb").read()).digest()).decode())' obj)
	md5hex=$(python3 -c 'import hashlib, sys
print(hashlib.md5(open(sys.argv[1], "rb").read()).hexdigest())' obj)
	crcb64=$(reference 6000000 crc32c obj | sed 's/  .*//')
	check "an ETag in quotes with -N" \
	    multisum --part-size=5M --expect "\"$etag\"" obj
	check "an ETag without quotes" multisum --part-size=5M --expect "$etag" obj
	check "a single PUT's ETag in quotes" multisum --expect "\"$md5hex\"" obj
	check "s3-sha256's BASE64-N" multisum --part-size=5M --expect "$sha" obj
	check "s3-crc32c's BASE64-N with -a" \
	    multisum --part-size=5M -a s3-crc32c --expect "$comp" obj
	usage_error "a CRC's BASE64-N without -a is refused" \
	    --part-size=5M --expect "$comp" obj
	check "GCS's md5=BASE64" multisum --expect "md5=$md5b64" obj
	check "GCS's crc32c=BASE64" multisum --expect "crc32c=$crcb64" obj
	check "x-amz-checksum-crc32c's BASE64" \
	    multisum -a crc32c --expect "$crcb64" obj
	status_is 1 "another part size fails the ETag" \
	    multisum --part-size=6M --expect "\"$etag\"" obj
	status_is 1 "a changed file fails" sh -c 'printf x >> obj &&
	    "$MULTISUM" --part-size=5M --expect "$1" obj' sh "\"$etag\""
}

test_check() {
	random_file obj 5243380
	multisum --part-size=5M -a s3etag,s3-crc32c,s3-sha256 obj > tagged
	check "-c verifies tagged S3 lines" multisum --part-size=5M -c tagged
	status_is 1 "with another part size they fail" \
	    multisum --part-size=6M -c tagged
	multisum --part-size=5M -a s3etag obj > untagged
	check "-c -a s3etag verifies an ETag-N line" \
	    multisum --part-size=5M -a s3etag -c untagged
	printf x >> obj
	status_is 1 "a changed file fails" multisum --part-size=5M -c tagged
}

run against_python
run check
run expect_spellings
run every_crc_level
run default_part_size
run output_forms
finish
