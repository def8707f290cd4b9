#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# readback.sh - what a new user meets at the edges (issue 21): the tool's
# own output reads back with its own -c (SFV names, archive members of
# one name, cksum lines, untagged BLAKE2b of any length), and every
# refusal names the file and the cause.
. "$TESTS_SRCDIR/lib.sh"

# N5: SFV has no escaping; a name its line would not read back as is
# refused, one line each, and the rest of the list is written and reads
# back.  An SFV file that says it is one (rhash's ; header) holds them.
test_sfv_names() {
	echo 1 > 'x (y) = z'
	echo 2 > 'SHA256 (q) = 1'
	echo 3 > plain
	echo 4 > 'two words'
	status_is 1 "names SFV cannot hold: exit 1" multisum -a crc32 \
	    --format=sfv -- 'x (y) = z' 'SHA256 (q) = 1' plain 'two words' \
	    > l.sfv 2> err
	has_line err "multisum: 'x (y) = z': SFV cannot hold this name: its line would read back as a tagged line ('TAG (NAME) = DIGEST'); use another --format" \
	    "the refusal names the file and the cause"
	is "$(grep -c 'SFV cannot hold' err)" 2 "one line per name refused"
	is "$(wc -l < l.sfv | tr -d ' ')" 2 "the others are written"
	status_is 0 "what was written reads back" multisum -c l.sfv > out
	has_line out "two words: OK" "a name with a blank is fine"
	status_is 0 "from standard input too" multisum -c < l.sfv > /dev/null
	# 8 hex digits name a file as well as a CRC (issue 31): "deadbeef
	# 46EA081F" is SFV's line, not a reversed CRC of a file "46EA081F"
	echo 5 > deadbeef
	echo 6 > f1048577
	status_is 0 "names of 8 hex digits are written" multisum -a crc32 \
	    --format=sfv deadbeef f1048577 plain > hex 2> err
	is "$(cat err)" "" "and nothing refused"
	status_is 0 "they read back" multisum -c hex > out
	has_line out "deadbeef: OK" "the 8-hex name verified"
	has_line out "f1048577: OK" "the other too"
	status_is 0 "from standard input too" multisum -c < hex > out
	has_line out "f1048577: OK" "the 8-hex name from standard input"
	echo changed > deadbeef
	status_is 1 "a change shows" multisum -c hex > out 2> err
	has_line out "deadbeef: FAILED" "FAILED, not a line of another shape"
	if have rhash; then
		rhash --sfv -- 'x (y) = z' 'SHA256 (q) = 1' plain > r.sfv
		status_is 0 "rhash --sfv of those names verifies" \
		    multisum -c r.sfv > out 2> err
		has_line out "x (y) = z: OK" "read as SFV in an SFV file"
		has_line out "SHA256 (q) = 1: OK" "a tag-like name too"
		echo changed > 'x (y) = z'
		status_is 1 "and a change shows" multisum -c r.sfv > out 2> err
		has_line out "x (y) = z: FAILED" "FAILED, not unsupported"
	else
		skip_case "no rhash"
	fi
}

# A tar with two members named dup (tar -r appends the second).
two_dups() {
	echo first > dup
	echo x > other
	tar cf dup.tar dup other || return 1
	echo second > dup
	tar rf dup.tar dup
}

# N6: the n-th line naming a member takes the n-th member of that name,
# as hashing writes them, for every algorithm of the line.
test_archive_namesakes() {
	have tar || skip_test "no tar"
	two_dups || skip_test "tar cannot append"
	status_is 0 "hashing an archive with namesakes" \
	    multisum --archive=dup.tar > m
	is "$(grep -c '  dup$' m)" 2 "both members are listed"
	status_is 0 "its own manifest verifies" \
	    multisum -c --archive=dup.tar m > out 2> err
	is "$(grep -c '^dup: OK$' out)" 2 "each line against its member"
	multisum --archive=dup.tar -a md5,sha256 > t
	status_is 0 "two algorithms a member, tagged" \
	    multisum -c --archive=dup.tar t > out
	is "$(grep -c ': OK$' out)" 6 "every line OK"
	# the same lines in the other order: each meets the other member
	grep dup m | awk '{ l[NR] = $0 } END { for (i = NR; i; i--) print l[i] }' \
	    > swapped
	status_is 1 "lines swapped: archive order matters" \
	    multisum -c --archive=dup.tar swapped > out 2> err
	is "$(grep -c '^dup: FAILED$' out)" 2 "both FAILED"
	# a third line naming dup: no member left for it
	{ cat m; grep dup m | head -n 1; } > three
	status_is 1 "more lines than members" \
	    multisum -c --archive=dup.tar three > out 2> err
	has_line err "multisum: dup: more lines name it than the archive holds members of that name (the n-th line takes the n-th member)" \
	    "the extra line says why"
}

# N6: a member with an empty name has no line that reads back: hashing
# refuses it, with the archive's name, and goes on.
test_archive_unnamed_member() {
	have python3 || skip_test "no python3 to write the archive"
	python3 - <<'EOF' || skip_test "python3 tarfile failed"
import io, tarfile
with tarfile.open('e.tar', 'w') as t:
    for name, data in (('a', b'a\n'), ('', b'nameless\n'), ('b', b'b\n')):
        ti = tarfile.TarInfo(name)
        ti.size = len(data)
        t.addfile(ti, io.BytesIO(data))
EOF
	status_is 1 "an unnamed member: exit 1" multisum --archive=e.tar \
	    > out 2> err
	has_line err "multisum: e.tar: a member with an empty name: not hashed" \
	    "said with the archive's name"
	is "$(wc -l < out | tr -d ' ')" 2 "the others are hashed"
	check_not "no line without a name" grep -q '  $' out
	status_is 0 "the others read back" multisum -c --archive=e.tar out \
	    > /dev/null
}

