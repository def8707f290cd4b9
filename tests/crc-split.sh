#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# crc-split.sh - one file's CRC split over workers (the CRC rows' tree
# ops: parts hashed apart and joined in order) gives the digest of the
# whole file.  A CRC part is 4 MiB or more (backend_crc.c), so: at every
# code path this CPU has (MULTISUM_CRC_LEVEL), both io modes, -j1 (never
# split) and -j2, with read buffers of 4 KiB (too small to split) and of
# an odd 4 MiB + 1 bytes, so that parts start at odd offsets, and mapped
# windows of 4 MiB: against the unsplit run, rhash, coreutils cksum and a
# CRC-64/NVME reference in Python.  Also a CRC beside a sha256 lane, the
# cksum personality against coreutils, and the check values.
. "${TESTS_SRCDIR:-$(dirname "$0")}/lib.sh"

LEVELS="table sse42 pclmul vpclmul"
CRCS="crc32 crc32c cksum crc64nvme"
# Mapped, 9 MiB + 1 has one part and 20 MiB + 9 four; read in buffers of
# 4 MiB + 1 (BUF), 20 MiB + 9 has four parts at odd offsets.
SIZES="16385 102401 3000001 9437185 20971529"
BUF=4194305
SMALL="16385 102401 3000001"	# for the Python reference

# The levels this CPU runs: the others are refused.
runnable() {
	# shellcheck disable=SC2086
	runnable_levels MULTISUM_CRC_LEVEL crc32 $LEVELS
}

make_files() {
	# shellcheck disable=SC2086
	random_files $SIZES
}

# digests ARG...: multisum ARG... on each file alone, so that every file
# gets the workers to itself and is split.
digests() {
	for n in $SIZES; do
		multisum "$@" "f$n" || echo "failed: $* f$n"
	done
}

# want-ALGO: the digests of the files by independent tools.
references() {
	for n in $SIZES; do
		rhash --crc32 -p '%{crc32}  %p\n' "f$n"
	done > want-crc32
	for n in $SIZES; do
		rhash --crc32c -p '%{crc32c}  %p\n' "f$n"
	done > want-crc32c
	for n in $SIZES; do
		cksum "f$n"
	done > want-cksum
	python3 "$TESTS_SRCDIR/crc64nvme-ref.py" $(for n in $SMALL; do echo "f$n"; done) > want-crc64nvme
	# the larger ones by the table code, whole (unit-crc checks it)
	for n in 9437185 20971529; do
		MULTISUM_CRC_LEVEL=table multisum -j1 --io=read -a crc64nvme "f$n"
	done >> want-crc64nvme
}

test_check_values() {
	printf 123456789 > check
	for l in $(runnable); do
		export MULTISUM_CRC_LEVEL=$l
		for j in 1 2; do
			is "$(multisum -j$j -a crc32 check)" "cbf43926  check" \
			    "crc32 at $l -j$j"
			is "$(multisum -j$j -a crc32c check)" "e3069283  check" \
			    "crc32c at $l -j$j"
			is "$(multisum -j$j -a crc64nvme check)" \
			    "ae8b14860a799888  check" "crc64nvme at $l -j$j"
			is "$(multisum -j$j -a cksum check)" "930766865 9 check" \
			    "cksum at $l -j$j"
		done
	done
}

test_split_equals_whole() {
	have rhash || skip_test "rhash absent"
	have cksum || skip_test "cksum absent"
	have python3 || skip_test "python3 absent"
	make_files
	references
	for l in $(runnable); do
		export MULTISUM_CRC_LEVEL=$l
		for a in $CRCS; do
			digests -a $a -j1 --io=read > whole
			same whole "want-$a" "$a at $l: unsplit as the reference"
			for io in read mmap; do
				for j in 1 2; do
					for b in 4K $BUF; do
						digests -a $a -j$j --io=$io \
						    --buffer-size=$b > got
						same got whole \
						    "$a at $l --io=$io -j$j --buffer-size=$b"
					done
				done
			done
			digests -a $a -j2 > got
			same got whole "$a at $l, default io and buffers"
		done
	done
}

# A CRC split into parts beside a sha256 lane, and all four CRCs at once.
test_mixed_selections() {
	have rhash || skip_test "rhash absent"
	make_files
	for n in 9437185 20971529; do
		for io in read mmap; do
			multisum -j2 --io=$io --buffer-size=$BUF -a crc32,sha256 \
			    --tag "f$n" > got
			has_line got "CRC32 (f$n) = $(rhash --crc32 -p '%{crc32}' "f$n")" \
			    "f$n --io=$io: crc32 split beside sha256"
			has_line got "SHA256 (f$n) = $(sha256sum "f$n" | cut -c1-64)" \
			    "f$n --io=$io: the sha256 lane beside it"
			multisum -j1 --io=read -a crc32,crc32c,cksum,crc64nvme \
			    --tag "f$n" > whole
			multisum -j2 --io=$io --buffer-size=$BUF \
			    -a crc32,crc32c,cksum,crc64nvme --tag "f$n" > got
			same got whole "f$n --io=$io: four CRCs split side by side"
		done
	done
	cat f20971529 | multisum -j2 -a crc32c > got
	is "$(cat got)" "$(rhash --crc32c -p '%{crc32c}' f20971529)  -" \
	    "a pipe (size unknown) is not split"
}

# Run as cksum with its default jobs and io: the 9 MiB and 20 MiB files
# are mapped and split on a machine of two cores or more.
test_cksum_personality() {
	have cksum || skip_test "cksum absent"
	make_files
	ln -s "$MULTISUM" cksum
	set -- f102401 f3000001 f9437185 f20971529
	command cksum "$@" > want
	for l in $(runnable); do
		MULTISUM_CRC_LEVEL=$l ./cksum "$@" > got
		same got want "the cksum personality at $l as coreutils"
		for f in "$@"; do
			MULTISUM_CRC_LEVEL=$l ./cksum "$f"
		done > got
		same got want "the cksum personality at $l, one file a run"
	done
}

# Split windows are mapped lazily: each worker faults in its own, so a
# file that shrinks under them faults in a worker, and must be a read
# error there, never a crash.  It races: a truncation before the open or
# after the end is fine too (on this 2-core box 10 ms hit the middle).
test_shrinking_split_file() {
	random_file big 100000000
	for round in 1 2 3 4 5 6; do
		cp big victim
		sync victim 2>/dev/null
		case $round in
		1|2|3) a=crc32c ;;
		*) a=cksum ;;
		esac
		truncated_while_hashed "round $round ($a)" \
		    "0.00$((2 * round - 1))" -j2 -a "$a"
	done
}

run check_values
run split_equals_whole
run mixed_selections
run cksum_personality
run shrinking_split_file
finish
