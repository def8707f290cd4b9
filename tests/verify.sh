#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# verify.sh - what -c and --expect may believe: one algorithm per untagged
# digest (no false OK), the checksum files projects publish, and every
# line multisum writes read back (issues 9 and 10, verification side).
. "${TESTS_SRCDIR:-$(dirname "$0")}/lib.sh"

# --- issue 9 item 1, issue 31 item 4: an untagged digest is a guess; only
# what is no weaker may stand in for it, never a checksum for a digest

test_no_stand_in() {
	echo hello > f
	x=$(multisum -a xxh128 f | cut -d' ' -f1)
	b=$(multisum -a blake2b-256 f | cut -d' ' -f1)
	echo "$x  f" > list
	status_is 1 "an XXH128 digest in a 32-hex line fails" \
		multisum -c list > out 2> err
	has_line out "f: FAILED" "the FAILED line is coreutils-shaped"
	check "one hint names the assumed algorithm and the -a to give" \
		grep -q "taken as md5 (by its length).*-a (md4, xxh128, ed2k, ed2k-edonkey)" err
	status_is 0 "-a xxh128 verifies it" multisum -c -a xxh128 list > /dev/null
	status_is 1 "--expect: XXH128 is no stand-in for MD5" \
		multisum --expect="$x" f > /dev/null 2>&1
	# the adversarial list: a file made to match an XXH128 under MD5's name
	cp list MD5SUMS
	cp list f.md5
	for l in MD5SUMS f.md5; do
		status_is 1 "$l holding an XXH128: FAILED" multisum -c $l > out 2> err
		has_line out "f: FAILED" "$l: never OK"
		lacks err "untagged digests are" "$l: no stand-in was taken"
	done
	status_is 1 "-j 1 too" multisum -j 1 -c MD5SUMS > /dev/null 2>&1
	multisum -a md4 f > list 2> /dev/null &&
	    status_is 1 "MD4, broken, is no stand-in for MD5" multisum -c list \
	    > /dev/null 2>&1
	echo "$b  f" > list
	status_is 0 "a BLAKE2b-256 digest in a 64-hex line verifies" \
		multisum -c list > out 2> err
	has_line out "f: OK" "a secure digest stands in for SHA-256"
	has_line err "multisum: list: untagged digests are blake2b-256, not sha256 as taken by its length" \
		"which one matched is said"
	status_is 0 "--expect: BLAKE2b-256 stands in for SHA-256" \
		multisum --expect="$b" f > /dev/null 2> err
	has_line err "multisum: --expect: the digest is blake2b-256, not sha256 as taken by its length" \
		"--expect says which"
	multisum f > list
	status_is 0 "a SHA-256 line verifies" multisum -c --debug list > out 2> err
	check "--debug names the algorithm of the line" \
		grep -q "debug: list: 1: f: sha256 (by its length)" err
	lacks err "untagged digests are" "a guess that matched is not remarked"
}

test_ambiguous_length() {
	echo hello > f
	multisum -a crc32 f > list
	status_is 0 "8 hex digits: SFV's CRC-32" multisum -c list > out 2> err
	has_line out "f: OK" "verified"
	check "the non-cryptographic guess is named" grep -q "taken as crc32" err
	# a checksum may stand in for a checksum: none is harder to forge
	for a in crc32c xxh32; do
		multisum -a $a f > list
		status_is 0 "8 hex digits of $a verify" multisum -c list > out 2> err
		has_line err "multisum: list: untagged digests are $a, not crc32 as taken by its length" \
			"$a: said"
	done
	multisum -a crc32 f > list
	status_is 0 "-a crc32 verifies it" multisum -c -a crc32 list > /dev/null 2>&1
	multisum -a xxh64 f > list
	status_is 0 "16 hex digits: XXH64, the only bare writer" \
		multisum -c list > /dev/null 2> err
	check "the non-cryptographic default is named" grep -q "taken as xxh64" err
}

# --- issue 9 item 3: misreads and false alarms

