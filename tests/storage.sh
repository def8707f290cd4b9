#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# storage.sh - the digests that storage systems report, as users compare
# a local copy with them: HDFS's `hadoop fs -checksum` (hdfs-md5md5crc32c,
# hdfs-composite-crc32c) and Dropbox's content_hash (dropbox), each
# against an independent model in Python (storage-ref.py, written from
# Hadoop's sources and Dropbox's documentation) at every boundary of
# chunks, blocks and the client's buffer; and -c of what the tools print:
# hadoop fs -checksum, gsutil hash, gcloud storage hash, rclone hashsum,
# aws s3api head-object, with a changed file failing each.

. "$TESTS_SRCDIR/lib.sh"

have python3 || { echo "1..0 # SKIP python3 absent"; exit 0; }

ref() {
	python3 "$TESTS_SRCDIR/storage-ref.py" "$@"
}

# b64 HEX: its bytes in base64.
b64() {
	python3 -c 'import base64, sys
print(base64.b64encode(bytes.fromhex(sys.argv[1])).decode())' "$1"
}

# digest ALGO FILE: multisum's hex digest.
digest() {
	multisum -a "$1" "$2" | sed 's/ .*//'
}

test_hdfs_against_python() {
	# a chunk is 512 bytes; one block (128 MiB) holds every file here
	random_files 0 1 511 512 513 1024 1025 100000
	ref hdfs-md5md5crc32c f* > want
	multisum -a hdfs-md5md5crc32c f* > got
	same got want "hdfs-md5md5crc32c matches the model around a chunk"
	has_line got "f0	MD5-of-0MD5-of-0CRC32	00000000000000000000000070bc8f4b72a86921468bf8e8441dce51" \
	    "an empty file is HDFS's fixed answer"
	check "a file of one block prints CRCs per block as 0" \
	    grep -q '^f513	MD5-of-0MD5-of-512CRC32C	000002000000000000000000' got
	ref hdfs-composite-crc32c f* > want
	multisum -a hdfs-composite-crc32c f* > got
	same got want "hdfs-composite-crc32c matches the model"
	is "$(sed -n 's/^f100000	COMPOSITE-CRC32C	//p' got)" \
	    "$(digest crc32c f100000)" "the composite CRC is the file's CRC-32C"
}

test_hdfs_blocks() {
	# 2048-byte blocks: one short, exact and over, and 1 to 9 blocks,
	# whose MD5s fill the client's buffer of 32, 64, 128 and 256 bytes
	random_files 2047 2048 2049 4096 6145 8192 10239 16385 18432
	for bpc in 512 16; do
		ref hdfs-md5md5crc32c --bytes-per-crc $bpc --block-size 2048 \
		    f* > want
		multisum -a hdfs-md5md5crc32c --bytes-per-crc=$bpc \
		    --block-size=2048 f* > got
		same got want "$bpc bytes per CRC, 2048-byte blocks"
	done
	check "a file of several blocks prints its CRCs per block" \
	    grep -q '^f4096	MD5-of-128MD5-of-16CRC32C	' got
	check "a block and a byte are two blocks" \
	    grep -q '^f2049	MD5-of-128MD5-of-16CRC32C	' got
	check "one block is a file of one block" \
	    grep -q '^f2048	MD5-of-0MD5-of-16CRC32C	' got
}

test_every_crc_level() {
	random_files 3000 9000
	ref hdfs-md5md5crc32c --bytes-per-crc 512 --block-size 4096 f* > want
	for l in $(runnable_levels MULTISUM_CRC_LEVEL crc32c table sse42 pclmul \
	    vpclmul); do
		MULTISUM_CRC_LEVEL=$l multisum -a hdfs-md5md5crc32c \
		    --block-size=4096 f* > "got-$l"
		same "got-$l" want "hdfs-md5md5crc32c at $l"
	done
}

test_dropbox_against_python() {
	random_files 0 1 4194303 4194304 4194305 8388609
	ref dropbox f* > want
	multisum -a dropbox f* > got
	same got want "dropbox matches the model around 4 MiB blocks"
	has_line got "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  f0" \
	    "an empty file is the SHA-256 of no block"
	check "-c reads its lines with -a dropbox" multisum -c -a dropbox got
	cp got sums.dropbox
	check "-c knows *.dropbox" multisum -c sums.dropbox
}

