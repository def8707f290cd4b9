#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench.sh - reproduce the table of bench/README.md on this machine, then
# cross-check four of its 16 MiB figures against `openssl speed`.
#
# Usage: bench/bench.sh [OPTION]...
# The options go to `multisum --bench` (-a, --bench-time, -j, FILE...).
# MULTISUM names the binary; the default is the one built beside this
# script.  openssl speed prints kB/s of 1000 bytes and hashes a 16 KiB
# buffer over and over, so its figure divided by 1000 is MB/s comparable
# with multisum's 16 MiB one-shot column.
set -e

here=$(cd "$(dirname "$0")" && pwd)
MULTISUM=${MULTISUM:-$here/../src/multisum}
out=$(mktemp "${TMPDIR:-/tmp}/bench.XXXXXX")
trap 'rm -f "$out"' EXIT INT TERM

"$MULTISUM" --bench "$@" | tee "$out"

if ! command -v openssl >/dev/null 2>&1; then
	echo "openssl not found: no cross-check"
	exit 0
fi
echo
echo "Cross-check: 16 MiB one-shot against openssl speed -evp ALG -bytes 16384"
echo "-seconds 1 run right after it (MB/s = openssl's kB/s / 1000)"
printf '%-10s %9s %9s %8s\n' algorithm multisum openssl diff
for pair in sha256:sha256 sha1:sha1 md5:md5 blake2b:blake2b512; do
	ours=${pair%%:*}
	theirs=${pair#*:}
	# The table row: name, class, 64KiB, 1MiB, 16MiB, ...; a figure
	# from few runs carries a leading "~", a disturbed one "?".
	ms=$(awk -v a="$ours" '$1 == a && NF > 8 { sub(/^[~?]/, "", $5); print $5; exit }' "$out")
	[ -n "$ms" ] || continue
	kb=$(openssl speed -evp "$theirs" -bytes 16384 -seconds 1 2>/dev/null |
	    awk -v a="$theirs" '$1 == a { sub(/k$/, "", $NF); v = $NF } END { print v }')
	[ -n "$kb" ] || continue
	awk -v a="$ours" -v m="$ms" -v k="$kb" 'BEGIN {
		o = k / 1000
		printf "%-10s %9.0f %9.0f %+7.1f%%\n", a, m, o, 100 * (m - o) / o
	}'
done