test_unsupported_algorithm() {
	echo hello > f
	sum=$(multisum f | cut -d' ' -f1)
	{ echo "BLAKE7 (f) = $sum"; echo "SHA256 (f) = $sum"; } > list
	status_is 1 "a line this build cannot verify fails the run" \
		multisum -c list > out 2> err
	has_line out "f: OK" "the other line is verified"
	lacks out "FAILED" "the unsupported line is not FAILED"
	check "it says unsupported algorithm" grep -q "unsupported algorithm BLAKE7" err
}

test_gpg_print_md() {
	echo hello > f
	cat > list <<-'EOF'
	f: 5891B5B5 22D5DF08 6D0FF0B1 10FBD9D2 1BB4FC71 63AF34D0 8286A2E8 46F6BE03
	f: E7C22B99 4C59D9CF 2B48E549 B1E24666 63604593 0D3DA7C1 ACB299D1 C3B7F931
	   F94AAE41 EDDA2C2B 207A36E1 0F8BCB8D 45223E54 878F5B31 6E7CE3B6 BC019629
	f: B1 94 6A C9 24 92 D2 34  7C 62 35 B4 D2 61 11 84
	EOF
	status_is 0 "gpg --print-md records verify" multisum -c --strict list > out 2> err
	is "$(grep -c '^f: OK$' out)" 3 "three records, three OK lines"
	check "nothing is read as a line of CRCs" test ! -s err
	cat > f.mds <<-'EOF'
	f:    MD5 = B1 94 6A C9 24 92 D2 34  7C 62 35 B4 D2 61 11 84
	f: SHA512 = E7C22B99 4C59D9CF 2B48E549 B1E24666 63604593 0D3DA7C1 ACB299D1
	            C3B7F931 F94AAE41 EDDA2C2B 207A36E1 0F8BCB8D 45223E54 878F5B31
	            6E7CE3B6 BC019629
	EOF
	status_is 0 "Apache .mds records verify" multisum -c --strict f.mds > out
	is "$(grep -c '^f: OK$' out)" 2 "two records, two OK lines"
	if have gpg; then
		GNUPGHOME=$PWD/gnupg gpg --print-md sha384 f > f.sha384 2> /dev/null
		status_is 0 "gpg's own output verifies" multisum -c f.sha384 > /dev/null
	else
		skip_case "no gpg"
	fi
	echo changed > f
	status_is 1 "a changed file fails" multisum -c list > out 2>&1
	is "$(grep -c '^f: FAILED$' out)" 3 "three FAILED lines"
}

test_rhash_lines() {
	have rhash || skip_test "no rhash"
	echo hello > f
	rhash --md5 --sha1 --sha256 f > multi
	rhash --sfv --sha256 f > sfv256
	rhash --simple --md5 --sha1 f > simple
	for m in multi sfv256 simple; do
		status_is 0 "rhash $m verifies" multisum -c --strict "$m" > out
		has_line out "f: OK" "rhash $m: OK"
	done
	echo tampered >> f
	status_is 1 "rhash multi-hash line: a change fails" multisum -c multi > out 2>&1
	has_line out "f: FAILED" "rhash multi: FAILED"
}

# RHash writes a line's digests in its own fixed order: two of one length
# are told apart only by -a naming both, and then by their places.
test_rhash_same_length() {
	have rhash || skip_test "no rhash"
	echo hello > f
	rhash --sha3-256 --sha256 f > two
	status_is 1 "without -a: not verified" multisum -c two > out 2> err
	has_line err "multisum: two: 1: f: not verified: digests of one length, not told apart: -a must name one algorithm for each" \
	    "the line says why"
	check_not "neither OK nor FAILED" grep -q "^f:" out
	status_is 1 "-a naming one of them: not verified" \
	    multisum -c -a sha256 two > out 2> err
	check "-a sha256 alone: the line says why" grep -q 'not told apart' err
	status_is 0 "-a naming both, in any order: verified" \
	    multisum -c -a sha3-256,sha256 two > out
	has_line out "f: OK" "both: OK"
	multisum -c --debug -a sha3-256,sha256 two 2> err > /dev/null
	check "--debug names both, in the line's order" \
	    grep -q 'f: sha256 sha3-256 (by -a)' err
	# the same digests in the other places must not pass
	awk '{ print $1, $3, $2 }' two > swapped
	status_is 1 "swapped columns fail" multisum -c -a sha256,sha3-256 swapped > out 2>&1
	has_line out "f: FAILED" "swapped: FAILED"
	rhash --md4 --md5 --sha1 f > three
	status_is 0 "md4 and md5 beside sha1" multisum -c -a md5,sha1,md4 three > out
	has_line out "f: OK" "three: OK"
	echo tampered >> f
	status_is 1 "a change fails" multisum -c -a sha256,sha3-256 two > out 2>&1
	has_line out "f: FAILED" "changed: FAILED"
}

