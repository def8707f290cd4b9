#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# run-short.sh - the CI step of fuzzing: builds the targets (fuzz/build.sh)
# and runs each for FUZZ_SECONDS (default 30) from the seed corpus and
# the dictionary, with ASan and UBSan.  New inputs go to a temporary
# directory, never into the tree.  Fails, and keeps the crashing input in
# FUZZ_ARTIFACTS (default fuzz/artifacts of the build tree), if any target
# crashes; succeeds with a message, doing nothing, without clang.
# Usage: fuzz/run-short.sh   (from the top of a configured build tree)
set -u
: "${FUZZ_SECONDS:=30}"
: "${SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${BUILDDIR:=$(pwd)}"
: "${FUZZ_ARTIFACTS:=$BUILDDIR/fuzz/artifacts}"
export SRCDIR BUILDDIR

make -C "$BUILDDIR" fuzz || exit 1	# the sources as configured
[ -x "$BUILDDIR/fuzz/fuzz-manifest" ] || exit 0	# no clang: said so
tmp=$(mktemp -d "${TMPDIR:-/tmp}/multisum-fuzz.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$FUZZ_ARTIFACTS"
failed=0
for t in "$SRCDIR"/fuzz/fuzz-*.c; do
	name=$(basename "$t" .c)
	seeds=$SRCDIR/fuzz/corpus/${name#fuzz-}
	mkdir "$tmp/$name"
	if "$BUILDDIR/fuzz/$name" -max_total_time="$FUZZ_SECONDS" \
	    -dict="$SRCDIR/fuzz/multisum.dict" -print_final_stats=1 \
	    -artifact_prefix="$FUZZ_ARTIFACTS/$name-" \
	    "$tmp/$name" "$seeds" > "$tmp/$name.log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' \
		    "$tmp/$name.log")
		echo "$name: ok, $runs executions in ${FUZZ_SECONDS} s"
	else
		echo "$name: FAILED; the input is in $FUZZ_ARTIFACTS:"
		grep -E 'ERROR|SUMMARY|round trip|runtime error' "$tmp/$name.log" |
		    head -n 10
		failed=1
	fi
done
exit $failed
