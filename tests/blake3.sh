#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# blake3.sh - BLAKE3 (-a blake3) against the real b3sum: sizes around
# every chunk (1 KiB) and SIMD batch boundary at every SIMD level this
# CPU has, both io modes, one and two jobs, one file split over two
# workers, extended output, the keyed and derive_key modes, names that
# need escaping, and -c of b3sum's, RHash's and multisum's own manifests.
. "${TESTS_SRCDIR:-$(dirname "$0")}/lib.sh"

# Around 64-byte blocks, 1 KiB chunks, the 4-, 8- and 16-chunk SIMD
# batches, the 64-chunk batch and one past a mebibyte.
SIZES="0 1 63 64 65 1023 1024 1025 2047 2048 2049 3072 4095 4096 4097
8191 8192 8193 15360 16383 16384 16385 17409 31744 32767 32768 32769
65535 65536 65537 66560 1048577"

make_sizes() {
	for n in $SIZES; do
		random_file "s$n" "$n"
	done
}

LEVELS="portable sse41 avx2 avx512"

# The SIMD levels this CPU runs (multisum refuses the others).
levels() {
	# shellcheck disable=SC2086
	runnable_levels MULTISUM_BLAKE3_LEVEL blake3 $LEVELS
}

test_sizes_match_b3sum() {
	have b3sum || skip_test "no b3sum"
	make_sizes
	set -- $(for n in $SIZES; do echo "s$n"; done)
	b3sum "$@" > want
	for l in $(levels); do
		for io in read mmap; do
			for j in 1 2; do
				MULTISUM_BLAKE3_LEVEL=$l multisum -a blake3 --io=$io \
				    -j$j "$@" > got
				same got want "$l --io=$io -j$j: every size as b3sum"
			done
		done
	done
	multisum -a blake3 < s65537 > got
	b3sum < s65537 > want
	same got want "standard input as b3sum"
}

# One file over several workers: with 4 KiB buffers a file from 16 KiB up
# is hashed in parts on both workers and joined in order; its last chunk,
# odd-sized ends and a second digest beside it take the ordinary path.
test_engine_splits() {
	have b3sum || skip_test "no b3sum"
	for n in 16385 102400 102401 1048576 1048577 3000000; do
		random_file "f$n" "$n"
	done
	printf 'whats the Elvish word for friend' > key
	b3sum f* > want
	b3sum --keyed f* < key > want.keyed
	for io in read mmap; do
		multisum -j2 --io=$io --buffer-size=4K -a blake3 f* > got
		same got want "--io=$io -j2 4K buffers: split digests as b3sum"
		multisum -j2 --io=$io --buffer-size=4K -a blake3 --key-file=key f* > got
		same got want.keyed "--io=$io keyed, split"
	done
	multisum -j2 --buffer-size=4K -a blake3,sha256 --tag f1048577 > got
	has_line got "BLAKE3 (f1048577) = $(b3sum --no-names f1048577)" \
	    "blake3 split beside a sha256 lane"
	has_line got "SHA256 (f1048577) = $(sha256sum f1048577 | cut -c1-64)" \
	    "the sha256 lane beside it"
	multisum -j2 --buffer-size=64K -a blake3 -l 1048 f3000000 > got
	b3sum -l 131 f3000000 > want
	same got want "split with extended output"
	cat f102401 | multisum -j2 --buffer-size=4K -a blake3 > got
	b3sum < f102401 > want
	same got want "a pipe (size unknown) is not split"
}

