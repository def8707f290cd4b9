#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# personality.sh - differential test of the coreutils personalities.
#
# For each tool, multisum is linked under the tool's name and run beside
# GNU coreutils 9.1's own program on the same arguments, files and input
# (cksum where 9.11 changed nothing: cksum_911 below);
# standard output must be byte-identical, standard error identical once
# the directory part of the program name is removed, and the exit status
# the same.  Each case is one check; one test per tool, then b2sum's -l,
# cksum's -a and cksum's mixed manifests.

. "$TESTS_SRCDIR/lib.sh"

TOOLS="md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum cksum"

# Every test starts here: the tools of coreutils 9.1 (else the test is
# skipped) and multisum under their names, and the files they read.
setup() {
	need_coreutils_91 $TOOLS
	T=$(pwd)
	REAL=$T/real
	MINE=$T/mine
	W=$T/work
	mkdir -p "$REAL" "$MINE" "$W"
	for t in $TOOLS; do
		ln -s "$(command -v "$t")" "$REAL/$t"
		ln -s "$MULTISUM" "$MINE/$t"
	done
	(
		cd "$W" || exit 1
		: > empty
		printf 'hello\n' > a
		printf 'x\n' > b
		awk 'BEGIN { for (i = 0; i < 70000; i++) printf "%07d line of text\n", i }' > big
		printf 'sp' > 'sp ace'
		printf 'bs' > 'back\slash'
		printf 'nl' > "$(printf 'new\nline')"
		printf 'cr' > "$(printf 'car\rriage')"
		printf 'q' > "quo'te"
		printf 'u' > "$(printf 'caf\303\251')"
		printf 'c' > 'co:lon'
		printf 'd' > -dash
		mkdir dir
	)
	printf 'stdin data\n' > "$T/in"
	cd "$W" || exit 1
}
NL=$(printf 'new\nline')
CR=$(printf 'car\rriage')

IN=/dev/null

# The cases where cksum follows coreutils 9.11, which changed 9.1's
# behaviour there: not compared with 9.1 but skipped, and held to 9.11's
# words by cksum-face.sh.  In order: a directory is an error for the CRC
# too; -b, -t, --binary and --text are options, and -t needs --untagged;
# --tag with -c is refused; -l is checked once the options are read;
# -a's lists name crc32b, sha2 and sha3; --debug's words; -c reads
# "SHA2-256(" and base64 digests, but neither "TAG  (" nor "SHA256- 128".
cksum_911() {	# TOOL DESC -> true for such a case
	[ "$1" = cksum ] || return 1
	case $2 in
	'missing file and directory'|'-a crc directory'|'hashing with errors'|\
	--binary|'--binary --text'|--text|-b|-t|'--tag -b'|'--tag -t'|\
	'-t --tag'|'-c -b'|'-c -t'|'--tag -c'|'-c --tag'|\
	'-l 8'|'-l 7 -a md5'|'-a md5 -l 1024'|'-a md5 -l 8'|'-l 8 -a md5'|\
	'-l 8 without -a'|"-a '"*|'-a foo, C locale'|'-a bsd -c'|\
	'-a sysv -c'|'-a crc -c'|--debug|'--debug crc'|\
	'--debug crc missing first'|'-c malformed'|'-c -w malformed'|\
	'-c --strict malformed'|'-c mixed algorithms'|\
	'-c -w mixed algorithms'|'-a sha256 -c mixed'|'-a blake2b -c mixed')
		return 0 ;;
	esac
	return 1
}

# run_case TOOL DESC ARG...: one differential check.
run_case() {
	_t=$1 _d=$2
	shift 2
	if cksum_911 "$_t" "$_d"; then
		skip_case "cksum $_d: 9.11 changed it (cksum-face.sh)"
		return
	fi
	(cd "$W" && "$REAL/$_t" "$@" < "$IN" > "$T/r.out" 2> "$T/r.err")
	_rr=$?
	(cd "$W" && "$MINE/$_t" "$@" < "$IN" > "$T/m.out" 2> "$T/m.err")
	_mr=$?
	for _s in r m; do
		sed -e "s|$REAL/||g" -e "s|$MINE/||g" "$T/$_s.err" > "$T/$_s.err2"
	done
	if [ "$_rr" = "$_mr" ] && cmp -s "$T/r.out" "$T/m.out" &&
	    cmp -s "$T/r.err2" "$T/m.err2"; then
		pass
	else
		fail "$_t $_d"
		{
			echo "args: $*"
			echo "status: coreutils $_rr, multisum $_mr"
			diff "$T/r.out" "$T/m.out" | head -n 20
			diff "$T/r.err2" "$T/m.err2" | head -n 20
		} | diag -
	fi
}

