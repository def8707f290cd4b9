#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# whirlpool.sh - the built-in Whirlpool through the command line at every
# code level this machine runs (MULTISUM_WHIRLPOOL_LEVEL): the ISO/NESSIE
# test vectors; every length 0..300, the lengths around the 64-byte
# blocks and the 32-byte length field, and a few large ones, against
# OpenSSL's and RHash's Whirlpool, read, mapped and in odd-sized reads;
# what --debug and --list-algorithms say about the level; and the refusal
# of a level that does not exist.

. "$TESTS_SRCDIR/lib.sh"

LEVELS="portable avx512"

# The levels this CPU runs: the others are refused.
runnable() {
	# shellcheck disable=SC2086
	runnable_levels MULTISUM_WHIRLPOOL_LEVEL whirlpool $LEVELS
}

# vector NAME HEX: a message made by the caller in file NAME.
vector() {
	is "$(multisum -a whirlpool < "$1")" "$2  -" "$1 at $l"
}

# ISO/IEC 10118-3:2004 and NESSIE: "", "a", "abc", "message digest", the
# alphabet, A..Za..z0..9, eight times 1234567890, a million "a".
test_vectors() {
	printf '' > empty
	printf a > a
	printf abc > abc
	printf 'message digest' > md
	printf abcdefghijklmnopqrstuvwxyz > alphabet
	printf ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 \
	    > alnum
	for i in 1 2 3 4 5 6 7 8; do printf 1234567890; done > digits
	head -c 1000000 /dev/zero | tr '\0' a > million
	for l in $(runnable); do
		export MULTISUM_WHIRLPOOL_LEVEL=$l
		vector empty 19fa61d75522a4669b44e39c1d2e1726c530232130d407f89afee0964997f7a73e83be698b288febcf88e3e03c4f0757ea8964e59b63d93708b138cc42a66eb3
		vector a 8aca2602792aec6f11a67206531fb7d7f0dff59413145e6973c45001d0087b42d11bc645413aeff63a42391a39145a591a92200d560195e53b478584fdae231a
		vector abc 4e2448a4c6f486bb16b6562c73b4020bf3043e3a731bce721ae1b303d97e6d4c7181eebdb6c57e277d0e34957114cbd6c797fc9d95d8b582d225292076d4eef5
		vector md 378c84a4126e2dc6e56dcc7458377aac838d00032230f53ce1f5700c0ffb4d3b8421557659ef55c106b4b52ac5a4aaa692ed920052838f3362e86dbd37a8903e
		vector alphabet f1d754662636ffe92c82ebb9212a484a8d38631ead4238f5442ee13b8054e41b08bf2a9251c30b6a0b8aae86177ab4a6f68f673e7207865d5d9819a3dba4eb3b
		vector alnum dc37e008cf9ee69bf11f00ed9aba26901dd7c28cdec066cc6af42e40f82f3a1e08eba26629129d8fb7cb57211b9281a65517cc879d7b962142c65f5a7af01467
		vector digits 466ef18babb0154d25b9d38a6414f5c08784372bccb204d6549c4afadb6014294d5bd8df2a6c44e538cd047b2681a51a2c60481e88c5a20b2c2a80cf3a9a083b
		vector million 0c99005beb57eff50a7cf005560ddf5d29057fd86b20bfd62deca0f1ccea4af51fc15490eddc47af32bb2b66c34ff9ad8c6008ad677f77126953b226e4ed8b01
	done
}

# Every length 0..300; either side of each block boundary and of each
# point where the 32-byte length field no longer fits (n % 64 == 32) up
# to 16 blocks; and past the default 256 KiB read, in the files fNNN.
make_files() {
	n=0
	while [ $n -le 300 ]; do
		echo $n
		n=$((n + 1))
	done > sizes
	b=5
	while [ $b -le 16 ]; do
		for d in -33 -32 -31 -1 0 1 31 32 33; do
			echo $((64 * b + d))
		done
		b=$((b + 1))
	done >> sizes
	printf '%s\n' 4095 4096 4097 65537 262143 262144 262145 1000003 >> sizes
	head -c 1000003 /dev/urandom > pool
	while read -r n; do
		head -c "$n" pool > "f$n"
	done < sizes
}

# Whirlpool lines "HEX  fN" at every level, I/O and read size, against
# want: plain files, mapped files, and reads of 4097 and 65599 bytes
# (blocks then arrive split at every offset of the 64-byte block).
against() {
	for l in $(runnable); do
		for io in "--io=read" "--io=mmap" "--io=read --buffer-size=4097" \
		    "--io=mmap --buffer-size=65599"; do
			# shellcheck disable=SC2086
			MULTISUM_WHIRLPOOL_LEVEL=$l multisum -j1 $io -a whirlpool \
			    f* > got
			same got want "$1 at $l, $io"
		done
	done
}

test_openssl() {
	have openssl || skip_test "openssl absent"
	openssl dgst -whirlpool -provider legacy -r /dev/null >/dev/null 2>&1 ||
	    skip_test "openssl without its legacy provider"
	make_files
	openssl dgst -whirlpool -provider legacy -r f* |
	    sed 's/ \*/  /' > want
	is "$(wc -l < want | tr -d ' ')" "$(ls f* | wc -l | tr -d ' ')" \
	    "openssl hashed every file"
	against "openssl dgst -whirlpool"
}

test_rhash() {
	have rhash || skip_test "rhash absent"
	make_files
	rhash --whirlpool -p '%{whirlpool}  %p\n' f* > want
	against "rhash --whirlpool"
}

test_levels() {
	echo data > a
	for l in $(runnable); do
		MULTISUM_WHIRLPOOL_LEVEL=$l multisum --debug -a whirlpool a \
		    > /dev/null 2> err
		has_line err "multisum: whirlpool: built-in ($l)" \
		    "--debug names $l"
		MULTISUM_WHIRLPOOL_LEVEL=$l multisum --list-algorithms > list
		check "--list-algorithms names $l" \
		    grep -q "^whirlpool .* built-in/$l *legacy\$" list
	done
	check "portable runs everywhere" runnable_has portable
	MULTISUM_WHIRLPOOL_LEVEL=vector multisum -a whirlpool a > out 2> err
	is "$?" 2 "an unknown level: status 2"
	# shellcheck disable=SC2086
	has_line err "multisum: MULTISUM_WHIRLPOOL_LEVEL=vector: not one of $(built_levels MULTISUM_WHIRLPOOL_LEVEL whirlpool $LEVELS)" \
	    "in one line naming the levels"
	is "$(cat out)" "" "and no digest"
	MULTISUM_WHIRLPOOL_LEVEL=vector multisum -a sha256 a > out
	is "$?" 0 "other algorithms do not read it"
}

runnable_has() {
	runnable | grep -qx "$1"
}

run vectors
run openssl
run rhash
run levels
finish
