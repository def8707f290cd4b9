#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# check-resolve.sh - a list multisum wrote verifies with `multisum -c LIST`
# alone, whatever -a wrote it and whatever the list is called (issue 31
# item 4): an untagged digest taken by its length or the list's name is
# a guess, and what may stand in for it (never a weaker algorithm) is
# tried once per list, said on standard error; the XXH128-as-MD5 false
# OK stays impossible, and so does any checksum taken for a digest.
. "${TESTS_SRCDIR:-$(dirname "$0")}/lib.sh"

files() {
	echo one > a
	random_file b 70000
	random_file c 300000
}

# Every algorithm multisum writes bare digests of reads back.
test_every_algorithm_reads_back() {
	files
	for alg in whirlpool blake2b blake2bp sha3-224 sha3-256 sha3-384 \
	    sha3-512 sha512-224 sha512-256 blake2s blake2sp blake3 sm3 \
	    ripemd160 shake128 shake256 crc32c xxh32 crc64nvme blake2b-128; do
		for j in 1 2; do
			multisum -a $alg a b c > list
			status_is 0 "$alg -j $j: multisum -c list" \
			    multisum -j $j -c list > out 2> err
			is "$(grep -c ': OK$' out)" 3 "$alg -j $j: three OK lines"
			is "$(grep -c 'untagged digests are' err)" 1 \
			    "$alg -j $j: one line says which algorithm"
			check "$alg -j $j: it names $alg" \
			    grep -q "untagged digests are $alg, not" err
		done
	done
}

# The list's name guesses wrong: the stand-ins still find it.
test_whatever_the_name() {
	files
	multisum -a sha3-512 a b c > SHA512SUMS
	status_is 0 "SHA512SUMS holding sha3-512 verifies" \
	    multisum -c SHA512SUMS > out 2> err
	has_line err "multisum: SHA512SUMS: untagged digests are sha3-512, not sha512 as taken by the manifest's name" \
	    "said, with how the guess was made"
	multisum -a whirlpool a b c > x.sha512
	status_is 0 "x.sha512 holding whirlpool verifies" \
	    multisum -c x.sha512 > /dev/null 2>&1
	multisum -a blake3 a > a.b3-not
	status_is 0 "and from standard input" multisum -c < a.b3-not > out 2> err
	has_line err "multisum: 'standard input': untagged digests are blake3, not sha256 as taken by its length" \
	    "standard input is named as the list"
}

# Once found, the list's algorithm serves its other lines: a changed file
# is FAILED under it, and the hint after it names what -a could give.
test_a_change_still_fails() {
	files
	multisum -a whirlpool a b c > list
	echo changed > b
	status_is 1 "a changed file fails" multisum -c list > out 2> err
	has_line out "a: OK" "the first verified"
	has_line out "b: FAILED" "the changed one FAILED"
	has_line out "c: OK" "the one after verified"
	lacks err "taken as sha512" "no hint: the list's algorithm was found"
	multisum a b c > list
	echo again > a
	status_is 1 "a SHA-256 list with a changed file" multisum -c list \
	    > out 2> err
	has_line out "a: FAILED" "FAILED"
	has_line out "b: OK" "the others OK"
	has_line err "multisum: list: untagged digests were taken as sha256 (by its length), and matched neither it nor what may stand in for it; if they are of another algorithm, name it with -a" \
	    "the hint says the stand-ins were tried"
	lacks err "untagged digests are" "no stand-in claimed"
}

