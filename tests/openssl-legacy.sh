#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# openssl-legacy.sh - MD4, which comes from OpenSSL's legacy provider, and
# Whirlpool, built in: digests against rhash, verification of rhash's BSD
# lines, the provider loaded only when md4 is selected, a clear error
# when it cannot be loaded, and their absence from -a all.

. "$TESTS_SRCDIR/lib.sh"

test_rhash() {
	have rhash || skip_test "rhash absent"
	for n in 0 1 55 56 63 64 65 1000 100003; do
		random_file "f$n" "$n"
	done
	rhash --md4 --whirlpool -p '%{md4} %{whirlpool}\n' f* > want
	for f in f*; do
		multisum -a md4,whirlpool "$f" | sed 's/.* = //' | paste -d ' ' - -
	done > got
	same got want "md4 and whirlpool match rhash"
	rhash --md4 --whirlpool --bsd f* > sums
	check "-c verifies rhash's MD4 and WHIRLPOOL lines" multisum -c sums
	printf x >> f1000
	status_is 1 "-c fails a changed file" multisum -c sums
}

test_not_in_all() {
	echo data > a
	multisum -a all a > all
	lacks all MD4 "-a all leaves md4 out"
	lacks all WHIRLPOOL "-a all leaves whirlpool out"
	multisum --list-algorithms > list
	check "--list-algorithms lists md4 as broken" \
	    grep -q '^md4 .* OpenSSL *broken$' list
	check "--list-algorithms lists whirlpool as built-in, legacy" \
	    grep -q '^whirlpool .* built-in/[a-z0-9]* *legacy$' list
}

test_provider_missing() {
	echo data > a
	OPENSSL_MODULES=$PWD/none multisum -a md4 a > out 2> err
	is "$?" 2 "md4 without the legacy provider: status 2"
	check "and a message naming the provider" \
	    grep -q "^multisum: md4: OpenSSL's legacy provider could not be loaded" err
	is "$(wc -l < err | tr -d ' ')" 1 "in one line"
	is "$(cat out)" "" "and no digest"
	OPENSSL_MODULES=$PWD/none multisum -a sha256 a > out
	is "$?" 0 "sha256 does not need it"
	OPENSSL_MODULES=$PWD/none multisum -a whirlpool a > out
	is "$?" 0 "nor whirlpool, which is built in"
}

test_loaded_only_when_selected() {
	have strace || skip_test "strace absent"
	echo data > a
	strace -f -e trace=openat -o trace "$MULTISUM" -a sha256,crc32 a > out
	lacks trace legacy.so "-a sha256 does not open legacy.so"
	strace -f -e trace=openat -o trace "$MULTISUM" -a whirlpool a > out
	lacks trace legacy.so "-a whirlpool does not open legacy.so"
	strace -f -e trace=openat -o trace "$MULTISUM" -a md4 a > out
	check "-a md4 opens legacy.so" grep -q 'legacy\.so' trace
}

run rhash
run not_in_all
run provider_missing
run loaded_only_when_selected
finish
