#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# check.sh - multisum -c and --expect: formats, options, messages, exit
# status, order under -j, archives, and malformed manifests.

. "$TESTS_SRCDIR/lib.sh"

H_A=5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03
H_B=73cb3858a687a8494ca3323053016282f3dad39d42cf62ca4e79dda2aac7d9ac
M=$MULTISUM

# The files every test starts from; m is multisum's manifest of a and b.
setup() {
	printf 'hello\n' > a
	printf 'x\n' > b
	: > empty
	NL=$(printf 'new\nline')
	printf 'nl' > "$NL"
	cp a a.orig
	"$M" a b > m
}

# expect_run STATUS CMD...: run CMD, output in out/err; status must match.
expect_run() {
	_want=$1
	shift
	"$@" > out 2> err
	_got=$?
	if [ "$_got" != "$_want" ]; then
		diag "status $_got, wanted $_want: $*"
		diag - < err
		return 1
	fi
	return 0
}

holds() {	# FILE TEXT: FILE holds exactly TEXT (plus a final newline)
	if [ -z "$2" ]; then : > want; else printf '%s\n' "$2" > want; fi
	if cmp -s "$1" want; then return 0; fi
	diff want "$1" | diag -
	return 1
}

# --------------------------------------------------------------- basics
test_basics() {
	setup
	check "verifies its own manifest" expect_run 0 "$M" -c m
	check "prints OK per file" holds out "a: OK
b: OK"
	check "nothing on stderr" holds err ""

	printf 'hellO\n' > a
	check "a changed file fails" expect_run 1 "$M" -c m
	check "FAILED line" holds out "a: FAILED
b: OK"
	check "mismatch warning" grep -qxF \
	    "multisum: WARNING: 1 computed checksum did NOT match" err
	cp a.orig a

	{ "$M" a nofile b; } > m2 2>/dev/null
	printf '%s  nofile\n' "$H_A" >> m2
	check "missing file fails" expect_run 1 "$M" -c m2
	check "FAILED open or read" holds out "a: OK
b: OK
nofile: FAILED open or read"
	check "missing file messages" holds err \
	    "multisum: nofile: No such file or directory
multisum: WARNING: 1 listed file could not be read"

	check "--ignore-missing passes" expect_run 0 "$M" -c --ignore-missing m2
	check "--ignore-missing is silent on the missing" holds out "a: OK
b: OK"
	printf '%s  gone1\n%s  gone2\n' "$H_A" "$H_A" > gone
	check "--ignore-missing, nothing verified" expect_run 1 \
	    "$M" -c --ignore-missing gone
	check "no file was verified" holds err "multisum: gone: no file was verified"

	printf 'hellO\n' > a
	check "--quiet fails on mismatch" expect_run 1 "$M" -c --quiet m
	check "--quiet shows only failures" holds out "a: FAILED"
	check "--status fails silently" expect_run 1 "$M" -c --status m
	check "--status: no stdout" holds out ""
	check "--status: no stderr" holds err ""
	cp a.orig a
	check "--status passes" expect_run 0 "$M" -c --status m
}

