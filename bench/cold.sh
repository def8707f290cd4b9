#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# cold.sh - time multisum beside its peers on data that is not in the
# page cache, against the device's own rate for the same bytes.
#
#   bench/cold.sh                    every workload, 5 rounds
#   RUNS=3 SIZE_MB=256 N1K=2000 N1M=200 ONLY='sha256' bench/cold.sh
#
# Before each timed run the data leave the page cache: as root every
# cache is dropped (sync; echo 3 > /proc/sys/vm/drop_caches), else each
# file of the workload is evicted with posix_fadvise(DONTNEED) (bench/floor
# -e), and the header says which.  The device's rate: the same bytes read
# with O_DIRECT by one reader, sequentially for the big file (fio where
# installed, else dd iflag=direct) and in the tree's walk order for the
# trees (bench/floor -j 1 -d), timed as one more row of each round: a
# virtual disk's rate drifts from minute to minute, and a figure taken
# before the workload would be another disk's.  Then each workload as
# bench/compare.sh times one (bench/lib.sh): every command once a round,
# in an order that rotates, digests compared before timing (DIFF),
# medians, multisum's ratio to the fastest peer within a round; each row
# also gives its time over the device's (1.00x device: as fast as the
# disk reads).  The big file also has multisum's warm run as a row, and
# the table's "x limit" is multisum's cold time over the slower of the
# device's read and that warm run, within a round: what a cold run can
# be asked is 1.00 (issue 35's target is 1.05).  Peers not installed are
# left out.
#
# Data (DATA, default /tmp/multisum-cold): one file of SIZE_MB MiB (4096),
# N1K files of 1 KiB (20000), N1M files of 1 MiB (2000), and a mixed tree
# (4000 x 4 KiB, 400 x 256 KiB, 20 x MIX_MB MiB, default 16).  Workloads:
# big-, 1k-, 1m- and mixed- followed by sha256, blake3 or xxh64 (ONLY: a
# regex of them).
# Environment as compare.sh's: MULTISUM, RUNS, ONLY, JOBS, FLOOR, CC.
set -u
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
SIZE_MB=${SIZE_MB:-4096}
N1K=${N1K:-20000}
N1M=${N1M:-2000}
MIX_MB=${MIX_MB:-16}
DATA=${DATA:-/tmp/multisum-cold}

. "$here/lib.sh"	# M RUNS ONLY JOBS, start, tree, us, median, hexes, workload
start

# ------------------------------------------------------------- test data
BIG=$DATA/big-${SIZE_MB}M
T1K=$DATA/tree-${N1K}x1K
T1M=$DATA/tree-${N1M}x1M
MIX=$DATA/mixed
[ "$(stat -c %s "$BIG" 2>/dev/null)" = $((SIZE_MB << 20)) ] ||
	head -c $((SIZE_MB << 20)) /dev/urandom > "$BIG"
want() { # DATASET: does ONLY select one of its workloads?
	local a
	for a in sha256 blake3 xxh64; do [[ $1-$a =~ $ONLY ]] && return; done
	return 1
}
bytes_of() { find "$1" -type f ! -name .done -printf '%s\n' | awk '{s += $1} END {print s + 0}'; }
want 1k && tree "$T1K" "$N1K" 1024
want 1m && tree "$T1M" "$N1M" $((1 << 20))
if want mixed; then
	tree "$MIX/small" 4000 4096
	tree "$MIX/medium" 400 $((256 << 10))
	tree "$MIX/large-${MIX_MB}M" 20 $((MIX_MB << 20))
fi
sync

# ------------------------------------------------------------- eviction
if [ "$(id -u)" = 0 ] && sync && echo 3 2> /dev/null > /proc/sys/vm/drop_caches; then
	EVICT='dropping every cache (root: echo 3 > /proc/sys/vm/drop_caches)'
	evict() { sync; echo 3 > /proc/sys/vm/drop_caches; }
else
	EVICT="evicting the workload's files (posix_fadvise DONTNEED, bench/floor -e): not root"
	evict() { "$FLOOR" -j "$JOBS" -e "$@"; }
fi

# device_cmd PATH: the device's own read of PATH, one O_DIRECT reader:
# sequential for a file, in the walk's order for a tree.
device_cmd() {
	local cmd
	if [ -d "$1" ]; then
		cmd="$FLOOR -j 1 -d $1"
	elif has fio; then
		cmd="fio --name=cold --filename=$1 --rw=read --bs=1M --direct=1 --ioengine=psync --output=/dev/null"
	else
		cmd="dd if=$1 of=/dev/null bs=4M iflag=direct"
	fi
	eval "$cmd" > /dev/null 2>&1 || { echo "cold.sh: $cmd fails" >&2; return 1; }
	echo "$cmd"
}

# cold ID PATH UNIT AMOUNT ALG: one workload over PATH (a file or a tree)
# with the peers of ALG, each run from a cold cache.
cold() {
	local id=$1 path=$2 unit=$3 amount=$4 alg=$5 dev
	[[ $id =~ $ONLY ]] || return 0
	dev=$(device_cmd "$path") || return 0
	local -a peers=() mine=()
	local each='' r=''
	[ -d "$path" ] && { each="find $path -type f -print0 | xargs -0"; r=-r; }
	case $alg in
	sha256)
		[ -d "$path" ] && peers=("find+xargs sha256sum|$each sha256sum") ||
			peers=("sha256sum|sha256sum $path")
		peers+=("rhash --sha256|rhash $r --sha256 $path"
			"hashdeep -c sha256|hashdeep $r -c sha256 $path | cut -d, -f2") ;;
	blake3)
		[ -d "$path" ] && peers=("find+xargs b3sum|$each b3sum") ||
			peers=("b3sum|b3sum $path") ;;
	xxh64)
		[ -d "$path" ] && peers=("find+xargs xxhsum|$each xxhsum") ||
			peers=("xxhsum|xxhsum $path") ;;
	esac
	mine=("multisum${r:+ $r} -a $alg|$M $r -a $alg $path")
	local warm=
	[ -d "$path" ] || warm="multisum -a $alg, warm|$M -a $alg $path"
	BEFORE="evict $path" DEVICE="device: one O_DIRECT reader|$dev" WARM=$warm \
		WARM_BEFORE="cat $path" \
		workload "$id" "$unit" "$amount" 1 "${peers[@]}" -- "${mine[@]}"
}

echo "# cold.sh $(date -u '+%F %T') UTC, $(nproc) CPUs, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)"
echo "# $("$M" --version | head -n 1), RUNS=$RUNS, SIZE_MB=$SIZE_MB, N1K=$N1K, N1M=$N1M, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# data in $DATA on $(df -P "$DATA" | awk 'NR == 2 {print $1}'); cold by $EVICT"

for alg in sha256 blake3 xxh64; do
	cold "big-$alg" "$BIG" MB/s $((SIZE_MB << 20)) $alg
	cold "1k-$alg" "$T1K" files/s "$N1K" $alg
	cold "1m-$alg" "$T1M" files/s "$N1M" $alg
	want mixed && cold "mixed-$alg" "$MIX" MB/s "$(bytes_of "$MIX")" $alg
done

echo
echo "| workload | fastest peer | peer | multisum | multisum | ratio | x device | x limit |"
echo "|---|---|---|---|---|---|---|---|"
printf '%s\n' "${SUMMARY[@]}"
