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
M=${MULTISUM:-$here/../src/multisum}
RUNS=${RUNS:-5}
SIZE_MB=${SIZE_MB:-1024}
DATA=${DATA:-/tmp/multisum-compare}
ONLY=${ONLY:-.}
JOBS=${JOBS:-$(nproc)}

[ -n "${EPOCHREALTIME:-}" ] || { echo "compare.sh: needs bash >= 5" >&2; exit 2; }
[ -x "$M" ] || { echo "compare.sh: build multisum first ($M)" >&2; exit 2; }
has() { command -v "$1" >/dev/null 2>&1; }
mkdir -p "$DATA"

# The read floor: open, read to the end and close every file, JOBS
# threads, nothing hashed (bench/floor.c).  Small-file rows are read
# against it.
FLOOR=${FLOOR:-$(dirname "$M")/../bench/floor}
if [ ! -x "$FLOOR" ]; then
	FLOOR=$DATA/floor
	[ "$FLOOR" -nt "$here/floor.c" ] ||
		${CC:-cc} -O2 -std=c17 -pthread -o "$FLOOR" "$here/floor.c" ||
		{ echo "compare.sh: cannot build $FLOOR" >&2; exit 2; }
fi

# ------------------------------------------------------------- test data
BIG=$DATA/big-${SIZE_MB}M
EMPTY=$DATA/empty
T1K=$DATA/tree-20000x1K
T64K=$DATA/tree-2000x64K

tree() { # DIR FILES BYTES: FILES files of BYTES random bytes, 20 per directory
	local dir=$1 n=$2 bytes=$3 i
	[ -f "$dir/.done" ] && return
	rm -rf "$dir"
	for ((i = 0; i < n / 20; i++)); do
		mkdir -p "$dir/$((i / 20))/$((i % 20))"
		head -c $((20 * bytes)) /dev/urandom |
			(cd "$dir/$((i / 20))/$((i % 20))" && split -a 2 -b "$bytes" - f)
	done
	touch "$dir/.done"
}

: > "$EMPTY"
[ "$(stat -c %s "$BIG" 2>/dev/null)" = $((SIZE_MB << 20)) ] ||
	head -c $((SIZE_MB << 20)) /dev/urandom > "$BIG"
[[ tree1k =~ $ONLY || blake3-tree1k =~ $ONLY || floor-tree1k =~ $ONLY ]] &&
	tree "$T1K" 20000 1024
[[ tree64k =~ $ONLY ]] && tree "$T64K" 2000 65536
cat "$BIG" > /dev/null			# figures are for cached data
for t in "$T1K" "$T64K"; do [ -d "$t" ] && find "$t" -type f -exec cat {} + > /dev/null; done

# ------------------------------------------------------------- timing
us() { # CMD: wall microseconds of one run
	local s=$EPOCHREALTIME
	eval "$1" > /dev/null 2>&1
	local e=$EPOCHREALTIME
	echo $((${e/./} - ${s/./}))
}
us_many() { # CMD REPS: mean microseconds per run
	local s=$EPOCHREALTIME k
	for ((k = 0; k < $2; k++)); do eval "$1" > /dev/null 2>&1; done
	local e=$EPOCHREALTIME
	echo $(((${e/./} - ${s/./}) / $2))
}
median() { sort -g | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
hexes() { grep -oiE '\b[0-9a-f]{8,}\b' | tr A-F a-f | sort | tr '\n' ' '; }

SUMMARY=()
# workload ID UNIT AMOUNT REPS 'label|cmd'... -- 'label|cmd'...
#   UNIT MB/s (AMOUNT bytes), files/s (AMOUNT files) or ms (per run);
#   REPS > 1 averages that many runs per sample (start-up workloads).
#   CHECK=0 before it: outputs are not compared (the floor prints none).
workload() {
	local id=$1 unit=$2 amount=$3 reps=$4; shift 4
	[[ $id =~ $ONLY ]] || return 0
	local -a label=() cmd=() mine=() state=()
	local side=0 e
	for e in "$@"; do
		[ "$e" = -- ] && { side=1; continue; }
		local c=${e#*|}
		[ "$side" = 0 ] && ! has "${c%% *}" && continue
		label+=("${e%%|*}"); cmd+=("$c"); mine+=("$side")
	done
	local n=${#cmd[@]} i r ref=
	for ((i = 0; i < n; i++)); do		# check outputs; also the warm-up
		local out
		out=$(eval "${cmd[i]}" 2>/dev/null) || { state[i]=FAIL; continue; }
		state[i]=ok
		[ "$unit" = ms ] || [ "${CHECK:-1}" = 0 ] && continue
		if [ -z "$ref" ] && [ "${mine[i]}" = 0 ]; then ref=$(hexes <<< "$out")
		elif [ "$(hexes <<< "$out")" != "$ref" ]; then state[i]=DIFF; fi
	done
	local -A t=()
	for ((r = 0; r < RUNS; r++)); do
		for ((i = 0; i < n; i++)); do
			local k=$(((i + r) % n))
			[ "${state[k]}" = FAIL ] && continue
			if [ "$reps" -gt 1 ]; then t[$r,$k]=$(us_many "${cmd[k]}" "$reps")
			else t[$r,$k]=$(us "${cmd[k]}"); fi
		done
	done
	fig() {
		case $unit in
		ms) awk -v u="$1" 'BEGIN {printf "%.2f", u / 1000}' ;;
		MB/s) awk -v u="$1" -v a="$amount" 'BEGIN {printf "%.0f", a / u}' ;;
		files/s) awk -v u="$1" -v a="$amount" 'BEGIN {printf "%.0f", a / (u / 1e6)}' ;;
		esac
	}
	local -a med=()
	local best=-1
	for ((i = 0; i < n; i++)); do
		[ "${state[i]}" = FAIL ] && continue
		med[i]=$(for ((r = 0; r < RUNS; r++)); do echo "${t[$r,$i]}"; done | median)
		if [ "${mine[i]}" = 0 ] && [ "${state[i]}" = ok ] &&
		    { [ $best -lt 0 ] || awk -v a="${med[i]}" -v b="${med[best]}" 'BEGIN {exit !(a < b)}'; }; then
			best=$i
		fi
	done
	echo
	echo "== $id ($unit, median of $RUNS rounds)"
	for ((i = 0; i < n; i++)); do
		local f=- note=
		[ -n "${med[i]:-}" ] && f=$(fig "${med[i]}")
		[ "$i" = "$best" ] && note=" <- fastest peer"
		[ "${state[i]}" != ok ] && note=" ${state[i]}"
		printf '  %-48s %10s%s\n' "${label[i]}" "$f" "$note"
		[ "${mine[i]}" = 1 ] && [ $best -ge 0 ] && [ -n "${med[i]:-}" ] || continue
		local ratio
		ratio=$(for ((r = 0; r < RUNS; r++)); do
			awk -v a="${t[$r,$i]}" -v b="${t[$r,$best]}" 'BEGIN {print a / b}'
		done | median)
		SUMMARY+=("$(printf '| %s | %s | %s | %s | %s | %.2f |' "$id" "${label[best]}" \
		    "$(fig "${med[best]}")" "${label[i]}" "$f" "$ratio")")
	done
}

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
# Issue 22: many small files against the read floor, not a peer.
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
echo "| workload | fastest peer | peer | multisum | multisum | ratio |"
echo "|---|---|---|---|---|---|"
printf '%s\n' "${SUMMARY[@]}"
