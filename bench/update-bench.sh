#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# update-bench.sh - the targets of --update and --audit (issue 11), timed
# beside the tools they are measured against.
#
#   bench/update-bench.sh            5 interleaved rounds
#   RUNS=9 bench/update-bench.sh
#
# Tree: 2,000 files of 1 MiB plus 20,000 files of 1 KiB (DATA), page cache
# warm.  Rows (ratio = median over rounds of t(first) / t(second), both
# timed in the same round; the commands of a row run in an order that
# rotates from round to round):
#   nochange  multisum -r -u (nothing changed)  vs  find -printf '%s %T@'
#             (target <= 1.5); rhash --update beside it, and the same
#             update with --checkpoint=0 (what checkpoints cost: issue 20)
#   onepct    multisum -r -u (1% of files rewritten)  vs  multisum -r -o
#             (target <= 0.1)
#   audit     multisum -r --audit (unchanged tree)  vs  multisum -c
#             (target <= 1.1); hashdeep -a -k beside it
#   rss       peak RSS of an update with nothing changed (GNU time)
# Environment: MULTISUM (src/multisum beside this script), RUNS (5), DATA
# (/tmp/multisum-update-bench), ALGO (sha256), DIRS (100; 2 for a dry run).  Needs bash >= 5.
set -u
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
M=${MULTISUM:-$here/../src/multisum}
RUNS=${RUNS:-5}
DATA=${DATA:-/tmp/multisum-update-bench}
ALGO=${ALGO:-sha256}
DIRS=${DIRS:-100}	# 100 directories of 20 x 1 MiB + 200 x 1 KiB; fewer for a dry run
T=$DATA/tree

[ -n "${EPOCHREALTIME:-}" ] || { echo "update-bench.sh: needs bash >= 5" >&2; exit 2; }
[ -x "$M" ] || { echo "update-bench.sh: build multisum first ($M)" >&2; exit 2; }
has() { command -v "$1" >/dev/null 2>&1; }

# ------------------------------------------------------------- test data
if [ ! -e "$DATA/.complete" ]; then
	echo "making $T (2,000 x 1 MiB + 20,000 x 1 KiB)..." >&2
	rm -rf "$DATA"
	mkdir -p "$T"
	for d in $(seq -w 0 $((DIRS - 1))); do
		mkdir -p "$T/big/$d" "$T/small/$d"
		for f in $(seq -w 0 19); do
			head -c 1048576 /dev/urandom > "$T/big/$d/$f"
		done
		for f in $(seq -w 0 199); do
			head -c 1024 /dev/urandom > "$T/small/$d/$f"
		done
	done
	touch "$DATA/.complete"
