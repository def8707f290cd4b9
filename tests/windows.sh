#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# windows.sh - -c of the hash files Windows' own tools write, byte for
# byte as they write them: CertUtil -hashfile (Windows 10 and Windows 7,
# redirected by cmd.exe or by PowerShell), PowerShell's Get-FileHash in
# its table and list layouts (Windows PowerShell 5.1's ">" writes
# UTF-16LE with a byte order mark and CRLF; PowerShell 7 writes UTF-8),
# and --expect with CertUtil's spaced hex.
. "$TESTS_SRCDIR/lib.sh"

have iconv || skip_all=1

# crlf: standard input with CRLF line ends.
crlf() {
	sed 's/$/\r/'
}

# utf16le / utf16be: standard input as PowerShell 5.1's Out-File writes
# it (a byte order mark, then UTF-16).
utf16le() {
	printf '\377\376'
	iconv -f UTF-8 -t UTF-16LE
}
utf16be() {
	printf '\376\377'
	iconv -f UTF-8 -t UTF-16BE
}

# certutil ALGO NAME HEX: one record as CertUtil -hashfile writes it,
# before the redirection's line ends and encoding.
certutil() {
	printf '%s hash of %s:\n%s\n' "$1" "$2" "$3"
	printf 'CertUtil: -hashfile command completed successfully.\n'
}

# The files every test hashes, and their digests.
setup() {
	[ -z "${skip_all:-}" ] || skip_test "no iconv"
	printf 'hello\n' > f.txt
	printf 'disk image\n' > 'my image.iso'
	S1=$(multisum -a sha256 f.txt | cut -c1-64)
	S2=$(multisum -a sha256 'my image.iso' | cut -c1-64)
	U1=$(printf '%s' "$S1" | tr a-f A-F)
	U2=$(printf '%s' "$S2" | tr a-f A-F)
	H1=$(multisum -a sha1 f.txt | cut -c1-40)
}

# CertUtil on Windows 10, run twice in PowerShell 5.1 with ">>" (one
# name as typed, one full path): UTF-16LE, CRLF.
test_certutil_powershell() {
	setup
	{
		certutil SHA256 f.txt "$S1"
		certutil SHA256 'C:\Users\me\Downloads\my image.iso' "$S2"
	} | crlf | utf16le > certutil.txt
	status_is 0 "CertUtil's UTF-16 output verifies" \
	    multisum -c certutil.txt > out 2> err
	has_line out "f.txt: OK" "the name as typed"
	has_line out "my image.iso: OK" "the full path, by its base name"
	has_line err "multisum: certutil.txt: C:\\Users\\me\\Downloads\\my image.iso is a Windows path: files are looked up by their base name beside the list (my image.iso)" \
	    "the base-name rule is said"
	is "$(wc -l < err | tr -d ' ')" 1 "once"
	# Out-File -Encoding utf8 of Windows PowerShell 5.1: UTF-8, a BOM
	{ printf '\357\273\277'; iconv -f UTF-16 -t UTF-8 < certutil.txt; } \
	    > certutil8.txt
	status_is 0 "the same in UTF-8 with a byte order mark" \
	    multisum -c certutil8.txt > out 2> /dev/null
	is "$(grep -c ': OK$' out)" 2 "both records"
	mkdir sub && cp certutil.txt 'my image.iso' sub/
	status_is 0 "beside the list, not in the current directory" \
	    multisum -c sub/certutil.txt > out 2> /dev/null
	has_line out "sub/my image.iso: OK" "found in the list's folder"
	echo changed >> f.txt
	status_is 1 "a changed file fails" multisum -c certutil.txt > out 2> err
	has_line out "f.txt: FAILED" "FAILED, as any line"
}

