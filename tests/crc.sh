#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# crc.sh - the CRCs through the command line at every code path this
# machine has (MULTISUM_CRC_LEVEL), against rhash, coreutils cksum and a
# CRC-64/NVME reference in Python; what --debug, --list-algorithms and
# the cksum personality's --debug say about the code that runs; and the
# refusal of a level that does not exist.

. "$TESTS_SRCDIR/lib.sh"

LEVELS="table sse42 pclmul vpclmul"
SIZES="0 1 15 16 63 64 65 255 256 257 4097 65536 1048579"

# The levels this CPU runs: the others are refused.
runnable() {
	# shellcheck disable=SC2086
	runnable_levels MULTISUM_CRC_LEVEL crc32 $LEVELS
}

make_files() {
	# shellcheck disable=SC2086
	random_files $SIZES
}

test_check_values() {
	printf 123456789 > check
	for l in $(runnable); do
		export MULTISUM_CRC_LEVEL=$l
		is "$(multisum -a crc32 < check)" "cbf43926  -" "crc32 at $l"
		is "$(multisum -a crc32c < check)" "e3069283  -" "crc32c at $l"
		is "$(multisum -a crc64nvme < check)" "ae8b14860a799888  -" \
		    "crc64nvme at $l"
		is "$(multisum -a cksum < check)" "930766865 9" "cksum at $l"
	done
}

test_rhash() {
	have rhash || skip_test "rhash absent"
	make_files
	for f in f*; do
		rhash --crc32 --crc32c -p '%{crc32} %{crc32c}\n' "$f"
	done > want
	for l in $(runnable); do
		for f in f*; do
			MULTISUM_CRC_LEVEL=$l multisum -a crc32,crc32c --tag "$f" |
			    sed 's/.* = //' | paste -d ' ' - -
		done > "got-$l"
		same "got-$l" want "crc32 and crc32c at $l match rhash"
	done
}

test_coreutils_cksum() {
	have cksum || skip_test "cksum absent"
	make_files
	cksum f* > want
	for l in $(runnable); do
		MULTISUM_CRC_LEVEL=$l multisum -a cksum f* > "got-$l"
		same "got-$l" want "cksum at $l matches coreutils"
	done
}

test_crc64nvme_python() {
	have python3 || skip_test "python3 absent"
	make_files
	python3 "$TESTS_SRCDIR/crc64nvme-ref.py" f* > want
	for l in $(runnable); do
		MULTISUM_CRC_LEVEL=$l multisum -a crc64nvme f* > "got-$l"
		same "got-$l" want "crc64nvme at $l matches the Python reference"
	done
}

test_debug_names_level() {
	for l in $(runnable); do
		MULTISUM_CRC_LEVEL=$l multisum --debug -a crc32c,crc32 /dev/null \
		    > out 2> err
		case $l in
		sse42) want32=table ;;
		*) want32=$l ;;
		esac
		has_line err "multisum: crc32c: built-in ($l)" "--debug crc32c at $l"
		has_line err "multisum: crc32: built-in ($want32)" \
		    "--debug crc32 at $l"
		MULTISUM_CRC_LEVEL=$l multisum --list-algorithms > list
		check "--list-algorithms crc64nvme at $l" \
		    grep -q "^crc64nvme .* built-in/$want32 " list
	done
}

test_cksum_personality_debug() {
	ln -s "$MULTISUM" cksum
	echo data > a
	for l in $(runnable); do
		MULTISUM_CRC_LEVEL=$l ./cksum --debug a > out 2> err
		# coreutils 9.11's trials, each up to the one it uses, named
		# as called, as coreutils' error() does: ./cksum
		case $l in
		vpclmul) want="using avx512 hardware support" ;;
		pclmul) want="avx512 support not detected
avx2 support not detected
using pclmul hardware support" ;;
		*) want="avx512 support not detected
avx2 support not detected
pclmul support not detected" ;;
		esac
		is "$(cat err)" "$(printf '%s\n' "$want" | sed 's|^|./cksum: |')" \
		    "cksum --debug at $l"
		MULTISUM_CRC_LEVEL=$l ./cksum -a crc32b --debug a a > out 2> err
		case $l in
		pclmul|vpclmul) want="using pclmul hardware support" ;;
		*) want="pclmul support not detected" ;;
		esac
		is "$(cat err)" "./cksum: $want
./cksum: $want" "cksum -a crc32b --debug at $l, once per file"
	done
}

test_bad_level() {
	echo data > a
	MULTISUM_CRC_LEVEL=bogus multisum -a crc32 a > out 2> err
	is "$?" 2 "an unknown level is refused"
	# shellcheck disable=SC2086
	has_line err "multisum: MULTISUM_CRC_LEVEL=bogus: not one of $(built_levels MULTISUM_CRC_LEVEL crc32 $LEVELS)" \
	    "and says why"
	is "$(cat out)" "" "and prints no digest"
	# a level the CPU lacks is refused the same way
	for l in $LEVELS; do
		case " $(runnable | tr '\n' ' ') " in
		*" $l "*) ;;
		*) status_is 2 "$l refused on this CPU" \
		    env MULTISUM_CRC_LEVEL=$l "$MULTISUM" -a crc32 a ;;
		esac
	done
	# other algorithms do not care
	MULTISUM_CRC_LEVEL=bogus multisum -a md5 a > out
	is "$?" 0 "md5 ignores MULTISUM_CRC_LEVEL"
}

run check_values
run rhash
run coreutils_cksum
run crc64nvme_python
run debug_names_level
run cksum_personality_debug
run bad_level
finish
