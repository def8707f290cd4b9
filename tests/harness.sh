#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# harness.sh - the suite's own reporting: a case skipped for want of a
# tool or a CPU level (lib.sh's skip_case, runnable_levels) is a TAP
# "# SKIP" line with its reason, even when met in a subshell, once per
# test; automake's TAP driver counts it; and .ci/summary lists each
# skipped test point with its reason before its last line,
# "N passed, M failed".
. "$TESTS_SRCDIR/lib.sh"

top=$TESTS_SRCDIR/..

# A multisum that runs every CRC level but "x9", refused as multisum
# refuses a level the CPU lacks.
fake_multisum() {
	cat > fake-multisum <<-'END'
	#!/bin/sh
	if [ "${MULTISUM_CRC_IMPL-}" = x9 ]; then
		echo "multisum: MULTISUM_CRC_IMPL=x9: this CPU cannot run it" >&2
		exit 2
	fi
	exit 0
	END
	chmod +x fake-multisum
}

# A test file of two tests: the first skips a level (twice, in command
# substitutions) and a case in a subshell, the second nothing.
fake_tests() {
	cat > fake.sh <<-'END'
	. "$TESTS_SRCDIR/lib.sh"
	test_levels() {
		for l in $(runnable_levels MULTISUM_CRC_IMPL crc32 table x9 sse42); do
			pass
		done
		n=$(runnable_levels MULTISUM_CRC_IMPL crc32 x9 | wc -l)
		is "$n" 0 "x9 is not runnable"
		(skip_case "no frobnicator")
	}
	test_plain() {
		pass
	}
	run levels
	run plain
	finish
	END
}

test_skips_are_tap_skips() {
	fake_multisum
	fake_tests
	MULTISUM=$PWD/fake-multisum sh fake.sh > tap 2> err
	cat > want <<-'END'
	ok 1 - levels (3 checks)
	ok 2 - levels # SKIP crc32 at x9: MULTISUM_CRC_IMPL=x9: this CPU cannot run it
	ok 3 - levels # SKIP no frobnicator
	ok 4 - plain (1 checks)
	# skipped: 2
	1..4
	END
	same tap want "each skipped case once, with its reason, after its test"
	same err /dev/null "nothing on standard error"
}

test_driver_counts_them() {
	driver=$top/build-aux/tap-driver.sh
	[ -f "$driver" ] || skip_test "no build-aux/tap-driver.sh"
	fake_multisum
	fake_tests
	mkdir t
	MULTISUM=$PWD/fake-multisum env AM_TAP_AWK=awk sh "$driver" \
	    --test-name t/fake.sh --log-file t/fake.log --trs-file t/fake.trs \
	    --color-tests no --enable-hard-errors yes --expect-failure no -- \
	    sh fake.sh > console
	is "$(grep -c '^:test-result: SKIP' t/fake.trs)" 2 "two SKIP results"
	is "$(grep -c '^:test-result: PASS' t/fake.trs)" 2 "two PASS results"
	summary=$top/.ci/summary
	[ -f "$summary" ] || skip_test "no .ci/summary (not shipped)"
	sh "$summary" t 0 3 0 > out
	is "$?" 0 "nothing failed: exit status 0"
	cat > want <<-'END'
	ci: 2 skipped; logs in ci-logs/
	ci: skipped: t/fake.sh 2 - levels # SKIP crc32 at x9: MULTISUM_CRC_IMPL=x9: this CPU cannot run it
	ci: skipped: t/fake.sh 3 - levels # SKIP no frobnicator
	5 passed, 0 failed
	END
	same out want ".ci/summary: each skip and its reason, then the count last"
	sh "$summary" t 0 3 1 > out
	is "$?" 1 "a failed step: exit status 1"
	is "$(tail -n 1 out)" "5 passed, 1 failed" "the failed step is counted"
}

run skips_are_tap_skips
run driver_counts_them
finish