# run_merged TOOL DESC ARG...: standard output and error in one stream,
# so that the order of diagnostics among result lines is compared too.
run_merged() {
	_t=$1 _d=$2
	shift 2
	if cksum_911 "$_t" "$_d"; then
		skip_case "cksum $_d: 9.11 changed it (cksum-face.sh)"
		return
	fi
	(cd "$W" && "$REAL/$_t" "$@" < "$IN" 2>&1 | sed "s|$REAL/||g") > "$T/r.out"
	(cd "$W" && "$MINE/$_t" "$@" < "$IN" 2>&1 | sed "s|$MINE/||g") > "$T/m.out"
	if cmp -s "$T/r.out" "$T/m.out"; then
		pass
	else
		fail "$_t $_d (merged output)"
		diff "$T/r.out" "$T/m.out" | head -n 20 | diag -
	fi
}

# Manifest lines built around the digest of file a for tool t.
digest_of() {	# TOOL FILE -> bare hex digest
	case $1 in
	cksum) "$REAL/cksum" -a sha256 --untagged "$2" ;;
	*) "$REAL/$1" "$2" ;;
	esac | sed 's/ .*//'
}

tag_of() {
	case $1 in
	md5sum) echo MD5 ;; sha1sum) echo SHA1 ;; sha224sum) echo SHA224 ;;
	sha256sum|cksum) echo SHA256 ;; sha384sum) echo SHA384 ;;
	sha512sum) echo SHA512 ;; b2sum) echo BLAKE2b ;;
	esac
}

# ------------------------------------------------------------- hashing
hash_cases() {
	t=$1
	run_case "$t" "one file" a
	run_case "$t" "empty file" empty
	run_case "$t" "large file" big
	run_case "$t" "several files" a b empty big
	run_case "$t" "missing file and directory" a nofile dir b
	run_case "$t" "odd names" 'sp ace' 'back\slash' "$NL" "$CR" "quo'te" \
	    "$(printf 'caf\303\251')" co:lon
	run_case "$t" "missing odd names" 'no such' "$(printf 'no\nsuch')" \
	    "no'such" 'no\such' "$(printf 'no\001such')" '~x' 'x~' '#x' \
	    'a{b' '{' 'x=y' 'a:b' "$(printf 'x\377y')" "$(printf 'tab\there')" \
	    'a"b' "a'b c" 'a$b' 'a?b' 'a@b%+,.-_]'
	LC_ALL=C run_case "$t" "missing odd names, C locale" \
	    "$(printf 'caf\303\251')" "$(printf 'no\nsuch')" 'no such'
	run_case "$t" "-- and a dash name" -- -dash
	IN=$T/in
	run_case "$t" "standard input" 
	run_case "$t" "standard input as -" -
	run_case "$t" "standard input twice" - a -
	IN=/dev/null
	run_case "$t" "-z" -z a "$NL" 'back\slash'
	run_case "$t" "--zero" --zero a b
	run_case "$t" "--tag" --tag a "$NL" 'back\slash' "$CR"
	run_case "$t" "--tag -z" --tag -z a "$NL"
	run_case "$t" "--tag -b" --tag -b a
	run_case "$t" "--tag -t" --tag -t a
	run_case "$t" "-t --tag" -t --tag a
	run_case "$t" "-b" -b a "$NL"
	run_case "$t" "--binary --text" --binary --text a
	run_case "$t" "--text" --text a
	run_case "$t" "unknown short option" -x a
	run_case "$t" "unknown long option" --frobnicate a
	run_case "$t" "ambiguous option" --st a
	run_case "$t" "option with a needless argument" --check=x a
	run_case "$t" "abbreviated option" --ta a
	run_case "$t" "--quiet without -c" --quiet a
	run_case "$t" "--status without -c" --status a
	run_case "$t" "--warn without -c" -w a
	run_case "$t" "--strict without -c" --strict a
	run_case "$t" "--ignore-missing without -c" --ignore-missing a
	run_case "$t" "-c --tag" -c --tag m
	run_case "$t" "-c -b" -c -b m
	run_case "$t" "-c -t" -c -t m
	run_case "$t" "-c -z" -c -z m
	run_case "$t" "-z -c --tag" -z -c --tag m
	run_case "$t" "--untagged" --untagged a
	run_case "$t" "-l 8" -l 8 a
	run_case "$t" "-a md5" -a md5 a
	run_case "$t" "--debug" --debug a
}

