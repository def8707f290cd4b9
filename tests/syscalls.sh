#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# syscalls.sh - the system calls multisum makes for each file, as strace
# sees them.  A small file found by -r on a local file system, unchanged
# for a while, costs open, one pread, one fstat after it (the check that
# it is a regular file, that its size ends the read, and, by its status
# change time, that it did not change since before the open: source.c's
# late watch) and close; one large enough to map (BLAKE3 or a CRC alone)
# is mapped after that probe.  A file changed lately costs open, fstat,
# read, a second fstat after the read (the file did not change while it
# was read: source.h) and close.
# Nothing else: no fcntl, no read that returns 0.  These are counts,
# never times.
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

# reads LOG PATH: read and pread calls on the file at PATH.
reads() {
	echo $(($(calls "$1" read "$2") + $(calls "$1" pread64 "$2")))
}

# A tree just written: its files changed lately, so each is fstat'ed
# before its read and after.  -j 1 for an exact count: the first file
# of a thread is read late, seen changed lately and read again; the
# thread's next files are watched first.
test_fresh_small_file_costs_five_calls() {
	built_with HAVE_FSTATFS ||
	    skip_test "built without fstatfs: no late watch (io/source_late.c)"
	have strace || skip_test "no strace"
	strace -f -o /dev/null true 2> /dev/null || skip_test "strace cannot trace here"
	make_tree
	for a in sha256 blake3 md5,sha1,sha256,blake3; do
		# changed just now, however slow the runs before (a sanitized
		# build under strace): a status change time of now
		touch tree/a/* tree/b/*
		trace log -j1 -r -a "$a" tree || fail "-a $a: the traced run failed"
		for f in a/k1 a/k2 a/k3 b/small b/empty; do
			p=$PWD/tree/$f
			is "$(opens log "tree/$f")" 1 "-a $a: $f opened once"
			is "$(stats log "$p")" 2 "-a $a: $f: an fstat before, one after"
			n=1
			[ "$f" = a/k1 ] && n=2
			is "$(reads log "$p")" "$n" "-a $a: $f: $n read(s)"
			is "$(calls log fcntl "$p")" 0 "-a $a: $f: no fcntl"
			is "$(calls log close "$p")" 1 "-a $a: $f: closed once"
		done
		# 100 kB: a share of the buffer, then the rest; no hint
		p=$PWD/tree/b/mid
		is "$(reads log "$p")" 2 "-a $a: b/mid: two reads"
		is "$(calls log fadvise64 "$p")" 0 "-a $a: b/mid: no fadvise"
		is "$(stats log "$p")" 2 "-a $a: b/mid: an fstat before, one after"
	done
	# The whole pattern, once, where a reader can see it.
	grep "tree/a/k2" log | sed 's/^[0-9]* *//; s/, "[^"]*"\.\.\./, .../' | diag -
}

# The same tree once its files are older than the late watch's margin
# (two seconds): one pread and one fstat each, with every worker.
test_settled_small_file_costs_four_calls() {
	built_with HAVE_FSTATFS ||
	    skip_test "built without fstatfs: no late watch (io/source_late.c)"
	have strace || skip_test "no strace"
	strace -f -o /dev/null true 2> /dev/null || skip_test "strace cannot trace here"
	case $(stat -f -c %T . 2> /dev/null) in
	ext2/ext3|xfs|btrfs|tmpfs|ramfs|f2fs|zfs|bcachefs|overlayfs) ;;
	*) skip_test "not a local file system the late watch knows" ;;
	esac
	make_tree
	random_file tree/b/big 3000000
	sleep 3
	for a in sha256 blake3 md5,sha1,sha256,blake3; do
		trace log -r -a "$a" tree || fail "-a $a: the traced run failed"
		for f in a/k1 a/k2 a/k3 b/small b/empty; do
			p=$PWD/tree/$f
			is "$(opens log "tree/$f")" 1 "-a $a: $f opened once"
			is "$(stats log "$p")" 1 "-a $a: $f: one fstat, after"
			is "$(calls log pread64 "$p")" 1 "-a $a: $f: one pread"
			is "$(calls log read "$p")" 0 "-a $a: $f: no read"
			is "$(calls log fcntl "$p")" 0 "-a $a: $f: no fcntl"
			is "$(calls log close "$p")" 1 "-a $a: $f: closed once"
		done
		# past the first read, the end is checked by a second fstat
		p=$PWD/tree/b/mid
		is "$(calls log pread64 "$p")" 2 "-a $a: b/mid: two preads"
		is "$(stats log "$p")" 2 "-a $a: b/mid: an fstat after each"
	done
	grep "tree/a/k2" log | sed 's/^[0-9]* *//; s/, "[^"]*"\.\.\./, .../' | diag -
	# BLAKE3 alone maps what is large enough: a probe of 16 KiB, the
	# fstat after it, then the file from its start, mapped, and the
	# fstat after its last byte
	trace log -r -a blake3 tree || fail "-a blake3: the traced run failed"
	p=$PWD/tree/b/big
	# (the probe alone: not the 13 of 3 MB read through, nor a read of
	# 0 past the mapped end, which the size already tells)
	is "$(calls log pread64 "$p")" 1 "-a blake3: b/big: one pread, the probe"
	is "$(stats log "$p")" 2 "-a blake3: b/big: an fstat after the probe, one at the end"
	check "-a blake3: b/big: mapped" grep -q "^[0-9]* *mmap(.*<$p>" log
	# and every digest is the one of the file named alone (watched
	# at its open), big or small, read or mapped
	for a in sha256 blake3 crc32c md5,sha1,sha256,blake3; do
		multisum -r -a "$a" tree > walked || fail "-a $a: -r failed"
		(cd tree && find . -type f | sed 's|^\./||' | LC_ALL=C sort) |
		    sed 's|^|tree/|' > names
		# shellcheck disable=SC2046
		multisum -a "$a" $(cat names) > named
		same walked named "-a $a: -r gives each file's digest"
	done
}