# Every level ran: the test must not pass on the portable code alone
# where the CPU has more (and the build has it: see levels' skips).
test_levels_follow_cpu() {
	l=$(levels | tr '\n' ' ')
	# shellcheck disable=SC2086
	built=$(built_levels MULTISUM_BLAKE3_LEVEL blake3 $LEVELS)
	for x in sse4_1:sse41 avx512f:avx512; do
		grep -q " ${x%:*} " /proc/cpuinfo 2>/dev/null || continue
		case " $l " in
		*" ${x#*:} "*) pass ;;
		*) case $built in *"${x#*:}"*)
			fail "the CPU has ${x%:*}, levels: $l" ;; esac ;;
		esac
	done
	case $l in portable*) pass ;; *) fail "no portable level: $l" ;; esac
	multisum -a blake3 --debug /dev/null 2> err > /dev/null
	has_line err "multisum: blake3: built-in ($(levels | tail -n 1))" \
	    "--debug names the widest level"
	MULTISUM_BLAKE3_LEVEL=portable multisum --list-algorithms > out
	check "--list-algorithms names a forced level" \
	    grep -q '^blake3 .* built-in/portable ' out
}

test_simd_variable_refused() {
	status_is 2 "unknown level" env MULTISUM_BLAKE3_LEVEL=avx9 \
	    "$MULTISUM" -a blake3 /dev/null 2> err > out
	# shellcheck disable=SC2086
	has_line err "multisum: MULTISUM_BLAKE3_LEVEL=avx9: not one of $(built_levels MULTISUM_BLAKE3_LEVEL blake3 $LEVELS)" \
	    "unknown level: one line naming the variable and the levels"
	is "$(size_of out)" 0 "nothing hashed with a refused level"
	status_is 0 "other algorithms do not care" env MULTISUM_BLAKE3_LEVEL=avx9 \
	    "$MULTISUM" -a sha256 /dev/null > /dev/null
	# auto, for all three variables, is the choice without them.
	for v in MULTISUM_BLAKE3_LEVEL MULTISUM_CRC_LEVEL MULTISUM_WHIRLPOOL_LEVEL; do
		multisum --list-algorithms > want
		env "$v=auto" "$MULTISUM" --list-algorithms > out 2> err
		check "$v=auto chooses as no variable does" cmp -s want out
		env "$v=auto" "$MULTISUM" -a blake3,crc32,whirlpool /dev/null \
		    > out 2> err
		is "$?" 0 "$v=auto hashes"
	done
}

# FAMILY: variable, algorithm, its portable level, its AVX-512 one and
# the /proc/cpuinfo flags that one needs.
FAMILIES="MULTISUM_BLAKE3_LEVEL:blake3:portable:avx512:avx2,avx512f,avx512vl
MULTISUM_CRC_LEVEL:crc32c:table:vpclmul:pclmulqdq,avx512f,avx512vl,avx512bw,vpclmulqdq
MULTISUM_WHIRLPOOL_LEVEL:whirlpool:portable:avx512:avx512f,avx512bw,avx512vbmi,gfni"

# The levels are those configure built: each AVX-512 one where config.h
# says MS_AVX512 1, and it runs where /proc/cpuinfo lists what it needs;
# with 0 (configure --disable-avx512) each is refused as not in this
# build.
test_levels_of_the_build() {
	config=${MS_HELPERS:-.}/../config.h
	[ -r "$config" ] || skip_test "config.h not found at $config"
	[ "$(sed -n 's/^#define MS_SIMD_X86_64 //p' "$config")" = 1 ] ||
	    skip_test "this host builds no SIMD kernel"
	avx512=$(sed -n 's/^#define MS_AVX512 //p' "$config")
	for f in $FAMILIES; do
		# shellcheck disable=SC2046
		set -- $(echo "$f" | tr : ' ')
		why=$(env "$1=$4" "$MULTISUM" -a "$2" /dev/null 2>&1 > /dev/null)
		st=$?
		has=true
		for flag in $(echo "$5" | tr , ' '); do
			grep -q "^flags.* $flag\( \|\$\)" /proc/cpuinfo 2>/dev/null ||
			    has=false
		done
		if [ "$avx512" = 1 ] && $has; then
			is "$st $why" "0 " "$1=$4 runs where the CPU has $5"
		elif [ "$avx512" = 1 ]; then
			case $why in
			*"not in this build"*) fail "$1=$4 was built: $why" ;;
			*) pass ;;
			esac
		else
			is "$why" "multisum: $1=$4: not in this build (configure --disable-avx512)" \
			    "$1=$4 left out"
		fi
	done
}

