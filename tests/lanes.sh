#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# lanes.sh - trees of small files, whose digests run side by side in SIMD
# lanes, give every file the digest the reference tools give it: md5sum,
# sha1sum, sha224sum, sha256sum (coreutils), b3sum and Python's hashlib,
# at every level this CPU runs (forced with MULTISUM_MD5_LEVEL,
# MULTISUM_SHA1_LEVEL, MULTISUM_SHA256_LEVEL, MULTISUM_BLAKE3_LEVEL), with
# one worker and with two, one digest and four at once; and -a sha256
# runs without libcrypto where the CPU has SHA-NI.
. "$TESTS_SRCDIR/lib.sh"

# A tree of every padding and chunk boundary, empty files, a few larger
# files beside them (a lane that ends early beside one that runs on), in
# byte order of their names as multisum -r writes them.
make_tree() {
	mkdir -p tree/a tree/b tree/c
	for n in 0 1 3 55 56 57 63 64 65 119 120 127 128 1000 1023 1024 1025 \
	    2047 2048 2049 3072 4095 4096 4097 8191 16383 16384 16385 20000; do
		random_file "tree/a/s$n" "$n"
	done
	i=0
	while [ $i -lt 60 ]; do
		random_file "tree/b/r$i" $(( (i * 7919) % 6000 ))
		i=$((i + 1))
	done
	random_file tree/c/long1 300000
	for n in 3 5000 3 5000 3 70000 3; do
		i=$((i + 1))
		random_file "tree/c/m$i" "$n"
	done
}

# want ALGO: the reference lines, sorted by name.
want() {
	case $1 in
	blake3)
		(cd tree && find . -type f | sort | sed 's|^\./||' | xargs b3sum) |
		    awk '{print $1 "  tree/" $2}' ;;
	*)
		find tree -type f | sort | xargs "$1sum" ;;
	esac
}