# ------------------------------------------------------- malformed lines
test_malformed_lines() {
	setup
	{ "$M" a; echo 'not a checksum line'; "$M" b; } > bad
	check "bad line alone does not fail" expect_run 0 "$M" -c bad
	check "bad line counted" holds err \
	    "multisum: WARNING: 1 line is improperly formatted"
	check "--strict fails on a bad line" expect_run 1 "$M" -c --strict bad
	check "-w names the line" expect_run 0 "$M" -c -w bad
	check "-w wording" holds err \
	    "multisum: bad: 2: improperly formatted checksum line
multisum: WARNING: 1 line is improperly formatted"
	cp bad SHA256SUMS
	check "-w with a SHA256SUMS manifest" expect_run 0 "$M" -c -w SHA256SUMS
	check "-w names SHA256" holds err \
	    "multisum: SHA256SUMS: 2: improperly formatted SHA256 checksum line
multisum: WARNING: 1 line is improperly formatted"
	printf 'junk\nmore junk\n' > junk
	check "no valid line fails" expect_run 1 "$M" -c junk
	check "no properly formatted lines" holds err \
	    "multisum: junk: no properly formatted checksum lines found"
	: > emptym
	check "empty manifest fails" expect_run 1 "$M" -c emptym
	check "missing manifest fails" expect_run 3 "$M" -c nomanifest m
	check "missing manifest message, other manifest read" holds err \
	    "multisum: nomanifest: No such file or directory"
	mkdir dir
	check "directory manifest fails" expect_run 3 "$M" -c dir
	check "directory manifest: coreutils 9.4's reason" holds err \
	    "multisum: dir: Is a directory"

	# Lines of every kind of damage: never a crash, counted like sha256sum.
	awk -v h="$H_A" 'BEGIN {
		n = split("( ) * \\ = - \t space \\\\ \\n \\r ( ) BLAKE2b- SHA256", w, " ")
		for (i = 1; i <= 400; i++) {
			line = ""
			for (k = 0; k < i % 7; k++)
				line = line w[(i * 7 + k * 3) % n + 1]
			if (i % 3 == 0) line = h line
			if (i % 5 == 0) line = "SHA256 (" line ") = " h
			if (i % 11 == 0) line = "\\" line
			if (i % 13 == 0) line = h "  a"
			print line
		}
	}' > hostile
	printf 'x\000y\n%s  a\000b\n\\%s  a\n' "$H_A" "$H_A" >> hostile
	head -c 3000 /dev/urandom | od -c >> hostile
	"$M" -c hostile > out 2> err
	st=$?
	check "hostile manifest: no crash" test "$st" -lt 128
	if have sha256sum && sha256sum --version | grep -q 'coreutils) 9\.1$'; then
		grep WARNING err | grep -v 'could not be read' > mine.w
		LC_ALL=C sha256sum -c hostile 2>&1 >/dev/null | grep WARNING |
		    grep -v 'could not be read' | sed 's/^sha256sum/multisum/' > theirs.w
		check "hostile manifest: bad lines counted like sha256sum" \
		    cmp -s mine.w theirs.w
	else
		skip_case "sha256sum 9.1 absent"
	fi
}

# ---------------------------------------------------------------- formats
test_formats() {
	setup
	printf '\357\273\277%s  a\r\n%s  b\r\n' "$H_A" "$H_B" > bom
	check "BOM and CRLF" expect_run 0 "$M" -c bom
	check "BOM and CRLF lines" holds out "a: OK
b: OK"
	"$M" --tag -a md5,sha1,sha256,blake2b,sha3-256,xxh128 a > tags
	check "BSD tags of several algorithms" expect_run 0 "$M" -c tags
	check "one line per algorithm" test "$(grep -c 'a: OK' out)" = 6
	"$M" --base64 a > b64
	check "base64 digests" expect_run 0 "$M" -c b64
	"$M" --base64 --tag -a blake2b a > b64tag
	check "base64 tagged digests" expect_run 0 "$M" -c b64tag
	"$M" "$NL" 'a' > esc
	check "escaped names" expect_run 0 "$M" -c esc
	check "escaped name in the report" holds out "\\new\\nline: OK
a: OK"
	"$M" -a md5 a b > plain
	check "untagged md5 by length" expect_run 0 "$M" -c plain
	check "-a md5" expect_run 0 "$M" -c -a md5 plain
	check "-a with the wrong length: no valid line" expect_run 1 \
	    "$M" -c -a sha1 plain
	"$M" -a blake2b-256 a > B2SUMS
	check "B2SUMS: blake2b length from the digest" expect_run 0 "$M" -c B2SUMS
	"$M" -a sha3-256 a > x.sha3-256
	check "x.sha3-256: algorithm from the name" expect_run 0 "$M" -c x.sha3-256
	cp x.sha3-256 x.sha256
	check "x.sha256 holding sha3: a stand-in, said" expect_run 0 "$M" -c x.sha256
	"$M" -a xxh128 a > x.md5
	check "x.md5 holding xxh128: never a stand-in" expect_run 1 "$M" -c x.md5
	"$M" --format=sfv -a crc32 a b > s.sfv
	check "SFV" expect_run 0 "$M" -c s.sfv
	printf '%s a\n' "$H_A" > rev
	check "one-space (reversed) lines" expect_run 0 "$M" -c rev
}

