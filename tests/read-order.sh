#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# read-order.sh - the order files are read in, per device (io/device.c,
# engine/engine_order.c).  A tree made in shuffled name order is opened
# in inode order when its device is taken for a seeking one
# (MULTISUM_DEVICE=seeking), as strace -e trace=openat shows, and in any
# order but that one when the order is switched off
# (MULTISUM_READ_ORDER=walk); the output is in walk order either way,
# byte for byte the same.  --debug says once per device what was chosen
# and why; the probe runs on files out of the page cache, and is skipped
# for files in it.  No times are asserted.
. "$TESTS_SRCDIR/lib.sh"

have strace || skip_test "no strace"
have sha256sum || skip_test "no sha256sum"

# A tree of N files of 1 KiB made in shuffled name order, so that inode
# order and name order differ.
shuffled_tree() {
	mkdir t
	awk -v n="$1" 'BEGIN { srand(7); for (i = 1; i <= n; i++) a[i] = i
		for (i = n; i > 1; i--) { j = int(rand() * i) + 1
			x = a[i]; a[i] = a[j]; a[j] = x }
		for (i = 1; i <= n; i++) print a[i] }' | while read -r i; do
		printf '%01024d' "$i" > "t/f$i"
	done
}

# opened LOG: the files of t/ opened, in the order of the trace.
opened() {
	sed -n 's|.*openat([^"]*"\(t/f[0-9]*\)".*= [0-9].*|\1|p' "$1"
}

# read_by_workers LOG: the files of t/ the worker threads opened (not the
# first thread, which looks for where a file begins), in order.
read_by_workers() {
	awk 'NR == 1 { main = $1 } $1 != main' "$1" > .workers
	opened .workers
}

# by_extent: the files of t/, by where their first extent lies (filefrag).
by_extent() {
	for f in t/*; do
		filefrag -v "$f" 2> /dev/null | awk -v f="$f" '
			$1 == "0:" { sub(/\.\..*/, "", $4); print $4, f; exit }'
	done | sort -n | awk '{ print $2 }'
}

# by_inode: the files of t/, in inode order.
by_inode() {
	ls -i t | sort -n | awk '{ print "t/" $2 }'
}

# in_order GOT WANT WHAT: GOT (files, first open of each) follows WANT's
# order but for at most 3 steps back: the engine holds files for 20 ms
# at most before it sorts them, so a walk slowed by a busy machine is
# sorted in a few batches, each in order.  A tree read in walk order
# steps back about every other file.
in_order() {
	awk 'NR == FNR { rank[$0] = NR; next }
		!($0 in rank) || seen[$0]++ { next }
		{ n++; if (rank[$0] < last) back++; last = rank[$0] }
		END { printf "%d %d\n", n, back }' "$2" "$1" > .steps
	read -r _n _back < .steps
	_all=$(wc -l < "$2" | tr -d ' ')
	check "$3 ($_n of $_all files, $_back steps back)" \
	    [ "$_n" -eq "$_all" -a "$_back" -le 3 ]
}

# ordered ENV...: multisum -j 2 -r t under strace, with the environment
# given; the opens into .opened, the output into .out.
ordered() {
	env "$@" strace -f -qq -e trace=openat -o .trace "$MULTISUM" -j 2 \
	    -a sha256 -r t > .out 2> .err
	opened .trace > .opened
}

test_seeking_reads_in_inode_order() {
	shuffled_tree 200
	by_inode > .want
	check "the tree's inode order is not its name order" \
	    sh -c '! ls t | sed "s|^|t/|" | sort | cmp -s - .want'
	ordered MULTISUM_DEVICE=seeking MULTISUM_READ_ORDER=inode
	in_order .opened .want "a seeking device: opened in inode order"
}

