#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# p2p-digests.sh - RHash's file-sharing digests and HAS-160 (tiger, tth,
# ed2k, ed2k-edonkey, aich, has160) through the command line: published
# answers that need no peer tool; byte for byte what rhash prints at
# every boundary size (Tiger's and HAS-160's 64-byte blocks, TTH's 1 KiB
# leaves, AICH's 184,320-byte blocks, ED2K's 9,728,000-byte chunks and
# their multiples), whole and in odd-sized reads; the tags and base32 of
# rhash --bsd; the two ED2K conventions at an exact multiple of a chunk;
# and -c reading back multisum's own lines and rhash's --simple and
# --bsd ones.

. "$TESTS_SRCDIR/lib.sh"

ALGOS="tiger tth ed2k aich has160"
CHUNK=9728000

# rhash's option for one of ALGOS.
ropt() {
	case $1 in
	tiger) echo --tiger ;;
	tth) echo --tth ;;
	ed2k) echo --ed2k ;;
	aich) echo --aich ;;
	has160) echo --has160 ;;
	esac
}

need_rhash() {
	have rhash || { skip_case "rhash is not installed"; return 1; }
}

# The boundary sizes, each a prefix of one random pool, as files fN.
make_files() {
	{
		printf '%s\n' 0 1 55 56 63 64 65 127 128 129 1023 1024 1025
		printf '%s\n' 2047 2048 2049 3072 3073 4097 65537
		printf '%s\n' 184319 184320 184321 368639 368640 368641
		printf '%s\n' $((CHUNK - 1)) $CHUNK $((CHUNK + 1))
		printf '%s\n' $((2 * CHUNK - 1)) $((2 * CHUNK)) $((2 * CHUNK + 1))
	} > sizes
	head -c $((2 * CHUNK + 1)) /dev/urandom > pool
	while read -r n; do
		head -c "$n" pool > "f$n"
	done < sizes
	rm pool
}

# Published answers: Tiger's NESSIE vectors, HAS-160's standard, THEX's
# TTH of "" in base32, and MD4's and SHA-1's for a one-chunk ED2K and a
# one-block AICH.  No peer tool needed.
test_known_answers() {
	printf '' > empty
	printf abc > abc
	for i in 1 2 3 4 5 6 7 8; do printf 1234567890; done > digits
	is "$(multisum -a tiger abc)" \
	    "2aab1484e8c158f2bfb8c5ff41b57a525129131c957b5f93  abc" "tiger abc"
	is "$(multisum -a tiger digits)" \
	    "1c14795529fd9f207a958f84c52f11e887fa0cabdfd91bfd  digits" \
	    "tiger 8 x 1234567890"
	is "$(multisum -a has160 abc)" \
	    "975e810488cf2a3d49838478124afce4b1c78804  abc" "has160 abc"
	is "$(multisum -a has160 empty)" \
	    "307964ef34151d37c8047adec7ab50f4ff89762d  empty" "has160 empty"
	is "$(multisum -a tth empty)" \
	    "lwpnacqdbzryxw3vhjvcj64qbznghohhhzwclnq  empty" "tth empty"
	is "$(multisum -a ed2k abc)" \
	    "a448017aaf21d8525fc10ae87aa6729d  abc" "ed2k abc"
	is "$(multisum -a aich empty)" \
	    "3i42h3s6nnfq2msvx7xzkyayscx5qbyj  empty" "aich empty"
}

# Each algorithm at every boundary size as rhash --simple prints it:
# whole files, and reads of 4097 bytes, which cut every block and leaf.
test_against_rhash() {
	need_rhash || return 0
	make_files
	for a in $ALGOS; do
		# shellcheck disable=SC2046
		rhash $(ropt $a) --simple $(sed 's/^/f/' sizes) > "want.$a"
		# shellcheck disable=SC2046
		multisum -a $a $(sed 's/^/f/' sizes) > "got.$a"
		same "got.$a" "want.$a" "$a at every boundary size"
		# shellcheck disable=SC2046
		multisum -a $a --buffer-size=4097 $(sed 's/^/f/' sizes) \
		    > "odd.$a"
		same "odd.$a" "want.$a" "$a in 4097-byte reads"
	done
}

