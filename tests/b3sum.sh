#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# b3sum.sh - multisum run as b3sum against Debian's b3sum 1.2: the same
# standard output, standard error and exit status for hashing, --no-names,
# --raw, -l, --keyed, --derive-key, -c, --quiet and their usage errors.
. "${TESTS_SRCDIR:-$(dirname "$0")}/lib.sh"

have b3sum || { echo "1..0 # SKIP no b3sum"; exit 0; }
REAL=$ms_tmp/real
MINE=$ms_tmp/mine
mkdir -p "$REAL" "$MINE"
ln -s "$(command -v b3sum)" "$REAL/b3sum"
ln -s "$MULTISUM" "$MINE/b3sum"

# both DESC [< STDIN] ARG...: run both b3sums in this directory with the
# same arguments (and standard input file, if the first is "<FILE");
# stdout, stderr and status must match.
both() {
	_what=$1
	shift
	_in=/dev/null
	case $1 in "<"*) _in=${1#<}; shift ;; esac
	"$REAL/b3sum" "$@" < "$_in" > r.out 2> r.err
	_rs=$?
	"$MINE/b3sum" "$@" < "$_in" > m.out 2> m.err
	_ms=$?
	same m.out r.out "$_what: standard output"
	same m.err r.err "$_what: standard error"
	is "$_ms" "$_rs" "$_what: exit status"
}

files() {
	random_file a 3000
	random_file b 70000
	: > empty
	printf x > 'back\slash'
	printf y > "$(printf 'new\nline')"
	printf z > "$(printf 'bad\377utf8')"
	printf 'whats the Elvish word for friend' > key
}

test_hashing() {
	files
	both "files" a b empty 'back\slash' "$(printf 'new\nline')"
	both "invalid UTF-8 name" "$(printf 'bad\377utf8')"
	both "stdin" "<b"
	both "stdin as -" "<a" a -
	both "missing file" a missing b
	both "directory" a .
	both "--no-names" --no-names a b 'back\slash'
	both "-l 64" -l 64 a
	both "-l 0" -l 0 a
	both "--length=3" --length=3 --no-names a
	both "-l 200 (several output blocks)" -l 200 b
	both "-l x" -l x a b
	both "--num-threads, --no-mmap" --num-threads 1 --no-mmap a
	both "options after files" a --no-names b
	both "-- ends options" -- a
}

test_raw() {
	files
	both "--raw" --raw a
	both "--raw -l 100" --raw -l 100 b
	both "--raw of stdin" "<a" --raw
	both "--raw two files" --raw a b
}

test_modes() {
	files
	both "--keyed" "<key" --keyed a b
	both "--keyed short key" "<a" --keyed a
	cat key key > long
	both "--keyed long key" "<long" --keyed a
	both "--keyed -" "<key" --keyed -
	both "--derive-key" --derive-key "multisum 2026 test" a b
	both "--derive-key=CONTEXT -l 40" --derive-key=ctx -l 40 a
}

test_check() {
	files
	"$REAL/b3sum" a b 'back\slash' "$(printf 'new\nline')" > sums
	both "-c" -c sums
	both "--check --quiet" --check --quiet sums
	both "-c of stdin" "<sums" -c
	printf x >> b
	both "-c tampered" -c sums
	both "-c --quiet tampered" -c --quiet sums
	rm a
	both "-c missing file" -c sums
	files
	"$REAL/b3sum" a > one
	{ echo garbage; cat one; echo; cat one; } > bad
	both "-c bad lines" -c bad
	tr a-f A-F < one | sed 's/  A$/  a/' > upper
	both "-c upper-case hex" -c upper
	printf '%s' "$(cat one)" > nonl
	both "-c no final newline" -c nonl
	printf '\\%s  x\\q\n' "$(cut -c1-64 one)" > badesc
	both "-c bad escape" -c badesc
	sed 's/  a$/ a/' one > onespace
	both "-c one space" -c onespace
	both "-c missing manifest" -c one nosuch one
}

test_usage_errors() {
	files
	both "unknown long option" --bogus a
	both "unknown short option" -x a
	both "-l without value" -l
	both "--derive-key without value" --derive-key
	both "--keyed with --derive-key" --keyed --derive-key x a
	both "--keyed with --check" --keyed -c a
	both "--derive-key with --check" --derive-key x -c a
	both "--raw with --check" --raw -c a
	both "--no-names with --check" -c --no-names a
	both "-l with --check" -c -l 5 a
	both "--quiet without --check" --quiet a
	both "--help" --help
	both "-V" -V
}

run hashing
run raw
run modes
run check
run usage_errors
finish
