#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# memory.sh - bounded memory: -c verifies a manifest as it reads it, so
# one of any length runs in constant memory, with its report in manifest
# order and coreutils' closing counts; --memory bounds every buffer of a
# run together, by holding fewer files in flight; and a failed
# allocation fails one file (exit 1), never the run (exit 2).  Peak
# memory is measured by GNU time (%M, KiB), never time.
. "$TESTS_SRCDIR/lib.sh"

# peak_kb OUT ARGS...: multisum ARGS... with its output in OUT; prints the
# peak resident set in KiB.
peak_kb() {
	_out=$1
	shift
	/usr/bin/time -f '%M' -o peak "$MULTISUM" "$@" > "$_out" 2> err
	tail -n 1 peak
}

have_time() {
	/usr/bin/time -f '%M' true > /dev/null 2>&1
}

# Can peaks be measured?  Not without GNU time, nor in a sanitizer's
# build, which keeps freed memory in quarantine and shadows the rest (an
# empty run shows which this is).  Sets $unmeasurable to why not.
measurable() {
	unmeasurable=
	if ! have_time; then
		unmeasurable="no GNU time (/usr/bin/time -f %M)"
	elif ldd "$MULTISUM" 2> /dev/null | grep -q 'lib[at]san'; then
		unmeasurable="a sanitizer's build: its memory hides multisum's"
	else
		_base=$(peak_kb /dev/null /dev/null)
		[ "${_base:-99999}" -le 12288 ] ||
		    unmeasurable="an empty run peaks at $_base KiB: not a plain build"
	fi
	[ -z "$unmeasurable" ]
}

need_time() {
	measurable || skip_test "$unmeasurable"
}

# A manifest of N lines: the first file's digest N-1 times after a line
# for each other case (a FAILED, a missing file, a bad line) every 997.
big_manifest() {
	_h=$(multisum f | cut -c1-64)
	_g=$(multisum g | cut -c1-64)
	awk -v h="$_h" -v g="$_g" -v n="$1" 'BEGIN {
		for (i = 1; i <= n; i++) {
			if (i % 997 == 0) print g "  f"
			else if (i % 997 == 500) print h "  missing"
			else if (i % 997 == 700) print "not a line"
			else print h "  f"
		}
	}'
}

# 300,000 lines (they took 400 bytes each, 120 MB, when a manifest was
# read whole first): the peak stays under 16 MiB, at -j1 and -j2.
test_check_runs_in_constant_memory() {
	need_time
	echo x > f
	echo y > g
	big_manifest 300000 > m.sums
	for j in 1 2; do
		kb=$(peak_kb out -c --quiet -j$j -a sha256 m.sums)
		check "-j$j: 300000 lines in $kb KiB (at most 16384)" \
		    [ "${kb:-99999999}" -le 16384 ]
		is "$(grep -c 'f: FAILED$' out)" 300 "-j$j: every FAILED line"
		has_line err "multisum: WARNING: 300 computed checksums did NOT match" \
		    "-j$j: the counts at the end"
	done
}

# The report is in manifest order and word for word coreutils', across
# more lines than are held back and more than the engine has in flight.
test_report_order_across_windows() {
	echo x > f
	echo y > g
	big_manifest 12000 > m.sums
	multisum -c -j1 -a sha256 m.sums > want 2> want_err
	for j in 2 4; do
		multisum -c -j$j -a sha256 m.sums > out 2> err
		same out want "-j$j: the report, line for line"
		same err want_err "-j$j: the messages and counts"
	done
	if have sha256sum; then
		sha256sum -c m.sums > ref 2> ref_err
		same want ref "the report is sha256sum -c's"
		sed 's/^sha256sum: /multisum: /' ref_err > ref_err2
		same want_err ref_err2 "the warnings are sha256sum -c's"
	else
		skip_case "no sha256sum"
	fi
	# standard input, read once, the same
	multisum -c -j2 -a sha256 < m.sums > out 2> err
	same out want "from standard input: the same report"
}

# A PGP header within the first lines: those before it are outside the
# signed part (verify.sh).  One after more lines than are held back,
# which were verified as an unsigned manifest's, fails the run at its line.
test_late_pgp_header() {
	echo x > f
	h=$(multisum f | cut -c1-64)
	awk -v h="$h" 'BEGIN { for (i = 0; i < 2000; i++) print h "  f" }' > late.asc
	printf '%s\n' '-----BEGIN PGP SIGNED MESSAGE-----' 'Hash: SHA256' '' \
	    "$h  f" '-----BEGIN PGP SIGNATURE-----' 'x' \
	    '-----END PGP SIGNATURE-----' >> late.asc
	status_is 4 "a header after 2000 verified lines fails the run" \
	    multisum -c --quiet late.asc > out 2> err
	has_line err "multisum: late.asc: 2001: a PGP signed message begins after lines already verified as unsigned: they are not covered by its signature" \
	    "it is reported at its line"
	status_is 4 "from standard input too" \
	    multisum -c --quiet < late.asc > out 2> err
	check "standard input: reported" grep -q ": 2001: a PGP signed message begins" err
}