# The tags and forms of rhash --bsd, one algorithm a line (rhash pads
# the tag to five columns; the name and digest are the same), and of
# rhash --base64.
test_tags() {
	need_rhash || return 0
	head -c 5000 /dev/urandom > f
	for a in $ALGOS; do
		rhash $(ropt $a) --bsd f | sed 's/  *(/ (/' > want
		multisum -a $a --tag f > got
		same got want "$a --tag is rhash --bsd"
	done
	# --base64 as rhash's: TTH and AICH leave base32 for it too
	for a in tth aich; do
		rhash $(ropt $a) --base64 --bsd f | sed 's/  *(/ (/' > want
		multisum -a $a --base64 --tag f > got
		same got want "$a --base64 is rhash's"
	done
	multisum -a tth,has160 --tag f > tags
	has_line tags "TTH (f) = $(rhash --tth --simple f | cut -d' ' -f1)" \
	    "TTH's tag and base32"
	has_line tags \
	    "HAS-160 (f) = $(rhash --has160 --simple f | cut -d' ' -f1)" \
	    "HAS-160's tag"
}

# At an exact multiple of the chunk, eMule's convention (ed2k, RHash's)
# hashes an empty chunk more; eDonkey's (ed2k-edonkey) does not, and a
# single whole chunk is its own MD4.  Elsewhere they agree.
test_ed2k_conventions() {
	need_rhash || return 0
	head -c $((2 * CHUNK)) /dev/urandom > two
	head -c $CHUNK two > one
	head -c $((CHUNK + 1)) two > more
	e=$(multisum -a ed2k one | cut -d' ' -f1)
	d=$(multisum -a ed2k-edonkey one | cut -d' ' -f1)
	is "$e" "$(rhash --ed2k --simple one | cut -d' ' -f1)" "ed2k is rhash's"
	is "$d" "$(rhash --md4 --simple one | cut -d' ' -f1)" \
	    "ed2k-edonkey of one chunk is its MD4"
	check_not "the conventions differ at one chunk" test "$e" = "$d"
	# two chunks: the MD4 of the two chunk MD4s, without an empty one
	tail -c $CHUNK two > second
	h1=$(rhash --md4 --simple one | cut -d' ' -f1)
	h2=$(rhash --md4 --simple second | cut -d' ' -f1)
	printf "$(echo "$h1$h2" | sed 's/../\\x&/g')" > list
	is "$(multisum -a ed2k-edonkey two | cut -d' ' -f1)" \
	    "$(rhash --md4 --simple list | cut -d' ' -f1)" \
	    "ed2k-edonkey of two chunks"
	is "$(multisum -a ed2k-edonkey more | cut -d' ' -f1)" \
	    "$(multisum -a ed2k more | cut -d' ' -f1)" \
	    "the conventions agree off a multiple"
	multisum -a ed2k-edonkey --tag one > tag
	has_line tag "ED2K-EDONKEY (one) = $d" "ed2k-edonkey's tag"
}

# -c reads back multisum's own lines, rhash's --bsd (several algorithms
# a file) and --simple ones (one algorithm bare; several with -a), and
# finds a changed file.
test_check() {
	need_rhash || return 0
	head -c 200000 /dev/urandom > a
	head -c 3073 /dev/urandom > b
	multisum -a tiger,tth,ed2k,aich,has160 --tag a b > tagged
	multisum -a tth a b > plain.tth
	multisum -a aich a b > plain.aich
	rhash --tiger --tth --ed2k --aich --has160 --bsd a b > bsd
	rhash --tth --simple a b > simple.tth
	rhash --aich --simple a b > simple.aich
	rhash --tiger --simple a b > simple.tiger
	rhash --tth --ed2k --aich --tiger --has160 --md5 --simple a b > multi
	for f in tagged plain.tth plain.aich bsd simple.tth simple.aich \
	    simple.tiger; do
		status_is 0 "-c $f" multisum -c "$f"
	done
	status_is 0 "-c rhash's line of six" \
	    multisum -c -a tth,ed2k,aich,tiger,has160,md5 multi
	rhash --tth --uppercase --simple a > upper
	status_is 0 "-c upper-case base32" multisum -c upper
	printf x >> b
	status_is 1 "-c finds a changed file (bsd)" multisum -c bsd
	status_is 1 "-c finds a changed file (tth)" multisum -c simple.tth
	multisum -c simple.aich > out
	has_line out "b: FAILED" "-c finds a changed file (aich)"
}

# The rows and their classes in --list-algorithms.
test_listed() {
	multisum --list-algorithms > list
	for r in "tiger TIGER 192 legacy" "tth TTH 192 legacy" \
	    "ed2k ED2K 128 broken" "ed2k-edonkey ED2K-EDONKEY 128 broken" \
	    "aich AICH 160 broken" "has160 HAS-160 160 legacy"; do
		# shellcheck disable=SC2086
		set -- $r
		check "$1 listed as $4" grep -Eq "^$1 +$2 +$3 +built-in +$4\$" list
	done
}

run known_answers
run against_rhash
run tags
run ed2k_conventions
run check
run listed
finish