test_pgp_clearsigned() {
	echo hello > a
	echo world > b
	cat > SUMS.asc <<-'EOF'
	-----BEGIN PGP SIGNED MESSAGE-----
	Hash: SHA256

	5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03  a
	e258d248fda94c63753607f7c4494ee0fcbe92f1a76bfdac795c9d84101eb317  b
	-----BEGIN PGP SIGNATURE-----

	iHUEARYIAB0WIQSBGYc+EtHZcu0lq9mRc5yhqwS4rQUCaw5FGQAKCRCRc5yhqwS4
	rUFJAQDl3UJsoVaxNEa0wXhNrcacNnpfokW+0pDpjRppoxL/qAD/U4/Xe6sDsDnm
	MLTbD7V5+x29PbWA5McCBtC1xlM2/Ag=
	=uQXT
	-----END PGP SIGNATURE-----
	EOF
	status_is 0 "the signed body verifies with --strict -w" \
		multisum -c --strict -w SUMS.asc > out 2> err
	# without --keyring, one line says the signature was not checked
	has_line err "multisum: SUMS.asc: its PGP signature was NOT checked (check it with --keyring=KEYRING)" \
		"the unchecked signature is said"
	is "$(wc -l < err)" 1 "and nothing else"
	has_line out "a: OK" "a verified"
	has_line out "b: OK" "b verified"
	echo c > c
	multisum c >> SUMS.asc
	status_is 4 "a line after the signature fails the run" \
		multisum -c SUMS.asc > out 2> err
	lacks out "c: OK" "the unsigned line is never verified"
	check "it is reported" grep -q "13: outside the signed part" err
	{ multisum c; cat SUMS.asc; } > pre.asc
	status_is 4 "a line before the header fails the run" \
		multisum -c pre.asc > out 2> err
	lacks out "c: OK" "the line before the header is never verified"
}

# --- issue 9: published checksum files

test_hex_only_file() {
	echo image > file.iso
	multisum file.iso | cut -d' ' -f1 | tr -d '\n' > file.iso.sha256
	multisum -a sha1 file.iso | cut -d' ' -f1 > file.iso.sha1
	status_is 0 "file.iso.sha256 (no newline) verifies file.iso" \
		multisum -c file.iso.sha256 > out
	has_line out "file.iso: OK" "named after the checksum file"
	status_is 0 "file.iso.sha1 verifies file.iso" multisum -c file.iso.sha1 > out
	echo changed > file.iso
	status_is 1 "a changed file.iso fails" multisum -c file.iso.sha256 > /dev/null 2>&1
}

test_expect_spellings() {
	echo hello > f
	h=$(multisum f | cut -d' ' -f1)
	sri=$(openssl dgst -sha384 -binary f | openssl base64 -A)
	for e in "sha256:$h" "sha256=$h" "SHA256:$h" " $h " "$h
" "$h  f" "sha384-$sri"; do
		status_is 0 "--expect='$e'" multisum --expect="$e" f > /dev/null
	done
	crlf=$(printf '%s\r' "$h")
	status_is 0 "--expect with a trailing CR" multisum --expect="$crlf" f > /dev/null
	x=$(multisum -a xxh128 f | cut -d' ' -f1)
	status_is 0 "a prefix names the algorithm: xxh128:HEX" \
		multisum --expect="xxh128:$x" f > /dev/null
	status_is 1 "a prefix overrides the length: md5:XXH128 fails" \
		multisum --expect="md5:$x" f > /dev/null 2>&1
}

