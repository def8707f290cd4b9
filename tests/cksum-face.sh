#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# cksum-face.sh - multisum called as cksum behaves as GNU coreutils
# 9.11's cksum where 9.11 goes past 9.1: -a crc32b, -a sha2|sha3 -l BITS,
# -l for blake2b, --base64, --raw, --untagged with -b/-t, -c of what
# those write, and 9.11's refusals word for word with their statuses.
# The digests expected come from Python's hashlib, zlib and base64, not
# from multisum nor coreutils; the words from 9.11's source (src/cksum.c).
# The last test runs coreutils 9.11's own tests/cksum scripts against the
# face when a copy of coreutils' git repository is named by
# COREUTILS_GIT (see tests/README.md); it is skipped without one.

. "$TESTS_SRCDIR/lib.sh"

# The face on the PATH as "cksum", so that messages read "cksum: ...",
# and the files the cases hash.
setup() {
	have python3 || skip_test "python3 absent (the reference digests)"
	mkdir bin
	ln -s "$MULTISUM" bin/cksum
	PATH=$(pwd)/bin:$PATH
	printf 'hello\n' > a
	: > empty
	mkdir dir
}

# ref ALGO BITS FORM FILE: FILE's digest by Python: hex, b64 or raw bytes.
ref() {
	python3 - "$@" <<'EOF'
import base64, hashlib, sys, zlib
algo, bits, form, path = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
data = open(path, 'rb').read()
if algo == 'sha2':
    d = hashlib.new('sha%d' % bits, data).digest()
elif algo == 'sha3':
    d = hashlib.new('sha3_%d' % bits, data).digest()
elif algo == 'blake2b':
    d = hashlib.blake2b(data, digest_size=bits // 8).digest()
elif algo == 'crc32b':
    d = zlib.crc32(data).to_bytes(4, 'big')
else:
    d = hashlib.new(algo, data).digest()
if form == 'hex':
    print(d.hex())
elif form == 'b64':
    print(base64.b64encode(d).decode())
elif form == 'dec':
    print(int.from_bytes(d, 'big'))
else:
    sys.stdout.buffer.write(d)
EOF
}

# refused WANT_STATUS DESC WANT_STDERR ARG...: cksum ARG... writes nothing
# on standard output, exactly WANT_STDERR on standard error, and exits so.
refused() {
	_st=$1 _d=$2 _err=$3
	shift 3
	cksum "$@" > out 2> err < /dev/null
	is "$?" "$_st" "$_d: exit status"
	is "$(cat err)" "$_err" "$_d: 9.11's words"
	check "$_d: nothing on standard output" test ! -s out
}

TRY="Try 'cksum --help' for more information."

test_crc32b() {
	setup
	is "$(cksum -a crc32b a empty)" "$(ref crc32b 32 dec a) 6 a
0 0 empty" "-a crc32b: zlib's CRC-32 in cksum's decimal line"
	is "$(cksum -a crc32b < a)" "$(ref crc32b 32 dec a) 6" \
	    "-a crc32b of standard input: no name"
	is "$(cksum -a crc32b --tag --base64 a)" "$(ref crc32b 32 dec a) 6 a" \
	    "-a crc32b: --tag and --base64 change nothing"
	cksum -a crc32b --raw a > got
	ref crc32b 32 raw a > want
	same got want "-a crc32b --raw: four bytes, most significant first"
}

test_sha2_sha3_blake2b() {
	setup
	for l in 224 256 384 512; do
		h=$(ref sha2 "$l" hex a)
		is "$(cksum -a sha2 -l "$l" a)" "SHA$l (a) = $h" \
		    "-a sha2 -l $l: tagged SHA$l"
		is "$(cksum -a "sha$l" a)" "SHA$l (a) = $h" "-a sha$l: the same"
		is "$(cksum -a sha2 --length="$l" --untagged a)" "$h  a" \
		    "-a sha2 -l $l --untagged"
		h=$(ref sha3 "$l" hex a)
		is "$(cksum -a sha3 -l "$l" a)" "SHA3-$l (a) = $h" \
		    "-a sha3 -l $l: tagged SHA3-$l"
		is "$(cksum -a sha3 -l "$l" --untagged -b a)" "$h *a" \
		    "-a sha3 -l $l --untagged -b"
	done
	is "$(cksum -a sha3 -l 253 -l 256 a)" "SHA3-256 (a) = $(ref sha3 256 hex a)" \
	    "-l: the last one counts, checked once the options are read"
	is "$(cksum -a blake2b -l 256 a)" "BLAKE2b-256 (a) = $(ref blake2b 256 hex a)" \
	    "-a blake2b -l 256"
	is "$(cksum -a blake2b -l 512 a)" "BLAKE2b (a) = $(ref blake2b 512 hex a)" \
	    "-a blake2b -l 512: no length in the tag"
	is "$(cksum -a md5 --untagged -t a)" "$(ref md5 128 hex a)  a" \
	    "--untagged -t: text mode's blank"
}

test_base64_raw() {
	setup
	is "$(cksum -a sha2 -l 256 --base64 a)" "SHA256 (a) = $(ref sha2 256 b64 a)" \
	    "--base64, tagged"
	is "$(cksum -a sha3 -l 384 --base64 --untagged a)" \
	    "$(ref sha3 384 b64 a)  a" "--base64 --untagged"
	is "$(cksum -a blake2b -l 8 --base64 a)" "BLAKE2b-8 (a) = $(ref blake2b 8 b64 a)" \
	    "--base64 of one byte, padded"
	is "$(cksum -a md5 --base64 empty)" "MD5 (empty) = 1B2M2Y8AsgTpgAmY7PhCfg==" \
	    "--base64 -a md5 of nothing"
	is "$(cksum --base64 a)" "$(cksum a)" "--base64: the CRC stays decimal"
	for s in "sha2 512" "sha3 224" "blake2b 96" "md5 128"; do
		set -- $s
		if [ "$1" = md5 ]; then
			cksum --raw -a md5 a > got
		else
			cksum --raw -a "$1" -l "$2" a > got
		fi
		ref "$1" "$2" raw a > want
		same got want "--raw -a $1 ($2 bits): the bare digest"
	done
	crc=$(cksum a | cut -d' ' -f1)
	cksum --raw a > got
	python3 -c "import sys; sys.stdout.buffer.write(($crc).to_bytes(4, 'big'))" > want
	same got want "--raw -a crc: four bytes, most significant first"
	cksum --raw < a > got
	same got want "--raw of standard input"
}

test_check() {
	setup
	{
		echo "SHA2-256 (a) = $(ref sha2 256 hex a)"
		echo "SHA384 (a) = $(ref sha2 384 b64 a)"
		echo "SHA3-224 (a) = $(ref sha3 224 hex a)"
		echo "SHA3 (a) = $(ref sha3 512 b64 a)"
		echo "SHA3-512(a)= $(ref sha3 512 hex a)"
		echo "BLAKE2b-128 (a) = $(ref blake2b 128 b64 a)"
		echo "MD5 (a) = $(ref md5 128 b64 a)"
	} > tagged
	cksum -c --strict tagged > out 2> err
	is "$?" 0 "-c: SHA2-N, SHA3-N and base64 tagged lines"
	is "$(cat out)" "a: OK
a: OK
a: OK
a: OK
a: OK
a: OK
a: OK" "-c: every line verified"
	for l in 224 256 384 512; do
		ref sha3 "$l" b64 a | sed 's/$/  a/' > b64
		is "$(cksum -a sha3 -c b64 2>&1)" "a: OK" \
		    "-a sha3 -c: the length of an untagged base64 digest ($l)"
		ref sha2 "$l" hex a | sed 's/$/  a/' > hex
		is "$(cksum -a sha2 -c hex 2>&1)" "a: OK" \
		    "-a sha2 -c: the length of an untagged hex digest ($l)"
	done
	ref blake2b 216 b64 a | sed 's/$/  a/' > b64
	is "$(cksum -a blake2b -c b64 2>&1)" "a: OK" \
	    "-a blake2b -c: an untagged base64 digest of 216 bits"
	echo "SHA256 (a) = $(ref sha2 256 hex a)" > sha256
	is "$(cksum -a sha2 -c sha256 2>&1)" "a: OK" "-a sha2 -c reads SHA256 tags"
	echo "SHA256 (a) = $(ref sha2 256 hex empty)" > wrong
	cksum -c wrong > out 2> err
	is "$?:$(cat out):$(cat err)" \
	    "1:a: FAILED:cksum: WARNING: 1 computed checksum did NOT match" \
	    "-c of a wrong SHA256"
	ref sha3 256 b64 a | sed 's/.$//; s/$/  a/' > short
	refused 1 "-c of a truncated base64 digest" \
	    "cksum: short: no properly formatted checksum lines found" -a sha3 -c short
	echo "SHA3-248 (a) = $(ref sha3 256 hex a | cut -c1-62)" > bad
	refused 1 "-c -w of SHA3-248" "cksum: bad: 1: improperly formatted SHA3 checksum line
cksum: bad: no properly formatted checksum lines found" -a sha3 -c -w bad
	echo "SHA2-128 (a) = $(ref md5 128 hex a)" > bad
	refused 1 "-c of SHA2-128" \
	    "cksum: bad: no properly formatted checksum lines found" -c bad
	# 9.1 read these; 9.11 reads no blank but one before "(", and a
	# digit right after "-"
	printf 'SHA256  (a) = %s\nSHA256- 128 (a) = %s\n' \
	    "$(ref sha2 256 hex a)" "$(ref sha2 256 hex a | cut -c1-32)" > bad
	refused 1 "-c of 'TAG  (' and 'TAG- N'" \
	    "cksum: bad: 1: improperly formatted SHA256 checksum line
cksum: bad: 2: improperly formatted SHA256 checksum line
cksum: bad: no properly formatted checksum lines found" -c -w bad
	cksum -a crc32b a > crc
	refused 1 "-c of a crc32b line" \
	    "cksum: crc: no properly formatted checksum lines found" -c crc
	cksum -a md5 a | cksum --untagged -c > out
	is "$?:$(cat out)" "0:a: OK" "-c --untagged is allowed"
	# base64 text with bits set under its padding is no digest's text:
	# a line that fails, not an improperly formatted one
	echo 'SHA1+++++++++++++++++++++++=  a' > odd
	cksum -a sha1 -c odd > out 2> err
	is "$?:$(cat out):$(cat err)" \
	    "1:a: FAILED:cksum: WARNING: 1 computed checksum did NOT match" \
	    "-c of non-canonical base64"
}

# --help lists the algorithms of -a as 9.11 does ("  NAME" lines, in its
# order), which 9.11's cksum-base64.pl reads; --debug's words follow the
# CPU features GLIBC_TUNABLES masks, as 9.11's cksum.sh expects.
test_help_and_debug() {
	setup
	is "$(cksum --help | sed -n 's/^  \([a-z][^ ]*\).*/\1/p' | tr '\n' ' ')" \
	    "sysv bsd crc crc32b md5 sha1 sha2 sha3 blake2b sm3 " \
	    "--help: the algorithms in 9.11's order"
	GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F,-AVX2,-AVX cksum --debug a \
	    > out 2> err
	is "$(cat out):$(cat err)" "$(cksum a):cksum: avx512 support not detected
cksum: avx2 support not detected
cksum: pclmul support not detected" "--debug with AVX masked: the table code"
}

test_refusals() {
	setup
	refused 1 "-a sha2 without -l" \
	    "cksum: --algorithm=sha2 requires specifying --length 224, 256, 384, or 512" \
	    -a sha2 a
	refused 1 "-a sha3 -l 100" "cksum: invalid length: '100'
cksum: digest length for 'SHA3' must be 224, 256, 384, or 512" -a sha3 -l 100 a
	refused 1 "-a sha2 -l 1024 -c" "cksum: invalid length: '1024'
cksum: digest length for 'SHA2' must be 224, 256, 384, or 512" -a sha2 -l 1024 -c a
	refused 1 "-a sha3 -l of an overflowing number" \
	    "cksum: invalid length: '99999999999999999999999'
cksum: digest length for 'SHA3' must be 224, 256, 384, or 512" \
	    -a sha3 -l 99999999999999999999999 a
	refused 1 "-l -8" \
	    "cksum: invalid length: '-8': Value too large for defined data type" \
	    -a sha3 -l -8 a
	refused 1 "-l x" "cksum: invalid length: 'x'" -a blake2b -l x a
	refused 1 "-l 8 without -a" \
	    "cksum: --length is only supported with --algorithm blake2b, sha2, or sha3" \
	    -l 8 a
	refused 1 "-l 7 -a md5: the algorithm before the multiple of 8" \
	    "cksum: --length is only supported with --algorithm blake2b, sha2, or sha3" \
	    -l 7 -a md5 a
	refused 1 "-a blake2b -l 12" "cksum: invalid length: '12'
cksum: length is not a multiple of 8" -a blake2b -l 12 a
	refused 1 "-a blake2b -l 1024" "cksum: invalid length: '1024'
cksum: maximum digest length for 'BLAKE2b' is 512 bits" -a blake2b -l 1024 a
	refused 1 "-a crc32b -c" \
	    "cksum: --check is not supported with --algorithm={bsd,sysv,crc,crc32b}" \
	    -a crc32b -c a
	refused 1 "--base64 --raw" "cksum: --base64 and --raw are mutually exclusive
$TRY" --base64 --raw a
	refused 1 "--raw of two files" \
	    "cksum: the --raw option is not supported with multiple files" --raw a a
	refused 1 "-t, tagged" "cksum: --text mode is only supported with --untagged
$TRY" -t a
	refused 1 "--tag -c" "cksum: the --tag option is meaningless when verifying checksums
$TRY" --tag -c a
	refused 1 "-c -b" "cksum: the --binary and --text options are meaningless when verifying checksums
$TRY" -c -b a
	refused 1 "-a sha22" "cksum: invalid argument 'sha22' for '--algorithm'
Valid arguments are:
  - 'bsd'
  - 'sysv'
  - 'crc'
  - 'crc32b'
  - 'md5'
  - 'sha1'
  - 'sha224'
  - 'sha256'
  - 'sha384'
  - 'sha512'
  - 'sha2'
  - 'sha3'
  - 'blake2b'
  - 'sm3'
$TRY" -a sha22 a
	cksum dir a > out 2> err
	is "$?" 1 "a directory: exit status"
	is "$(cat err)" "cksum: dir: Is a directory" "a directory is an error"
	is "$(cat out)" "$(cksum a)" "and the other file is still hashed"
}

# coreutils 9.11's own tests of cksum, from a copy of its repository
# (COREUTILS_GIT: a git directory holding the tag v9.11), run with an
# init.sh written here (cksum-face.init) against the face.
test_coreutils_own_tests() {
	[ -n "${COREUTILS_GIT:-}" ] ||
	    skip_test "COREUTILS_GIT unset: no copy of coreutils' repository"
	git --git-dir="$COREUTILS_GIT" rev-parse -q --verify v9.11 > /dev/null ||
	    skip_test "$COREUTILS_GIT has no tag v9.11"
	setup
	T=$(pwd)
	mkdir -p src/tests src/perl
	cp "$TESTS_SRCDIR/cksum-face.init" src/tests/init.sh
	# b2sum.sh tries b2sum first: 9.1's is not the subject here
	printf '#!/bin/sh\nexit 1\n' > bin/b2sum
	# cksum-c.sh fails the reads of a file under strace, which follows
	# one thread; the face reads in worker threads: follow them all
	if have strace; then
		printf '#!/bin/sh\nexec %s -f "$@"\n' "$(command -v strace)" \
		    > bin/strace
		chmod +x bin/strace
	fi
	chmod +x bin/b2sum
	for m in Coreutils.pm CuSkip.pm CuTmpdir.pm; do
		git --git-dir="$COREUTILS_GIT" show "v9.11:tests/$m" \
		    > "src/perl/$m" 2>/dev/null
	done
	for t in cksum.sh cksum-a.sh cksum-c.sh cksum-raw.sh cksum-sha3.sh \
	    cksum-base64-untagged.sh b2sum.sh cksum-base64.pl; do
		git --git-dir="$COREUTILS_GIT" show "v9.11:tests/cksum/$t" \
		    > "src/$t" || { fail "$t: not in v9.11"; continue; }
		rm -rf run && mkdir run
		case $t in
		*.sh)
			(cd run && srcdir=$T/src sh "$T/src/$t") \
			    > "$t.log" 2>&1 ;;
		*.pl)
			have perl || { skip_case "$t: perl absent"; continue; }
			# as coreutils' tests/local.mk runs them
			(cd run && srcdir=$T/src built_programs=cksum \
			    perl -w -I"$T/src/perl" -MCuSkip -MCoreutils \
			    -M"CuTmpdir qw($t)" "$T/src/$t" 9>&2) \
			    > "$t.log" 2>&1 ;;
		esac
		rc=$?
		case $rc in
		0) pass ;;
		77) skip_case "$t: $(tail -n 1 "$t.log")" ;;
		*)
			fail "coreutils 9.11's tests/cksum/$t (exit $rc)"
			tail -n 15 "$t.log" | diag - ;;
		esac
	done
}

run crc32b
run sha2_sha3_blake2b
run base64_raw
run check
run refusals
run help_and_debug
run coreutils_own_tests
finish
