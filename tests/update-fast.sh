#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# update-fast.sh - --update's fast paths: the ledger's own lines read without
# the generic parser, and unchanged entries carried over as the bytes
# they were.  Whatever the old manifest's spelling, the result must
# equal a fresh -r -o run, and nothing changed must leave it untouched.
. "$TESTS_SRCDIR/lib.sh"

# A tree with names that GNU lines escape, or that look like tags.
tree() {
	mkdir -p d/sub
	echo one > d/a
	echo two > 'd/(b) = c'
	echo three > 'd/back\slash'
	echo four > "$(printf 'd/new\nline')"
	echo five > 'd/ two  spaces'
	echo six > d/sub/c
}

# age M: pretend M was written an hour from now, so that no entry of it
# is racily clean (files made by a test are seconds old).
age() {
	_s=$(( ($(date +%s) + 3600) * 1000000000 ))
	sed "1s/stamp=[0-9-]*/stamp=$_s/" "$1" > "$1.aged" && mv "$1.aged" "$1"
}

# same_as_fresh M OPTS...: M without its bookkeeping equals -r -o OPTS d.
same_as_fresh() {
	_m=$1
	shift
	multisum -r "$@" -o fresh.out d
	grep -v '^#' "$_m" > got
	same got fresh.out "$* equals a fresh -r -o run"
}

# two_manifests: the tree, and two manifests of it, aged: G of GNU lines
# (sha256), B of BSD lines (md5,sha256).
two_manifests() {
	tree
	multisum -r -u G d 2> /dev/null
	multisum -r -a md5,sha256 -u B d 2> /dev/null
	age G
	age B
}

test_nothing_changed_untouched() {
	tree
	multisum -r -a md5,sha256 -u M d 2> /dev/null
	age M
	cp M before
	ls -i M > inode.before
	status_is 0 "update" multisum -r -a md5,sha256 -u M d 2> err
	has_line err "6 unchanged, 0 added, 0 changed, 0 removed" "all unchanged"
	same M before "the old manifest stands, stamp and all"
	ls -i M > inode.after
	same inode.after inode.before "not even replaced by a copy"
}

test_carried_bytes_equal_fresh() {
	two_manifests
	echo changed > d/sub/c
	echo new > d/n
	rm d/a
	status_is 0 "GNU update" multisum -r -u G d 2> err
	has_line err "4 unchanged, 1 added, 1 changed, 1 removed" "GNU summary"
	same_as_fresh G
	status_is 0 "BSD update" multisum -r -a md5,sha256 -u B d 2> err
	has_line err "4 unchanged, 1 added, 1 changed, 1 removed" "BSD summary"
	same_as_fresh B -a md5,sha256
}

# The run writes other lines than the manifest holds: every unchanged
# entry is written anew, none carried as it was.
test_other_shape_rewritten() {
	two_manifests
	for how in "--tag" "-b" "--base64"; do
		cp G G2
		status_is 0 "update $how" multisum -r $how -u G2 d 2> err
		has_line err "6 unchanged, 0 added, 0 changed, 0 removed" \
		    "$how: unchanged, not read"
		same_as_fresh G2 $how
	done
	cp B B2
	status_is 0 "update in another order" multisum -r -a sha256,md5 -u B2 d 2> err
	has_line err "6 unchanged, 0 added, 0 changed, 0 removed" "order: unchanged"
	same_as_fresh B2 -a sha256,md5
}

# Lines multisum would not write (upper-case hex, a zero-padded or
# spaced "#@" line, CRLF, padded tags) still count as unchanged, and
# come out as a fresh run writes them.
test_hand_edited_spellings() {
	two_manifests
	# entry 1: upper case; entry 2: "#@ 0N"; entry 3: a space before
	# the newline of "#@"; the rest: CRLF
	awk 'NR == 4 { $0 = toupper(substr($0, 1, 64)) substr($0, 65) }
	    NR == 5 { sub(/^#@ /, "#@ 0") } NR == 7 { $0 = $0 " " }
	    { print }' G > G2
	sed '10,$s/$/\r/' G2 > G3
	status_is 0 "update" multisum -r -u G3 d 2> err
	has_line err "6 unchanged (2 rehashed), 0 added, 0 changed, 0 removed" \
	    "CRLF bookkeeping is no bookkeeping; the other spellings count"
	same_as_fresh G3
	sed 's/^MD5 (/MD5  (/' B > B2
	status_is 0 "update" multisum -r -a md5,sha256 -u B2 d 2> err
	has_line err "6 unchanged, 0 added, 0 changed, 0 removed" "padded tags"
	same_as_fresh B2 -a md5,sha256
}

# A digest only the manifest knows survives iff the entry was carried
# (unread), in both shapes, whether copied as bytes or written anew.
test_carried_unread() {
	two_manifests
	fake=0000000000000000000000000000000000000000000000000000000000000000
	sed "s/^[0-9a-f]*  d\/sub\/c\$/$fake  d\/sub\/c/" G > G2 && mv G2 G
	sed "s/^SHA256 (d\/sub\/c) = .*/SHA256 (d\/sub\/c) = $fake/" B > B2 && mv B2 B
	echo changed > d/a
	multisum -r -u G d 2> /dev/null
	has_line G "$fake  d/sub/c" "GNU: carried as bytes"
	multisum -r -a md5,sha256 -u B d 2> /dev/null
	has_line B "SHA256 (d/sub/c) = $fake" "BSD: carried as bytes"
	age G
	multisum -r --tag -u G d 2> /dev/null
	has_line G "SHA256 (d/sub/c) = $fake" "carried and written anew"
}

run nothing_changed_untouched
run carried_bytes_equal_fresh
run other_shape_rewritten
run hand_edited_spellings
run carried_unread
finish
