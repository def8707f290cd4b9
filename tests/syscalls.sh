#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# syscalls.sh - the system calls multisum makes for each file, as strace
# sees them: a small file found by -r costs open, fstat (the check that
# it is still a regular file, whose size also ends the read), one read,
# a second fstat after it (the file did not change while it was read:
# source.h) and close, and nothing else: no fcntl, no read that returns
# 0.  These are counts, never times.
. "$TESTS_SRCDIR/lib.sh"

# trace OUT ARGS...: strace -f -y of `multisum ARGS...` into OUT.  A
# sanitized build's leak checker cannot run under a tracer: it is off.
trace() {
	out=$1
	shift
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	    strace -f -y -o "$out" -e trace=openat,open,read,pread64,fstat,newfstatat,statx,fcntl,close,mmap,fadvise64 \
	    "$MULTISUM" "$@" > /dev/null
}

# calls LOG CALL PATH: how many times CALL was made on the file at PATH
# (absolute), named by strace -y as the descriptor's target.
calls() {
	awk -v c="$2" -v p="$3" '
		{ sub(/^[0-9]+ +/, "") }
		index($0, c "(") == 1 {
			rest = substr($0, length(c) + 2)
			sub(/^[0-9]+/, "", rest)
			if (index(rest, "<" p ">") == 1)
				n++
		}
		END { print n + 0 }' "$1"
}

# stats LOG PATH: fstat calls of any spelling on the file at PATH.
stats() {
	echo $(($(calls "$1" newfstatat "$2") + $(calls "$1" fstat "$2") +
	    $(calls "$1" statx "$2")))
}

# opens LOG REL: open calls whose path argument is REL.
opens() {
	grep -c "open\(at\)\?(.*\"$2\"" "$1"
}

make_tree() {
	mkdir -p tree/a tree/b
	random_file tree/a/k1 1024
	random_file tree/a/k2 1000
	random_file tree/a/k3 4096
	random_file tree/b/small 7
	random_file tree/b/mid 100000
	: > tree/b/empty
}

test_walked_small_file_costs_five_calls() {
	have strace || skip_test "no strace"
	strace -f -o /dev/null true 2> /dev/null || skip_test "strace cannot trace here"
	make_tree
	for a in sha256 blake3 md5,sha1,sha256,blake3; do
		trace log -r -a "$a" tree || fail "-a $a: the traced run failed"
		for f in a/k1 a/k2 a/k3 b/small b/empty; do
			p=$PWD/tree/$f
			is "$(opens log "tree/$f")" 1 "-a $a: $f opened once"
			is "$(stats log "$p")" 2 "-a $a: $f: an fstat before, one after"
			is "$(calls log read "$p")" 1 "-a $a: $f: one read"
			is "$(calls log fcntl "$p")" 0 "-a $a: $f: no fcntl"
			is "$(calls log close "$p")" 1 "-a $a: $f: closed once"
		done
		# 100 kB: a share of the buffer, then the rest; no hint
		p=$PWD/tree/b/mid
		is "$(calls log read "$p")" 2 "-a $a: b/mid: two reads"
		is "$(calls log fadvise64 "$p")" 0 "-a $a: b/mid: no fadvise"
		is "$(stats log "$p")" 2 "-a $a: b/mid: an fstat before, one after"
	done
	# The whole pattern, once, where a reader can see it.
	grep "tree/a/k1" log | sed 's/^[0-9]* *//; s/, "[^"]*"\.\.\./, .../' | diag -
}

# A mapped run (BLAKE3 alone maps files of 1 MiB and more) decides on the
# size the walk's regular-file check already asked for: no fstat but
# that one and the one after the last byte.
test_mapped_file_costs_two_fstats() {
	have strace || skip_test "no strace"
	strace -f -o /dev/null true 2> /dev/null || skip_test "strace cannot trace here"
	mkdir tree
	random_file tree/big 3000000
	trace log -r -a blake3 tree || fail "the traced run failed"
	p=$PWD/tree/big
	is "$(stats log "$p")" 2 "an fstat before, one after"
	is "$(calls log fcntl "$p")" 0 "no fcntl"
	check "the file was mapped" grep -q "^[0-9]* *mmap(.*<$p>" log
}

run walked_small_file_costs_five_calls
run mapped_file_costs_two_fstats
finish
