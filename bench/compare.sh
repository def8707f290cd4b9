#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# compare.sh - time multisum beside the checksum tools it replaces.
#
#   bench/compare.sh                 every workload, 5 rounds
#   RUNS=9 ONLY='sha256|multi4' bench/compare.sh
#
# Each workload runs every command once per round, in an order that
# rotates from round to round, so that a noisy machine's drift hits all
# of them alike.  Reported: the median time of each command, and for
# multisum the median over rounds of t(multisum) / t(fastest peer) taken
# within the same round (< 1 means multisum is faster).  Outputs are
# compared before timing: a command whose digests differ from the first
# peer's is marked DIFF.  Peers that are not installed are left out.
#
# Environment: MULTISUM (default: src/multisum beside this script),
# RUNS (5), SIZE_MB (1024), DATA (/tmp/multisum-compare), ONLY (regex of
# workload ids: startup-sha256 startup-xxh3 sha256 multi4 tree1k tree64k
# floor-tree1k blake3-j1 blake3 blake3-tree1k startup-blake3 cksum crc32
# crc32c md4 whirlpool rss), JOBS (nproc), FLOOR (the read floor,
# bench/floor.c: default the one `make bench` built beside MULTISUM, else
# compiled into DATA with ${CC:-cc}).  Needs bash >= 5.
# bench/update-bench.sh times --update and --audit.
set -u
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
SIZE_MB=${SIZE_MB:-1024}
DATA=${DATA:-/tmp/multisum-compare}

. "$here/lib.sh"	# M RUNS ONLY JOBS, start, tree, us, median, hexes, workload
# The read floor (start): JOBS threads reading every file, nothing
# hashed.  Small-file rows are read against it.
start

# ------------------------------------------------------------- test data
BIG=$DATA/big-${SIZE_MB}M
EMPTY=$DATA/empty
T1K=$DATA/tree-20000x1K
T64K=$DATA/tree-2000x64K

: > "$EMPTY"
[ "$(stat -c %s "$BIG" 2>/dev/null)" = $((SIZE_MB << 20)) ] ||
	head -c $((SIZE_MB << 20)) /dev/urandom > "$BIG"
[[ tree1k =~ $ONLY || blake3-tree1k =~ $ONLY || floor-tree1k =~ $ONLY ]] &&
	tree "$T1K" 20000 1024
[[ tree64k =~ $ONLY ]] && tree "$T64K" 2000 65536
cat "$BIG" > /dev/null			# figures are for cached data
for t in "$T1K" "$T64K"; do [ -d "$t" ] && find "$t" -type f -exec cat {} + > /dev/null; done

echo "# compare.sh $(date -u '+%F %T') UTC, $(nproc) CPUs, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)"
echo "# $("$M" --version | head -n 1), RUNS=$RUNS, SIZE_MB=$SIZE_MB, load $(cut -d' ' -f1-3 /proc/loadavg)"

workload startup-sha256 ms 1 20 \
	"sha256sum|sha256sum $EMPTY" "rhash --sha256|rhash --sha256 $EMPTY" \
	-- "multisum -a sha256|$M -a sha256 $EMPTY"
workload startup-xxh3 ms 1 20 \
	"sha256sum|sha256sum $EMPTY" \
	-- "multisum -a xxh3|$M -a xxh3 $EMPTY"
workload sha256 MB/s $((SIZE_MB << 20)) 1 \
	"sha256sum|sha256sum $BIG" "rhash --sha256|rhash --sha256 $BIG" \
	"openssl dgst -sha256|openssl dgst -sha256 $BIG" \
	-- "multisum -a sha256|$M -a sha256 $BIG"
workload multi4 MB/s $((SIZE_MB << 20)) 1 \
	"rhash md5+sha1+sha256+blake2b|rhash --md5 --sha1 --sha256 --blake2b $BIG" \
	"4 rhash processes in parallel|rhash --md5 $BIG & rhash --sha1 $BIG & rhash --sha256 $BIG & rhash --blake2b $BIG & wait" \
	-- "multisum -a md5,sha1,sha256,blake2b|$M -a md5,sha1,sha256,blake2b $BIG"