test_options() {
	printf abc > abc
	usage_error "--block-size must hold whole chunks" \
	    -a hdfs-md5md5crc32c --block-size=1000 abc
	usage_error "so must the default block size" \
	    -a hdfs-md5md5crc32c --bytes-per-crc=1000 abc
	usage_error "--bytes-per-crc=0 is refused" \
	    -a hdfs-md5md5crc32c --bytes-per-crc=0 abc
	is "$(multisum --tag -a hdfs-md5md5crc32c abc)" \
	    "HDFS-MD5MD5CRC32C (abc) = 000002000000000000000000648db27a367e242e5349fe9ccfdab0ea" \
	    "--tag writes the 28 bytes HDFS prints"
	multisum --tag -a hdfs-md5md5crc32c,dropbox,hdfs-composite-crc32c abc \
	    > tagged
	check "-c reads the tagged lines back" multisum -c tagged
}

test_check_hadoop() {
	random_file data 5000
	: > empty
	multisum -a hdfs-md5md5crc32c data empty > plain
	multisum -a hdfs-md5md5crc32c --bytes-per-crc=64 --block-size=1024 data |
	    sed 's/$/	BlockSize=1024/' > verbose
	multisum -a hdfs-composite-crc32c data empty |
	    sed 's|^|hdfs://namenode:8020/|' > composite
	check "-c verifies hadoop fs -checksum lines" multisum -c plain
	check "-v's lines, with BlockSize=, verify" multisum -c verbose
	check "hdfs:// names are looked up by their path" \
	    multisum -c composite > out
	has_line out "data: OK" "the path after the authority is the name"
	has_line out "empty: OK" "the empty file's fixed answer verifies"
	# several blocks: CRCs per block times bytes per CRC is the block size
	multisum -a hdfs-md5md5crc32c --bytes-per-crc=64 --block-size=1024 data \
	    > blocks
	check "CRCs per block give the block size" multisum -c blocks
	printf x > 'back\slash'
	multisum -a hdfs-md5md5crc32c 'back\slash' > escaped
	check "a name with a backslash is escaped as in GNU lines" \
	    grep -q '^.back.\\slash	' escaped
	check "and read back" multisum -c escaped
	printf 'data\tNONE\t\n' > none
	status_is 1 "a NONE line is not verified" multisum -c none 2> err
	check "it says why" grep -q 'printed NONE' err
	printf 'data\tMD5-of-0MD5-of-512CRC32\t000002000000000000000000%s\n' \
	    "$(digest md5 data)" > gzip
	status_is 1 "a CRC32 cluster's line is not verified" multisum -c gzip \
	    2> err
	check "it says the CRC is not supported" grep -q 'CRC32.*not supported' err
	printf x >> data
	status_is 1 "a changed file fails" multisum -c plain > out
	has_line out "data: FAILED" "it is FAILED"
	status_is 1 "and the composite CRC too" multisum -c composite > out
	has_line out "data: FAILED" "it is FAILED"
}

test_gnu_names_of_hadoop_shape() {
	# A name may hold what a hadoop line holds; multisum's own GNU line
	# for it is read as a GNU line (fuzz-roundtrip found the NONE case).
	printf a > 'x	NONE'
	printf b > 'y	NONE	'
	printf c > "z	MD5-of-0MD5-of-512CRC32C	$(printf %064d 0)"
	multisum -a md5 x* y* z* > sums
	check "-c reads them as GNU lines" multisum -c sums > out
	check "and verifies each" test "$(grep -c ': OK$' out)" = 3
	multisum -a sha256 --tag x* y* z* > tagged
	check "tagged lines of such names verify too" multisum -c tagged
	printf X > 'x	NONE'
	status_is 1 "a changed one fails" multisum -c sums > out
	has_line out "x	NONE: FAILED" "it is FAILED"
	# a BSD tag whose name holds a hadoop algorithm between tabs: its
	# value field is ") = HEX", no hadoop value (fuzz-roundtrip again)
	printf d > "$(printf 'w\r\tCOMPOSITE-CRC32C\t')"
	multisum -a md5 --tag w* > bsd
	check "a BSD line of a name with a hadoop word verifies" \
	    multisum -c bsd
}

