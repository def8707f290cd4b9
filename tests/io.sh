#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# io.sh - the reading and threading paths agree: whatever -j, --io and
# --buffer-size, the output is the same, on a tree of thousands of small
# files and several multi-MiB ones, and on pipes longer than the buffer.
. "$TESTS_SRCDIR/lib.sh"

# Several digests, so that a big file's per-digest lanes run side by side.
algos=sha256,md5,blake2b,crc32,xxh3,sha3-256

# A tree of more small files than the engine's window of outstanding
# tasks (4096), of assorted sizes, and big files at and around the mmap
# threshold (1 MiB) and window (4 MiB).
make_tree() {
	mkdir -p tree/ones tree/small tree/pages tree/mid tree/empty tree/big
	random_file seed 2000000
	(cd tree/ones && head -c 1200 ../../seed | split -a 4 -b 1 - o)
	(cd tree/small && head -c 128000 ../../seed | split -a 4 -b 64 - s)
	(cd tree/pages && head -c 2000000 ../../seed | split -a 4 -b 4097 - p)
	(cd tree/mid && head -c 1500000 ../../seed | split -a 4 -b 997 - m)
	(cd tree/empty && touch e0 e1 e2 e3 e4 e5 e6 e7 e8 e9)
	random_file tree/big/exactly-1MiB 1048576
	random_file tree/big/exactly-4MiB 4194304
	random_file tree/big/3MiB 3145728
	random_file tree/big/9MiB+3 9437187
	rm seed
}

test_tree_is_hashed_alike_every_way() {
	make_tree
	count=$(find tree -type f | wc -l)
	[ "$count" -gt 4096 ] || fail "the tree has only $count files"
	multisum -r -j1 --io=read -a "$algos" tree > want
	is "$(wc -l < want | tr -d ' ')" $((count * 6)) "one line per file and digest"
	if have sha256sum; then
		multisum -r -j2 tree | sort > got
		find tree -type f -exec sha256sum {} + | sort > ref
		same got ref "the SHA-256 of every file is sha256sum's"
	else
		skip_case "sha256sum absent"
	fi
	for j in 1 2 8; do
		for io in auto mmap read; do
			multisum -r -j$j --io=$io -a "$algos" tree > got
			same got want "-j$j --io=$io"
		done
	done
	for size in 4K 5000 64K 1M; do
		for j in 1 2 8; do
			multisum -r -j$j --io=read --buffer-size=$size -a "$algos" tree > got
			same got want "-j$j --io=read --buffer-size=$size"
		done
	done
}

# One big file at a time, with one digest and with several: the engine
# promotes it and runs one lane per digest over the shared ring.
test_one_big_file() {
	random_file big 9437187
	for a in sha256 "$algos" blake2bp,blake2sp,sha512; do
		multisum -j1 --io=read -a "$a" big > want
		for j in 2 3 8; do
			for io in mmap read; do
				multisum -j$j --io=$io --buffer-size=64K -a "$a" big > got
				same got want "-j$j --io=$io -a $a"
			done
		done
	done
}

# Files that end exactly at, or one byte around, a buffer or a window: the
# last read returns nothing, or a single byte.
test_sizes_at_buffer_edges() {
	for s in 4095 4096 4097 8192 262143 262144 262145 524288 1048576 4198400 4194305; do
		random_file "f$s" "$s"
	done
	multisum -j1 --io=read -a "$algos" f* > want
	if have sha256sum; then
		multisum -j1 f* > got
		sha256sum f* > ref
		same got ref "sha256sum agrees"
	else
		skip_case "sha256sum absent"
	fi
	for j in 1 2 8; do
		for io in mmap read; do
			for size in 4K 256K; do
				multisum -j$j --io=$io --buffer-size=$size -a "$algos" f* > got
				same got want "-j$j --io=$io --buffer-size=$size"
			done
		done
	done
}

# Standard input and pipes are read, never mapped, in many buffers.
test_pipes_longer_than_the_buffer() {
	random_file big 5000000
	multisum -j1 -a "$algos" big | sed 's/(big)/(-)/' > want
	for j in 1 2 8; do
		for size in 4K 5000 256K; do
			cat big | multisum -j$j --buffer-size=$size -a "$algos" > got
			same got want "a pipe, -j$j --buffer-size=$size"
		done
		multisum -j$j --io=mmap --buffer-size=4K -a "$algos" < big > got
		same got want "standard input from a file, -j$j --io=mmap"
	done
	# a pipe among files, and the same pipe named -
	multisum -j2 -a "$algos" big big > want2
	cat big | multisum -j2 -a "$algos" big - | sed 's/(-)/(big)/' > got
	same got want2 "a pipe among files, -j2"
}

run tree_is_hashed_alike_every_way
run one_big_file
run sizes_at_buffer_edges
run pipes_longer_than_the_buffer
finish
