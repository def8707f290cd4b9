#!/bin/sh
# check.sh - multisum -c and --expect: formats, options, messages, exit
# status, order under -j, archives, and malformed manifests.

. "$TESTS_SRCDIR/check-lib.sh"

cd "$T" || exit 99
printf 'hello\n' > a
printf 'x\n' > b
: > empty
NL=$(printf 'new\nline')
printf 'nl' > "$NL"
H_A=5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03
H_B=73cb3858a687a8494ca3323053016282f3dad39d42cf62ca4e79dda2aac7d9ac
M=$MULTISUM

# expect_run STATUS CMD...: run CMD, output in out/err; status must match.
expect_run() {
	_want=$1
	shift
	"$@" > out 2> err
	_got=$?
	if [ "$_got" != "$_want" ]; then
		echo "status $_got, wanted $_want: $*" | tap_diag
		tap_diag < err
		return 1
	fi
	return 0
}

same() {	# FILE TEXT: FILE holds exactly TEXT (plus a final newline)
	if [ -z "$2" ]; then : > want; else printf '%s\n' "$2" > want; fi
	if cmp -s "$1" want; then return 0; fi
	diff want "$1" | tap_diag
	return 1
}

# --------------------------------------------------------------- basics
"$M" a b > m
tap_assert "verifies its own manifest" expect_run 0 "$M" -c m
tap_assert "prints OK per file" same out "a: OK
b: OK"
tap_assert "nothing on stderr" same err ""

cp a a.orig
printf 'hellO\n' > a
tap_assert "a changed file fails" expect_run 1 "$M" -c m
tap_assert "FAILED line" same out "a: FAILED
b: OK"
tap_assert "mismatch warning" same err \
    "multisum: WARNING: 1 computed checksum did NOT match"
cp a.orig a

{ "$M" a nofile b; } > m2 2>/dev/null
printf '%s  nofile\n' "$H_A" >> m2
tap_assert "missing file fails" expect_run 1 "$M" -c m2
tap_assert "FAILED open or read" same out "a: OK
b: OK
nofile: FAILED open or read"
tap_assert "missing file messages" same err \
    "multisum: nofile: No such file or directory
multisum: WARNING: 1 listed file could not be read"

tap_assert "--ignore-missing passes" expect_run 0 "$M" -c --ignore-missing m2
tap_assert "--ignore-missing is silent on the missing" same out "a: OK
b: OK"
printf '%s  gone1\n%s  gone2\n' "$H_A" "$H_A" > gone
tap_assert "--ignore-missing, nothing verified" expect_run 1 \
    "$M" -c --ignore-missing gone
tap_assert "no file was verified" same err "multisum: gone: no file was verified"

printf 'hellO\n' > a
tap_assert "--quiet fails on mismatch" expect_run 1 "$M" -c --quiet m
tap_assert "--quiet shows only failures" same out "a: FAILED"
tap_assert "--status fails silently" expect_run 1 "$M" -c --status m
tap_assert "--status: no stdout" same out ""
tap_assert "--status: no stderr" same err ""
cp a.orig a
tap_assert "--status passes" expect_run 0 "$M" -c --status m

# ------------------------------------------------------- malformed lines
{ "$M" a; echo 'not a checksum line'; "$M" b; } > bad
tap_assert "bad line alone does not fail" expect_run 0 "$M" -c bad
tap_assert "bad line counted" same err \
    "multisum: WARNING: 1 line is improperly formatted"
tap_assert "--strict fails on a bad line" expect_run 1 "$M" -c --strict bad
tap_assert "-w names the line" expect_run 0 "$M" -c -w bad
tap_assert "-w wording" same err \
    "multisum: bad: 2: improperly formatted checksum line
multisum: WARNING: 1 line is improperly formatted"
cp bad SHA256SUMS
tap_assert "-w with a SHA256SUMS manifest" expect_run 0 "$M" -c -w SHA256SUMS
tap_assert "-w names SHA256" same err \
    "multisum: SHA256SUMS: 2: improperly formatted SHA256 checksum line
multisum: WARNING: 1 line is improperly formatted"
printf 'junk\nmore junk\n' > junk
tap_assert "no valid line fails" expect_run 1 "$M" -c junk
tap_assert "no properly formatted lines" same err \
    "multisum: junk: no properly formatted checksum lines found"
: > emptym
tap_assert "empty manifest fails" expect_run 1 "$M" -c emptym
tap_assert "missing manifest fails" expect_run 1 "$M" -c nomanifest m
tap_assert "missing manifest message, other manifest read" same err \
    "multisum: nomanifest: No such file or directory"
mkdir dir
tap_assert "directory manifest fails" expect_run 1 "$M" -c dir
tap_assert "directory manifest read error" same err "multisum: dir: read error"

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
tap_assert "hostile manifest: no crash" test "$st" -lt 128
if have sha256sum && sha256sum --version | grep -q 'coreutils) 9\.1$'; then
	grep WARNING err | grep -v 'could not be read' > mine.w
	LC_ALL=C sha256sum -c hostile 2>&1 >/dev/null | grep WARNING |
	    grep -v 'could not be read' | sed 's/^sha256sum/multisum/' > theirs.w
	tap_assert "hostile manifest: bad lines counted like sha256sum" \
	    cmp -s mine.w theirs.w
