#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# b3sum.sh - multisum run as b3sum against Debian's b3sum 1.2: the same
# standard output, standard error and exit status for hashing, --no-names,
# --raw, -l, --keyed, --derive-key, -c, --quiet and their usage errors;
# each side's lines checked by the other; and the face's use of the
# engine's threads (--num-threads, RAYON_NUM_THREADS) and of read I/O
# (--no-mmap), which b3sum's output cannot show.
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
	# the key takes standard input: clap requires a FILE (issue 31;
	# not with --quiet: b3sum then says either of two errors)
	both "--keyed without FILE" "<key" --keyed
	both "--keyed -- without FILE" "<key" --keyed --
	both "--keyed without FILE, usage" "<key" --no-mmap --keyed -l 16
	both "--help" --help
	both "-V" -V
}

# Lines with every kind of name b3sum escapes, written by each side and
# verified by the other.
test_each_checks_the_other() {
	files
	set -- a b empty 'back\slash' "$(printf 'new\nline')"
	"$MINE/b3sum" "$@" > mine.sums
	"$REAL/b3sum" "$@" > real.sums
	same mine.sums real.sums "the face writes b3sum's lines"
	status_is 0 "b3sum -c verifies the face's lines" \
	    "$REAL/b3sum" -c mine.sums > r.out
	status_is 0 "the face's -c verifies b3sum's lines" \
	    "$MINE/b3sum" -c real.sums > m.out
	same m.out r.out "the same OK lines"
	has_line m.out '\new\nline: OK' "an escaped name verified, as written"
	"$MINE/b3sum" --derive-key ctx -l 64 "$@" > mine.dk
	"$REAL/b3sum" --derive-key ctx -l 64 "$@" > real.dk
	same mine.dk real.dk "--derive-key -l 64 lines"
	random_file big 3000000
	random_file big2 1048577
	both "files over 1 MiB (mapped, split over threads)" big big2 a
	both "--keyed, large files" "<key" --keyed big a big2
	both "--derive-key, large files" --derive-key ctx big2 big
	"$MINE/b3sum" big big2 a > big.sums
	both "-c of the face's lines for large files" -c big.sums
}

test_long_outputs() {
	files
	random_file big 2000000
	both "-l 600 (longer than any multisum digest)" -l 600 a b
	both "-l 70000 (made one file at a time)" -l 70000 a big
	both "--raw -l 5000" --raw -l 5000 big
	both "-l 0 --no-names" -l 0 --no-names a big
	both "-l 0" -l 0 a
}

test_names_in_messages() {
	files
	mkdir 'd\ir'
	both "missing names with \\, newline, bad UTF-8" 'miss\ing' \
	    "$(printf 'mi\nss')" "$(printf 'mi\377ss')" 'd\ir'
	both "--no-names with odd names" --no-names 'back\slash' \
	    "$(printf 'new\nline')" "$(printf 'bad\377utf8')"
	both "--keyed: - refused in its place" "<key" --keyed a - b
	both "-l x: every file read refused" -l x a missing "$(printf 'new\nline')"
	both "-l 99999999999999999999" -l 99999999999999999999 a
	both "-l +3" -l +3 a
	# Rust's lossy UTF-8: one U+FFFD per maximal invalid subsequence
	set --
	for b in '\360\220\200' '\340\200' '\355\240\200' '\300\257' \
	    '\364\220\200\200' '\377' '\303' '\342\202\254'; do
		_n=$(printf "x${b}y")
		printf 1 > "$_n"
		set -- "$@" "$_n" "$(printf "missing${b}")"
	done
	both "names with invalid UTF-8, in lines and messages" "$@"
}

# One line for each reason b3sum -c gives, and the lines around them.
test_check_reasons() {
	files
	h=$("$REAL/b3sum" --no-names a)
	{
		printf '\n'
		printf '%s\n' "${h}x"
		printf '\\%s\n' "$h"
		printf '%.60s\303\251%s  a\n' "$h" "$(printf %s "$h" | cut -c 62-)"
		printf '%s -a\n' "$h"
		printf '%s  a\n' "$(printf %s "$h" | tr a-f A-F)"
		printf '\\%s  x\\q\n' "$h"
		printf '\\%s  x\\\n' "$h"
		printf '%s  a\0b\n' "$h"
		printf '%s  a\357\277\275b\n' "$h"
		printf '#%s  a\n' "$h"
		printf '%s  a\r\n' "$h"
		printf '%s  .\n' "$h"
		printf '%s  a\n' "$h"
	} > reasons
	both "-c: every reason b3sum gives" -c reasons
	both "-c --quiet: every reason" -c --quiet reasons
	: > empty.sums
	both "-c of an empty manifest" -c empty.sums
	printf '\n\n' > blank.sums
	both "-c of blank lines only" -c blank.sums
	printf '%s  a\n' "$h" > one
	{ cat one; printf 'x\377y\n'; cat one; } > notutf8
	both "-c stops at a line not UTF-8" -c one notutf8 one
	both "-c of a directory stops" -c one . one
	both "-c of a missing manifest stops" -c one missing one
	both "-c from standard input with bad lines" "<reasons" -c
	# after the stop, no manifest is opened: standard input is left unread
	printf 'left for the next reader\n' > rest
	for side in REAL MINE; do
		eval "_b3=\$$side/b3sum"
		{ "$_b3" -c one missing - > /dev/null 2>&1; cat; } < rest > after
		same after rest "$side: -c stops before the manifest after"
	done
}