test_seeking_reads_in_physical_order() {
	have filefrag || skip_test "no filefrag (e2fsprogs)"
	built_with HAVE_LINUX_FIEMAP_H || skip_test "built without FIEMAP"
	# inodes in shuffled order, then blocks in reverse name order: each
	# file written and synced in turn, so that its blocks come next
	shuffled_tree 64
	for f in $(ls t | sort -r); do
		cp "t/$f" .tmp
		dd if=.tmp of="t/$f" conv=fsync 2> /dev/null
	done
	sync
	by_extent > .want
	[ "$(wc -l < .want)" -eq 64 ] ||
	    skip_test "this file system has no FIEMAP (filefrag -v)"
	by_inode > .inodes
	if cmp -s .want .inodes; then
		skip_case "this file system laid the blocks out in inode order"
		return
	fi
	ordered MULTISUM_DEVICE=seeking
	read_by_workers .trace > .read
	in_order .read .want "a seeking device: read in the order of first extents"
}

# runs LOG: how many runs of reads of one file after another the trace
# (strace -y) shows: one per file when no two files are read at once.
runs() {
	sed -n 's|.*read[^(]*([0-9]*<[^>]*/\(big[0-9]*\)>.*|\1|p' "$1" | uniq |
	    wc -l | tr -d ' '
}

test_one_reader_for_large_files() {
	# more than a batch (16) of files longer than a buffer
	for i in $(seq 10 29); do
		random_file "big$i" 1500000
	done
	sha256sum big* > want
	MULTISUM_DEVICE=seeking strace -f -y -qq -e trace=read,pread64 \
	    -o .trace "$MULTISUM" -j 2 --io=read -a sha256 big* > got
	same got want "the digests, in operand order"
	is "$(runs .trace)" 20 "a seeking device: each file read whole, alone"
}

test_walk_order_switches_it_off() {
	shuffled_tree 200
	by_inode > .want
	ordered MULTISUM_DEVICE=seeking MULTISUM_READ_ORDER=walk
	check "MULTISUM_READ_ORDER=walk: not inode order" \
	    sh -c '! cmp -s .opened .want'
	ordered MULTISUM_DEVICE=solid
	check "a solid device: not inode order" sh -c '! cmp -s .opened .want'
}

test_output_order_unchanged() {
	shuffled_tree 200
	"$MULTISUM" -j 1 -a sha256 -r t > want
	for env in MULTISUM_DEVICE=seeking MULTISUM_READ_ORDER=inode \
	    MULTISUM_READ_ORDER=physical MULTISUM_READ_ORDER=walk; do
		ordered MULTISUM_DEVICE=seeking "$env"
		same .out want "$env: the lines in walk order"
	done
	# operands given in an order of their own keep it
	ls t | sort -r | sed 's|^|t/|' > names
	# shellcheck disable=SC2046
	"$MULTISUM" -j 1 -a sha256 $(cat names) > want
	# shellcheck disable=SC2046
	MULTISUM_DEVICE=seeking "$MULTISUM" -j 2 -a sha256 $(cat names) > got
	same got want "operands: their own order"
}

test_debug_says_why() {
	shuffled_tree 20
	dev=$(stat -c '%Hd:%Ld' t/f1 2>/dev/null) ||
	    skip_test "no stat -c %Hd (GNU coreutils 8.32)"
	MULTISUM_DEVICE=seeking "$MULTISUM" --debug -j 2 -r t > /dev/null 2> err
	is "$(grep -c "debug: device $dev " err)" 1 "one line for the device"
	check "forced: seeking, one reader, physical order" grep -q \
	    "debug: device $dev .*: MULTISUM_DEVICE=seeking: seeking; read in physical order.*, one reader\$" err
	MULTISUM_DEVICE=solid MULTISUM_READ_ORDER=inode "$MULTISUM" --debug \
	    -j 2 -r t > /dev/null 2> err
	check "forced: solid, inode order, parallel reads" grep -q \
	    "debug: device $dev .*: MULTISUM_DEVICE=solid: solid; read in inode order, parallel reads\$" err
	MULTISUM_READ_ORDER=walk "$MULTISUM" -j 2 -r t > /dev/null 2> err
	lacks err "debug: device" "no --debug, no line"
}