# ------------------------------------------------------ stdin, several
test_stdin_and_several() {
	setup
	printf 'junk\nmore junk\n' > junk
	"$M" -a md5 a b > plain
	"$M" a | "$M" -c > out 2> err
	check "manifest on stdin" holds out "a: OK"
	"$M" a | "$M" -c - > out 2> err
	check "manifest as -" holds out "a: OK"
	printf '%s  -\n' "$H_A" | "$M" -c -w > out 2> err
	check "- in a stdin manifest is improperly formatted" holds err \
	    "multisum: 'standard input': 1: improperly formatted checksum line
multisum: 'standard input': no properly formatted checksum lines found"
	printf '%s  -\n' "$H_A" > dash
	check "- in a file manifest reads stdin" expect_run 0 sh -c \
	    "\"$M\" -c dash < a"
	check "several manifests" expect_run 1 "$M" -c m junk plain
	check "several manifests, in order" holds out "a: OK
b: OK
a: OK
b: OK"
}

# ------------------------------------------------------------ -j order
test_jobs_order() {
	setup
	i=0
	while [ $i -lt 120 ]; do
		printf 'file %d\n' $i > "f$i"
		i=$((i + 1))
	done
	"$M" -a sha256,md5 f* > many 2>/dev/null
	printf 'changed' > f7
	rm f9
	printf 'junk line\n' >> many
	"$M" -c -w -j1 many > out1 2> err1
	s1=$?
	"$M" -c -w -j4 many > out4 2> err4
	s4=$?
	check "-j4 stdout identical to -j1" cmp -s out1 out4
	check "-j4 stderr identical to -j1" cmp -s err1 err4
	check "-j4 status identical to -j1" test "$s1" = "$s4" -a "$s1" = 1
}

# ------------------------------------------------------------- --expect
test_expect() {
	setup
	check "--expect OK" expect_run 0 "$M" --expect="$H_A" a
	check "--expect prints OK" holds out "a: OK"
	check "--expect FAILED" expect_run 1 "$M" --expect="$H_A" b
	check "--expect prints FAILED" holds out "b: FAILED"
	check "--expect -a md5" expect_run 0 "$M" -a md5 \
	    --expect=b1946ac92492d2347c6235b4d2611184 a
	check "--expect base64" expect_run 0 "$M" \
	    --expect=WJG1tSLV3whtD/CxEPvZ0hu0/HFjrzTQgoai6Eb2vgM= a
	check "--expect garbage is a usage error" expect_run 2 "$M" --expect=xyz a
	check "--expect missing file" expect_run 1 "$M" --expect="$H_A" nofile
	check "--expect missing file report" holds out "nofile: FAILED open or read"
	check "--expect stdin" expect_run 0 sh -c "\"$M\" --expect=$H_A < a"
}

# ------------------------------------------------------------ --archive
test_archive() {
	setup
	if have tar; then
		mkdir arc
		printf 'one\n' > arc/one
		printf 'two\n' > arc/two
		(cd arc && tar cf ../x.tar one two)
		(cd arc && "$M" one two) > am
		printf '%s  absent\n' "$H_A" >> am
		check "--archive -c" expect_run 1 "$M" --archive=x.tar -c am
		check "--archive -c report" holds out "one: OK
two: OK
absent: FAILED open or read"
		check "--archive --ignore-missing" expect_run 0 \
		    "$M" --archive=x.tar -c --ignore-missing am
	else
		skip_test "tar absent"
	fi
}

run basics
run malformed_lines
run formats
run stdin_and_several
run jobs_order
run expect
run archive
finish
