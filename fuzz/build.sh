#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# build.sh - builds the libFuzzer targets of fuzz/ (what `make fuzz`
# runs): every source of src/ but main() compiled once with
# -fsanitize=fuzzer-no-link,address,undefined, then each fuzz-*.c linked
# against them with -fsanitize=fuzzer.  Without clang (or a clang without
# libFuzzer) it says so and builds nothing, successfully.
#
# Environment: FUZZ_CC (default clang), SRCDIR (the source tree, default
# ..), BUILDDIR (where config.h is, default the source tree), CPPFLAGS
# (the library headers' flags from configure), OUT (default fuzz/ of
# BUILDDIR), SOURCES (the library's .c files relative to SRCDIR, as
# Makefile.am lists them for this configuration; `make fuzz` passes them,
# so a stand-in such as io/archive_missing.c is compiled only when its
# library is left out).
set -e
: "${FUZZ_CC:=clang}"
: "${SRCDIR:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${BUILDDIR:=$SRCDIR}"
: "${OUT:=$BUILDDIR/fuzz}"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
FLAGS="-g -O1 -std=c17 -Wall -Wextra -D_GNU_SOURCE -include $BUILDDIR/config.h -I$SRCDIR/src -I$SRCDIR/fuzz ${CPPFLAGS:-}"

if ! command -v "$FUZZ_CC" >/dev/null 2>&1; then
	echo "make fuzz: $FUZZ_CC not found: no fuzz target built (install clang)"
	exit 0
fi
mkdir -p "$OUT/obj"
probe=$OUT/obj/probe.c
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return !d + (int)n; }' > "$probe"
if ! "$FUZZ_CC" -fsanitize=fuzzer "$probe" -o "$OUT/obj/probe" 2>/dev/null; then
	echo "make fuzz: $FUZZ_CC cannot link libFuzzer: no fuzz target built"
	exit 0
fi

if [ -z "${SOURCES:-}" ]; then
	echo "make fuzz: SOURCES is empty: run it as make fuzz" >&2
	exit 1
fi
# An object is rebuilt when its source, config.h or any header is newer:
# a header that changes a struct's layout changes every object that uses
# it, and one left stale reads the struct at the old offsets (ASan saw a
# global-buffer-overflow in code that was right).  Any header is newer
# than an object when the newest one is: found once, not once an object
# (a find over every header for each of 148 objects made a `make fuzz`
# with nothing to do take 5 s).
newest_h=$(find "$SRCDIR/src" "$SRCDIR/fuzz" -name '*.h' -exec ls -t {} + |
    head -n 1)
header_newer() {
	[ -n "$newest_h" ] && [ "$newest_h" -nt "$1" ]
}
objs=
for src in $SOURCES; do
	c=$SRCDIR/$src
	rel=${src#src/}
	o=$OUT/obj/$(echo "${rel%.c}" | tr / _).o
	if [ ! -f "$o" ] || [ "$c" -nt "$o" ] || [ "$BUILDDIR/config.h" -nt "$o" ] ||
	    header_newer "$o"; then
		echo "  FUZZCC   src/$rel"
		# shellcheck disable=SC2086
		"$FUZZ_CC" $FLAGS $SAN -fsanitize=fuzzer-no-link -c "$c" -o "$o"
	fi
	objs="$objs $o"
done
for t in "$SRCDIR"/fuzz/fuzz-*.c; do
	name=$(basename "$t" .c)
	echo "  FUZZLD   fuzz/$name"
	# shellcheck disable=SC2086
	"$FUZZ_CC" $FLAGS $SAN -fsanitize=fuzzer "$t" $objs -o "$OUT/$name" \
	    -lpthread -ldl
done
echo "make fuzz: built $(ls "$SRCDIR"/fuzz/fuzz-*.c | wc -l) targets in $OUT; see fuzz/README.md"