# The variables' old names (MULTISUM_BLAKE3_SIMD, MULTISUM_CRC_IMPL,
# MULTISUM_WHIRLPOOL_IMPL) still work for this release; the new name wins.
test_old_variable_names() {
	for f in $FAMILIES; do
		# shellcheck disable=SC2046
		set -- $(echo "$f" | tr : ' ')
		case $1 in
		*BLAKE3*) old=MULTISUM_BLAKE3_SIMD ;;
		*) old=${1%_LEVEL}_IMPL ;;
		esac
		env "$old=$3" "$MULTISUM" --debug -a "$2" /dev/null 2> err > /dev/null
		has_line err "multisum: $2: built-in ($3)" "$old=$3 forces $3"
		env "$old=bogus" "$1=$3" "$MULTISUM" --debug -a "$2" /dev/null \
		    2> err > /dev/null
		has_line err "multisum: $2: built-in ($3)" \
		    "$1 wins over $old"
		status_is 2 "$old=bogus alone is refused" \
		    env "$old=bogus" "$MULTISUM" -a "$2" /dev/null 2> err > /dev/null
		check "the refusal names $old" grep -q "^multisum: $old=bogus: not one of " err
	done
}

test_extended_output() {
	have b3sum || skip_test "no b3sum"
	random_file f 5000
	for bits in 8 128 256 264 512 1048 2048 4096; do
		multisum -a blake3 -l $bits --no-progress f > got
		b3sum -l $((bits / 8)) f > want
		same got want "-l $bits as b3sum -l $((bits / 8))"
	done
	multisum --tag -a blake3 -l 512 f > got
	check "-l 512 tag" grep -q '^BLAKE3-512 (f) = ' got
	usage_error "-l 4104" -a blake3 -l 4104 f
	usage_error "-l 12" -a blake3 -l 12 f
}

test_keyed_and_derive() {
	have b3sum || skip_test "no b3sum"
	make_sizes
	printf 'whats the Elvish word for friend' > key
	set -- s0 s1 s1025 s16385 s65537
	b3sum --keyed "$@" < key > want
	multisum -a blake3 --key-file=key "$@" > got
	same got want "--key-file as b3sum --keyed"
	multisum -a blake3 --keyed "$@" < key > got
	same got want "--keyed (key on stdin) as b3sum --keyed"
	b3sum --derive-key "multisum test 2026" "$@" > want
	multisum -a blake3 --derive-key="multisum test 2026" "$@" > got
	same got want "--derive-key as b3sum --derive-key"
	printf short > short
	status_is 1 "a 5-byte key (a bad input, not usage)" "$MULTISUM" -a blake3 --key-file=short s1 \
	    > out 2> err
	has_line err "multisum: short: a BLAKE3 key is exactly 32 bytes" \
	    "short key named"
	cat key key > long
	status_is 1 "a 64-byte key" "$MULTISUM" -a blake3 --key-file=long s1 \
	    > /dev/null 2>&1
	status_is 3 "a missing key file: as a missing input" "$MULTISUM" \
	    -a blake3 --key-file=nokey s1 > /dev/null 2> err
	has_line err "multisum: nokey: No such file or directory" \
	    "missing key file named with its reason"
	usage_error "--key-file without blake3" -a sha256 --key-file=key s1
	usage_error "two modes" -a blake3 --key-file=key --derive-key=x s1
	usage_error "--keyed with standard input as input" -a blake3 --keyed s1 -
}

test_escaped_names() {
	have b3sum || skip_test "no b3sum"
	printf a > 'back\slash'
	printf b > "$(printf 'new\nline')"
	printf c > 'sp ace'
	b3sum 'back\slash' "$(printf 'new\nline')" 'sp ace' > want
	multisum -a blake3 'back\slash' "$(printf 'new\nline')" 'sp ace' > got
	same got want "escaped names as b3sum"
	# untagged 64-hex lines are SHA-256 unless -a or the name says BLAKE3
	status_is 0 "-c reads its own escaped lines" "$MULTISUM" -c -a blake3 want > out
	has_line out '\new\nline: OK' "escaped name verified (with coreutils' leading backslash)"
}