test_every_level_matches_the_peers() {
	make_tree
	for spec in md5:MULTISUM_MD5_LEVEL:libcrypto,avx2,avx512 \
	    sha1:MULTISUM_SHA1_LEVEL:libcrypto,avx2,avx512 \
	    sha224:MULTISUM_SHA256_LEVEL:libcrypto,avx2,shani,avx512 \
	    sha256:MULTISUM_SHA256_LEVEL:libcrypto,avx2,shani,avx512 \
	    blake3:MULTISUM_BLAKE3_LEVEL:portable,sse41,avx2,avx512; do
		a=${spec%%:*} rest=${spec#*:}
		var=${rest%%:*} all=$(echo "${rest#*:}" | tr , ' ')
		if [ "$a" = blake3 ] && ! have b3sum; then
			skip_case "b3sum absent"
			continue
		fi
		if [ "$a" != blake3 ] && ! have "${a}sum"; then
			skip_case "${a}sum absent"
			continue
		fi
		want "$a" | sort > want
		# a level this CPU or build lacks is a skip with multisum's
		# reason (runnable_levels)
		# shellcheck disable=SC2086
		for l in $(runnable_levels "$var" "$a" $all); do
			for j in 1 2; do
				env "$var=$l" "$MULTISUM" -r -j "$j" -a "$a" tree |
				    sort > got
				same got want "$a at $l, -j $j: every file as ${a}sum"
			done
		done
	done
}

# Four digests of each file in one run (lanes for each, side by side),
# against Python's hashlib, whose code is neither ours nor coreutils'.
test_four_digests_match_hashlib() {
	have python3 || skip_test "no python3"
	make_tree
	python3 - > want <<'EOF'
import hashlib, os
for d, _, names in sorted(os.walk("tree")):
    for n in sorted(names):
        p = os.path.join(d, n)
        b = open(p, "rb").read()
        for a in ("md5", "sha1", "sha256"):
            print("%s (%s) = %s" % (a.upper(), p, hashlib.new(a, b).hexdigest()))
EOF
	sort want > want.sorted
	for j in 1 2; do
		multisum -r -j "$j" -a md5,sha1,sha256 tree | sort > got
		same got want.sorted "md5,sha1,sha256, -j $j: as hashlib"
	done
	if have b3sum; then
		multisum -r -a md5,sha1,sha256,blake3 tree | grep '^BLAKE3' |
		    sed 's/^BLAKE3 (\(.*\)) = \(.*\)$/\2  \1/' | sort > got
		want blake3 | sort > want
		same got want "blake3 beside three others: as b3sum"
	else
		skip_case "b3sum absent"
	fi
}

# need_lazy_libcrypto: skips unless strace runs and libcrypto is loaded
# only when a run needs it.
need_lazy_libcrypto() {
	have strace || skip_test "no strace"
	readelf -d "$MULTISUM" 2>/dev/null | grep -q 'NEEDED.*libcrypto' &&
		skip_test "libcrypto is linked (configure --disable-lazy-loading)"
}

# given_back ALGO VAR: VAR=libcrypto gives ALGO's one stream back to
# libcrypto, which the run then opens and --debug names.
given_back() {
	env "$2=libcrypto" strace -f -e trace=openat -o trace \
	    "$MULTISUM" -a "$1" abc > /dev/null
	check "$2=libcrypto opens it" grep -q libcrypto trace
	env "$2=libcrypto" "$MULTISUM" --debug -a "$1" abc 2> err > /dev/null
	check "and --debug names OpenSSL as what computes it" \
	    grep -q "^multisum: $1: OpenSSL [0-9.]* (no lanes)\$" err
}

# Start-up: SHA-256 alone needs no libcrypto where SHA-NI runs it.  The
# CPU's flags decide, not --debug: a built-in stream lost fails.
test_sha256_without_libcrypto() {
	need_lazy_libcrypto
	grep -qw sha_ni /proc/cpuinfo 2> /dev/null ||
		skip_test "this CPU has no SHA-NI: libcrypto runs SHA-256"
	printf 'abc' > abc
	strace -f -e trace=openat -o trace "$MULTISUM" -a sha256,sha224 abc > got
	lacks trace libcrypto "-a sha256,sha224 opens no libcrypto"
	has_line got "SHA256 (abc) = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" \
	    "and gives FIPS 180's answer"
	given_back sha256 MULTISUM_SHA256_LEVEL
	MULTISUM_SHA256_LEVEL=shani multisum --debug -a sha224 abc \
	    2> err > /dev/null
	check "the built-in stream and two SHA-NI lanes, for sha224 too" \
	    grep -q '^multisum: sha224: built-in (shani, 2 shani lanes)$' err
	status_is 2 "an unknown level is refused" env MULTISUM_SHA256_LEVEL=sse9 \
	    "$MULTISUM" -a sha256 abc
}

# built_in_face ALGO VAR FLAG ABC MILLION: where the CPU has FLAG (and
# AVX2, the lanes level without which libcrypto runs the family), ALGO
# and its coreutils face run the built-in stream, without libcrypto, to
# the published answers for "abc" (ABC) and a million a's (MILLION).
built_in_face() {
	need_lazy_libcrypto
	grep -qw "$3" /proc/cpuinfo 2> /dev/null &&
	    grep -qw avx2 /proc/cpuinfo ||
		skip_test "no $3 and AVX2 here: libcrypto runs $1"
	multisum --debug -a "$1" /dev/null 2> err > /dev/null
	check "--debug names the built-in stream" grep -q \
	    "^multisum: $1: built-in ([a-z]*, [0-9]* [a-z0-9]* lanes)\$" err
	printf 'abc' > abc
	head -c 1000000 /dev/zero | tr '\0' a > million
	strace -f -e trace=openat -o trace "$MULTISUM" -a "$1" abc million > got
	lacks trace libcrypto "-a $1 opens no libcrypto"
	has_line got "$4  abc" "and gives the published answer"
	has_line got "$5  million" "and its million a's"
	given_back "$1" "$2"
	ln -s "$MULTISUM" "${1}sum"
	strace -f -e trace=openat -o trace "./${1}sum" million > got
	has_line got "$5  million" "the ${1}sum face runs it"
	lacks trace libcrypto "without libcrypto"
}

# SHA-1 (the sha1sum face) on SHA-NI, and MD5 (md5sum) in C, which
# beside its lanes runs wherever AVX2 does.
test_sha1_without_libcrypto() {
	built_in_face sha1 MULTISUM_SHA1_LEVEL sha_ni \
	    a9993e364706816aba3e25717850c26c9cd0d89d \
	    34aa973cd4c4daa4f61eeb2bdbad27316534016f
}

test_md5_without_libcrypto() {
	built_in_face md5 MULTISUM_MD5_LEVEL avx2 \
	    900150983cd24fb0d6963f7d28e17f72 7707d6ae4e027c70eea2a935c2296f21
}

run every_level_matches_the_peers
run four_digests_match_hashlib
run sha256_without_libcrypto
run sha1_without_libcrypto
run md5_without_libcrypto
finish