else
	tap_skip "sha256sum 9.1 absent"
fi

# ---------------------------------------------------------------- formats
printf '\357\273\277%s  a\r\n%s  b\r\n' "$H_A" "$H_B" > bom
tap_assert "BOM and CRLF" expect_run 0 "$M" -c bom
tap_assert "BOM and CRLF lines" same out "a: OK
b: OK"
"$M" --tag -a md5,sha1,sha256,blake2b,sha3-256,xxh128 a > tags
tap_assert "BSD tags of several algorithms" expect_run 0 "$M" -c tags
tap_assert "one line per algorithm" test "$(grep -c 'a: OK' out)" = 6
"$M" --base64 a > b64
tap_assert "base64 digests" expect_run 0 "$M" -c b64
"$M" --base64 --tag -a blake2b a > b64tag
tap_assert "base64 tagged digests" expect_run 0 "$M" -c b64tag
"$M" "$NL" 'a' > esc
tap_assert "escaped names" expect_run 0 "$M" -c esc
tap_assert "escaped name in the report" same out "\\new\\nline: OK
a: OK"
"$M" -a md5 a b > plain
tap_assert "untagged md5 by length" expect_run 0 "$M" -c plain
tap_assert "-a md5" expect_run 0 "$M" -c -a md5 plain
tap_assert "-a with the wrong length: no valid line" expect_run 1 \
    "$M" -c -a sha1 plain
"$M" -a blake2b-256 a > B2SUMS
tap_assert "B2SUMS: blake2b length from the digest" expect_run 0 "$M" -c B2SUMS
"$M" -a sha3-256 a > x.sha3-256
tap_assert "x.sha3-256: algorithm from the name" expect_run 0 "$M" -c x.sha3-256
cp x.sha3-256 x.sha256
tap_assert "x.sha256 holding sha3: fails" expect_run 1 "$M" -c x.sha256
"$M" --format=sfv -a crc32 a b > s.sfv
tap_assert "SFV" expect_run 0 "$M" -c s.sfv
printf '%s a\n' "$H_A" > rev
tap_assert "one-space (reversed) lines" expect_run 0 "$M" -c rev

# ------------------------------------------------------ stdin, several
"$M" a | "$M" -c > out 2> err
tap_assert "manifest on stdin" same out "a: OK"
"$M" a | "$M" -c - > out 2> err
tap_assert "manifest as -" same out "a: OK"
printf '%s  -\n' "$H_A" | "$M" -c -w > out 2> err
tap_assert "- in a stdin manifest is improperly formatted" same err \
    "multisum: 'standard input': 1: improperly formatted checksum line
multisum: 'standard input': no properly formatted checksum lines found"
printf '%s  -\n' "$H_A" > dash
tap_assert "- in a file manifest reads stdin" expect_run 0 sh -c \
    "\"$M\" -c dash < a"
tap_assert "several manifests" expect_run 1 "$M" -c m junk plain
tap_assert "several manifests, in order" same out "a: OK
b: OK
a: OK
b: OK"

# ------------------------------------------------------------ -j order
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
tap_assert "-j4 stdout identical to -j1" cmp -s out1 out4
tap_assert "-j4 stderr identical to -j1" cmp -s err1 err4
tap_assert "-j4 status identical to -j1" test "$s1" = "$s4" -a "$s1" = 1

# ------------------------------------------------------------- --expect
tap_assert "--expect OK" expect_run 0 "$M" --expect="$H_A" a
tap_assert "--expect prints OK" same out "a: OK"
tap_assert "--expect FAILED" expect_run 1 "$M" --expect="$H_A" b
tap_assert "--expect prints FAILED" same out "b: FAILED"
tap_assert "--expect -a md5" expect_run 0 "$M" -a md5 \
    --expect=b1946ac92492d2347c6235b4d2611184 a
tap_assert "--expect base64" expect_run 0 "$M" \
    --expect=WJG1tSLV3whtD/CxEPvZ0hu0/HFjrzTQgoai6Eb2vgM= a
tap_assert "--expect garbage is a usage error" expect_run 2 "$M" --expect=xyz a
tap_assert "--expect missing file" expect_run 1 "$M" --expect="$H_A" nofile
tap_assert "--expect missing file report" same out "nofile: FAILED open or read"
tap_assert "--expect stdin" expect_run 0 sh -c "\"$M\" --expect=$H_A < a"

# ------------------------------------------------------------ --archive
if have tar; then
	mkdir arc
	printf 'one\n' > arc/one
	printf 'two\n' > arc/two
	(cd arc && tar cf ../x.tar one two)
	(cd arc && "$M" one two) > am
	printf '%s  absent\n' "$H_A" >> am
	tap_assert "--archive -c" expect_run 1 "$M" --archive=x.tar -c am
	tap_assert "--archive -c report" same out "one: OK
two: OK
absent: FAILED open or read"
	tap_assert "--archive --ignore-missing" expect_run 0 \
	    "$M" --archive=x.tar -c --ignore-missing am
else
	tap_skip "tar absent"
	tap_skip "tar absent"
	tap_skip "tar absent"
fi

tap_done