test_check_gcs() {
	random_file obj 3000
	crc=$(digest crc32c obj)
	md5=$(digest md5 obj)
	printf 'Hashes [base64] for obj:\n\tHash (crc32c):\t\t%s\n\tHash (md5):\t\t%s\n' \
	    "$(b64 "$crc")" "$(b64 "$md5")" > gsutil
	printf 'Hashes [hex] for gs://bucket/obj:\n\tHash (md5):\t\t%s\n\tHash (crc32c):\t\t%s\n' \
	    "$(echo "$md5" | tr a-f A-F)" "$crc" >> gsutil
	check "-c verifies gsutil hash records, base64 and hex" \
	    multisum -c gsutil > out
	is "$(grep -c '^obj: OK$' out)" 2 "both records name obj"
	printf -- '---\ncrc32c_hash: %s\ndigest_format: base64\nmd5_hash: %s\nurl: obj\n---\ncrc32c_hash: %s\ndigest_format: hex\nmd5_hash: %s\nurl: gs://bucket/obj\n' \
	    "$(b64 "$crc")" "$(b64 "$md5")" "$crc" "$md5" > gcloud
	check "-c verifies gcloud storage hash records" multisum -c gcloud > out
	is "$(grep -c '^obj: OK$' out)" 2 "both records name obj"
	multisum --debug -c gcloud 2> dbg > /dev/null
	check "each record checks both digests" \
	    grep -q 'crc32c md5 (by its tag)' dbg
	printf x >> obj
	status_is 1 "a changed file fails gsutil's" multisum -c gsutil > out
	status_is 1 "and gcloud's" multisum -c gcloud > out
	has_line out "obj: FAILED" "it is FAILED"
}

test_check_rclone() {
	# content whose MD5 in base64 has a + or /: '-' or '_' in rclone's
	python3 -c 'import base64, hashlib
i = 0
while not set("+/") & set(base64.b64encode(hashlib.md5(b"%d" % i).digest()).decode()):
    i += 1
print(i, end="")' > f
	md5=$(digest md5 f)
	printf '%s  f\n' "$md5" > sums.md5
	check "-c verifies rclone md5sum lines" multisum -c sums.md5
	python3 -c 'import base64, sys
print(base64.urlsafe_b64encode(bytes.fromhex(sys.argv[1])).decode() + "  f")' \
	    "$md5" > b64.md5
	check "and rclone hashsum --base64's URL-safe alphabet" \
	    multisum -c b64.md5
	printf '                     UNSUPPORTED  f\n    ERROR  f\n' > old.md5
	status_is 1 "older rclone's UNSUPPORTED and ERROR are not verified" \
	    multisum -c old.md5 2> err
	check "each says why" test "$(grep -c 'not verified: rclone' err)" -eq 2
}

test_check_aws() {
	random_file obj 5243380
	etag=$(multisum -a s3etag --part-size=5M obj | sed 's/ .*//')
	comp=$(multisum -a s3-crc32c --part-size=5M obj | sed 's/ .*//')
	nvme=$(b64 "$(digest crc64nvme obj)")
	cat > obj.json <<EOF
{
    "AcceptRanges": "bytes",
    "LastModified": "2026-11-18T10:20:31+00:00",
    "ContentLength": 5243380,
    "ETag": "\"$etag\"",
    "ChecksumCRC32C": "$comp",
    "ChecksumCRC64NVME": "$nvme",
    "ChecksumType": "COMPOSITE",
    "ContentType": "binary/octet-stream",
    "ServerSideEncryption": "AES256",
    "Metadata": {"note": "{not a brace\""}
}
EOF
	check "-c verifies a head-object answer about obj (obj.json)" \
	    multisum --part-size=5M -c obj.json > out
	has_line out "obj: OK" "it names obj"
	multisum --part-size=5M --debug -c obj.json 2> dbg > /dev/null
	check "the ETag, the composite CRC-32C and the CRC-64/NVME" \
	    grep -q 's3-crc32c crc64nvme s3etag (by its tag)' dbg
	status_is 1 "another part size fails it" \
	    multisum --part-size=6M -c obj.json > /dev/null
	sed 's/"AES256"/"aws:kms"/' obj.json > kms.json
	cp obj kms
	multisum --part-size=5M --debug -c kms.json 2> dbg > /dev/null
	check "an SSE-KMS object's ETag is not compared" \
	    grep -q 's3-crc32c crc64nvme (by its tag)' dbg
	status_is 1 "an answer on standard input names no file" \
	    multisum -c - < obj.json 2> err
	check "it says how to name it" grep -q 'FILE.json' err
	printf x >> obj
	status_is 1 "a changed file fails" multisum --part-size=5M -c obj.json \
	    > out
	has_line out "obj: FAILED" "it is FAILED"
}

run hdfs_against_python
run hdfs_blocks
run every_crc_level
run dropbox_against_python
run options
run check_hadoop
run gnu_names_of_hadoop_shape
run check_gcs
run check_rclone
run check_aws
finish