test_ndjson_read_back() {
	printf 'x' > 'a"b'
	printf 'y' > "$(printf 'n\nl')"
	multisum --format=ndjson -a sha256,md5 'a"b' "$(printf 'n\nl')" > m.ndjson
	status_is 0 "NDJSON is read back" multisum -c --strict m.ndjson > /dev/null
	echo z > 'a"b'
	status_is 1 "NDJSON: a change fails" multisum -c m.ndjson > /dev/null 2>&1
}

test_xxh3_untagged() {
	echo hello > f
	multisum -a xxh3 f > list
	check "untagged XXH3 is written as xxhsum 0.8.3 does" grep -q '^XXH3_' list
	status_is 0 "and read back" multisum -c list > /dev/null
	printf 'XXH3_%s  f\n' "$(multisum -a xxh3 --tag f | sed 's/.* = //')" > x
	status_is 0 "xxhsum 0.8.3 lines verify" multisum -c x > /dev/null
	if have xxhsum && xxhsum -H3 f 2>/dev/null | grep -q '^XXH3_'; then
		status_is 0 "xxhsum -c reads it" xxhsum -c list > /dev/null
	else
		skip_case "xxhsum older than 0.8.3 reads no XXH3_ lines"
	fi
}

test_openssl_shake() {
	have openssl || skip_test "no openssl"
	echo hello > f
	openssl dgst -shake128 f > s128
	openssl dgst -shake256 f > s256
	status_is 0 "SHAKE-128 lines verify" multisum -c --strict s128 > /dev/null
	status_is 0 "SHAKE-256 lines verify" multisum -c --strict s256 > /dev/null
}

# UTF-16 with a byte order mark is decoded (windows.sh has CertUtil's
# and Get-FileHash's files); what it holds is judged as any manifest.
test_utf16() {
	echo hello > f
	printf '\377\376S\000H\000A\000\n\000' > ps.txt
	status_is 1 "UTF-16 of no checksum line" multisum -c ps.txt > out 2> err
	has_line err "multisum: ps.txt: no properly formatted checksum lines found" \
	    "judged as text, with no advice to convert it"
	multisum f > u8
	{ printf '\376\377'; sed 's/./\x00&/g; s/$/\x00\r\x00/' u8; } > u16be
	status_is 0 "a UTF-16BE manifest with CRLF verifies" multisum -c u16be \
	    > out
	has_line out "f: OK" "its entry is read"
}

# --- issue 10

test_b1_zero() {
	for i in 1 2 3; do echo "file $i" > "f$i"; done
	multisum -z f1 f2 f3 > SUMS.z
	status_is 0 "-c -z reads every entry" multisum -c -z SUMS.z > out
	is "$(grep -c ': OK' out)" 3 "three OK lines"
	echo tampered >> f3
	status_is 1 "-c -z: the last entry is checked too" multisum -c -z SUMS.z > out 2>&1
	has_line out "f3: FAILED" "f3 FAILED"
	status_is 1 "without -z: refused, not half read" \
		multisum -c --strict SUMS.z > out 2> err
	check "the refusal names -z" grep -q -- "-c -z" err
}

test_b21_base64_by_length() {
	printf '22\n' > f	# its BLAKE2b-24 in base64 is "784e"
	multisum -a blake2b-24 --base64 --tag f > s
	has_line s "BLAKE2b-24 (f) = 784e" "the digest is all hex digits"
	status_is 0 "BLAKE2b-24 base64 '784e' verifies" multisum -c s > /dev/null
	status_is 0 "and as --expect" multisum -a blake2b-24 --expect=784e f > /dev/null
}

test_b9_everything_written_verifies() {
	printf 'round trip\n' > f
	algos=$(multisum --list-algorithms | awk 'NR > 1 { print $1 }' |
		sed 's/-N$/-136/')
	for a in $algos; do
		for fmt in "--tag" "--tag --base64" "" "--base64" "--format=ndjson" "-z"; do
			multisum -a "$a" $fmt f > m 2> /dev/null || continue
			z=
			case $fmt in -z) z=-z ;; esac
			if ! multisum -c --strict $z m > /dev/null 2>&1 &&
			   ! multisum -c --strict -a "$a" $z m > /dev/null 2>&1; then
				fail "-a $a $fmt: not verified"
			else
				pass
			fi
		done
	done
	multisum -a all f > all
	status_is 0 "-a all verifies with --strict" multisum -c --strict all > /dev/null
	multisum -a crc32 --format=sfv f > s
	status_is 0 "SFV verifies" multisum -c --strict s > /dev/null
}