# BLAKE3 needs no library: a blake3 run (and b3sum) never maps libcrypto.
test_no_libcrypto() {
	have strace || skip_test "no strace"
	readelf -d "$MULTISUM" 2>/dev/null | grep -q 'NEEDED.*libcrypto' &&
		skip_test "libcrypto is linked (configure --disable-lazy-loading)"
	strace -f -e trace=openat -o trace "$MULTISUM" -a blake3 /dev/null > /dev/null
	check "strace ran" test -s trace
	lacks trace libcrypto "-a blake3 opens no libcrypto"
	ln -s "$MULTISUM" b3sum
	strace -f -e trace=openat -o trace2 ./b3sum /dev/null > /dev/null
	lacks trace2 libcrypto "b3sum opens no libcrypto"
	strace -f -e trace=openat -o trace3 "$MULTISUM" -a sha512 /dev/null > /dev/null
	check "the probe sees libcrypto when it is used" grep -q libcrypto trace3
}

test_check_manifests() {
	have b3sum || skip_test "no b3sum"
	random_file a 3000
	random_file b 70000
	b3sum a b > B3SUMS
	cp B3SUMS x.b3
	cp B3SUMS x.blake3
	cp B3SUMS plain
	for m in B3SUMS x.b3 x.blake3; do
		status_is 0 "b3sum manifest $m" "$MULTISUM" -c $m > out
		has_line out "b: OK" "$m: b verified"
	done
	# a name that says nothing: SHA-256 by length, then BLAKE3, no weaker,
	# stands in for it, and says so
	status_is 0 "b3sum manifest plain: BLAKE3 stands in for SHA-256" \
	    "$MULTISUM" -c plain > out 2> err
	has_line out "b: OK" "plain: b verified by its stand-in"
	has_line err "multisum: plain: untagged digests are blake3, not sha256 as taken by its length" \
	    "plain: the stand-in is said"
	status_is 0 "b3sum manifest plain with -a blake3" \
	    "$MULTISUM" -c -a blake3 plain > out
	has_line out "b: OK" "plain: b verified"
	sed 's/^\([0-9a-f]*\)  \(.*\)$/BLAKE3 (\2) = \1/' B3SUMS > rhash.txt
	status_is 0 "RHash BLAKE3 tags" "$MULTISUM" -c rhash.txt > out
	has_line out "a: OK" "RHash line verified"
	multisum --tag -a blake3,sha256 a b > own
	status_is 0 "multisum's own tags" "$MULTISUM" -c own > out
	b3sum -l 64 a b > plain512
	status_is 0 "untagged b3sum -l 64 lines" "$MULTISUM" -c -a blake3-512 plain512 > out
	multisum --tag -a blake3 -l 512 a > tag512
	status_is 0 "BLAKE3-512 tags" "$MULTISUM" -c tag512 > out
	printf 'whats the Elvish word for friend' > key
	b3sum --keyed a b < key > K.b3
	status_is 0 "keyed manifest with --key-file" "$MULTISUM" -c \
	    --key-file=key K.b3 > out
	status_is 1 "keyed manifest without the key" "$MULTISUM" -c K.b3 \
	    > out 2> /dev/null
	has_line out "a: FAILED" "unkeyed check fails"
	printf x >> b
	status_is 1 "tampered file" "$MULTISUM" -c B3SUMS > out 2> /dev/null
	has_line out "b: FAILED" "tampered file FAILED"
	has_line out "a: OK" "the other file still OK"
}

run sizes_match_b3sum
run levels_follow_cpu
run engine_splits
run simd_variable_refused
run levels_of_the_build
run old_variable_names
run extended_output
run keyed_and_derive
run escaped_names
run check_manifests
run no_libcrypto
finish
