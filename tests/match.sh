#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# match.sh - --match=SET and --unmatched=SET: the files whose digest is,
# or is not, in a set of known digests (names ignored), against the real
# hashdeep's -m and -x on the same tree and set.
. "${TESTS_SRCDIR:-$(dirname "$0")}/lib.sh"

# known/: the files of the set; tree/: some of them renamed or copied,
# and files the set does not hold.
setup() {
	mkdir -p known tree/sub
	echo one > known/1
	echo two > known/2
	echo "three, 3" > "known/3, three"
	cp known/1 tree/renamed
	cp known/2 "tree/sub/a copy, with comma"
	echo other > tree/other
	echo more > tree/sub/more
	: > tree/empty
}

# The names of the files in multisum's NDJSON, sorted.
paths() {
	sed -n 's/^{"path":"\([^"]*\)".*/\1/p' "$1" | LC_ALL=C sort
}

test_hashdeep_m_and_x_workflows() {
	have hashdeep || skip_test "hashdeep absent"
	setup
	hashdeep -l -r known > set.txt
	hashdeep -l -m -k set.txt -r tree | LC_ALL=C sort > hd-m
	hashdeep -l -x -k set.txt -r tree | LC_ALL=C sort > hd-x
	status_is 0 "--match" multisum --match=set.txt -r --format=ndjson tree > out
	paths out > ms-m
	same ms-m hd-m "--match lists what hashdeep -m lists"
	status_is 0 "--unmatched" multisum --unmatched=set.txt -r --format=ndjson tree > out
	paths out > ms-x
	same ms-x hd-x "--unmatched lists what hashdeep -x lists"
	is "$(wc -l < ms-m) $(wc -l < ms-x)" "2 3" "two known, three not"
	# without -a the files are read for the set's algorithms: md5, sha256
	multisum --match=set.txt -r tree > out
	has_line out "MD5 (tree/renamed) = $(multisum -a md5 known/1 | cut -c1-32)" "md5"
	has_line out "SHA256 (tree/renamed) = $(multisum known/1 | cut -c1-64)" "and sha256 lines"
}

test_any_manifest_is_a_set() {
	setup
	multisum known/1 > gnu.sha256
	multisum -a sha256 --tag known/2 > bsd.txt
	multisum known/1 | cut -c1-64 > bare.txt	# a hash list, no names
	multisum -a sha256 --format=ndjson known/2 > set.ndjson
	for set in gnu.sha256 bsd.txt bare.txt set.ndjson; do
		multisum --match="$set" -r -a sha256 tree > out
		check "$set: something matched" test -s out
	done
	multisum --match=gnu.sha256 --match=bsd.txt -r tree > out
	has_line out "$(multisum tree/renamed)" "the first set"
	has_line out "$(multisum "tree/sub/a copy, with comma")" "the second set"
	is "$(wc -l < out)" 2 "two sets, two files"
	multisum --unmatched=gnu.sha256 --unmatched=bsd.txt -r tree > out
	is "$(wc -l < out)" 3 "the other three"
	lacks out "tree/renamed" "a known file is not unmatched"
}

# A set is keyed by (algorithm, digest): the same bytes under another
# algorithm are not a match.
test_algorithm_is_part_of_the_key() {
	setup
	md5=$(multisum -a md5 known/1 | cut -c1-32)
	echo "XXH128 (x) = $md5" > other.txt
	multisum --match=other.txt -a md5 -r tree > out 2> err
	check_not "an XXH128 value is not an MD5" test -s out
	echo "MD5 (x) = $md5" > right.txt
	multisum --match=right.txt -a md5 -r tree > out
	has_line out "$md5  tree/renamed" "the same value as MD5 is"
}

# A checksum is no evidence of identity (4 bytes forge a CRC-32): beside
# a cryptographic set, a CRC-32 set never makes a file known; alone, it
# matches, and says what its matches are worth.
test_checksums_prove_nothing() {
	setup
	multisum -r known > known.sha256
	multisum -a crc32 --format=sfv tree/other > other.sfv
	status_is 0 "--unmatched with a sha256 and a CRC-32 set" \
	    multisum --unmatched=known.sha256 --unmatched=other.sfv -r tree \
	    > out 2> err
	has_line out "$(multisum tree/other)" \
	    "a file known only by its CRC-32 is unmatched"
	has_line err "multisum: the known sets' crc32 digests are not used: checksums or under 128 bits, a match by them would prove nothing beside the others" \
	    "said"
	multisum --match=known.sha256 --match=other.sfv -r tree > out 2> /dev/null
	lacks out "tree/other" "nor is it matched by its CRC-32"
	status_is 0 "a CRC-32 set alone" multisum --match=other.sfv -r tree \
	    > out 2> err
	has_line out "$(multisum -a crc32 tree/other)" "it matches by CRC-32"
	has_line err "multisum: the known sets hold only checksums or digests under 128 bits: a file of other content can match by chance or by design" \
	    "with a warning"
}