b2sum_cases() {
	for l in 8 128 256 512 0 7 520 x -8 +16 ' 16' 0x10 16k '' \
	    99999999999999999999999 18446744073709551615 1024; do
		run_case b2sum "-l '$l'" -l "$l" a
	done
	run_case b2sum "-l16 --tag" -l16 --tag a "$NL"
	run_case b2sum "--length=256 -c" --length=256 -c m
	run_case b2sum "-l with -l later" -l 7 -l 16 a
	run_case b2sum "-l missing argument" -l
	LC_ALL=C run_case b2sum "-l 7, C locale" -l 7 a
	run_case b2sum "-l 1024 then -l 7" -l 1024 -l 7 a
	run_case b2sum "-l 1024 then -l 16" -l 1024 -l 16 a
	run_case b2sum "-l 7 then a bad option" -l 7 --foo
}

cksum_cases() {
	for alg in bsd sysv crc md5 sha1 sha224 sha256 sha384 sha512 blake2b sm3; do
		run_case cksum "-a $alg" -a "$alg" a empty "$NL"
		run_case cksum "-a $alg stdin" -a "$alg"
		run_case cksum "-a $alg directory" -a "$alg" dir a
		run_case cksum "-a $alg --untagged" -a "$alg" --untagged a "$NL"
		run_case cksum "-a $alg -z" -a "$alg" -z a "$NL"
		run_case cksum "-a $alg -c" -a "$alg" -c m
	done
	for bad in foo MD5 '' sha SHA256 crc32 blake2s; do
		run_case cksum "-a '$bad'" -a "$bad" a
	done
	run_case cksum "-a missing argument" -a
	LC_ALL=C run_case cksum "-a foo, C locale" -a foo a
	run_case cksum "-l 7 -a md5" -l 7 -a md5 a
	run_case cksum "-a md5 -l 1024" -a md5 -l 1024 a
	run_case cksum "-a blake2b -l 256" -a blake2b -l 256 a
	run_case cksum "-a blake2b -l 7" -a blake2b -l 7 a
	run_case cksum "-a blake2b -l 1024" -a blake2b -l 1024 a
	run_case cksum "-l 8 without -a" -l 8 a
	run_case cksum "-a md5 -l 8" -a md5 -l 8 a
	run_case cksum "-a md5 -l 0" -a md5 -l 0 a
	run_case cksum "-a md5 -l x" -a md5 -l x a
	run_case cksum "-l 8 -a md5" -l 8 -a md5 a
	run_case cksum "--tag --untagged" -a sha1 --tag --untagged a
	run_case cksum "--untagged --tag" -a sha1 --untagged --tag a
	run_case cksum "-b" -b a
	run_case cksum "-t" -a md5 -t a
	run_case cksum "--binary" --binary a
	run_case cksum "-a crc -c" -a crc -c m
	run_case cksum "-a sysv -c" -a sysv -c nothere
	run_case cksum "--tag -c" --tag -c m
	run_case cksum "--debug crc" --debug a b
	run_case cksum "--debug crc missing first" --debug nofile a
	run_case cksum "--debug sha256" --debug -a sha256 a
	IN=$T/in
	run_case cksum "stdin named" -
	IN=/dev/null
}