test_b8_sfv_content() {
	echo a > a
	multisum -a crc32 --format=sfv a > list
	status_is 0 "SFV is detected by content" multisum -c list > /dev/null
	status_is 0 "from standard input too" multisum -c < list > /dev/null
	echo 1 > ';semi'
	echo 2 > '#hash'
	status_is 1 "names SFV cannot hold are refused" \
		multisum -a crc32 --format=sfv a ';semi' '#hash' > l.sfv 2> err
	is "$(wc -l < l.sfv | tr -d ' ')" 1 "only a is written"
	is "$(grep -c 'SFV cannot hold' err)" 2 "each refusal is said"
}

test_b7_sha512_t_tags() {
	echo hi > f
	multisum -a sha512-224,sha512-256 --tag f > t
	if cksum -c t > out 2>&1; then pass; else
		check "coreutils cksum rejects, never misreads" \
			grep -q "no properly formatted" out
		lacks out "FAILED" "coreutils says no FAILED"
	fi
	status_is 0 "multisum reads what it writes" multisum -c t > /dev/null
	sed 's/SHA2-512\//SHA512-/' t > old
	check "the old spelling was written" grep -q "^SHA512-224 " old
	status_is 0 "the old spelling is still read" multisum -c old > /dev/null
}

test_b13_one_stdin_reader() {
	echo x > f
	echo 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  -' > dash
	multisum f > m2
	i=0
	while [ $i -lt 2000 ]; do cat m2; i=$((i + 1)); done > m2000
	# One reader of standard input: the manifest; the "-" entry is not
	# hashed, the same at every -j.
	for j in 1 2 2 2; do
		status_is 1 "-j$j: '-' in a manifest, then '-' as a manifest" \
			multisum -c -j$j --quiet dash - < m2000 > out 2> err
		has_line out "-: FAILED open or read" "-j$j: the entry is refused"
		lacks err "improperly formatted" "-j$j: no torn lines"
		check "-j$j: which says so" grep -q "standard input is read as a manifest" err
		lacks out "f: FAILED" "-j$j: the manifest is read whole"
	done
}

test_b5_b17_archive() {
	have tar || skip_test "no tar"
	have python3 || skip_test "no python3"
	echo hello > a.txt
	tar cf arch.tar a.txt
	python3 -c "
import hashlib
d = open('a.txt','rb').read()
for k in range(1, 65):
    print('BLAKE2b-%d (a.txt) = %s' % (k*8, hashlib.blake2b(d, digest_size=k).hexdigest()))
print('SHA256 (a.txt) = ' + '00' * 32)
" > many
	status_is 1 "65 digests of one member: refused, not truncated" \
		multisum -c --archive=arch.tar many > out 2> err
	is "$(grep -c 'a.txt: OK' out)" 64 "the 64 digests computed are OK, no more"
	check "the reason is given" grep -q "more digests of one archive member" err
	echo real > real
	ln real link
	tar cf hl.tar real link
	multisum link | sed 's/link$/link/' > onlylink
	status_is 1 "a hard link whose target is not listed" \
		multisum -c --archive=hl.tar onlylink > out 2> err
	lacks err "No such file" "not 'No such file'"
	check "it says to list the target" grep -q "list the target too" err
}

run no_stand_in
run ambiguous_length
run unsupported_algorithm
run gpg_print_md
run rhash_lines
run rhash_same_length
run pgp_clearsigned
run hex_only_file
run expect_spellings
run ndjson_read_back
run xxh3_untagged
run openssl_shake
run utf16
run b1_zero
run b21_base64_by_length
run b9_everything_written_verifies
run b8_sfv_content
run b7_sha512_t_tags
run b13_one_stdin_reader
run b5_b17_archive
finish