workload tree1k files/s 20000 1 \
	"rhash -r --sha256|rhash -r --sha256 $T1K" \
	"hashdeep -r -c sha256|hashdeep -r -c sha256 $T1K" \
	"find+xargs sha256sum|find $T1K -type f -print0 | xargs -0 sha256sum" \
	"find+xargs -P$JOBS sha256sum|find $T1K -type f -print0 | xargs -0 -P$JOBS -n 2000 sha256sum" \
	-- "multisum -r -a sha256|$M -r -a sha256 $T1K"
# Issue 22: many small files against the read floor, not a peer; and
# against the floor that checks each file as multisum does (floor -s: an
# fstat after the read, in place of the read of 0 bytes), so that the
# check's cost is told from the engine's (the last column).
DEVICE="read floor -j$JOBS -s (checked)|$FLOOR -s -j $JOBS $T1K" DEVICE_AS=checked \
CHECK=0 workload floor-tree1k files/s 20000 1 \
	"read floor -j$JOBS|$FLOOR -j $JOBS $T1K" \
	-- "multisum -r -a xxh3|$M -r -a xxh3 $T1K" \
	"multisum -r -a sha256|$M -r -a sha256 $T1K" \
	"multisum -r -a blake3|$M -r -a blake3 $T1K" \
	"multisum -r -a md5,sha1,sha256,blake3|$M -r -a md5,sha1,sha256,blake3 $T1K"
workload tree64k files/s 2000 1 \
	"rhash -r --sha256|rhash -r --sha256 $T64K" \
	"hashdeep -r -c sha256|hashdeep -r -c sha256 $T64K" \
	"find+xargs sha256sum|find $T64K -type f -print0 | xargs -0 sha256sum" \
	-- "multisum -r -a sha256|$M -r -a sha256 $T64K"

# BLAKE3 (issue 12): one core, every core, many small files, start-up.
workload blake3-j1 MB/s $((SIZE_MB << 20)) 1 \
	"b3sum --num-threads 1|b3sum --num-threads 1 $BIG" \
	-- "multisum -j1 -a blake3|$M -j1 -a blake3 $BIG"
workload blake3 MB/s $((SIZE_MB << 20)) 1 \
	"b3sum|b3sum $BIG" \
	-- "multisum -a blake3|$M -a blake3 $BIG"
workload blake3-tree1k files/s 20000 1 \
	"find+xargs b3sum|find $T1K -type f -print0 | xargs -0 b3sum" \
	-- "multisum -r -a blake3|$M -r -a blake3 $T1K"
workload startup-blake3 ms 1 20 \
	"sha256sum|sha256sum $EMPTY" \
	-- "multisum -a blake3|$M -a blake3 $EMPTY"

# CRCs and the legacy digests (issue 13); the cksum personality runs
# through a link named cksum.
mkdir -p "$DATA/bin" && ln -sf "$(cd "$(dirname "$M")" && pwd)/$(basename "$M")" "$DATA/bin/cksum"
workload cksum MB/s $((SIZE_MB << 20)) 1 \
	"cksum|/usr/bin/cksum $BIG" \
	-- "multisum -a cksum|$M -a cksum $BIG" "multisum as cksum|$DATA/bin/cksum $BIG"
workload crc32 MB/s $((SIZE_MB << 20)) 1 \
	"rhash --crc32|rhash --crc32 --simple $BIG" \
	-- "multisum -a crc32|$M -a crc32 $BIG"
for a in crc32c md4 whirlpool; do
	workload $a MB/s $((SIZE_MB << 20)) 1 \
		"rhash --$a|rhash --$a $BIG" \
		-- "multisum -a $a|$M -a $a $BIG"
done

if [[ rss =~ $ONLY ]] && [ -x /usr/bin/time ]; then
	echo
	echo "== rss (peak resident set, KiB, of $BIG)"
	for c in "rhash --sha256 $BIG" "$M --io=read -a sha256 $BIG" "$M --io=mmap -a sha256 $BIG" \
	    "$M --io=read -a md5,sha1,sha256,blake2b $BIG" "$M --io=mmap -a md5,sha1,sha256,blake2b $BIG"; do
		printf '  %-60s %8s\n' "${c/$M/multisum}" \
		    "$( { /usr/bin/time -f %M $c > /dev/null; } 2>&1 | tail -1)"
	done
fi

echo
echo "| workload | fastest peer | peer | multisum | multisum | ratio | x checked floor |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${SUMMARY[@]}"