# ------------------------------------------------------------ checking
# Write the manifests every check case reads, with the real tool.
make_manifests() {
	t=$1 h=$(digest_of "$t" a) tag=$(tag_of "$t")
	case $t in
	cksum) gen() { "$REAL/cksum" -a sha256 "$@"; } ;;
	*) gen() { "$REAL/$t" "$@"; } ;;
	esac
	gen a b empty big > m
	gen a 'sp ace' 'back\slash' "$NL" "$CR" "quo'te" > odd
	gen --tag a "$NL" 'back\slash' > tagged 2>/dev/null || :
	gen a b > bad; printf 'corrupt' >> bad; gen a >> bad
	cp m mismatch
	printf 'X' > changed
	gen changed > changed.m
	printf 'Y' > changed
	gen a nofile 2>/dev/null > missing
	printf '%s  nofile\n%s  other-missing\n' "$h" "$h" > allmissing
	printf '%s  dir\n%s  a\n' "$h" "$h" > withdir
	{
		echo '# a comment'
		echo
		gen a
		echo 'garbage line'
		echo "$h"
		echo "$h "
		echo "$h  "
		echo "$h *"
		echo "${h}0  a"
		echo "$h	a"
		echo "$(echo "$h" | cut -c2-)  a"
		echo "$(echo "$h" | tr a-f A-F)  a"
		echo "  $h  a"
		echo "\\$h  a\\qb"
		echo "\\$h  a\\"
		echo "$tag (a) = $h"
		echo "$tag (a)= $h"
		echo "$tag(a)= $h"
		echo "$tag  (a) = $h"
		echo "$tag (a) = $h trailing"
		echo "$tag (a) = "
		echo "$tag (a = $h"
		echo "$tag-256 (a) = $h"
		echo "${tag}X (a) = $h"
		echo "MD5 (a) = d41d8cd98f00b204e9800998ecf8427e"
		echo "SHA1 (a) = da39a3ee5e6b4b0d3255bfef95601890afd80709"
		echo "BLAKE2b-128 (a) = ea41b4de6c03f13a95758b28dd75693e"
		echo "BLAKE2b-0x80 (a) = ea41b4de6c03f13a95758b28dd75693e"
		echo "BLAKE2b-129 (a) = ea41b4de6c03f13a95758b28dd75693e"
		echo "BLAKE2b-16 (a) = 9265"
		echo "SHA2-256(a)= $h"
		echo "ea41b4de6c03f13a95758b28dd75693e  a"
		echo "ab  a"
		echo "a  a"
		echo '#'
		echo ' # not a comment'
		printf '\r\n'
		echo '   '
		gen b
	} > malformed
	printf '%s  a\r\n%s  b\r\n' "$h" "$(digest_of "$t" b)" > crlf
	printf '\357\273\277%s  a\n' "$h" > bom
	printf '%s a\n' "$h" > reversed
	printf '%s  a\n' "$(digest_of "$t" b)" > wrong
	printf '%s  a\000x\n\\%s  a\000x\n%s  -\n' "$h" "$h" "$h" > nul
	printf '%s  a' "$h" > noeol
	gen - < a | sed 's/-$/a/' > fromstdin
	: > emptym
	printf '# only\n# comments\n' > comments
	awk 'BEGIN { for (i = 0; i < 5000; i++) printf "x" }' > longline
	gen a > dash; printf '%s  -\n' "$h" >> dash
	gen a b > twice; gen a >> twice
}

check_cases() {
	t=$1
	make_manifests "$t"
	run_case "$t" "-c" -c m
	run_case "$t" "--check odd names" --check odd
	run_case "$t" "-c tagged" -c tagged
	run_case "$t" "-c mismatch" -c changed.m
	run_case "$t" "-c bad lines" -c bad
	run_case "$t" "-c -w bad lines" -c -w bad
	run_case "$t" "-c --strict bad lines" -c --strict bad
	run_case "$t" "-c --quiet" -c --quiet m changed.m
	run_case "$t" "-c --status" -c --status m
	run_case "$t" "-c --status mismatch" -c --status changed.m
	run_case "$t" "-c --status bad" -c --status -w bad
	run_case "$t" "-c --warn --status" -c --warn --status bad
	run_case "$t" "-c --status --warn" -c --status --warn bad
	run_case "$t" "-c --quiet --warn" -c --quiet --warn bad
	run_case "$t" "-c missing" -c missing
	run_case "$t" "-c --ignore-missing" -c --ignore-missing missing
	run_case "$t" "-c --ignore-missing all missing" -c --ignore-missing allmissing
	run_case "$t" "-c --ignore-missing --status" -c --ignore-missing --status allmissing
	run_case "$t" "-c --ignore-missing --quiet" -c --ignore-missing --quiet missing
	run_case "$t" "-c directory entry" -c withdir
	run_case "$t" "-c malformed" -c malformed
	run_case "$t" "-c -w malformed" -c -w malformed
	run_case "$t" "-c --strict malformed" -c --strict malformed
	run_case "$t" "-c CRLF" -c crlf
	run_case "$t" "-c BOM" -c -w bom
	run_case "$t" "-c reversed" -c reversed
	run_case "$t" "-c reversed then GNU" -c reversed m
	run_case "$t" "-c GNU then reversed" -c -w m reversed
	run_case "$t" "-c wrong digest" -c wrong
	run_case "$t" "-c NUL bytes" -c -w nul
	run_case "$t" "-c no final newline" -c noeol
	run_case "$t" "-c manifest from a pipe" -c fromstdin
	run_case "$t" "-c empty manifest" -c emptym
	run_case "$t" "-c comments only" -c comments
	run_case "$t" "-c long line" -c -w longline
	run_case "$t" "-c missing manifest" -c nomanifest m
	run_case "$t" "-c odd missing manifest" -c "$(printf 'no\nmanifest')"
	run_case "$t" "-c directory manifest" -c dir
	run_case "$t" "-c several manifests" -c m bad changed.m m
	run_case "$t" "-c entry twice" -c twice
	IN=$T/in
	run_case "$t" "-c dash entry reads stdin" -c dash
	IN=m
	run_case "$t" "-c manifest on stdin" -c
	run_case "$t" "-c - manifest" -c -
	run_case "$t" "-c - and file" -c - changed.m
	IN=dash
	run_case "$t" "-c stdin manifest naming -" -c -w
	IN=/dev/null
	run_case "$t" "-c /dev/null" -c /dev/null
	# Many entries: the parallel engine must keep the report in order.
	i=0
	: > many
	while [ $i -lt 300 ]; do
		case $((i % 7)) in
		3) echo "$(digest_of "$t" b)  a" ;;
		5) echo "$h  missing$i" ;;
		6) echo "bad line $i" ;;
		*) echo "$h  a" ;;
		esac
		i=$((i + 1))
	done > many
	run_case "$t" "-c many entries" -c -w many
	run_case "$t" "-c many entries, --quiet" -c --quiet many
	run_merged "$t" "-c many entries" -c -w many m missing nomanifest
	run_merged "$t" "hashing with errors" a nofile dir b 'no such'
}

