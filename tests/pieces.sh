#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# pieces.sh - --update --piece-size=SIZE: a CRC-64/NVME per piece in the
# ledger's "#%" bookkeeping, which sha256sum -c, cksum -c and rhash -c
# skip; --audit then names the byte ranges of a corrupt file that
# changed, so that a restore fetches only those.
. "${TESTS_SRCDIR:-$(dirname "$0")}/lib.sh"

M=1048576

# d/big (5,500,000 bytes: five whole pieces of 1 MiB and a short one),
# d/small, d/empty; all older than the racy window.
setup() {
	mkdir d
	random_file d/big 5500000
	echo small > d/small
	: > d/empty
	touch -d 2020-01-01 d/*
	sleep 3		# their ctime, too, out of the 2 s racy window
}

# poke FILE OFFSET: change one byte, keep the modification time (rot).
poke() {
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf "\\$(printf '%03o' $(( (b + 1) % 256 )))" |
	    dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
	touch -d 2020-01-01 "$1"
}

test_pieces_in_the_bookkeeping() {
	setup
	status_is 0 "update" multisum -r -u L.sha256 --piece-size=1M d 2> err
	check "a #% line after each #@ line" awk '
	    /^#@ / { at = NR } /^#% / { if (NR != at + 1) bad = 1; n++ }
	    END { exit bad || n != 3 }' L.sha256
	line=$(grep -A1 '^#@ 5500000 ' L.sha256 | sed -n 2p)
	is "$(echo "$line" | cut -d' ' -f1-3)" "#% $M crc64nvme" "piece size and algorithm"
	is "$(echo "$line" | cut -d' ' -f4 | tr -d '\n' | wc -c)" 96 "six pieces, 16 hex digits each"
	# each piece's CRC is multisum -a crc64nvme of its bytes
	dd if=d/big of=p3 bs=$M skip=3 count=1 2>/dev/null
	is "$(echo "$line" | cut -d' ' -f4 | cut -c49-64)" "$(multisum -a crc64nvme p3 | cut -c1-16)" \
	    "the fourth piece"
	dd if=d/big of=p5 bs=$M skip=5 count=1 2>/dev/null
	is "$(echo "$line" | cut -d' ' -f4 | cut -c81-96)" "$(multisum -a crc64nvme p5 | cut -c1-16)" \
	    "the short last piece"
	has_line L.sha256 "#% $M crc64nvme" "an empty file: no piece"
	# the checkers skip the lines
	if have sha256sum; then
		status_is 0 "sha256sum -c" sha256sum -c --quiet L.sha256
	else
		skip_case "sha256sum absent"
	fi
	if have rhash; then
		status_is 0 "rhash -c" rhash -c L.sha256 > /dev/null
	else
		skip_case "rhash absent"
	fi
	multisum -r -u T.sum --tag -a sha256,md5 --piece-size=64K d 2> /dev/null
	has_line T.sum "$(grep -A1 '^#@ 6 ' T.sum | sed -n 2p)" "with --tag too"
	if have cksum && cksum --help 2>&1 | grep -q -- '--check'; then
		status_is 0 "cksum -c" cksum -c --quiet T.sum
	else
		skip_case "cksum -c (coreutils 9) absent"
	fi
	status_is 0 "multisum -c" multisum -c --quiet L.sha256
}

test_audit_names_the_ranges_that_changed() {
	setup
	multisum -r -u L.sha256 --piece-size=1M d 2> /dev/null
	poke d/big 2500000
	status_is 1 "one piece" multisum -r --audit=L.sha256 d > out 2> err
	has_line out "corrupt d/big bytes=2097152-3145727" "the third MiB"
	poke d/big 3145728	# the next piece: one range
	poke d/big 5400000	# the short last one
	multisum -r --audit=L.sha256 d > out 2> err
	has_line out "corrupt d/big bytes=2097152-4194303,5242880-5499999" \
	    "adjacent pieces joined; the last ends at the last byte"
	multisum -r --audit=L.sha256 --format=ndjson d > out 2> err
	has_line out '{"path":"d/big","class":"corrupt","bytes":[[2097152,4194303],[5242880,5499999]]}' \
	    "NDJSON"
	# a modified file (its time moved) is an edit: no ranges
	echo more >> d/small
	multisum -r --audit=L.sha256 d > out 2> err
	has_line out "modified d/small" "an edit is modified"
	lacks out "d/small bytes" "and has no ranges"
}

test_unchanged_files_keep_their_pieces() {
	setup
	multisum -r -u L.sha256 --piece-size=1M d 2> /dev/null
	cp L.sha256 first
	multisum -r -u L.sha256 --piece-size=1M d 2> err
	same L.sha256 first "nothing changed: the ledger stands as it was"
	multisum -r -u L.sha256 d 2> err
	same L.sha256 first "an update without --piece-size keeps them too"
	# a name with a backslash: its entry is written anew, not copied
	echo b > 'd/back\slash'
	touch -d 2020-01-01 'd/back\slash'
	sleep 3
	multisum -r -u L.sha256 --piece-size=1M d 2> err
	echo new > d/new
	touch -d 2020-01-01 d/new
	multisum -r -u L.sha256 d 2> err
	is "$(grep -c '^#% ' L.sha256)" 4 "the new file has none, the others kept theirs"
	check "also the entry written anew" grep -A1 -q '^#@ 2 ' L.sha256
	is "$(grep -A1 "^#@ 2 " L.sha256 | sed -n 2p | cut -c1-20)" "#% $M crc64nvme" \
	    "its pieces kept"
	multisum -r -u L.sha256 --piece-size=64K d 2> err
	is "$(grep -c '^#% 65536 ' L.sha256)" 5 "another size: every file read again for it"
}

test_damaged_piece_lines() {
	setup
	multisum -r -u L.sha256 --piece-size=1M d 2> /dev/null
	sed -i '/^#@ 5500000 /{n;s/crc64nvme ../crc64nvme zz/}' L.sha256
	poke d/big 100
	status_is 1 "corrupt" multisum -r --audit=L.sha256 d > out 2> err
	has_line out "corrupt d/big" "still corrupt, no ranges claimed from a damaged line"
	usage_error "--piece-size without --update" --piece-size=1M d
	usage_error "--piece-size too small" -r -u x --piece-size=100 d
	usage_error "--piece-size not a size" -r -u x --piece-size=lots d
}

run pieces_in_the_bookkeeping
run audit_names_the_ranges_that_changed
run unchanged_files_keep_their_pieces
run damaged_piece_lines
finish
