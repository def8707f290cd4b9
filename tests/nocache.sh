#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# nocache.sh - --nocache leaves no page of a hashed file in the page cache,
# as fincore (util-linux) shows, whether the file was read or mapped, hashed
# by one worker or split over several, in hash, check and --update runs;
# without it the pages stay.  The digests are the same either way.  A
# large file that is not in the page cache is read ahead with
# POSIX_FADV_WILLNEED (io/source_ahead.c), one that is, is not; --debug
# says which, and the digests are the same.
. "$TESTS_SRCDIR/lib.sh"

# resident FILE: bytes of FILE in the page cache.
resident() {
	fincore --bytes --noheadings --output RES "$1" | tr -d ' '
}

# cached FILE...: bring FILEs into the page cache, clean (written back),
# so that dropping them is up to the reader.
cached() {
	sync "$@" 2> /dev/null || sync
	cat "$@" > /dev/null
}

# Can this file system drop a file's pages at all (tmpfs cannot)?  Asks
# GNU dd, which drops the whole file with iflag=nocache count=0.
can_drop() {
	cached "$1"
	[ "$(resident "$1")" -gt 0 ] || return 1
	dd if="$1" iflag=nocache count=0 2> /dev/null || return 1
	[ "$(resident "$1")" -eq 0 ]
}

need_fincore() {
	built_with HAVE_POSIX_FADVISE ||
	    skip_test "built without posix_fadvise: --nocache drops nothing"
	have fincore || skip_test "no fincore (util-linux)"
	random_file probe 65536
	can_drop probe || skip_test "this file system keeps a file's pages (tmpfs?)"
}

test_pages_go_every_way() {
	need_fincore
	random_file big 9437187		# windows of 4 MiB, and a tail
	want=$(sha256sum < big | cut -c1-64)
	for args in "-a sha256 --io=read" "-a sha256 --io=mmap" \
	    "-a blake3" "-a blake3 -j1" "-a md5,sha1,sha256 -j2" \
	    "-a md5,sha256 --io=mmap -j2" "-a crc32c"; do
		multisum $args big > out || fail "$args: exit $?"
		cached big
		multisum --nocache $args big > got || fail "$args --nocache: exit $?"
		is "$(resident big)" 0 "$args --nocache: no page left"
		same got out "$args --nocache: the same digests"
	done
	cached big
	multisum -a sha256 big > got
	check "without --nocache the pages stay" [ "$(resident big)" -gt 0 ]
	grep -q "^$want " got || fail "sha256 differs from sha256sum's"
}