# No checksum stands in for a digest: an XXH128 made to match a file is
# no MD5, whatever the list is called, and a broken MD4 is none either.
test_adversarial_lists() {
	files
	x=$(multisum -a xxh128 a | cut -d' ' -f1)
	for l in MD5SUMS a.md5 plain; do
		echo "$x  a" > $l
		for j in 1 2; do
			status_is 1 "$l, -j $j: an XXH128 under MD5's length" \
			    multisum -j $j -c $l > out 2> err
			has_line out "a: FAILED" "$l, -j $j: FAILED"
			lacks err "untagged digests are" "$l, -j $j: nothing stood in"
		done
	done
	has_line err "multisum: plain: untagged digests were taken as md5 (by its length), and matched neither it nor what may stand in for it; if they are of another algorithm, name it with -a (md4, xxh128, ed2k, ed2k-edonkey)" \
	    "the hint names exactly the -a that would be needed"
	status_is 0 "-a xxh128 says it" multisum -c -a xxh128 plain > /dev/null
	status_is 1 "--expect: no stand-in either" \
	    multisum --expect="$x" a > /dev/null 2>&1
	# checksums of 16 hex digits: a checksum stands in for XXH64 only
	# as its equal; a 64-bit digest of BLAKE2b may, no checksum for it
	multisum -a crc64nvme a > list
	status_is 0 "CRC-64 for XXH64: a checksum for a checksum" \
	    multisum -c list > /dev/null 2>&1
	if multisum -a md4 a > list 2> /dev/null; then
		status_is 1 "MD4, broken, stands in for no MD5" \
		    multisum -c list > /dev/null 2>&1
	else
		skip_case "no MD4 in this build"
	fi
}

# The stand-ins of a guess are read in one pass: the first file that
# fails its guess is read twice, not once per candidate.
test_one_read_for_the_stand_ins() {
	have strace || skip_test "no strace"
	random_file big 3000000
	multisum -a whirlpool big > list
	traced -f -e trace=openat -o tr "$MULTISUM" -j 1 -c list > out 2> /dev/null
	has_line out "big: OK" "verified"
	is "$(grep -c '"big"' tr)" 2 "big opened twice: its guess, its stand-ins"
	# the list's first guess is its probe: the others wait for it, and
	# none is read with the wrong guess, at any -j
	mkdir many
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		random_file many/f$i $((i * 5000))
	done
	multisum -a sha3-256 many/* > list
	for j in 1 2 4; do
		traced -f -e trace=openat -o tr "$MULTISUM" -j $j -c list > out \
		    2> /dev/null
		is "$(grep -c ': OK$' out)" 12 "-j $j: twelve OK"
		is "$(grep -c '"many/f' tr)" 13 "-j $j: one file read twice, no other"
	done
	multisum many/* > list
	traced -f -e trace=openat -o tr "$MULTISUM" -j 2 -c list > out 2> /dev/null
	is "$(grep -c '"many/f' tr)" 12 "a SHA-256 list: each file read once"
	# a guess that verified a file is the list's: a later change costs
	# no read of the stand-ins
	echo one > a
	multisum a big > list
	echo changed >> big
	traced -f -e trace=openat -o tr "$MULTISUM" -j 1 -c list > out 2> /dev/null
	has_line out "big: FAILED" "the change shows"
	is "$(grep -c '"big"' tr)" 1 "big opened once: SHA-256 verified a"
}

# RHash's lines of several digests: each guess tried on its own, in one
# read (issue 31: an 8-hex CRC-32C was always taken as CRC-32).
test_rhash_lines() {
	have rhash || skip_test "no rhash"
	files
	rhash --simple --crc32c --md5 a b c > list
	status_is 0 "rhash --simple --crc32c --md5" multisum -c list > out 2> err
	is "$(grep -c ': OK$' out)" 3 "three OK lines"
	has_line err "multisum: list: untagged digests are crc32c, not crc32 as taken by its length" \
	    "which CRC is said"
	x=$(multisum -a xxh128 a | cut -d' ' -f1)
	c=$(multisum -a crc32c a | cut -d' ' -f1)
	echo "a  $c  $x" > list
	status_is 1 "an XXH128 beside a CRC-32C: no stand-in for MD5" \
	    multisum -c list > out 2> err
	has_line out "a: FAILED" "FAILED"
}

run every_algorithm_reads_back
run whatever_the_name
run a_change_still_fails
run adversarial_lists
run one_read_for_the_stand_ins
run rhash_lines
finish