test_probe_cold_not_warm() {
	shuffled_tree 40
	sync
	cat t/* > /dev/null
	"$MULTISUM" --debug -j 2 -r t > /dev/null 2> err
	if grep -q "debug: device .*rotational 0" err; then
		skip_case "this device says it does not rotate: not probed"
		return
	fi
	if grep -q "debug: device .*too few" err; then
		fail "40 files are enough to probe"
		diag - < err
		return
	fi
	if built_with HAVE_MINCORE; then
		check "cached: not probed" grep -q "in the page cache: not probed" err
	else
		skip_case "built without mincore: cached files are probed too"
	fi
	for f in t/*; do
		dd if="$f" iflag=nocache count=0 2> /dev/null ||
		    skip_test "no dd iflag=nocache"
	done
	if have fincore &&
	    [ "$(fincore --bytes --noheadings --output RES t/f1)" -ne 0 ]; then
		skip_case "this file system keeps its pages (tmpfs)"
		return
	fi
	"$MULTISUM" --debug -j 2 -r t > /dev/null 2> err
	check "cold: probed" grep -q "; probe: far reads [0-9.]* ms, near [0-9.]* ms: s" err
}

test_bad_settings() {
	MULTISUM_READ_ORDER=sorted "$MULTISUM" -r . > /dev/null 2> err
	status_is 2 "MULTISUM_READ_ORDER=sorted" \
	    env MULTISUM_READ_ORDER=sorted "$MULTISUM" -r . 2> /dev/null
	check "names the variable" grep -q "MULTISUM_READ_ORDER: 'sorted'" err
	status_is 2 "MULTISUM_DEVICE=ssd" env MULTISUM_DEVICE=ssd "$MULTISUM" \
	    -r . 2> /dev/null
}

# The probe opens only files the run reads: a named file's folder holds
# others, a walked folder of five files has a parent with more; none of
# them is opened.
test_probe_opens_only_what_is_read() {
	mkdir -p up/q
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		printf '%01024d' "$i" > "up/other$i"
	done
	# fewer than the probe's eight: its parent's were opened once
	for i in 1 2 3 4 5; do
		printf '%01024d' "$i" > "up/q/f$i"
	done
	(cd up && strace -f -qq -e trace=open,openat -o ../.named \
	    "$MULTISUM" --debug -j 2 other1 other2 > /dev/null 2> ../err)
	if grep -q "debug: device .*rotational 0" err; then
		skip_case "this device says it does not rotate: not probed"
		return
	fi
	check "named files: the probe ran" grep -q "debug: device" err
	check "named files: no other file opened" \
	    sh -c '! grep -E "other([3-9]|1[0-2])\"" .named'
	grep -E 'other([3-9]|1[0-2])"' .named | head -n 3 | diag -
	(cd up && strace -f -qq -e trace=open,openat -o ../.walked \
	    "$MULTISUM" -j 2 -r q > /dev/null 2> ../err)
	lacks .walked 'other' "a walked folder: its parent's files not opened"
}

# The order costs no stat of its own: where a walked file lies comes
# from its directory's entry (hash mode), or from the stat the mode made
# anyway (--update); only files named as operands are stat'ed for it.
test_order_needs_no_stat() {
	# by name: strace's %stat leaves newfstatat out; "?": not on every
	# architecture
	stats='?stat,?lstat,?newfstatat,?statx,?fstatat64,?stat64,?lstat64'
	shuffled_tree 200
	for run in hash update; do
		set -- -r t
		[ $run = hash ] || set -- -r --update=L t
		MULTISUM_DEVICE=seeking MULTISUM_READ_ORDER=inode strace -f -qq \
		    -e "trace=$stats" -o .trace "$MULTISUM" -j 2 -a sha256 "$@" \
		    > /dev/null 2> err
		n=$(grep -c '"t/f[0-9]*"' .trace)
		is "$n" 0 "$run: no stat of a walked file by its path"
		grep '"t/f[0-9]*"' .trace | head -n 3 | diag -
	done
}

run seeking_reads_in_inode_order
run seeking_reads_in_physical_order
run one_reader_for_large_files
run walk_order_switches_it_off
run output_order_unchanged
run debug_says_why
run probe_cold_not_warm
run probe_opens_only_what_is_read
run bad_settings
run order_needs_no_stat
finish
