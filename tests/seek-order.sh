#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# seek-order.sh - reading a tree in the order a seeking disk likes.  A
# tree of files written in a shuffled name order (so that the walk's
# order is not the inodes') is served through tests/seekfs, a FUSE disk
# that lays the files out in inode order and charges every read a head's
# seek from the previous one; multisum -r reads it with the device-aware
# order (by default, and with MULTISUM_DEVICE=seeking) and with it off
# (MULTISUM_READ_ORDER=walk, two readers and one).  What is compared is
# the cost seekfs computed for the reads, never seconds: the device-aware
# order must cost at most half of the walk's with two threads and no more
# than one sequential reader's, and every run's digests are the ones read
# without seekfs.
. "${TESTS_SRCDIR:-$(dirname "$0")}/lib.sh"

seekfs=${MS_HELPERS:-}/seekfs
back=$ms_tmp/back
mnt=$ms_tmp/mnt
stats=$ms_tmp/seekfs.stats
nfiles=97
# The runs set the order themselves; the default run is the default.
unset MULTISUM_READ_ORDER MULTISUM_DEVICE

# seek_why: why the disk cannot be served here ("" if it can).
seek_why=
if [ ! -x "$seekfs" ]; then
	seek_why="no tests/seekfs (built only where configure found libfuse3: libfuse3-dev)"
elif [ ! -c /dev/fuse ]; then
	seek_why="no /dev/fuse"
elif ! have fusermount3; then
	seek_why="no fusermount3 (Debian: fuse3)"
fi

# The tree: file k of 0..96 written k-th, named by a shuffle of k, each
# a whole number of 4 KiB blocks (4 to 64 KiB).
make_tree() {
	mkdir -p "$back" "$mnt"
	_k=0
	while [ "$_k" -lt "$nfiles" ]; do
		random_file "$back/$(printf 'f%03d' $((_k * 37 % nfiles)))" \
		    $(((_k * 13 % 16 + 1) * 4096))
		_k=$((_k + 1))
	done
}

# Unmount however the file ends, and stop the helper.
unmount_seekfs() {
	fusermount3 -u "$mnt" 2>/dev/null || fusermount3 -uz "$mnt" 2>/dev/null
	[ -z "${seek_pid:-}" ] || { kill "$seek_pid" 2>/dev/null; wait "$seek_pid"; }
}

if [ -z "$seek_why" ]; then
	make_tree
	"$seekfs" "$back" "$mnt" "$stats" > "$ms_tmp/seekfs.log" 2>&1 &
	seek_pid=$!
	at_exit unmount_seekfs
	if ! wait_until 30 grep -qs '^cost_us ' "$stats"; then
		seek_why="seekfs did not mount: $(tail -n 1 "$ms_tmp/seekfs.log")"
	fi
fi

need_seekfs() {
	[ -z "$seek_why" ] || skip_test "$seek_why"
}

# cost: the simulated cost in microseconds of every read since the mount.
cost() {
	sed -n 's/^cost_us //p' "$stats"
}

# measure NAME CMD...: CMD run in the mount, its output in NAME.out (the
# lines sorted: the order of reading is the subject here, not the order
# of the output) and the cost of its reads in NAME.cost.
measure() {
	_name=$1
	shift
	_before=$(cost)
	(cd "$mnt" && "$@") > "$_name.raw" 2> "$_name.err"
	_st=$?
	echo $(($(cost) - _before)) > "$_name.cost"
	sort "$_name.raw" > "$_name.out"
	[ "$_st" -eq 0 ] || { fail "$_name: exit status $_st"; diag - < "$_name.err"; }
}

# What multisum chose for the disk, as --debug says it, after a failure.
say_choice() {
	[ "$ms_fails" -eq 0 ] && return 0
	(cd "$mnt" && "$MULTISUM" --debug -r .) 2>&1 >/dev/null |
	    grep -i 'device' | head -n 3 | diag -
}

# The rig itself: the same files cost far more in name order than in
# inode order, so a reader's order shows in the costs.
test_seekfs_charges_seeks() {
	need_seekfs
	# shellcheck disable=SC2012
	ls -i "$back" | sort -n | awk '{ print $2 }' > by-inode
	ls "$back" > by-name
	check_not "the shuffle changed the order" cmp -s by-inode by-name
	for order in by-inode by-name; do
		_list=$PWD/$order _before=$(cost)
		(cd "$mnt" && xargs cat < "$_list") > /dev/null
		echo $(($(cost) - _before)) > "$order.cost"
	done
	inode=$(cat by-inode.cost) name=$(cat by-name.cost)
	diag "cat: inode order $inode us, name order $name us"
	check "name order costs 3x inode order (inode $inode us, name $name us)" \
	    test "$((inode * 3))" -le "$name"
}

# Every run through seekfs gives the digests read directly.
test_digests_agree() {
	need_seekfs
	(cd "$back" && "$MULTISUM" -r .) | sort > direct.out
	measure default "$MULTISUM" -r .
	measure seeking env MULTISUM_DEVICE=seeking "$MULTISUM" -r .
	measure walk2 env MULTISUM_READ_ORDER=walk "$MULTISUM" -j2 -r .
	for run in default seeking walk2; do
		same "$run.out" direct.out "$run: the digests read directly"
	done
	is "$(wc -l < direct.out | tr -d ' ')" "$nfiles" "one line per file"
}

# The device-aware order, found or forced, costs at most half of the
# walk's order with two threads.
test_beats_walk_order() {
	need_seekfs
	measure walk2 env MULTISUM_READ_ORDER=walk "$MULTISUM" -j2 -r .
	measure default "$MULTISUM" -r .
	measure seeking env MULTISUM_DEVICE=seeking "$MULTISUM" -r .
	walk2=$(cat walk2.cost)
	for run in default seeking; do
		c=$(cat "$run.cost")
		diag "$run: $c us, walk order -j2: $walk2 us"
		check "$run ($c us) costs at most half of walk order -j2 ($walk2 us)" \
		    test "$((c * 2))" -le "$walk2"
	done
	say_choice
}

# Never worse than one sequential reader: the walk's order with -j1, and
# multisum -j1 as it chooses (a tenth over it at most: the probe's reads).
test_not_worse_than_one_reader() {
	need_seekfs
	measure walk1 env MULTISUM_READ_ORDER=walk "$MULTISUM" -j1 -r .
	measure one "$MULTISUM" -j1 -r .
	measure default "$MULTISUM" -r .
	walk1=$(cat walk1.cost) one=$(cat one.cost) c=$(cat default.cost)
	diag "default: $c us, -j1: $one us, walk order -j1: $walk1 us"
	check "default ($c us) costs no more than walk order -j1 ($walk1 us)" \
	    test "$c" -le "$walk1"
	check "default ($c us) costs at most 1.1x -j1 ($one us)" \
	    test "$((c * 10))" -le "$((one * 11))"
	say_choice
}

run seekfs_charges_seeks
run digests_agree
run beats_walk_order
run not_worse_than_one_reader
finish
