# shellcheck shell=bash
# SPDX-License-Identifier: BSD-2-Clause
# lib.sh - what bench/compare.sh and bench/cold.sh share, sourced by
# both: the test data (tree), the read floor's binary (find_floor), the
# clocks (us, us_many, median), the digests of an output (hexes) and the
# interleaved timing of one workload (workload).  Needs bash >= 5 (its
# EPOCHREALTIME); the caller sets DATA; M (multisum: MULTISUM, else
# src/multisum beside bench/), RUNS, ONLY and JOBS are set here.

[ -n "${EPOCHREALTIME:-}" ] || { echo "${0##*/}: needs bash >= 5" >&2; exit 2; }
has() { command -v "$1" >/dev/null 2>&1; }

M=${MULTISUM:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../src/multisum}
RUNS=${RUNS:-5}
ONLY=${ONLY:-.}
JOBS=${JOBS:-$(nproc)}

# The read floor: open, read to the end and close every file, nothing
# hashed (bench/floor.c): the one `make bench` built beside M if it is
# newer than floor.c (an older one may lack an option), else compiled
# into DATA with ${CC:-cc}.  Sets FLOOR unless it is set.
find_floor() {
	local src
	src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/floor.c
	[ -n "${FLOOR:-}" ] && [ -x "$FLOOR" ] && return
	FLOOR=$(dirname "$M")/../bench/floor
	[ -x "$FLOOR" ] && [ "$FLOOR" -nt "$src" ] && return
	FLOOR=$DATA/floor
	[ "$FLOOR" -nt "$src" ] ||
		${CC:-cc} -O2 -std=c17 -pthread -o "$FLOOR" "$src" ||
		{ echo "${0##*/}: cannot build $FLOOR" >&2; exit 2; }
}

# start: what a run needs before its first measure: multisum built, the
# DATA folder, the read floor.
start() {
	[ -x "$M" ] || { echo "${0##*/}: build multisum first ($M)" >&2; exit 2; }
	mkdir -p "$DATA"
	find_floor
}

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
#   The commands before -- are the peers (a peer not installed is left
#   out), after it multisum's.  Every command runs once per round, in an
#   order that rotates from round to round; RUNS rounds, ONLY the regex
#   of the ids to run.  Reported: each command's median, and for
#   multisum's the median over rounds of its time over the fastest
#   peer's (appended to SUMMARY as a markdown row).
#   CHECK=0 before it: outputs are not compared (the floor prints none).
#   BEFORE='cmd' before it: eval'd before each timed run, not timed
#   (bench/cold.sh evicts the data).  DEVICE='label|cmd': the device's
#   own read of the same bytes, a row of the rotation (neither peer nor
#   multisum), so that a disk whose rate drifts (a VM's) is timed in the
#   same rounds; each row also gives its median over the device's, and
#   each SUMMARY row multisum's time over the device's within a round.
#   DEVICE_AS=word: the name those figures give that row (default
#   device; compare.sh's floor-tree1k, whose row is the checked floor,
#   says checked).
#   WARM='label|cmd' with it: multisum's run with its data cached (after
#   WARM_BEFORE, else itself, untimed instead of BEFORE; multisum reads a
#   cold large file past the page cache, so cold.sh caches it with cat),
#   and each SUMMARY row
#   then ends with multisum's time over the slower of the device and
#   the warm run within a round (x limit: 1.00 is the most a cold run
#   can be asked).
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
	local dev=-1 warm=-1
	if [ -n "${DEVICE:-}" ]; then	# side 2: the device; 3: multisum warm
		dev=${#cmd[@]}; label+=("${DEVICE%%|*}"); cmd+=("${DEVICE#*|}"); mine+=(2)
		[ -n "${WARM:-}" ] &&
			{ warm=${#cmd[@]}; label+=("${WARM%%|*}"); cmd+=("${WARM#*|}"); mine+=(3); }
	fi
	local n=${#cmd[@]} i r ref=
	for ((i = 0; i < n; i++)); do		# check outputs; also the warm-up
		local out
		out=$(eval "${cmd[i]}" 2>/dev/null) || { state[i]=FAIL; continue; }
		state[i]=ok
		[ "$unit" = ms ] || [ "${CHECK:-1}" = 0 ] || [ "${mine[i]}" = 2 ] && continue
		if [ -z "$ref" ] && [ "${mine[i]}" = 0 ]; then ref=$(hexes <<< "$out")
		elif [ "$(hexes <<< "$out")" != "$ref" ]; then state[i]=DIFF; fi
	done
	local -A t=()
	for ((r = 0; r < RUNS; r++)); do
		for ((i = 0; i < n; i++)); do
			local k=$(((i + r) % n))
			[ "${state[k]}" = FAIL ] && continue
			if [ "$k" = "$warm" ]; then eval "${WARM_BEFORE:-${cmd[k]}}" > /dev/null 2>&1
			elif [ -n "${BEFORE:-}" ]; then eval "$BEFORE"; fi	# not timed
			if [ "$reps" -gt 1 ]; then t[$r,$k]=$(us_many "${cmd[k]}" "$reps")
			else t[$r,$k]=$(us "${cmd[k]}"); fi
		done
	done
	# per_round A B [C]: the median over rounds of A's time over B's
	# (over the slower of B and C when C is given)
	per_round() {
		for ((r = 0; r < RUNS; r++)); do
			awk -v a="${t[$r,$1]}" -v b="${t[$r,$2]}" \
			    -v c="${3:+${t[$r,${3:-0}]}}" \
			    'BEGIN {if (c != "" && c > b) b = c; printf "%.4f\n", a / b}'
		done | median | awk '{printf "%.2f", $1}'
	}
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
		local x=
		[ $dev -ge 0 ] && [ -n "${med[i]:-}" ] && [ -n "${med[dev]:-}" ] &&
			x=$(awk -v a="${med[i]}" -v d="${med[dev]}" 'BEGIN {printf "%.2f", a / d}')
		printf '  %-48s %10s%s%s\n' "${label[i]}" "$f" "${x:+ ${x}x ${DEVICE_AS:-device}}" "$note"
		[ "${mine[i]}" = 1 ] && [ $best -ge 0 ] && [ -n "${med[i]:-}" ] || continue
		local ratio xd= xl=
		ratio=$(per_round "$i" "$best")
		[ -n "$x" ] && xd=$(per_round "$i" "$dev")
		[ -n "$x" ] && [ $warm -ge 0 ] && [ -n "${med[warm]:-}" ] &&
			xl=$(per_round "$i" "$dev" "$warm")
		# WARM set, even empty (cold.sh): its column, "-" without a warm run
		[ -n "$x" ] && [ -n "${WARM+set}" ] && [ -z "$xl" ] && xl=-
		SUMMARY+=("$(printf '| %s | %s | %s | %s | %s | %.2f |%s%s' "$id" "${label[best]}" \
		    "$(fig "${med[best]}")" "${label[i]}" "$f" "$ratio" "${xd:+ $xd |}" \
		    "${xl:+ $xl |}")")
	done
}