# A mapped run (BLAKE3 alone maps files of 1 MiB and more) decides on the
# size the walk's regular-file check already asked for: no fstat but
# that one and the one after the last byte, and no read past its end.
test_mapped_file_costs_two_fstats() {
	have strace || skip_test "no strace"
	strace -f -o /dev/null true 2> /dev/null || skip_test "strace cannot trace here"
	mkdir tree
	random_file tree/big 3000000
	trace log -r -a blake3 tree || fail "the traced run failed"
	p=$PWD/tree/big
	is "$(stats log "$p")" 2 "an fstat before, one after"
	# (strace may split a call's line: the offset ends one line or other)
	lacks log ", 3000000) = 0" "no read of 0 past the mapped end"
	is "$(calls log fcntl "$p")" 0 "no fcntl"
	check "the file was mapped" grep -q "^[0-9]* *mmap(.*<$p>" log
}

# A directory of a tree is opened once, read through the DIR made of
# that descriptor and closed once, after its last entry: no dup of it for
# the DIR (walk.c), a call and a close a directory saved.  (The device
# is named solid: its probe, which lists the first file's directory once
# a run, is device.c's and not counted here.)
test_directory_costs_one_descriptor() {
	have strace || skip_test "no strace"
	strace -f -o /dev/null true 2> /dev/null || skip_test "strace cannot trace here"
	make_tree
	mkdir tree/b/deeper
	random_file tree/b/deeper/leaf 10
	MULTISUM_DEVICE=solid \
	    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	    strace -f -y -o log -e trace=openat,dup,dup2,dup3,fcntl,close \
	    "$MULTISUM" -r -a sha256 tree > out || fail "the traced run failed"
	is "$(wc -l < out)" 7 "every file listed"
	for d in tree tree/a tree/b tree/b/deeper; do
		p=$PWD/$d
		is "$(calls log dup "$p")" 0 "$d: no dup"
		is "$(calls log close "$p")" 1 "$d: closed once"
	done
}

# Start-up: a run that needs no more memory than the bound is at least
# (64 MiB, within the limits) does not ask the kernel for its memory
# report, and counts its CPUs in one call (sched_getaffinity), not by
# reading sysfs; a run whose buffers go beyond that floor reads it.
test_startup_reads_no_reports() {
	have strace || skip_test "no strace"
	strace -f -o /dev/null true 2> /dev/null || skip_test "strace cannot trace here"
	random_file one 1000
	trace log -a sha256 one || fail "the traced run failed"
	is "$(opens log /proc/meminfo)" 0 "one small file: no /proc/meminfo"
	# (sysconf(_SC_NPROCESSORS_ONLN) reads it: the portable build's way)
	! built_with HAVE_SCHED_GETAFFINITY ||
	    is "$(opens log /sys/devices/system/cpu/online)" 0 "nor sysfs's CPUs"
	# 256 buffers of 1 MiB are beyond the floor: the default is read
	trace log2 -j 256 --buffer-size=1M -a sha256 one ||
	    fail "the traced run with 256 jobs failed"
	if built_with MS_HAVE_PROC_MEMINFO; then
		is "$(opens log2 /proc/meminfo)" 1 "256 buffers of 1 MiB read it once"
	else
		is "$(opens log2 /proc/meminfo)" 0 "built without: sysconf alone"
	fi
}

# -j's default: the CPUs multisum may run on, as nproc counts them
# (taskset, a cpuset, a Slurm job's share), not every online CPU.
test_jobs_follow_affinity() {
	have taskset || skip_test "no taskset"
	built_with HAVE_SCHED_GETAFFINITY ||
	    skip_test "built without sched_getaffinity: the online CPUs count"
	taskset -c 0 true 2> /dev/null || skip_test "taskset cannot pin here"
	random_file data 1000
	taskset -c 0 "$MULTISUM" --bench --bench-time=0.1 -a crc32 data \
	    > pinned 2>&1 || fail "the pinned --bench failed"
	check "pinned to one CPU: -j 1" grep -q -- '-j 1,' pinned
	"$MULTISUM" --bench --bench-time=0.1 -a crc32 data > free 2>&1 ||
	    fail "--bench failed"
	check "unpinned: -j $(nproc)" grep -q -- "-j $(nproc)," free
}

run fresh_small_file_costs_five_calls
run settled_small_file_costs_four_calls
run mapped_file_costs_two_fstats
run directory_costs_one_descriptor
run startup_reads_no_reports
run jobs_follow_affinity
finish
