#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# per-file.sh - what one file of a tree of small files costs multisum,
# beside the read floor (bench/floor.c), in counts that a shared, noisy
# machine repeats where wall time does not.
#
#   bench/per-file.sh                      xxh3, sha256, blake3, four digests
#   N=2000 ALGOS='sha256' bench/per-file.sh
#
# On a tree of N files of 1 KiB (default 2000, 20 a folder, bench/lib.sh's
# tree), each run as users run it (-r, the output written to a file):
#   syscalls  strace -f -c: each system call's count over N, for the floor
#             (-j JOBS) and each selection;
#   instr     valgrind --tool=callgrind: the instructions of user space
#             over N, less those of the same run on one file (start-up);
#   cpu       (root only: kernel samples) perf record -e cpu-clock, RUNS
#             runs: the samples grouped by the system call they fell in,
#             else by the user function, over the floor's total: where the
#             ratio to the floor comes from.  Runs of the floor and of each
#             selection alternate; one round's figures move by 5-10% under
#             load, so compare groups, not totals.
# A tool that is not installed leaves its part out.  Environment: MULTISUM,
# N, ALGOS (space-separated selections), RUNS (5), JOBS (nproc), DATA
# (/tmp/multisum-per-file), FLOOR, CC as bench/lib.sh's.
set -u
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
N=${N:-2000}
ALGOS=${ALGOS:-xxh3 sha256 blake3 md5,sha1,sha256,blake3}
DATA=${DATA:-/tmp/multisum-per-file}
# shellcheck source=bench/lib.sh
. "$here/lib.sh"	# M, RUNS, JOBS

mkdir -p "$DATA" || exit 2
find_floor
T=$DATA/tree-${N}x1K
tree "$T" "$N" 1024
rm -rf "$DATA/one" && mkdir -p "$DATA/one" && cp "$T/0/0/faa" "$DATA/one/"
find "$T" -type f -exec cat {} + > /dev/null	# warm
# A file changed in the last two seconds is fstat'ed before and after its
# read (source_late.c's margin): a tree made just now would cost more.
age=$(($(date +%s) - $(stat -c %Z "$T/.done")))
[ "$age" -ge 3 ] || sleep $((3 - age))
OUT=$DATA/out

echo "multisum per file: $N x 1 KiB in $T, floor -j $JOBS, output to $OUT"

if has strace; then
	echo
	echo "system calls per file (strace -f -c)"
	sc() { # LABEL CMD...: the calls of one run, per file
		local label=$1 f=$DATA/strace
		shift
		strace -f -c -o "$f" "$@" > "$OUT" 2>/dev/null
		# the rows: "% time, seconds, usecs/call, calls, [errors,] name";
		# calls under one in a hundred files are left out of the line
		awk -v n="$N" -v l="$label" '
			$1 ~ /^[0-9.]+$/ && $NF != "total" {
				t += $4
				if ($4 / n >= 0.01)
					s = s sprintf(" %s %.2f", $NF, $4 / n)
			}
			END { printf "%-28s %5.2f:%s\n", l, t / n, s }' "$f"
	}
	sc "floor -j $JOBS" "$FLOOR" -j "$JOBS" "$T"
	for a in $ALGOS; do
		sc "-a $a" "$M" -r -a "$a" "$T"
	done
fi

if has valgrind; then
	echo
	echo "user-space instructions per file (callgrind, less one file's run)"
	ir() { # CMD...: instructions of one run
		valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" \
		    2>&1 > "$OUT" | sed -n 's/.*Collected : //p'
	}
	f1=$(ir "$FLOOR" -j "$JOBS" "$DATA/one")
	fn=$(ir "$FLOOR" -j "$JOBS" "$T")
	printf "%-28s %6d\n" "floor -j $JOBS" $(((fn - f1) / N))
	for a in $ALGOS; do
		m1=$(ir "$M" -r -a "$a" "$DATA/one")
		mn=$(ir "$M" -r -a "$a" "$T")
		printf "%-28s %6d\n" "-a $a" $(((mn - m1) / N))
	done
fi

if has perf && [ "$(id -u)" = 0 ]; then
	echo
	echo "CPU samples ($RUNS runs each) by system call, over the floor's total"
	samples() { # CMD: "call count" lines of RUNS runs of CMD
		perf record -q -g -F 20000 -e cpu-clock -o "$DATA/perf.data" -- \
		    bash -c "for i in \$(seq $RUNS); do $1 > $OUT; done" \
		    > /dev/null 2>&1
		perf script -i "$DATA/perf.data" -F comm,ip,sym 2>/dev/null |
		awk '
			/^[^ \t]/ { comm = $1; s = ""; n = 0; next }
			/^$/ {
				if (comm != "" && comm != "bash" && comm != "seq")
					b[s == "" ? "user" : s]++
				comm = ""; next
			}
			{ if (s == "" && $2 ~ /^(__x64_sys_|__do_sys_|ksys_)/)
				s = $2 }
			END { for (k in b) print k, b[k] }'
	}
	fl=$(samples "$FLOOR -j $JOBS $T")
	ftot=$(awk '{t += $2} END {print t}' <<< "$fl")
	{
		printf "%s\n" "$fl" | sed 's/^/floor /'
		for a in $ALGOS; do
			samples "$M -r -a $a $T" | sed "s/^/$a /"
		done
	} | awk -v f="$ftot" '
		{ sub(/^(__x64_sys_|__do_sys_|ksys_)/, "", $2)
		  if ($2 !~ /^(user|openat|read|pread64|newfstatat|close|getdents64|futex|write)$/)
			$2 = "other"
		  v[$1, $2] += $3; t[$1] += $3
		  if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 }
		  if (!($2 in call)) { call[$2] = 1; calls[++m] = $2 } }
		END {
			printf "%-28s %6s", "", "total"
			for (j = 1; j <= m; j++) printf " %9s", substr(calls[j], 1, 9)
			printf "\n"
			for (i = 1; i <= n; i++) {
				r = order[i]
				printf "%-28s %6.3f", r, t[r] / f
				for (j = 1; j <= m; j++)
					printf " %9.3f", v[r, calls[j]] / f
				printf "\n"
			}
		}'
fi