fi
# 1% of the files, rewritten before every "onepct" run: 20 big, 200 small.
changed=()
for d in $(seq -w 0 $((DIRS - 1))); do
	[ $((10#$d % 5)) -eq 0 ] && changed+=("$T/big/$d/00")
	changed+=("$T/small/$d/000" "$T/small/$d/001")
done
rewrite() {
	for f in "${changed[@]}"; do
		head -c "$(stat -c %s "$f")" /dev/urandom > "$f.new" && mv "$f.new" "$f"
	done
}

# The manifest every round starts from, written long enough after the
# files that none of its entries is racily clean.
base=$DATA/base.sha256
prepare_base() {
	rm -f "$base"
	sleep 3
	"$M" -r -a "$ALGO" -u "$base" "$T" 2>/dev/null
	sleep 3
	"$M" -r -a "$ALGO" -u "$base" "$T" 2>/dev/null
}
prepare_base
"$M" -r -a "$ALGO" -o "$DATA/plain.sha256" "$T"
if has hashdeep; then
	(cd "$DATA" && hashdeep -r -c sha256 tree > known.hashdeep)
fi
if has rhash; then
	(cd "$DATA" && rhash -r --sha256 tree > rhash.sha256 2>/dev/null)
fi
cat "$T"/*/*/* > /dev/null	# warm the page cache

# ------------------------------------------------------------- timing
# time_cmd NAME CMD...: one timed run, seconds appended to $DATA/t.NAME.
time_cmd() {
	local name=$1 t0 t1
	shift
	t0=$EPOCHREALTIME
	"$@" > /dev/null 2>&1
	t1=$EPOCHREALTIME
	echo "$t1 - $t0" | bc -l >> "$DATA/t.$name"
}
# time_round ROW NAME...: cmd_NAME timed as ROW-NAME for each NAME, in
# an order that starts one further along each round.
time_round() {
	local row=$1 i c
	shift
	local names=("$@")
	for ((i = 0; i < $#; i++)); do
		c=${names[(i + round) % $#]}
		time_cmd "$row-$c" "cmd_$c"
	done
}
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio_median() { # A B: median over rounds of A[i] / B[i]
	paste "$DATA/t.$1" "$DATA/t.$2" | awk '{ print $1 / $2 }' > "$DATA/r.tmp"
	median "$DATA/r.tmp"
}

cmd_update() { cp "$base" "$DATA/u.sha256" && "$M" -r -a "$ALGO" -u "$DATA/u.sha256" "$T"; }
cmd_update_nockpt() { cp "$base" "$DATA/u.sha256" && "$M" -r -a "$ALGO" --checkpoint=0 -u "$DATA/u.sha256" "$T"; }
cmd_find() { find "$T" -type f -printf '%s %T@\n'; }
cmd_rhash_update() { cp "$DATA/rhash.sha256" "$DATA/ru.sha256" && (cd "$DATA" && rhash -r --sha256 --update=ru.sha256 tree); }
cmd_full() { "$M" -r -a "$ALGO" -o "$DATA/full.sha256" "$T"; }
cmd_audit() { "$M" -r --audit="$base" "$T"; }
cmd_check() { "$M" -c "$DATA/plain.sha256"; }
cmd_hashdeep_audit() { (cd "$DATA" && hashdeep -r -a -k known.hashdeep tree); }

rm -f "$DATA"/t.*
for ((round = 0; round < RUNS; round++)); do
	# nothing changed
	order=(update find update_nockpt)
	has rhash && order+=(rhash_update)
	time_round nochange "${order[@]}"
	# 1% changed: each command sees the same rewritten files
	rewrite
	time_round onepct update full
	# audit of the unchanged tree (the base manifest no longer matches
	# the rewritten files: rebuild it first, untimed)
	prepare_base
	"$M" -r -a "$ALGO" -o "$DATA/plain.sha256" "$T"
	has hashdeep && (cd "$DATA" && hashdeep -r -c sha256 tree > known.hashdeep)
	order=(audit check)
	has hashdeep && order+=(hashdeep_audit)
	time_round audit "${order[@]}"
done

printf '%-10s %-34s %10s\n' row command median-s
for f in "$DATA"/t.*; do
	n=${f##*/t.}
	printf '%-10s %-34s %10.3f\n' "${n%%-*}" "${n#*-}" "$(median "$f")"
done
echo
printf 'nochange: update / find      = %.2f (target <= 1.5)\n' "$(ratio_median nochange-update nochange-find)"
printf 'nochange: update / --checkpoint=0 = %.3f (the checkpoints)\n' "$(ratio_median nochange-update nochange-update_nockpt)"
printf 'onepct:   update / full -r -o = %.3f (target <= 0.1)\n' "$(ratio_median onepct-update onepct-full)"
printf 'audit:    audit / -c          = %.2f (target <= 1.1)\n' "$(ratio_median audit-audit audit-check)"
if [ -x /usr/bin/time ]; then
	cp "$base" "$DATA/u.sha256"
	rss=$(/usr/bin/time -f %M "$M" -r -a "$ALGO" -u "$DATA/u.sha256" "$T" 2>&1 >/dev/null | tail -n 1)
	echo "rss:      update, nothing changed: $rss KiB peak"
fi