test_tree_of_small_files() {
	need_fincore
	mkdir -p tree/a tree/b
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		random_file "tree/a/k$i" $((i * 100))
		random_file "tree/b/p$i" $((i * 4096 + 1))
	done
	: > tree/b/empty
	cached tree/a/* tree/b/*
	multisum -r --nocache -a sha256 tree > got || fail "exit $?"
	left=0
	for f in tree/a/* tree/b/*; do
		left=$((left + $(resident "$f")))
	done
	is "$left" 0 "no page of the 41 files left"
	is "$(wc -l < got | tr -d ' ')" 41 "a line for each"
}

test_check_and_update() {
	need_fincore
	random_file f 3000000
	multisum -a sha256 f > m
	cached f
	multisum --nocache -c m > out || fail "check: exit $?"
	has_line out "f: OK" "check: OK"
	is "$(resident f)" 0 "check --nocache: no page left"
	mkdir tree
	random_file tree/g 2000000
	multisum -r --update=tree.sums tree > /dev/null 2>&1
	echo more >> tree/g
	cached tree/g
	multisum -r --nocache --update=tree.sums tree > /dev/null 2>&1 ||
	    fail "update: exit $?"
	is "$(resident tree/g)" 0 "--update --nocache: no page left"
}

# Pages go as the file is read, not only at its end: posix_fadvise runs
# at every 8 MiB read, and for every mapped window when it is unmapped.
test_drops_as_it_goes() {
	have strace || skip_test "no strace"
	strace -f -o /dev/null true 2> /dev/null || skip_test "strace cannot trace here"
	random_file big 20000000
	built_with HAVE_POSIX_FADVISE ||
	    skip_test "built without posix_fadvise: --nocache drops nothing"
	strace -f -y -e trace=fadvise64 -o log "$MULTISUM" --nocache -j1 \
	    -a sha256 --io=read big > /dev/null
	n=$(grep -c "fadvise64(.*big>, [1-9][0-9]*, .*POSIX_FADV_DONTNEED\|fadvise64(.*big>, 0, [1-9][0-9]*, POSIX_FADV_DONTNEED" log)
	check "read: dropped in steps before the end ($n)" [ "$n" -ge 2 ]
	strace -f -y -e trace=fadvise64 -o log "$MULTISUM" --nocache -j1 \
	    -a sha256 --io=mmap big > /dev/null
	n=$(grep -c "fadvise64(.*big>, [0-9]*, [1-9][0-9]*, POSIX_FADV_DONTNEED" log)
	check "mmap: each of the 5 windows dropped ($n)" [ "$n" -ge 5 ]
	strace -f -y -e trace=fadvise64 -o log "$MULTISUM" -j1 -a sha256 big > /dev/null
	lacks log DONTNEED "no dropping without --nocache"
}

# dropped FILE: FILE's pages out of the page cache (need_fincore first).
dropped() {
	cached "$1"
	dd if="$1" iflag=nocache count=0 2> /dev/null
}

test_cold_read_ahead() {
	need_fincore
	# past source_ahead.c's AHEAD_MIN (64 MiB) after the first chunk
	head -c 75497475 /dev/zero > big
	want=$(sha256sum < big | cut -c1-64)
	for args in "-a sha256" "-a blake3" "-a xxh64" "-a sha256 -j1" \
	    "-a md5,sha256 --io=mmap" "-a md5,sha1,sha256" "--nocache -a sha256"; do
		dropped big
		multisum --debug $args big > out 2> err || fail "$args: exit $?"
		# a ring reads (one worker, the others hashing), whatever the
		# digest: past the page cache; -j1 and --io=mmap: the page
		# cache, read ahead
		case $args in
		*-j1* | *mmap*)
			check "$args: cold, read ahead" grep -q \
			    "debug: big: not in the page cache: 64 MiB read ahead" err ;;
		*)
			check "$args: cold, read past the page cache" grep -q \
			    "debug: big: not in the page cache: read past it (O_DIRECT)" err
			r=$(resident big)
			check "$args: $r bytes left cached (of 72 MiB)" \
			    [ "$r" -lt $((16 << 20)) ] ;;
		esac
		case $args in
		*sha256*) grep -q "$want" out ||
		    fail "$args: sha256 differs from sha256sum's" ;;
		esac
		multisum $args big > warm
		same out warm "$args: the same digests cold and warm"
	done
	is "$(resident big)" 0 "--nocache: no page read ahead is left"
	cached big
	multisum --debug -a sha256 big > /dev/null 2> err
	check "warm: the kernel's read-ahead alone" grep -q \
	    "debug: big: in the page cache: the kernel's read-ahead" err
	have strace || return 0
	strace -f -o /dev/null true 2> /dev/null || return 0
	dropped big
	traced -f -y -e trace=fadvise64 -o log "$MULTISUM" -j1 -a sha256 big > /dev/null
	n=$(grep -c "big>, [1-9][0-9]*, 16777216, POSIX_FADV_WILLNEED" log)
	check "cold: hints of 16 MiB ahead of the reads ($n)" [ "$n" -ge 4 ]
	traced -f -y -e trace=fadvise64 -o log "$MULTISUM" -j1 -a sha256 big > /dev/null
	lacks log WILLNEED "warm: no hint"
	dropped big
	traced -f -y -e trace=fcntl,fadvise64 -o log "$MULTISUM" -a sha256 big > /dev/null
	check "cold, a ring: O_DIRECT" grep -q "big>, F_SETFL, .*O_DIRECT" log
	lacks log WILLNEED "cold, a ring: no hint"
	# Its reads are 2 MiB each, into buffers advised into huge pages
	# where the build has MADV_HUGEPAGE: one segment of the disk's
	# request each, not one a 4 KiB page (engine.h's MS_DIRECT_READ).
	dropped big
	traced -f -e trace=madvise,pread64 -o log "$MULTISUM" -a blake3 big > /dev/null
	n=$(grep -c ", 2097152, [0-9]*) = 2097152" log)
	check "cold, a ring: $n reads of 2 MiB (of 72 MiB)" [ "$n" -ge 30 ]
	if built_with HAVE_DECL_MADV_HUGEPAGE; then
		n=$(grep -c "madvise(.*, 2097152, MADV_HUGEPAGE) = 0" log)
		check "cold, a ring: $n buffers advised into huge pages" [ "$n" -ge 2 ]
	else
		lacks log MADV_HUGEPAGE "no MADV_HUGEPAGE in this build: no advice"
	fi
	cached big
	traced -f -y -e trace=fcntl -o log "$MULTISUM" -a sha256 big > /dev/null
	lacks log O_DIRECT "warm, a ring: no O_DIRECT"
}

test_usage() {
	usage_error "--nocache is refused with --bench" --nocache --bench
	multisum --nocache --debug -a sha256 /dev/null > /dev/null 2> err
	check "--debug names it" grep -q "nocache" err
}

run pages_go_every_way
run tree_of_small_files
run check_and_update
run drops_as_it_goes
run cold_read_ahead
run usage
finish
