#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# hashdeep.sh - hashdeep's audit files, read and written, against the
# real hashdeep: each tool verifies the other's files, names with commas
# and spaces, absolute and relative (-l) names, every column hashdeep
# writes (tiger's too), a column multisum lacks (made up), and the
# migration of an old audit file
# to a multisum ledger.
. "${TESTS_SRCDIR:-$(dirname "$0")}/lib.sh"

need_hashdeep() {
	have hashdeep || skip_test "hashdeep absent"
}

# A tree with awkward names: a comma, spaces, a leading dash.
tree() {
	mkdir -p d/sub
	echo alpha > d/a
	echo "comma, space" > "d/b, c d"
	printf 'x%.0s' $(seq 1 5000) > "d/sub/-lead"
	: > d/sub/empty
}

# The data lines of a hashdeep file, sorted (hashdeep's order is its
# threads').
data() {
	grep -v -e '^%%%%' -e '^#' "$1" | LC_ALL=C sort
}

test_multisum_verifies_hashdeep_files() {
	need_hashdeep
	tree
	hashdeep -r d > abs.txt
	hashdeep -l -r d > rel.txt
	hashdeep -c md5,sha1,sha256,tiger,whirlpool -l -r d > all.txt
	status_is 0 "absolute names" multisum -c abs.txt > out 2> err
	has_line out "$PWD/d/b, c d: OK" "a name with a comma and spaces, absolute"
	status_is 0 "relative names (-l)" multisum -c rel.txt > out 2> err
	for f in d/a "d/b, c d" d/sub/-lead d/sub/empty; do
		has_line out "$f: OK" "$f verified"
	done
	is "$(wc -l < out)" 4 "one verdict a file"
	status_is 0 "five columns, one of them tiger" multisum -c all.txt > out 2> err
	is "$(grep -c ': OK$' out)" 4 "md5, sha1, sha256, tiger and whirlpool verified"
	# each column counts: break one digest in each
	for col in 2 3 4 5 6; do
		awk -F, -v c=$col 'BEGIN { OFS = "," } /^[0-9]/ && $NF == "d/a" {
		    $c = substr($c, 1, length($c) - 1) (substr($c, length($c)) == "0" ? "1" : "0") } { print }' \
		    all.txt > bad.txt
		status_is 1 "column $col altered" multisum -c bad.txt > out 2> err
		has_line out "d/a: FAILED" "column $col is compared"
	done
	hashdeep -c tiger -l -r d > tiger.txt
	status_is 0 "tiger alone" multisum -c tiger.txt > out 2> err
	has_line out "d/a: OK" "tiger's column verified"
	sed 's/^%%%% size,tiger,/%%%% size,madeup9,/' tiger.txt > other.txt
	status_is 1 "a column it lacks, alone" multisum -c other.txt > out 2> err
	check "said, not FAILED" grep -q "d/a: not verified: hashdeep's madeup9: not in this build" err
	lacks out FAILED "never FAILED for an algorithm it lacks"
	echo changed > d/a
	rm "d/b, c d"
	status_is 1 "a changed and a missing file" multisum -c rel.txt > out 2> err
	has_line out "d/a: FAILED" "changed"
	has_line out "d/b, c d: FAILED open or read" "missing"
}