# N8e: the tool's own -a cksum lines read back without -a; sum's 16-bit
# lines need -a to be told apart, and say so.
test_cksum_lines() {
	echo x > f
	multisum -a cksum f > CK
	status_is 0 "-c of -a cksum output" multisum -c CK > out 2> err
	has_line out "f: OK" "verified"
	echo y >> f
	status_is 1 "a change shows" multisum -c CK > out 2> err
	has_line err "multisum: CK: 'SUM SIZE NAME' lines were taken as cksum's (POSIX CRC); if they are sum's, give -a bsd (sum -r) or -a sysv (sum -s)" \
	    "the FAILED line says what was assumed"
	printf '130 1 f\n' > S
	status_is 1 "a 16-bit sum without -a" multisum -c S > out 2> err
	has_line err "multisum: S: 1: f: not verified: a 'SUM SIZE NAME' line of cksum, sum -r or sum -s: say which with -a cksum, -a bsd or -a sysv" \
	    "not guessed, and says how to tell"
	if have sum; then
		sum -s f > S
		status_is 0 "sum -s lines with -a sysv" multisum -c -a sysv S \
		    > /dev/null
	else
		skip_case "no sum"
	fi
}

# N8g: an untagged BLAKE2b digest of any length, with -a blake2b and no
# -l: its length from the digest, as b2sum -c does; -l fixes it.
test_blake2b_length_inferred() {
	echo x > f
	multisum -a blake2b -l 8 f > b8
	status_is 0 "-c -a blake2b of a blake2b-8 line" \
	    multisum -c -a blake2b b8 > out 2> err
	has_line out "f: OK" "its length from the digest"
	multisum -a blake2b -l 256 f > b256
	status_is 0 "-c -a blake2b of a blake2b-256 line" \
	    multisum -c -a blake2b b256 > /dev/null
	status_is 1 "-l 512 holds the line to 512 bits" \
	    multisum -c -a blake2b -l 512 b8 > /dev/null 2>&1
	status_is 1 "-a sha256 takes no other length" \
	    sh -c "'$MULTISUM' -a sha512 f | '$MULTISUM' -c -a sha256" \
	    > /dev/null 2>&1
	if have b2sum; then
		b2sum -c b8 > want 2>&1
		multisum -c -a blake2b b8 > got 2>&1
		same got want "as b2sum -c reads it"
	else
		skip_case "no b2sum"
	fi
}

# N8a, N8f, N10, B18: the refusal says what is wrong.
test_reasons() {
	echo x > f
	status_is 3 "--archive of a missing file" multisum --archive=none.tar \
	    > /dev/null 2> err
	has_line err "multisum: none.tar: No such file or directory" \
	    "the archive's reason, not libarchive's 'Failed to open'"
	mkdir d
	status_is 3 "--archive of a directory" multisum --archive=d \
	    > /dev/null 2> err
	has_line err "multisum: d: Is a directory" "a directory says so"
	status_is 3 "-c of a directory" multisum -c d > /dev/null 2> err
	has_line err "multisum: d: Is a directory" "as coreutils 9.4 says"
	usage_error "-a blake3 -l 4104" -a blake3 -l 4104 f
	multisum -a blake3 -l 4104 f 2> err
	has_line err "multisum: invalid length 4104 for 'blake3': 8 to 4096 bits, a multiple of 8" \
	    "the range is given"
	multisum -a sha3 -l 128 f 2> err
	has_line err "multisum: invalid length 128 for 'sha3': 224, 256, 384 or 512 bits" \
	    "a family's lengths are listed"
	printf 'f\0\0f\0' | multisum --files0-from=- > out 2> err
	is "$?" 1 "--files0-from with a zero-length name: exit 1"
	has_line err "multisum: -:2: invalid zero-length file name" \
	    "du's words, with the entry"
	is "$(wc -l < out | tr -d ' ')" 2 "the other entries are hashed"
	printf 'f\n\nf\n' | multisum --files-from=- > out 2> err
	is "$?" 0 "a blank line of --files-from is no entry"
}

# Tag lines of several digests are gathered for one write, up to 2 KiB:
# names that carry them past that are written whole and in order, as
# each digest's own run writes them, and read back.
test_long_names_in_tag_lines() {
	d=$(printf '%0200d' 0 | tr 0 d)
	p=t
	for n in 1 2 3 4 5 6 7 8 9 10 11; do
		p=$p/$d
		mkdir -p "$p"
		echo "$n" > "$p/f$n"
	done
	multisum -r -a md5,sha1,sha256,blake3,sha512 t > all ||
	    fail "the run failed"
	: > each
	find t -type f | LC_ALL=C sort | while read -r f; do
		for a in md5 sha1 sha256 blake3 sha512; do
			multisum --tag -a "$a" "$f" >> each
		done
	done
	sort all > all.sorted
	sort each > each.sorted
	same all.sorted each.sorted "each line as the digest's own run writes it"
	is "$(awk 'length > 2048' all | wc -l | tr -d ' ')" 10 \
	    "lines alone past 2 KiB (f10's and f11's, whose name alone is)"
	is "$(grep -c '/f[5-9]) = ' all)" 25 \
	    "and files whose five lines together are"
	status_is 0 "and they read back" multisum -c --quiet all
}

run sfv_names
run long_names_in_tag_lines
run archive_namesakes
run archive_unnamed_member
run cksum_lines
run blake2b_length_inferred
run reasons
finish
