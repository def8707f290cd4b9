#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# load.sh - does `multisum --bench` hold its budget, and its figures,
# beside other load?  A benchmark, not a test: it times things.
#
# Runs `multisum --bench --bench-time=T --format=json` (T = 2 unless an
# option gives another) on the machine as it is, then again beside seven
# busy processes: six CPU loops and one memory-streaming pipe (`head -c
# N /dev/zero | cat`, two processes moving memory through the kernel).  It
# prints, for both runs, the wall time, the CPU share the measuring
# thread had, and the 16 MiB one-shot figures of SHA-256 and MD5 (and
# `openssl speed`'s, which also times by CPU, when openssl is there), and
# then whether the loaded run took at most 1.2 T and its SHA-256 and MD5
# figures lie within 20% of the first run's.  Exit status 1 if not.
#
# The first run is as idle as the machine is: on a shared machine, run
# this when nothing else runs, or compare with an earlier quiet run.
#
# Usage: bench/load.sh [OPTION]...   (options go to multisum --bench)
# MULTISUM names the binary; the default is the one built beside this.
set -u

here=$(cd "$(dirname "$0")" && pwd)
MULTISUM=${MULTISUM:-$here/../src/multisum}
budget=2
for a in "$@"; do
	case $a in --bench-time=*) budget=${a#--bench-time=} ;; esac
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-load.XXXXXX") || exit 1
pids=

stop_load() {
	for p in $pids; do
		kill "$p" 2>/dev/null
	done
	for p in $pids; do
		wait "$p" 2>/dev/null
	done
	pids=
}
trap 'stop_load; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# The seven: six CPU loops, one pipe streaming memory.
start_load() {
	for i in 1 2 3 4 5 6; do
		sh -c 'while :; do :; done' &
		pids="$pids $!"
	done
	# $! is the pipe's reader: killed, it takes its writer down (EPIPE)
	head -c 1000000000000 /dev/zero | cat > /dev/null &
	pids="$pids $!"
	sleep 1		# let the scheduler see them
}

now() {
	date +%s.%N
}

# figure FILE ALG: ALG's 16 MiB one-shot median in the JSON report FILE.
figure() {
	awk -v a="$2" '
	    index($0, "{\"algorithm\": \"" a "\",") && index($0, "\"workload\": \"oneshot-16MiB\"") {
		if (match($0, /"mbps_median": [0-9.]+/)) {
			print substr($0, RSTART + 15, RLENGTH - 15); exit
		}
	    }' "$1"
}

# setting FILE KEY: a number of the report's settings.
setting() {
	sed -n "s/.*\"$2\": \\([0-9.]*\\).*/\\1/p" "$1" | head -n 1
}

# openssl_mbps ALG: openssl speed's 16 MiB figure for ALG, MB/s.
openssl_mbps() {
	command -v openssl > /dev/null 2>&1 || return 0
	openssl speed -bytes 16777216 -seconds 1 "$1" 2>/dev/null |
	    awk -v a="$1" '$1 == a { v = $NF; sub(/k$/, "", v); printf "%.0f", v / 1000 }'
}

# measure NAME: one bench run into $tmp/NAME.json, and what it says.
measure() {
	t0=$(now)
	"$MULTISUM" --bench --bench-time="$budget" --format=json "$@" \
	    > "$tmp/$name.json" 2> "$tmp/$name.err"
	t1=$(now)
	wall=$(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }')
	eval "${name}_wall=$wall"
	eval "${name}_sha256=$(figure "$tmp/$name.json" sha256)"
	eval "${name}_md5=$(figure "$tmp/$name.json" md5)"
	printf '%-7s load %5s, took %5s s (budget %s s), thread had %s of a CPU\n' \
	    "$name" "$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)" "$wall" \
	    "$budget" "$(setting "$tmp/$name.json" cpu_share)"
	printf '        16 MiB MB/s: sha256 %s, md5 %s' \
	    "$(figure "$tmp/$name.json" sha256)" "$(figure "$tmp/$name.json" md5)"
	o256=$(openssl_mbps sha256)
	[ -n "$o256" ] && printf '; openssl speed: sha256 %s, md5 %s' \
	    "$o256" "$(openssl_mbps md5)"
	echo
}

name=idle
measure "$@"
start_load
name=loaded
measure "$@"
stop_load

verdict=0
awk -v w="$loaded_wall" -v b="$budget" 'BEGIN { exit !(w <= 1.2 * b) }' ||
    verdict=1
echo "budget:  the loaded run took $loaded_wall s of at most $(echo "$budget" |
    awk '{ print 1.2 * $1 }') s: $([ $verdict = 0 ] && echo ok || echo OVER)"
for alg in sha256 md5; do
	eval "i=\${idle_$alg:-}; l=\${loaded_$alg:-}"
	if [ -z "$i" ] || [ -z "$l" ]; then
		echo "$alg:  no 16 MiB figure in one of the runs"
		verdict=1
		continue
	fi
	d=$(awk -v i="$i" -v l="$l" 'BEGIN { printf "%+.1f", 100 * (l / i - 1) }')
	if awk -v d="$d" 'BEGIN { exit !(d <= 20 && d >= -20) }'; then
		echo "$alg:  loaded $l MB/s against $i: $d% (within 20%): ok"
	else
		echo "$alg:  loaded $l MB/s against $i: $d%: OFF"
		verdict=1
	fi
done
exit $verdict
