#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# manifest-input.sh - one door for manifest files (io/text_input.c): every
# mode that reads a list (-c, --match, --update, --audit, --merge, -c
# --per-dir) takes the same inputs, UTF-8, UTF-16 with or without its
# byte order mark, CRLF lines and standard input; and a list that is no
# manifest (/dev/zero, for -c too) or whose digests pass --memory is
# refused in one line, in bounded memory.
. "${TESTS_SRCDIR:-$(dirname "$0")}/lib.sh"

have iconv || { echo "1..0 # SKIP iconv absent"; exit 0; }

# d/: the tree every list names.
setup() {
	mkdir -p d/sub
	echo one > d/a
	echo two > "d/b c"
	echo three > d/sub/e
}

# convert KIND IN OUT: IN (UTF-8) as Windows and its tools write it.
convert() {
	case $1 in
	utf8) cp "$2" "$3" ;;
	utf16) iconv -f UTF-8 -t UTF-16 "$2" > "$3" ;;	# a mark, then LE
	utf16le) iconv -f UTF-8 -t UTF-16LE "$2" > "$3" ;;	# no mark
	utf16le-bom) { printf '\377\376'; iconv -f UTF-8 -t UTF-16LE "$2"; } > "$3" ;;
	utf16be) iconv -f UTF-8 -t UTF-16BE "$2" > "$3" ;;	# no mark
	crlf) sed 's/$/\r/' "$2" > "$3" ;;
	esac
}

KINDS="utf8 utf16 utf16le utf16le-bom utf16be crlf"

test_one_list_every_mode() {
	setup
	multisum -r d > list
	multisum -r -u ledger d 2> /dev/null
	for k in 1 2; do
		multisum -r --shard=$k/2 -u shard$k d 2> /dev/null
	done
	multisum --merge -o merged.utf8 shard1 shard2
	grep -v '^#' merged.utf8 > want-merged
	cp -R d p
	multisum -r --per-dir=SUMS p
	for f in p/SUMS p/sub/SUMS; do cp "$f" "$f.utf8"; done
	for kind in $KINDS; do
		convert $kind list l.$kind
		status_is 0 "-c of the $kind list" \
		    multisum -c l.$kind > out 2> err
		has_line out "d/b c: OK" "-c of the $kind list: its lines"
		status_is 0 "-c - of the $kind list" \
		    multisum -c - < l.$kind > out 2> err
		has_line out "d/sub/e: OK" "-c - of the $kind list: its lines"
		status_is 0 "--match with the $kind list" \
		    multisum -r --match=l.$kind d > out 2> err
		same out list "--match with the $kind list: every file known"
		multisum -r --match=- d < l.$kind > out 2> err
		same out list "--match=- with the $kind list: every file known"
		# a list another tool wrote, and multisum's own ledger
		for src in list ledger; do
			convert $kind $src u
			status_is 0 "--update of the $kind $src" \
			    multisum -r -u u d > out 2> err
			lacks err "improperly" "--update of the $kind $src: no bad line"
			check "--update of the $kind $src: every file kept" \
			    grep -qxE '3 unchanged( \(3 rehashed\))?, 0 added, 0 changed, 0 removed' err
			convert $kind $src a
			status_is 0 "--audit of the $kind $src" \
			    multisum -r --audit=a d > out 2> err
			has_line err "3 unchanged, 0 modified, 0 corrupt, 0 moved, 0 new, 0 missing" \
			    "--audit of the $kind $src: every file unchanged"
		done
		convert $kind shard1 s1
		convert $kind shard2 s2
		rm -f merged
		status_is 0 "--merge of $kind shards" \
		    multisum --merge -o merged s1 s2 2> err
		grep -v '^#' merged | tr -d '\r' > got-merged
		same got-merged want-merged "--merge of $kind shards: every entry"
		for f in p/SUMS p/sub/SUMS; do convert $kind "$f.utf8" "$f"; done
		status_is 0 "-c --per-dir of $kind folder lists" \
		    multisum -c -r --per-dir=SUMS p > out 2> err
		has_line out "p/sub/e: OK" "-c --per-dir of $kind lists: its lines"
	done
}

# /dev/zero: one endless line.  Refused in one line naming it, within a
# bound of memory (the run could not take more, under the ulimit).
test_endless_line_is_no_manifest() {
	setup
	multisum -r d > list
	limit=$(memory_limit)
	for mode in --match=/dev/zero --audit=/dev/zero; do
		(ulimit -v $limit; exec timeout 60 "$MULTISUM" --memory=64M \
		    -r "$mode" d) > out 2> err
		st=$?
		check "$mode: refused" [ $st -ne 0 ] && [ $st -ne 124 ]
		is "$(wc -l < err | tr -d ' ')" 1 "$mode: one line"
		has_line err "multisum: /dev/zero: not a manifest (a line of over 16 MiB)" \
		    "$mode: the file and the cause"
	done
	(ulimit -v $limit; exec timeout 60 "$MULTISUM" --merge -o m list \
	    /dev/zero) > out 2> err
	check "--merge of /dev/zero: refused" [ $? -ne 0 ]
	has_line err "multisum: /dev/zero: not a manifest (a line of over 16 MiB)" \
	    "--merge of /dev/zero: the file and the cause"
}

# -c reads its lists line by line, through the door's bounded reader:
# /dev/zero is refused in one line, in bounded memory and time, and the
# lists beside it are still verified.
test_check_endless_line() {
	setup
	multisum -r d > list
	limit=$(memory_limit)
	(ulimit -v $limit; exec timeout 60 "$MULTISUM" -c /dev/zero list) \
	    > out 2> err
	is $? 1 "-c /dev/zero: a failure (1), not memory (3) or a timeout"
	is "$(wc -l < err | tr -d ' ')" 1 "-c /dev/zero: one line"
	has_line err "multisum: /dev/zero: not a manifest (a line of over 16 MiB)" \
	    "-c /dev/zero: the file and the cause"
	has_line out "d/b c: OK" "-c /dev/zero list: the other list verified"
	is "$(wc -l < out | tr -d ' ')" 3 "-c /dev/zero list: all its lines"
}

# Known digests whose tables pass --memory: refused, not grown into.
test_set_over_memory() {
	setup
	# 50000 SHA-256 digests: 2 MiB of table at least
	head -c 1600000 /dev/urandom | od -An -tx1 -v | tr -d ' \n' |
	    fold -w 64 > set
	echo >> set
	multisum -r d >> set
	status_is 1 "--match over --memory=1M" \
	    multisum --memory=1M -r --match=set d > out 2> err
	has_line err "multisum: set: too large for --memory=1M" \
	    "--match over --memory: the file and the cause"
	check "--match over --memory: nothing hashed" [ ! -s out ]
	status_is 0 "--match within --memory=16M" \
	    multisum --memory=16M -r --match=set d > out 2> err
	is "$(wc -l < out | tr -d ' ')" 3 "--match within --memory: every file known"
}

run one_list_every_mode
run endless_line_is_no_manifest
run check_endless_line
run set_over_memory
finish