# CertUtil on Windows 7 ("hash of file NAME:", a space between bytes),
# redirected by cmd.exe: bytes as they are, CRLF.
test_certutil_windows7() {
	setup
	spaced=$(printf '%s' "$H1" | sed 's/../& /g; s/ $//')
	{
		certutil SHA1 'file f.txt' "$spaced"
	} | crlf > certutil7.txt
	status_is 0 "Windows 7's spaced digest verifies" \
	    multisum -c certutil7.txt > out 2> err
	has_line out "f.txt: OK" "its name without 'file '"
	{
		printf 'MD2 hash of f.txt:\n%s\n' "$(printf '%032d' 0)"
		printf 'CertUtil: -hashfile command FAILED: 0x80070002 (WIN32: 2 ERROR_FILE_NOT_FOUND)\n'
	} | crlf > bad.txt
	status_is 1 "an MD2 record and a failed run" multisum -c bad.txt \
	    > out 2> err
	has_line err "multisum: bad.txt: 2: f.txt: not verified: unsupported algorithm MD2" \
	    "MD2 is named"
	has_line err "multisum: bad.txt: 3: CertUtil reported an error here, not a digest" \
	    "CertUtil's failure is said"
	printf 'SHA256 hash of f.txt:\r\nCertUtil: -hashfile command completed successfully.\r\n' \
	    > cut.txt
	status_is 1 "a header without its digest" multisum -c cut.txt \
	    > out 2> err
	has_line err "multisum: cut.txt: 2: CertUtil's 'hash of NAME:' line is not followed by the digest" \
	    "the missing digest is said"
}