# N8d: clap takes no value that looks like an option.
test_values_like_options() {
	files
	both "-l -1" -l -1 a
	both "--length -1 --raw" --raw --length -1 a
	both "--length=-1 (attached: parsed late)" --length=-1 a
	both "-l-1" -l-1 a
	both "-l - (a value)" -l - a
	both "-l --no-names" -l --no-names a
	both "-l -- a" -l -- a
	both "-l -c: the conflict first" -l -c a
	# (not "-l --quiet": b3sum itself says either of two errors)
	both "--num-threads -1" --num-threads -1 a
	both "--derive-key -x" --derive-key -x a
	both "--derive-key --keyed" --derive-key --keyed a
	both "--derive-key -" --derive-key - a
	both "usage lists what was given" --no-mmap --quiet --num-threads 2 -l -1 a
	both "--raw=x (a flag's value ignored)" --raw=x a
	"$REAL/b3sum" a > one
	both "--check=x" --check=x one
	both "unknown option after others" a --no-names --bogus
}

test_num_threads_values() {
	files
	for v in x '' 99999999999999999999 ' 3' 3x +2 0 1 2; do
		both "--num-threads '$v'" --num-threads "$v" a b
	done
	both "--num-threads x after a bad key" "<a" --keyed --num-threads x a
	both "--raw two files before --num-threads x" --raw --num-threads x a b
}

# clone(2) calls of a run ("$MINE/b3sum" ARG... or "$MULTISUM" ARG...):
# its worker threads, and whatever a sanitizer adds to a threaded run.
threads_of() {
	strace -f -qq -e trace=clone,clone3 -o .threads "$@" > /dev/null 2>&1
	grep -c 'clone' .threads
}

# Output cannot tell threads or mmap apart: the system calls can.  The
# face must start as many threads as multisum -j N does.
test_threads_and_io_honoured() {
	have strace || skip_test "no strace"
	files
	random_file big 3000000
	"$REAL/b3sum" a b big > sums
	for n in 1 2 3; do
		eval "j$n=\$(threads_of \"\$MULTISUM\" -j$n -a blake3 a b big)"
	done
	check "multisum -j3 starts more threads than -j2, -j2 than -j1" \
	    test "$j3" -gt "$j2" -a "$j2" -gt "$j1"
	is "$(threads_of "$MINE/b3sum" --num-threads 1 a b big)" "$j1" \
	    "--num-threads 1: as -j1"
	is "$(threads_of "$MINE/b3sum" --num-threads 3 a b big)" "$j3" \
	    "--num-threads 3: as -j3"
	is "$(threads_of "$MINE/b3sum" -c --num-threads 3 sums)" "$j3" \
	    "-c --num-threads 3: as -j3"
	is "$(RAYON_NUM_THREADS=3 threads_of "$MINE/b3sum" a b big)" "$j3" \
	    "RAYON_NUM_THREADS=3: as -j3"
	is "$(RAYON_NUM_THREADS=3 threads_of "$MINE/b3sum" --num-threads 2 a b big)" \
	    "$j2" "--num-threads before RAYON_NUM_THREADS"
	is "$(RAYON_NUM_THREADS=3 threads_of "$MINE/b3sum" --num-threads 0 a b big)" \
	    "$j3" "--num-threads 0: RAYON_NUM_THREADS"
	# the file's descriptor mapped, or never
	strace -f -qq -e trace=openat,mmap -o trace "$MINE/b3sum" big > /dev/null
	is "$(maps_of big trace)" yes "big file mapped by default"
	strace -f -qq -e trace=openat,mmap -o trace "$MINE/b3sum" --no-mmap big \
	    > /dev/null
	is "$(maps_of big trace)" no "--no-mmap: big file read"
	strace -f -qq -e trace=openat,mmap -o trace "$MINE/b3sum" -c --no-mmap \
	    sums > /dev/null
	is "$(maps_of big trace)" no "-c --no-mmap: big file read"
}

# maps_of NAME TRACE: "yes" if TRACE shows NAME's descriptor mapped.
maps_of() {
	awk -v name="\"$1\"" '
		index($0, "openat(") && index($0, name) { fd = $NF; next }
		fd != "" && index($0, "mmap(") && index($0, ", " fd ", ") { hit = 1 }
		END { print hit ? "yes" : "no" }' "$2"
}

run hashing
run raw
run modes
run check
run usage_errors
run each_checks_the_other
run long_outputs
run names_in_messages
run check_reasons
run values_like_options
run num_threads_values
run threads_and_io_honoured
finish