test_hashdeep_audits_multisum_files() {
	need_hashdeep
	tree
	status_is 0 "write" multisum --format=hashdeep -r d > ms.txt
	hashdeep -l -r d > hd.txt
	same "$(data ms.txt > a; echo a)" "$(data hd.txt > b; echo b)" \
	    "the lines hashdeep -l writes, byte for byte"
	hashdeep -l -r -a -k ms.txt d > out 2>&1
	has_line out "hashdeep: Audit passed" "hashdeep -l -a -k passes"
	hashdeep -l -r -a -vv -k ms.txt d > out 2>&1
	has_line out "          Files matched: 4" "every file matched"
	# the five lines that open the file
	is "$(sed -n 1p ms.txt)" "%%%% HASHDEEP-1.0" "the header"
	is "$(sed -n 2p ms.txt)" "%%%% size,md5,sha256,filename" "hashdeep's default columns"
	is "$(sed -n 3p ms.txt)" "## Invoked from: $PWD" "where it ran"
	check "the command line after hashdeep's prompt" \
	    grep -qx "## [#\$] .*multisum --format=hashdeep -r d" ms.txt
	is "$(sed -n 5p ms.txt)" "## " "the closing comment"
	# other columns, through -o
	status_is 0 "-o, five algorithms" multisum --format=hashdeep \
	    -a md5,sha1,sha256,tiger,whirlpool -r -o ms4.txt d
	is "$(sed -n 2p ms4.txt)" "%%%% size,md5,sha1,sha256,tiger,whirlpool,filename" "the columns of -a"
	hashdeep -c md5,sha1,sha256,tiger,whirlpool -l -r -a -k ms4.txt d > out 2>&1
	has_line out "hashdeep: Audit passed" "hashdeep reads them"
	status_is 0 "and multisum" multisum -c --quiet ms4.txt
	# hashdeep's audit against a changed tree fails too
	echo changed > d/a
	hashdeep -l -r -a -k ms.txt d > out 2>&1
	has_line out "hashdeep: Audit failed" "a changed file fails hashdeep's audit"
}

# hashdeep issue 369: hashdeep -a without -l computes absolute names,
# and a file listed relative counts as "moved": multisum writes names as
# given, hashdeep -l's convention, and verifies by the name listed.
test_path_conventions() {
	need_hashdeep
	tree
	multisum --format=hashdeep -r d > ms.txt
	hashdeep -r -a -vv -k ms.txt d > out 2>&1
	has_line out "            Files moved: 4" "without -l hashdeep sees moves"
	(cd d && multisum --format=hashdeep -r . > ../dot.txt)
	(cd d && hashdeep -l -r -a -k ../dot.txt .) > out 2>&1
	has_line out "hashdeep: Audit passed" "from inside the tree, as hashdeep's author advises"
	mkdir copy && cp -a d copy/d
	status_is 0 "a relative file verifies a copy from the copy's root" \
	    sh -c 'cd copy && "$MULTISUM" -c --quiet ../ms.txt'
}

test_migrate_an_audit_file() {
	need_hashdeep
	tree
	hashdeep -l -r d > old.txt
	cp old.txt ledger.txt
	status_is 0 "--update takes the hashdeep file's columns" \
	    multisum -r -u ledger.txt d > out 2> err
	has_line ledger.txt "MD5 (d/a) = $(multisum -a md5 d/a | cut -c1-32)" "md5 kept"
	has_line ledger.txt "SHA256 (d/a) = $(multisum d/a | cut -c1-64)" "sha256 kept"
	check "a multisum ledger now" grep -q '^#multisum-ledger v1 ' ledger.txt
	status_is 0 "--audit reads an old audit file" multisum -r --audit=old.txt d > out 2> err
	echo new > d/new
	rm d/sub/empty
	status_is 1 "new and missing files" multisum -r --audit=old.txt d > out 2> err
	has_line out "new d/new" "the new file by name"
	has_line out "missing d/sub/empty" "the missing one by name"
}

test_what_it_cannot_write() {
	usage_error "an algorithm hashdeep lacks" --format=hashdeep -a blake3 f
	usage_error "base64" --format=hashdeep --base64 f
	usage_error "NUL-terminated lines" --format=hashdeep -z f
	nl='
'
	echo x > "a${nl}b"
	echo y > c
	status_is 1 "a name with a newline" multisum --format=hashdeep "a${nl}b" c > out 2> err
	check "said" grep -q "a hashdeep line cannot hold a name with a line end" err
	check "the other file is written" grep -q ',c$' out
}

run multisum_verifies_hashdeep_files
run hashdeep_audits_multisum_files
run path_conventions
run migrate_an_audit_file
run what_it_cannot_write
finish