# --memory: the output never depends on it, and the peak follows it.
# Eight files of 20 MB, 64M buffers, -j8: that asked for 9 x 64 MiB of
# buffers and 2 x 64 MiB more for each file read in parallel.
test_memory_bound_holds() {
	# the digests under every bound, also in a sanitizer's build; the
	# peaks only where they can be measured
	measure=yes
	measurable || measure=
	i=1
	random_file f1 20000000
	while [ $i -lt 8 ]; do
		i=$((i + 1))
		cp f1 f$i
	done
	multisum -a md5,sha256 f? > want
	for mem in 1M 8M 100M; do
		multisum --memory=$mem -j8 --io=read --buffer-size=64M \
		    -a md5,sha256 f? > out
		same out want "--memory=$mem: the same digests"
		[ -n "$measure" ] || continue
		kb=$(peak_kb out --memory=$mem -j8 --io=read --buffer-size=64M -a md5,sha256 f?)
		# the bound, plus what a run takes without buffers (about 8 MB)
		lim=$(( ${mem%M} * 1024 + 12288 ))
		check "--memory=$mem: peak $kb KiB (at most $lim)" [ "${kb:-99999999}" -le "$lim" ]
	done
	multisum -a blake3 f? > want
	multisum --memory=1M -j8 --io=mmap -a blake3 f? > out
	same out want "--memory=1M, mapped and split: the same digests"
	if [ -n "$measure" ]; then
		kb=$(peak_kb out --memory=1M -j8 --io=mmap -a blake3 f?)
		check "--memory=1M, mapped and split: peak $kb KiB" [ "${kb:-99999999}" -le 13312 ]
	else
		skip_case "$unmeasurable"
	fi
}

# Under an address-space limit (N7: -j8 --buffer-size=64M in 1000 MiB
# ended in exit 2 and no digest): the default bound fits the limit, and a
# bound above it fails files one by one, exit 1, never the run.
test_allocation_failure_fails_a_file() {
	(ulimit -v 300000 && "$MULTISUM" -j1 /dev/null) > /dev/null 2>&1 ||
	    skip_test "cannot run under a 300 MB limit here (sanitizers?)"
	random_file big 30000000
	for i in 1 2 3 4 5 6; do
		ln big h$i
	done
	multisum -a md5,sha256 h? > want
	(ulimit -v 300000 && "$MULTISUM" -j8 --buffer-size=64M -a md5,sha256 h?) > out 2> err
	is "$?" 0 "the default bound under a 300 MB limit: exit 0"
	same out want "every digest"
	if measurable; then
		(ulimit -v 300000 && /usr/bin/time -f %M -o peak "$MULTISUM" -j8 \
		    --buffer-size=64M -a md5,sha256 h?) > out 2> err
		kb=$(tail -n 1 peak)
		check "the default bound is a quarter of the limit: peak $kb KiB" \
		    [ "${kb:-99999999}" -le $((300000 / 4 + 12288)) ]
	else
		skip_case "$unmeasurable"
	fi
	# Workers whose buffer cannot be had are not started: those that
	# have one hash every file.
	(ulimit -v 400000 && "$MULTISUM" -j8 --buffer-size=64M --memory=4G \
	    -a md5,sha256 h?) > out 2> err
	is "$?" 0 "a bound above a 400 MB limit: exit 0"
	same out want "every digest, by the workers that have a buffer"
	# Without libcrypto's mappings the buffers took the room of the
	# threads' stacks: a worker not started gives its buffer back.
	multisum -a sha256 h? > want1
	(ulimit -v 400000 && "$MULTISUM" -j8 --buffer-size=64M --memory=4G \
	    -a sha256 h?) > out 2> err
	is "$?" 0 "-a sha256 alone under a 400 MB limit: exit 0"
	same out want1 "and every digest"
	(ulimit -v 100000 && "$MULTISUM" -j8 --buffer-size=64M --memory=4G \
	    -a md5,sha256 h? big) > out 2> err
	is "$?" 3 "a bound far above the limit: exit 3"
	check "each failure names its file" grep -q '^multisum: h[1-6]: Cannot allocate memory$' err
	lacks err "multisum: Cannot allocate memory" "no message without a file"
	multisum -a md5,sha256 h? big > want
	grep -vxF -f want out > wrong
	same wrong /dev/null "a digest printed is a right one"
}

run check_runs_in_constant_memory
run report_order_across_windows
run late_pgp_header
run memory_bound_holds
run allocation_failure_fails_a_file
finish
