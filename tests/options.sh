#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# options.sh - the option-pair rules of multisum.c (the comment above its
# option table): every misuse is refused before any work, with exit
# status 2, one line naming both options and the --help hint; the same
# options in the mode they belong to are accepted.
. "$TESTS_SRCDIR/lib.sh"

# refused MESSAGE ARG...: `multisum ARG...` exits 2, writes nothing to
# standard output and exactly "multisum: MESSAGE" and the Try line to
# standard error.
refused() {
	_msg=$1
	shift
	multisum "$@" > out 2> err
	is "$?" 2 "$*: exit status"
	check "$*: nothing on standard output" test ! -s out
	printf "multisum: %s\nTry 'multisum --help' for more information.\n" \
	    "$_msg" > want
	same err want "$*: says '$_msg' and the hint, once"
}

setup() {
	printf 'data\n' > f
	multisum f > SUMS
	digest=$(cut -c1-64 SUMS)
}

test_checking_options_need_check() {
	setup
	for o in --quiet --status --strict --warn --ignore-missing; do
		case $o in
		--quiet) needs="--check, --expect, --update, --audit or --xattr" ;;
		*) needs="--check or --expect" ;;
		esac
		refused "$o needs $needs" "$o" f
		status_is 0 "-c $o is accepted" multisum -c "$o" SUMS > /dev/null
		status_is 0 "--expect $o is accepted" \
		    multisum --expect="$digest" "$o" f > /dev/null
	done
	refused "--warn needs --check or --expect" -w f
}

test_check_refuses_hash_options() {
	setup
	refused "--output cannot be used with --check" -c -o new SUMS
	check "-c -o: the output is not created" test ! -e new
	refused "--output cannot be used with --expect" --expect="$digest" -o new f
	refused "--tag cannot be used with --check" -c --tag SUMS
	refused "--untagged cannot be used with --check" -c --untagged SUMS
	refused "--binary cannot be used with --check" -c -b SUMS
	refused "--text cannot be used with --check" -c --text SUMS
	refused "--base64 cannot be used with --check" -c --base64 SUMS
	refused "--raw cannot be used with --check" -c --raw SUMS
	refused "--format cannot be used with --check" -c --format=bsd SUMS
	refused "--recursive cannot be used with --check" -c -r SUMS
	refused "--exclude cannot be used with --check" -c --exclude='*' SUMS
	refused "--files-from cannot be used with --check" -c --files-from=SUMS
	refused "--files0-from cannot be used with --check" -c --files0-from=SUMS
}

test_bench_options_need_bench() {
	setup
	refused "--bench-time needs --bench" --bench-time=1 f
	refused "--bench-baseline needs --bench" --bench-baseline=md5 f
	refused "--ascii needs --bench" --ascii f
	refused "--output cannot be used with --bench" --bench -o new f
	check "--bench -o: the output is not created" test ! -e new
	refused "--archive cannot be used with --bench" --bench --archive=x.tar
	refused "--tag cannot be used with --bench" --bench --tag
	refused "--status cannot be used with --bench" --bench --status
	refused "--recursive cannot be used with --bench" --bench -r f
	refused "invalid --format 'gnu' for --bench (table, csv or json)" \
	    --bench --format=gnu
	refused "invalid --bench-baseline: 'nosuch' (see --list-algorithms)" \
	    --bench --bench-baseline=nosuch
}

test_modes_exclude_each_other() {
	setup
	refused "--check and --bench cannot be combined" -c --bench SUMS
	refused "--bench and --check cannot be combined" --bench -c SUMS
	refused "--check and --expect cannot be combined" -c --expect="$digest" f
	refused "--expect and --bench cannot be combined" --expect="$digest" --bench
	# a mode option given twice is no conflict
	status_is 0 "-c -c is accepted" multisum -c --check SUMS > /dev/null
}

test_overriding_pairs() {
	setup
	refused "--files-from and --files0-from cannot be combined" \
	    --files-from=SUMS --files0-from=SUMS
	refused "--files-from and --files0-from cannot be combined" \
	    --files0-from=SUMS --files-from=SUMS
	refused "--tag and --untagged cannot be combined" --tag --untagged f
	refused "--tag and --format cannot be combined" --tag --format=gnu f
	refused "--untagged and --format cannot be combined" --untagged --format=bsd f
	refused "--raw and --base64 cannot be combined" --raw --base64 f
}

test_mode_values() {
	setup
	refused "--expect: 'zz' is not a digest of a known length (or give -a)" \
	    --expect=zz f
	refused "invalid --format 'x' (gnu, bsd, sfv, ndjson, hashdeep or magnet)" --format=x f
	refused "--format=gnu (--untagged) takes exactly one algorithm" \
	    -a md5,sha1 --untagged f
	refused "--raw takes a single input" --raw f f
	mkdir d
	printf 'x\n' > d/x
	refused "--update writes gnu or bsd lines (--format=ndjson reports each file's fate)" \
	    -r -u M --format=sfv d
	refused "--audit prints a report: --format=ndjson or none" \
	    -r --audit=M --format=bsd d
	refused "--merge needs the shard manifests as operands" --merge
	check "a refused --update wrote no manifest" test ! -e M
	refused "--format=gnu (--untagged) takes exactly one algorithm" \
	    -r -u M -a md5,sha1 --untagged d
	multisum -r -u M -a md5,sha1 d 2> /dev/null
	cp M M.before
	refused "--format=gnu (--untagged) takes exactly one algorithm" \
	    -r -u M --untagged d
	same M M.before "the manifest of two algorithms stays as it was"
}

# A refused size says why: not a number, an unknown suffix, too large
# (even past what a number holds), or too small.
test_size_reasons() {
	setup
	refused "invalid --memory '1T': unknown suffix (K, M or G)" --memory=1T f
	refused "invalid --memory '99999999999999999999': too large" \
	    --memory=99999999999999999999 f
	refused "invalid --memory 'lots': not a number" --memory=lots f
	refused "invalid --memory '1K': too small (at least 1M)" --memory=1K f
	refused "invalid --buffer-size '1G': too large (4K to 64M)" \
	    --buffer-size=1G f
	refused "invalid --block-size '1X': unknown suffix (K, M or G)" \
	    --block-size=1X f
}

test_hash_mode_accepts_its_options() {
	setup
	printf 'f\n' > list
	multisum --tag -b -z --base64 f > /dev/null
	is "$?" 0 "--tag -b -z --base64"
	multisum --files-from=list > got
	same got SUMS "--files-from alone"
	multisum --format=bsd -o out2 f
	is "$?" 0 "--format -o"
	check "-o wrote its file" test -s out2
}

run checking_options_need_check
run check_refuses_hash_options
run bench_options_need_bench
run modes_exclude_each_other
run overriding_pairs
run mode_values
run size_reasons
run hash_mode_accepts_its_options
finish