cksum_check_cases() {
	{
		"$REAL/cksum" -a md5 a
		"$REAL/cksum" -a sha1 b
		"$REAL/cksum" -a blake2b -l 128 a
		"$REAL/cksum" -a sm3 a
		"$REAL/cksum" a
		"$REAL/cksum" -a blake2b b
		"$REAL/cksum" -a sha512 a
		echo "SHA256-128 (a) = $(digest_of cksum a | cut -c1-32)"
		echo "SHA256- 128 (a) = $(digest_of cksum a | cut -c1-32)"
		echo "MD5-64 (a) = 0123456789abcdef"
		echo "$(digest_of cksum a)  a"
		echo "BSD (a) = 1234"
		echo "CRC (a) = 1234"
		echo "SYSV (a) = 1234"
		"$REAL/cksum" -a sha384 a
	} > mixed
	run_case cksum "-c mixed algorithms" -c mixed
	run_case cksum "-c -w mixed algorithms" -c -w mixed
	run_case cksum "-a sha256 -c mixed" -a sha256 -w -c mixed
	run_case cksum "-a blake2b -c mixed" -a blake2b -w -c mixed
	run_case cksum "-a md5 -c mixed" -a md5 -w -c mixed
	"$REAL/b2sum" -l 128 a b > b2m
	"$REAL/md5sum" a >> b2m
	run_case cksum "-a blake2b -c untagged" -a blake2b -c -w b2m
	run_case cksum "-a md5 -c untagged" -a md5 -c -w b2m
	run_case cksum "-c untagged" -c -w b2m
	run_case b2sum "-c mixed lengths" -c -w b2m
	run_case b2sum "-c cksum manifest" -c -w mixed
}

# one test per tool: its hashing and checking cases
tool_test() {
	setup
	hash_cases "$1"
	check_cases "$1"
}
test_md5sum() { tool_test md5sum; }
test_sha1sum() { tool_test sha1sum; }
test_sha224sum() { tool_test sha224sum; }
test_sha256sum() { tool_test sha256sum; }
test_sha384sum() { tool_test sha384sum; }
test_sha512sum() { tool_test sha512sum; }
test_b2sum() { tool_test b2sum; }
test_cksum() { tool_test cksum; }
test_b2sum_lengths() {
	setup
	b2sum_cases
}
test_cksum_algorithms() {
	setup
	make_manifests cksum
	cksum_cases
}
test_cksum_mixed_manifests() {
	setup
	cksum_check_cases
}

for t in $TOOLS; do
	run "$t"
done
run b2sum_lengths
run cksum_algorithms
run cksum_mixed_manifests
finish
