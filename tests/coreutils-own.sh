#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# coreutils-own.sh - differences between multisum's coreutils
# personalities and GNU coreutils 9.1 that running coreutils' own test
# suite (tests/misc/md5sum*.pl, sha*sum.pl, b2sum.sh, cksum*.sh,
# help-version.sh, tty-eof.pl) and probing around its cases brought up.
# Each case runs multisum under a tool's name beside the real tool on the
# same arguments and input, and wants the same standard output, standard
# error and exit status.  One test per difference that was fixed.

. "$TESTS_SRCDIR/lib.sh"

TOOLS="md5sum sha1sum sha256sum b2sum cksum"

setup() {
	need_coreutils_91 $TOOLS
	T=$(pwd)
	mkdir real mine work
	for t in $TOOLS; do
		ln -s "$(command -v "$t")" "real/$t"
		ln -s "$MULTISUM" "mine/$t"
	done
	cd work || exit 1
	: > empty
	printf 'abc\n' > abc
	"$T/real/md5sum" empty abc > sums
}

# same_as_real STDIN TOOL DESC ARG...: one differential check; STDIN is
# a file to read, "closed" for a closed standard input, or "write-only"
# for one open for writing only (reads fail, closing does not).  The tool is
# found on PATH, so argv[0] is its bare name; with BY_PATH=yes it is
# called by its full path, and the two directories read "DIR" in the
# outputs compared.
same_as_real() {
	_in=$1 _t=$2 _d=$3
	shift 3
	for _w in real mine; do
		if [ "${BY_PATH:-no}" = yes ]; then
			_p=$T/$_w/$_t
		else
			_p=$_t
		fi
		if [ "$_in" = closed ]; then
			(PATH=$T/$_w:$PATH; exec "$_p" "$@") \
			    > "$T/$_w.out0" 2> "$T/$_w.err0" <&-
		elif [ "$_in" = write-only ]; then
			(PATH=$T/$_w:$PATH; exec "$_p" "$@") \
			    > "$T/$_w.out0" 2> "$T/$_w.err0" 0> "$T/wo"
		else
			(PATH=$T/$_w:$PATH; exec "$_p" "$@") \
			    > "$T/$_w.out0" 2> "$T/$_w.err0" < "$_in"
		fi
		echo $? > "$T/$_w.rc"
		for _x in out err; do
			sed "s|$T/$_w/|DIR/|g" "$T/$_w.${_x}0" > "$T/$_w.$_x"
		done
	done
	if cmp -s "$T/real.out" "$T/mine.out" &&
	    cmp -s "$T/real.err" "$T/mine.err" &&
	    cmp -s "$T/real.rc" "$T/mine.rc"; then
		pass
	else
		fail "$_t $_d"
		for _x in out err rc; do
			diff "$T/real.$_x" "$T/mine.$_x" | head -n 6
		done | cut -c 1-200 | diag -
	fi
}

# coreutils closes a standard input it read; when that fails (it was
# closed) it says "TOOL: standard input: Bad file descriptor" after all
# else and exits 1.  multisum left that line out.
test_closed_stdin() {
	setup
	printf 'd41d8cd98f00b204e9800998ecf8427e  -\n' > dash.md5
	for t in md5sum sha256sum b2sum; do
		same_as_real closed "$t" "no operand, stdin closed"
		same_as_real closed "$t" "- and a file, stdin closed" - abc
		same_as_real closed "$t" "a file then -, stdin closed" abc -
		same_as_real closed "$t" "files only, stdin closed" abc empty
		same_as_real closed "$t" "-c, no operand, stdin closed" -c
		same_as_real closed "$t" "-c -, stdin closed" -c -
	done
	same_as_real closed md5sum "-c of a file naming -, stdin closed" \
	    -c dash.md5
	same_as_real closed md5sum "-c of a file, stdin closed" -c sums
	same_as_real closed cksum "-a md5, stdin closed" -a md5
	same_as_real closed cksum "-a sha512 -, stdin closed" -a sha512 -
	same_as_real closed cksum "-a bsd -, stdin closed" -a bsd -
	same_as_real closed cksum "-c -, stdin closed" -c -
	# an open standard input is closed quietly, even one that cannot
	# be read
	same_as_real write-only md5sum "stdin write-only" -
	same_as_real write-only cksum "-a sha1, stdin write-only" -a sha1
	same_as_real abc md5sum "stdin open" -
	same_as_real sums md5sum "-c - with stdin open" -c -
	same_as_real sums md5sum "-c of a file naming -, stdin open" -c dash.md5
	# (cksum's CRC with a closed standard input is left out on purpose:
	# 9.1 prints the CRC of no data there, a wrong digest multisum does
	# not imitate.)
}

# A diagnostic naming a long file name (5000 bytes) was cut at 4 KiB,
# losing its cause ("File name too long").
test_long_name_messages() {
	setup
	long=$(awk 'BEGIN { while (n++ < 5000) printf "n" }')
	printf 'd41d8cd98f00b204e9800998ecf8427e  %s\n' "$long" > long.md5
	for t in md5sum sha1sum b2sum cksum; do
		same_as_real /dev/null "$t" "long missing name" abc "$long" empty
		same_as_real /dev/null "$t" "-c of a long missing name" -c "$long"
	done
	same_as_real /dev/null md5sum "-c listing a long name" -c long.md5
	same_as_real /dev/null md5sum "-c --quiet listing a long name" \
	    -c --quiet long.md5
	same_as_real /dev/null cksum "-a sysv, long name" -a sysv "$long"
}

# coreutils names itself in messages by argv[0] as called, directory
# and all; multisum cut it to the base name.
test_program_name_as_called() {
	setup
	printf 'junk\n' > junk.md5
	BY_PATH=yes
	for t in md5sum sha256sum b2sum cksum; do
		same_as_real /dev/null "$t" "missing file, by path" abc nofile
		same_as_real /dev/null "$t" "unknown option, by path" --bogus
		same_as_real /dev/null "$t" "misplaced option, by path" --strict abc
		same_as_real /dev/null "$t" "-c of junk, by path" -c -w junk.md5
		[ "$t" = cksum ] && set -- -a sha1 || set --
		same_as_real closed "$t" "closed stdin, by path" "$@" -
	done
	# (cksum's unknown -a is left out: 9.11's list of -a differs; see
	# cksum-face.sh.)
	same_as_real /dev/null b2sum "bad -l, by path" -l 12 abc
	same_as_real /dev/null md5sum "--tag -c, by path" --tag -c junk.md5
}

run closed_stdin
run long_name_messages
run program_name_as_called
finish
