#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# gost-digests.sh - RHash's GOST R 34.11-94 (both S-box sets), GOST R
# 34.11-2012 (Streebog), EDON-R and Snefru rows against rhash itself: the
# digests on every block boundary (GOST 94's and Snefru-256's 32 bytes,
# Snefru-128's 48, Streebog's and EDON-R256's 64, EDON-R512's 128) and a
# few MB, read whole and in odd-sized reads; the names of --tag lines as
# rhash --bsd writes them; and -c reading rhash's --simple and --bsd
# lines and multisum's own.  The published vectors, which need no rhash,
# are unit-algo's (algo-vectors.h).

. "$TESTS_SRCDIR/lib.sh"

# multisum's row, then rhash's option, for each digest.
PAIRS="gost94:gost94 gost94-cryptopro:gost94-cryptopro
streebog256:gost12-256 streebog512:gost12-512 edonr256:edonr256
edonr512:edonr512 snefru128:snefru128 snefru256:snefru256"

need_rhash() {
	have rhash || skip_test "rhash is not installed"
}

# The files fN: every size either side of each block length, and 3 MB.
make_files() {
	sizes="0 1 2 7 8 9"
	for b in 32 48 64 128; do
		for k in 1 2 3; do
			m=$((b * k))
			sizes="$sizes $((m - 9)) $((m - 8)) $((m - 1)) $m $((m + 1))"
		done
	done
	sizes="$sizes 1000 4097 65536 3145739"
	random_file pool 3145739
	for n in $sizes; do
		head -c "$n" pool > "f$n"
	done
	ls f* | sort -u > names
}

test_digests_equal_rhash() {
	need_rhash
	make_files
	for p in $PAIRS; do
		row=${p%%:*}
		opt=${p#*:}
		# shellcheck disable=SC2046
		rhash --simple "--$opt" $(cat names) > want
		for io in "" "--io=mmap" "--buffer-size=4097"; do
			# shellcheck disable=SC2046,SC2086
			multisum $io -a "$row" $(cat names) > got
			same got want "$row $io: every boundary size as rhash"
		done
	done
}

test_tag_lines_are_rhash_bsd() {
	need_rhash
	random_file f 100
	for p in $PAIRS; do
		row=${p%%:*}
		opt=${p#*:}
		is "$(multisum --tag -a "$row" f)" "$(rhash --bsd "--$opt" f)" \
		    "$row: --tag as rhash --bsd"
	done
}

test_check_reads_rhash_and_own_lines() {
	need_rhash
	random_file a 33
	random_file b 129
	for p in $PAIRS; do
		row=${p%%:*}
		opt=${p#*:}
		rhash --bsd "--$opt" a b > "bsd.$row"
		rhash --simple "--$opt" a b > "simple.$row"
		multisum --tag -a "$row" a b > "tagged.$row"
		multisum -a "$row" a b > "plain.$row"
		status_is 0 "-c reads rhash --bsd's $row lines" \
		    multisum -c "bsd.$row"
		status_is 0 "-a $row -c reads rhash --simple's lines" \
		    multisum -a "$row" -c "simple.$row"
		# named after the row, the manifest says the algorithm; bare,
		# the digests are tried as each row of their length
		multisum -c "simple.$row" > out 2> err
		is "$?" 0 "-c reads them in a manifest named .$row"
		lacks err "untagged" "the name, not a guess, says $row"
		cp "simple.$row" bare
		multisum -c bare > out 2> err
		is "$?" 0 "-c finds bare $row digests"
		check "and says they are $row's" \
		    grep -q "bare: untagged digests are $row, not " err
		status_is 0 "-c reads multisum --tag's $row lines" \
		    multisum -c "tagged.$row"
		status_is 0 "-a $row -c reads multisum's plain lines" \
		    multisum -a "$row" -c "plain.$row"
		check "rhash reads $row's --tag lines" \
		    sh -c "rhash -c tagged.$row > /dev/null"
	done
	# A changed file is a mismatch (exactly 1) in every form.
	printf x >> b
	for p in $PAIRS; do
		row=${p%%:*}
		for f in "bsd.$row" "tagged.$row"; do
			multisum -c "$f" > out 2>&1
			is "$?" 1 "$f: a changed file is a mismatch"
			has_line out "b: FAILED" "$f names the changed file"
			has_line out "a: OK" "$f: the other file still passes"
		done
		for f in "simple.$row" "plain.$row"; do
			multisum -a "$row" -c "$f" > out 2>&1
			is "$?" 1 "$f: a changed file is a mismatch"
		done
	done
}

run digests_equal_rhash
run tag_lines_are_rhash_bsd
run check_reads_rhash_and_own_lines
finish
