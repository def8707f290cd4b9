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
	for t in $TOOLS; do
		if ! have "$t" || ! "$t" --version 2>/dev/null | head -n 1 |
		    grep -q 'GNU coreutils) 9\.1$'; then
			skip_test "$t of GNU coreutils 9.1 absent"
		fi
	done
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
# a file to read, or "closed" for a closed standard input.
same_as_real() {
	_in=$1 _t=$2 _d=$3
	shift 3
	# found on PATH, so that argv[0] (in messages) is the bare name
	for _w in real mine; do
		if [ "$_in" = closed ]; then
			(PATH=$T/$_w:$PATH; exec "$_t" "$@") \
			    > "$T/$_w.out" 2> "$T/$_w.err" <&-
		else
			(PATH=$T/$_w:$PATH; exec "$_t" "$@") \
			    > "$T/$_w.out" 2> "$T/$_w.err" < "$_in"
		fi
		echo $? > "$T/$_w.rc"
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
	# an open standard input is closed quietly
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

run closed_stdin
run long_name_messages
finish
