#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# harden.sh - the I/O side of hardening (issues 9 and 10): one reader per
# stream, -o that never lists or clobbers what it should not, signals,
# descriptors, odd files, mapped files that shrink, and the shape of
# what reaches standard output.
. "$TESTS_SRCDIR/lib.sh"

# tool NAME: a link to multisum named NAME (a personality) in ./bin.
tool() {
	mkdir -p bin
	ln -sf "$MULTISUM" "bin/$1"
}

# Standard input (and any stream) has one reader, in operand order: the
# first "-" gets all the data, the second none, at every -j.
test_stdin_twice() {
	random_file data 3145728
	sha256sum - - < data > want
	for j in 1 2 4; do
		multisum -a sha256 -j "$j" - - < data > got
		same got want "-j $j: '- -' hashes everything for the first -"
		cat data | multisum -a sha256 -j "$j" - data - > got
		{ sed -n 1p want; sha256sum data; sed -n 2p want; } > want3
		same got want3 "-j $j: '- data -' from a pipe"
	done
	tool cksum
	cat data | command cksum - - > want
	cat data | bin/cksum - - > got
	same got want "cksum - - from a pipe"
}

run stdin_twice
finish