# A digest cut short is no better than a checksum: b2sum -l 8 keeps one
# byte, and one file in 256 of any content has it.
test_short_digests_prove_nothing() {
	setup
	mkdir many
	i=0
	while [ $i -lt 600 ]; do
		echo "new $i" > many/$i
		i=$((i + 1))
	done
	multisum -a blake2b -l 8 -r known > short.b2
	multisum -r known > known.sha256
	status_is 0 "--unmatched with a sha256 and an 8-bit set" \
	    multisum --unmatched=known.sha256 --unmatched=short.b2 -r many \
	    > out 2> err
	is "$(wc -l < out)" 600 "no new file is hidden by its 8-bit digest"
	has_line err "multisum: the known sets' blake2b-8 digests are not used: checksums or under 128 bits, a match by them would prove nothing beside the others" \
	    "said"
	multisum --unmatched=short.b2 -r many > out 2> err
	has_line err "multisum: the known sets hold only checksums or digests under 128 bits: a file of other content can match by chance or by design" \
	    "an 8-bit set alone warns"
	multisum -a blake2b -l 128 -r known > long.b2
	multisum --unmatched=long.b2 -r many > out 2> err
	is "$(wc -l < out)" 600 "a 128-bit set serves"
	check_not "without a warning" test -s err
}

# Many digests: the tables grow, every one is still found.
test_a_large_set() {
	setup
	{ head -c 1600000 /dev/urandom | od -An -tx1 -v | tr -d ' \n' |
	    fold -w 64 | sed 's/$/  x/'; echo; } > big.sha256
	multisum -r known >> big.sha256
	{ head -c 1600000 /dev/urandom | od -An -tx1 -v | tr -d ' \n' |
	    fold -w 64; echo; } >> big.sha256
	is "$(wc -l < big.sha256)" 100003 "100,003 digests"
	multisum --debug --match=big.sha256 -r tree > out 2> err
	is "$(wc -l < out)" 2 "the two known files among 100,003 digests"
	check "--debug tells the tables' size and the digests' algorithm" \
	    grep -q "known sets: 100003 digests (sha256) in" err
	# a bare 32-digit digest is md5 by its length; -a reads it otherwise
	head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n' > bare; echo >> bare
	multisum --debug --match=bare -r tree 2> err > /dev/null
	check "--debug says which algorithm a bare digest was read as" \
	    grep -q "known sets: 1 digests (md5) in" err
	multisum --debug -a xxh128 --match=bare -r tree 2> err > /dev/null
	check "and -a's, when given" grep -q "known sets: 1 digests (xxh128) in" err
}

test_sets_that_cannot_serve() {
	setup
	multisum --tag known/1 > set.sha256
	status_is 3 "a set that cannot be read" multisum --match=nonexistent -r tree > out 2> err
	has_line err "multisum: nonexistent: No such file or directory" "said"
	check_not "nothing hashed" test -s out
	multisum --match=set.sha256 -a md5 -r tree > out 2> err
	has_line err "multisum: the known sets hold no digest of the algorithms given: no file can match" \
	    "-a names an algorithm the set lacks"
	echo "not a digest" > junk.txt
	status_is 1 "a set with no digest at all (a wrong file)" \
	    multisum --match=junk.txt -r tree > out 2> err
	has_line err "multisum: junk.txt: no digest in it: not a manifest or a list of digests" \
	    "the file is named"
	check_not "nothing hashed" test -s out
	cat set.sha256 junk.txt > mixed.txt
	status_is 0 "a set with a junk line" \
	    multisum --match=mixed.txt -r tree > out 2> err
	has_line err "multisum: mixed.txt: 1 line holds no digest: skipped" \
	    "the junk line is said, with its file"
	usage_error "--match and --unmatched" --match=set.sha256 --unmatched=set.sha256 tree
	usage_error "--match and -c" -c --match=set.sha256 set.sha256
	usage_error "--match and --raw" --raw --match=set.sha256 known/1
}

run hashdeep_m_and_x_workflows
run any_manifest_is_a_set
run algorithm_is_part_of_the_key
run checksums_prove_nothing
run short_digests_prove_nothing
run a_large_set
run sets_that_cannot_serve
finish