# table FILE ALG HASH PATH...: FILE as Windows PowerShell 5.1 saves
# Get-FileHash's table of those rows: a blank line, the column names (the
# Algorithm column 15 wide, Hash 70), the dashes under them, the rows,
# two blank lines; UTF-16LE, CRLF.
pad=$(printf '%70s' '')
table() {
	_file=$1
	shift
	{
		printf '\nAlgorithm       Hash%.67sPath\n' "$pad"
		printf -- '---------       ----%.67s----\n' "$pad"
		while [ $# -ge 3 ]; do
			printf '%-15s %s%.7s%s\n' "$1" "$2" "$pad" "$3"
			shift 3
		done
		printf '\n\n'
	} | crlf | utf16le > "$_file"
}

# Get-FileHash a, b > hashes.txt in Windows PowerShell 5.1: the table.
test_get_filehash_table() {
	setup
	table table.txt SHA256 "$U1" 'C:\Users\me\f.txt' \
	    SHA256 "$U2" 'C:\Users\me\my image.iso'
	status_is 0 "Get-FileHash's table verifies" multisum -c table.txt \
	    > out 2> err
	has_line out "f.txt: OK" "first row"
	has_line out "my image.iso: OK" "a Path with a blank"
	has_line err "multisum: table.txt: C:\\Users\\me\\f.txt is a Windows path: files are looked up by their base name beside the list (f.txt)" \
	    "the base-name rule is said once"
	# a window too narrow for the Path; a keyed MAC
	table narrow.txt SHA256 "$U1" 'C:\Users\me\Documents\Very Long Fol...' \
	    MACTripleDES "$U2" 'C:\Users\me\f.txt'
	status_is 1 "a cut Path and a keyed MAC" multisum -c narrow.txt \
	    > out 2> err
	has_line err "multisum: narrow.txt: 4: Get-FileHash's table cut the value short: write it with '| Format-List' (or widen the window)" \
	    "a Path cut short says how to get it whole"
	has_line err "multisum: narrow.txt: 5: f.txt: not verified: unsupported algorithm MACTripleDES" \
	    "MACTripleDES is not verified"
}

# Get-FileHash ... | Format-List: the list, a long Path wrapped; in
# UTF-16BE, and as PowerShell 7 writes it (UTF-8, no mark, LF, a path
# of this system).
test_get_filehash_list() {
	setup
	{
		printf '\n\nAlgorithm : SHA256\n'
		printf 'Hash      : %s\n' "$U1"
		printf 'Path      : C:\\Users\\me\\f.txt\n\n'
		printf 'Algorithm : SHA256\n'
		printf 'Hash      : %s\n' "$U2"
		printf 'Path      : C:\\Users\\me\\Downloads\\a folder with a long\n'
		printf '            name\\my image.iso\n\n\n\n'
	} | crlf > list.utf8
	utf16le < list.utf8 > list.txt
	status_is 0 "Get-FileHash's list verifies" multisum -c list.txt \
	    > out 2> err
	has_line out "f.txt: OK" "first record"
	has_line out "my image.iso: OK" "a wrapped Path is joined"
	utf16be < list.utf8 > listbe.txt
	status_is 0 "in UTF-16BE too" multisum -c listbe.txt > out 2> /dev/null
	is "$(grep -c ': OK$' out)" 2 "both records"
	printf 'Algorithm : SHA256\nHash      : %s\nPath      : %s/f.txt\n' \
	    "$U1" "$PWD" > ps7.txt
	status_is 0 "PowerShell 7's list of a path here" multisum -c ps7.txt \
	    > out 2> err
	has_line out "$PWD/f.txt: OK" "the path as it is"
	check "no base-name note for a path of this system" [ ! -s err ]
	printf 'Algorithm : SHA256\nHash      : %s\nPath      :\n' "$U1" \
	    > stream.txt
	status_is 1 "Get-FileHash -InputStream has no Path" \
	    multisum -c stream.txt > out 2> err
	check "the missing Path is said" grep -q "no Path (Get-FileHash -InputStream)" err
}

# A relative Windows path names its own folder: CertUtil echoes the name
# as typed (sub\f.txt, .\f.txt).  Its base name beside the list is
# another file, and must not answer for it.
test_relative_path() {
	setup
	mkdir sub && printf 'the one in sub\n' > sub/f.txt
	{
		certutil SHA256 'sub\f.txt' "$S1"
	} | crlf | utf16le > rel.txt
	status_is 1 "./f.txt's digest does not pass for sub\\f.txt" \
	    multisum -c rel.txt > out 2> err
	has_line out "sub/f.txt: FAILED" "sub/f.txt is the file checked"
	has_line err 'multisum: rel.txt: sub\f.txt is a relative Windows path: read as sub/f.txt' \
	    "the reading is said"
	{
		printf 'SHA256 hash of sub\\f.txt:\n%s\n' \
		    "$(multisum sub/f.txt | cut -c1-64)"
		printf 'SHA256 hash of .\\f.txt:\n%s\n' "$S1"
	} | crlf > rel2.txt
	status_is 0 "with slashes, the files of those folders" \
	    multisum -c rel2.txt > out 2> /dev/null
	has_line out "sub/f.txt: OK" "its own digest"
	has_line out "./f.txt: OK" "\".\\\" is the current folder"
}

# A record whose digest is not its algorithm's length says so.
test_wrong_length() {
	setup
	{
		certutil MD5 f.txt "$S1"
	} | crlf > md5.txt
	status_is 1 "an MD5 record holding 64 digits" multisum -c md5.txt \
	    > out 2> err
	has_line err "multisum: md5.txt: 2: MD5 digests have 32 hex digits, this one 64" \
	    "the lengths are said"
}

# A UTF-16 file cut to an odd number of bytes (a truncated copy) says so,
# named; the records before the cut still verify.
test_cut_utf16() {
	setup
	{
		certutil SHA256 f.txt "$S1"
	} | crlf | utf16le > whole.txt
	head -c -1 whole.txt > cut.txt
	multisum -c cut.txt > out 2> err
	has_line out "f.txt: OK" "the record before the cut verifies"
	has_line err "multisum: cut.txt: UTF-16 text of an odd number of bytes: cut short, its last line is broken" \
	    "the cut is said, named"
	multisum -c whole.txt > out 2> err
	lacks err "odd number" "not of a whole file"
}

# --expect takes CertUtil's digest as copied from its window.
test_expect_spaced() {
	setup
	spaced=$(printf '%s' "$H1" | sed 's/../& /g; s/ $//')
	status_is 0 "--expect with CertUtil's spaced hex" \
	    multisum --expect="$spaced" f.txt > out
	has_line out "f.txt: OK" "verified"
	wrong=$(printf '%s' "$spaced" | sed 's/^../00/')
	status_is 1 "a wrong spaced digest" multisum --expect="$wrong" f.txt \
	    > out 2> /dev/null
	has_line out "f.txt: FAILED" "FAILED"
}

# The old advice to convert the file with iconv is gone from the manual.
test_no_iconv_advice() {
	lacks "$TESTS_SRCDIR/../README.md" "iconv -f UTF-16" "README"
	lacks "$TESTS_SRCDIR/../man/multisum.1" "iconv" "the manual"
}

run certutil_powershell
run certutil_windows7
run get_filehash_table
run get_filehash_list
run relative_path
run wrong_length
run cut_utf16
run expect_spaced
run no_iconv_advice
finish
