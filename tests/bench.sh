#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench.sh - TAP tests of `multisum --bench`: the shape and sanity of its
# output in every format, never its speed.  Every run uses a tiny
# --bench-time, so the figures are noisy by design, and the budget holds:
# on a slow or loaded machine some cells are not run.  The checks hold
# for any machine, load or compiler (min <= median <= max, runs >= 1,
# every algorithm and workload either measured or listed as not measured
# with a reason, the CSV and JSON agreeing, figures from too few runs
# marked).  bench/load.sh times the bench beside other load; no test does.
#
# The JSON is checked with python3, or jq, or failing both with awk over
# the one-result-a-line layout that multisum writes (BENCH_CHECKER picks
# one, to test the fallbacks).  BENCH_JSON_SED, when set, is a sed script
# applied to every JSON report before it is checked: a way to show that
# the checks notice a corrupted field, e.g.
#   BENCH_JSON_SED='s/"baseline": "sha1"/"baseline": "md5"/'
. "$TESTS_SRCDIR/lib.sh"

if [ -n "${BENCH_CHECKER:-}" ]; then
	checker=$BENCH_CHECKER
elif have python3; then
	checker=python3
elif have jq; then
	checker=jq
else
	checker=awk
fi
echo "# JSON checked with $checker"

SYNTHETIC="oneshot-64KiB oneshot-1MiB oneshot-16MiB chunked-16x1MiB small-20000x1KiB"

# What several tests read: a FILE operand (any 300 kB will do) and the
# reports made from it, each made once by the first test that needs it.
shared=$ms_tmp/shared
mkdir "$shared" || exit 99
dd if=/dev/zero of="$shared/data" bs=1000 count=300 2>/dev/null

# bench_json OUT ARG...: `multisum --bench --format=json ARG...` into OUT
# (its standard error into OUT.err), then BENCH_JSON_SED applied to OUT.
bench_json() {
	_out=$1
	shift
	"$MULTISUM" --bench --format=json "$@" > "$_out" 2> "$_out.err" ||
	    return
	if [ -n "${BENCH_JSON_SED:-}" ]; then
		sed -e "$BENCH_JSON_SED" "$_out" > "$_out.sed" &&
		    mv "$_out.sed" "$_out"
	fi
}

# The report of md5 and xxh3 over the shared FILE, baseline sha1.
files_json() {
	[ -s "$shared/files.json" ] ||
	    bench_json "$shared/files.json" --bench-time=0.3 -a md5,xxh3 \
	    --bench-baseline=sha1 "$shared/data"
}

# check_json FILE ALGOS WORKLOADS: FILE is the bench's JSON; every
# algorithm of the space-separated ALGOS (all of the self-test's when
# empty) has a result for every workload of WORKLOADS; every result is
# sane; the engine row names the selection.  Prints the result count.
check_json() {
	case $checker in
	python3) python3 - "$@" <<'EOF'
import json, sys
path, algos, workloads = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
try:
    d = json.load(open(path))
except ValueError as e:
    sys.exit("not JSON: %s" % e)
m = d["machine"]
assert isinstance(m["cpu"], str) and m["cpu"], "machine.cpu"
assert isinstance(m["cores"], int) and m["cores"] >= 1, "machine.cores"
assert isinstance(m["flags"], list), "machine.flags"
assert isinstance(m["libraries"], dict), "machine.libraries"
assert isinstance(d["baseline"], str), "baseline"
assert isinstance(d["verdict"], list) and d["verdict"], "verdict"
tested = [t["algorithm"] for t in d["self_test"]]
assert all(t["result"] in ("pass", "consistent") for t in d["self_test"]), \
    "self-test failures: %s" % d["self_test"]
if not algos:
    algos = tested
seen = {}
for r in d["results"]:
    for k in ("algorithm", "workload", "bytes", "repeat", "runs",
              "mbps_median", "mbps_min", "mbps_max", "ratio"):
        assert k in r, "result without %s: %s" % (k, r)
    assert isinstance(r["bytes"], int) and r["bytes"] > 0, r
    assert isinstance(r["runs"], int) and r["runs"] >= 1, r
    assert r["repeat"] >= 1, r
    assert 0 < r["mbps_min"] <= r["mbps_median"] <= r["mbps_max"], r
    if r["ratio"] is not None:
        assert r["ratio"] > 0, r
        if r["algorithm"] == d["baseline"]:
            assert abs(r["ratio"] - 1) < 1e-9, r
    assert r["clock"] in ("thread-cpu", "wall"), r
    if r["workload"] == "engine" or r["workload"].startswith(("file:", "read:")):
        assert r["clock"] == "wall", "threads or I/O: %s" % r
    assert isinstance(r["left_out"], bool) and r["spread"] >= 0, r
    seen[(r["algorithm"], r["workload"])] = r
for r in d["not_measured"]:
    assert r["why"], r
    assert (r["algorithm"], r["workload"]) not in seen, r
    seen[(r["algorithm"], r["workload"])] = r
for a in algos:
    for w in workloads:
        assert (a, w) in seen, "no result for %s %s" % (a, w)
engine = [r for r in d["results"] + d["not_measured"]
          if r["workload"] == "engine"]
assert len(engine) == 1, "engine rows: %d" % len(engine)
assert set(engine[0]["algorithm"].split(",")) <= set(tested), engine[0]
print(len(d["results"]))
EOF
		;;
	jq) jq -e -r --arg algos "$2" --arg wls "$3" '
		. as $d
		| ($d.self_test | map(.algorithm)) as $tested
		| (if $algos == "" then $tested else ($algos | split(" ")) end) as $want
		| ($wls | split(" ") | map(select(. != ""))) as $wl
		| if ($d.machine.cpu | type) == "string" and $d.machine.cores >= 1
		    and ($d.machine.flags | type) == "array"
		    and ($d.verdict | length) > 0
		    and all($d.self_test[]; .result != "fail")
		    and all($d.results[]; .bytes > 0 and .runs >= 1 and .repeat >= 1
			and .mbps_min > 0 and .mbps_min <= .mbps_median
			and .mbps_median <= .mbps_max)
		    and all($d.results[]; .clock == "thread-cpu" or .clock == "wall")
		    and all($d.not_measured[]; (.why | length) > 0)
		    and ([($d.results + $d.not_measured)[] | select(.workload == "engine")] | length) == 1
		    and all($want[]; . as $a | all($wl[]; . as $x |
			any(($d.results + $d.not_measured)[]; .algorithm == $a and .workload == $x)))
		  then ($d.results | length)
		  else error("bad shape or missing results") end' "$1" ;;
	awk) awk -v algos="$2" -v wls="$3" '
		/^  \{"algorithm": .*"why": "/ {
			line = $0
			match(line, /"algorithm": "[^"]*"/)
			a = substr(line, RSTART + 14, RLENGTH - 15)
			match(line, /"workload": "[^"]*"/)
			w = substr(line, RSTART + 13, RLENGTH - 14)
			seen[a "|" w] = 1
			if (w == "engine") engines++
			next
		}
		/^  \{"algorithm": .*"workload": / {
			line = $0
			if (match(line, /"algorithm": (null|"[^"]*")/)) {
				a = substr(line, RSTART + 13, RLENGTH - 13)
				gsub(/"/, "", a)
			}
			match(line, /"workload": "[^"]*"/)
			w = substr(line, RSTART + 13, RLENGTH - 14)
			split("bytes runs repeat mbps_median mbps_min mbps_max", k, " ")
			for (i = 1; i <= 6; i++) {
				if (!match(line, "\"" k[i] "\": [0-9.]+")) { bad = bad " " w; next }
				v[k[i]] = substr(line, RSTART + length(k[i]) + 4, RLENGTH - length(k[i]) - 4) + 0
			}
			if (v["bytes"] <= 0 || v["runs"] < 1 || v["mbps_min"] <= 0 ||
			    v["mbps_min"] > v["mbps_median"] || v["mbps_median"] > v["mbps_max"])
				bad = bad " " a "/" w
			seen[a "|" w] = 1
			if (w == "engine") engines++
			results++
		}
		/"result": "fail"/ { bad = bad " self-test" }
		/^ "verdict": \[/ { verdict = 1 }
		END {
			if (algos == "") { print "awk fallback needs ALGOS" > "/dev/stderr"; exit 1 }
			na = split(algos, A, " "); nw = split(wls, W, " ")
			for (i = 1; i <= na; i++) for (j = 1; j <= nw; j++)
				if (!((A[i] "|" W[j]) in seen)) bad = bad " missing:" A[i] "/" W[j]
			if (engines != 1) bad = bad " engine-rows:" engines
			if (!verdict) bad = bad " no-verdict"
			if (bad != "") { print bad > "/dev/stderr"; exit 1 }
			print results
		}' "$1" ;;
	esac
}

# json_ok FILE ALGOS WORKLOADS: check_json as one check.
json_ok() {
	if check_json "$@" > json.count 2> json.err; then
		pass
	else
		fail "JSON check of $1: $(cat json.err)"
	fi
}

# The algorithm rows of a table report: name, class, figures, ratio,
# runs, spread.
table_rows() {
	grep -E '^[^ ]+ +(secure|broken|legacy|non-crypto) ' "$1"
}

# in_verdict TABLE ALG...: each ALG's 16 MiB figure is measured and not
# left out ("no time" and "?" are not): the verdict may quote it.  The
# budget holds, so on a loaded machine it may not be.
in_verdict() {
	_t=$1
	shift
	for _a in "$@"; do
		awk -v a="$_a" '$1 == a && $5 ~ /^~?[0-9]/ { ok = 1 } END { exit !ok }' \
		    "$_t" || return 1
	done
}

# The default run measures every algorithm of "-a all" (and md4 where
# the build can); the cells the budget has no time for are listed too.
test_json_all_algorithms() {
	status_is 0 "--bench --format=json" bench_json all.json --bench-time=0.3
	algos=
	if [ "$checker" = awk ]; then
		# Without a JSON parser: the names from the self-test list.
		algos=$(sed -n 's/^  {"algorithm": "\([^"]*\)", "result".*/\1/p' \
		    all.json | tr '\n' ' ')
	fi
	json_ok all.json "$algos" "$SYNTHETIC"
	n=$(grep -c '^  {"algorithm": .*"workload": ' all.json)
	check "a result or a reason for every algorithm ($n cells)" \
	    test "$n" -ge 100
	if multisum -a md4 /dev/null > /dev/null 2>&1; then
		check "md4 is in the default set" \
		    grep -q '^  {"algorithm": "md4", "result"' all.json
	else
		check_not "no md4 where the build cannot load it" \
		    grep -q '^  {"algorithm": "md4", "result"' all.json
	fi
}

test_json_files_and_baseline() {
	f=$shared/files.json
	status_is 0 "--bench --format=json with a FILE" files_json
	json_ok "$f" "md5 xxh3 sha1" "$SYNTHETIC file:$shared/data"
	check "a read row" grep -q "\"workload\": \"read:$shared/data\"" "$f"
	check "the baseline is sha1" grep -q '"baseline": "sha1"' "$f"
	check "the engine row names md5,xxh3" grep -q \
	    '"algorithm": "md5,xxh3", .*"workload": "engine"' "$f"
}

test_csv_matches_json() {
	status_is 0 "--bench --format=csv" "$MULTISUM" --bench --bench-time=0.3 \
	    --format=csv -a md5,xxh3 --bench-baseline=sha1 "$shared/data" \
	    > files.csv
	check "the CSV header" grep -q \
	    '^algorithm,class,workload,bytes,repeat,runs,mbps_median,mbps_min,mbps_max,' \
	    files.csv
	files_json
	# Two runs: the budget may have measured other cells in each, but
	# every CSV row is a cell that the JSON lists, measured or not.
	sed -n 's/^  {"algorithm": "\([^"]*\)", .*"workload": "\([^"]*\)".*/\1,\2/p' \
	    "$shared/files.json" | sort > cells.json
	# (the read rows have no algorithm, the engine row a quoted list)
	awk -F, 'NR > 1 && $1 != "" && $1 !~ /^"/ { print $1 "," $3 }' \
	    files.csv > cells.raw
	check "CSV rows" test -s cells.raw
	check "every CSV row is a cell of the JSON" \
	    sh -c 'sort cells.raw | comm -23 - cells.json | grep -q . && exit 1 || exit 0' 
	# Every row as many fields as the header (no field here holds a
	# comma except the quoted engine list).
	check "every CSV row has the header's field count" awk -F, '
		NR == 1 { n = NF; next }
		{ line = $0; gsub(/"[^"]*"/, "x", line); if (split(line, f, ",") != n) exit 1 }
		' files.csv
}

test_table_has_chart_and_verdict() {
	status_is 0 "--bench" "$MULTISUM" --bench --bench-time=0.2 \
	    -a sha256,md5,xxh3 > table
	check "a CPU line" grep -q '^CPU ' table
	check "the libraries" grep -q '^Libraries .*OpenSSL' table
	check "the table heading" grep -q \
	    '^algorithm  *class  *64KiB  *1MiB  *16MiB  *16x1MiB  *20000x1KiB' table
	check "the verdict" grep -q '^Verdict' table
	if in_verdict table sha256; then
		check "the chart" grep -q '^16 MiB one-shot, MB/s' table
		check "the fastest secure digest" \
		    grep -q '^- Fastest secure digest' table
	else
		check "no time is said" grep -q '^no time: ' table
	fi
	if in_verdict table sha256 md5; then
		check "the MD5 comparison" grep -q '^- MD5 runs at' table
	fi
}

test_ascii_is_ascii() {
	status_is 0 "--bench --ascii" "$MULTISUM" --bench --bench-time=0.2 \
	    -a sha256,xxh3 --ascii > ascii
	if in_verdict ascii xxh3; then
		check "an ASCII bar" grep -q '^xxh3 *#' ascii
	fi
	is "$(LC_ALL=C tr -d '\000-\177' < ascii | wc -c | tr -d ' ')" 0 \
	    "no non-ASCII bytes"
}

test_c_locale_is_ascii() {
	LC_ALL=C status_is 0 "--bench in the C locale" "$MULTISUM" --bench \
	    --bench-time=0.2 -a sha256,xxh3 > clocale
	is "$(LC_ALL=C tr -d '\000-\177' < clocale | wc -c | tr -d ' ')" 0 \
	    "no non-ASCII bytes in the C locale"
}

test_utf8_locale_draws_blocks() {
	utf8=$(locale -a 2>/dev/null | grep -i -m 1 -E '^(C|en_US)\.utf-?8$')
	[ -n "$utf8" ] || skip_test "no UTF-8 locale installed"
	LC_ALL=$utf8 status_is 0 "--bench in $utf8" "$MULTISUM" --bench \
	    --bench-time=0.2 -a sha256,xxh3 > utf8
	if in_verdict utf8 xxh3; then
		check "a block character" grep -q "$(printf '\342\226\210')" utf8
	fi
}

test_bad_baseline_is_usage_error() {
	usage_error "an unknown --bench-baseline" --bench \
	    --bench-baseline=no-such-algo
}

test_bad_format_is_usage_error() {
	usage_error "--bench --format=ndjson" --bench --format=ndjson
}

test_stdin_is_usage_error() {
	usage_error "--bench -" --bench - < /dev/null
}

test_missing_file_fails() {
	status_is 3 "--bench on a missing file" "$MULTISUM" --bench \
	    no-such-file > /dev/null 2> err
	check "the message names the file and the cause" \
	    grep -q 'no-such-file: No such file or directory' err
}

test_empty_file_fails() {
	: > empty
	status_is 1 "--bench on an empty file" "$MULTISUM" --bench empty \
	    > /dev/null 2> err
	check "the message says why" \
	    grep -q 'empty: there is nothing to measure' err
}

# A directory is the tree workload: every file below it through the
# engine, for each algorithm, and the read floor beside them; the table
# names the floor and counts the files; a directory with no file in it
# is refused.
test_tree_workload() {
	mkdir -p tree/sub
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		random_file "tree/f$i" $((i * 300))
	done
	random_file tree/sub/deep 5000
	# one algorithm, its own baseline: few cells, so that a loaded
	# machine still has the time for the tree's
	status_is 0 "--bench over a tree" bench_json tree.json \
	    --bench-time=3 -a md5 --bench-baseline=md5 tree
	check "an md5 row for the tree, measured" grep -q \
	    '"algorithm": "md5", "class": "broken", "workload": "file:tree", "bytes": 68000, .*"runs": [1-9]' \
	    tree.json
	check "a read row for the tree, measured" grep -q \
	    '"workload": "read:tree", "bytes": 68000, .*"runs": [1-9]' tree.json
	"$MULTISUM" --bench --bench-time=3 -a md5 --bench-baseline=md5 tree \
	    > table 2> err
	check "the table names the read floor and the 21 files" \
	    grep -q '^read floor: the 21 files below tree' table
	tr -s '\n ' '  ' < table > flat	# the verdict's lines wrap
	check "the verdict weighs the tree against the floor" \
	    grep -q 'tree: [A-Z/]*-bound.* the read floor' flat
	mkdir none
	status_is 1 "--bench on a directory with no file" "$MULTISUM" --bench \
	    none > /dev/null 2> err
	check "the message says why" grep -q 'none: no files below it' err
}

# A budget so short that every cell gets one run: no spread of 0 is
# shown for it, and every figure and verdict sentence says it is
# tentative.
test_single_runs_are_tentative() {
	status_is 0 "--bench with a tiny budget" "$MULTISUM" --bench \
	    --bench-time=0.01 -a md5,sha1,xxh3 "$shared/data" > table
	table_rows table > rows
	check "algorithm rows" test -s rows
	check "single-run rows show no spread (last field '-')" awk '
		$(NF - 1) == "1" && $NF != "-" { bad = 1 } END { exit bad }' rows
	check "every figure of a row under 3 runs is marked ~ (or ?)" awk '
		{ n = split($(NF - 1), r, "-"); if (r[n] + 0 >= 3) next
		  for (i = 3; i <= NF - 3; i++)
			if ($i !~ /^[~?]/ && $i !~ /^(-|error|no|time)$/) bad = 1 }
		END { exit bad }' rows
	if grep -q ' ~[0-9]' rows; then
		check "the ~ mark is explained" grep -q '^~ tentative' table
	fi
	if grep -q ' ?[0-9]' rows; then
		check "the ? mark is explained" grep -q '^? disturbed' table
	fi
	if grep -q ' no time' rows; then
		check "no time is explained" grep -q '^no time: [0-9]* cells* w' table
	fi
	lacks table " 1 runs" "no '1 runs' with a min and max"
	if grep -q '^  [0-9.]* MB/s of input (1 run' table; then
		check "the engine row's single run is tentative" \
		    grep -q '(1 run: tentative' table
	fi
	check "the verdict quotes tentative figures as such" awk '
		/^- Fastest secure digest/ { on = 1; seen = 1 }
		on && /Tentative/ { ok = 1 }
		on && /^- / && !/^- Fastest secure/ { on = 0 }
		END { exit seen && !ok }' table
	check "a verdict, if only that the budget was too short" \
	    grep -q '^Verdict' table
}

# Column headings of FILE operands whose names differ only in the middle
# or not at all (two directories): each at most 10 columns, all distinct,
# and a note that says which file a shortened one stands for.
test_file_headings_distinct() {
	mkdir a b
	for f in a/measurement-of-2024-01-x.dat a/measurement-of-2024-02-x.dat \
	    a/same-name b/same-name a/short; do
		printf 'some bytes\n' > "$f"
	done
	status_is 0 "--bench with five FILEs" "$MULTISUM" --bench \
	    --bench-time=0.05 -a md5 a/measurement-of-2024-01-x.dat \
	    a/measurement-of-2024-02-x.dat a/same-name b/same-name a/short \
	    > table
	grep '^algorithm  *class ' table | tr -s ' ' '\n' |
	    sed -n '/^20000x1KiB$/,$p' | sed '1d' | head -n 5 > heads
	is "$(wc -l < heads | tr -d ' ')" 5 "five FILE headings"
	is "$(sort -u heads | wc -l | tr -d ' ')" 5 "the headings are distinct"
	check "no heading is wider than 10" awk 'length($0) > 10 { exit 1 }' heads
	check "a short name is kept whole" grep -qx short heads
	check "a shortened heading keeps the end of the name" \
	    grep -q 'x\.dat$' heads
	check "a note names the file of a shortened heading" \
	    grep -q ': a/measurement-of-2024-01-x.dat$' table
}

# A FILE that one run could not hash within the budget is not hashed:
# its cells say "no time" and a note says why; the rest is measured.
test_big_file_over_budget() {
	dd if=/dev/zero of=big bs=1048576 count=32 2>/dev/null
	status_is 0 "--bench with a big FILE and a tiny budget" "$MULTISUM" \
	    --bench --bench-time=0.01 -a md5 big > table
	check "the FILE cell says 'no time'" grep -q '^md5 .* no time ' table
	check "a note says why" \
	    grep -q '^no time: [0-9]* cells* w[a-z]* not run, as one run' table
	check "the row is there" grep -q '^md5  *broken ' table
}

# The Subversion thread's question: MD4 vs MD5 (and whichever of SHA-1,
# SHA-256, BLAKE2b and BLAKE3 the build has) in ms for 100 MB.
test_subversion_line() {
	algos=md5,sha1,sha256,blake2b
	has_md4=no
	if "$MULTISUM" --list-algorithms | grep -q '^md4 '; then
		algos=md4,$algos
		has_md4=yes
	fi
	status_is 0 "--bench -a $algos" bench_json out.json --bench-time=1 \
	    -a "$algos"
	grep '^  "The 2003 Subversion question' out.json > line
	# the budget holds: on a loaded machine any 16 MiB cell the line
	# names may go unmeasured, and then the line leaves it out
	for a in $(echo "$algos" | tr , ' '); do
		grep -q "^  {\"algorithm\": \"$a\", \"class\": \"[a-z]*\", \"workload\": \"oneshot-16MiB\".*\"left_out\": false" \
		    out.json || skip_test "$a's 16 MiB cell was not measured in the budget"
	done
	check "the verdict has the Subversion line" test -s line
	check "it says MD5 in ms for 100 MB" \
	    grep -q '100 MB file in the page cache: .*MD5 [0-9.]* ms' line
	check "it names SHA-1, SHA-256 and BLAKE2b" \
	    grep -q 'SHA-1 [0-9.]* ms, SHA-256 [0-9.]* ms, BLAKE2b [0-9.]* ms' line
	if [ "$has_md4" = yes ]; then
		check "it puts MD4 first" grep -q 'cache: MD4 [0-9.]* ms, MD5' line
		check "it compares MD4 with MD5, by the table's figures" \
		    grep -q 'MD4 runs [0-9]*% [a-z]* than MD5 ([0-9]* and [0-9]* MB/s' line
		md4=$(sed -n 's/.*than MD5 (\([0-9]*\) and.*/\1/p' line)
		tab=$(sed -n 's/^  {"algorithm": "md4", .*"workload": "oneshot-16MiB".*"mbps_median": \([0-9]*\).*/\1/p' out.json)
		check "MD4's figure is the table's ($md4, $tab)" \
		    awk -v a="$md4" -v b="$tab" 'BEGIN { d = a - b; exit !(d <= 1 && d >= -1) }'
	else
		check_not "no MD4 figure in a build without it" \
		    grep -q 'MD4 [0-9.]* ms' line
	fi
}

# The question is MD4 or MD5: a run that measures only one, or neither,
# does not ask it.
test_subversion_needs_md4_and_md5() {
	status_is 0 "--bench -a sha256,blake3" bench_json out.json \
	    --bench-time=0.2 -a sha256,blake3
	check_not "no Subversion line without MD4 and MD5" \
	    grep -q 'Subversion' out.json
	status_is 0 "--bench -a md5,sha256" bench_json out.json \
	    --bench-time=0.2 -a md5,sha256
	check_not "nor with MD5 alone" grep -q 'Subversion' out.json
}

# In-memory cells on one thread are timed by the thread's CPU clock, the
# engine and FILE rows by the wall clock; every result says which.
test_clocks() {
	status_is 0 "--bench -a md5" bench_json md5.json --bench-time=0.5 -a md5
	check "the settings give the thread's share of a CPU" \
	    grep -q '"cpu_share": [0-9.]*' md5.json
	grep '^  {"algorithm": "md5", .*"workload": "[a-z0-9-]*KiB".*"mbps_median"' \
	    md5.json > synthetic
	[ -s synthetic ] || skip_test "no md5 cell measured in the budget"
	check_not "every md5 cell by the thread's CPU clock" \
	    grep -v '"clock": "thread-cpu"' synthetic
	status_is 0 "--bench with a FILE" files_json
	if grep -q '"workload": "file:.*"mbps_median"' "$shared/files.json"; then
		check "the FILE rows by the wall clock" sh -c \
		    "! grep '\"workload\": \"file:.*\"mbps_median\"' '$shared/files.json' |
		    grep -v '\"clock\": \"wall\"'"
	fi
}

# A FILE is read cold too: each run first evicts its pages, and the
# verdict says whether the disk or the digest limits a run over it.
# MULTISUM_BENCH_COLD_MBPS fixes the cold rate, so that both answers show
# on any disk; no figure of this machine is asserted.
test_cold_verdict() {
	random_file data 200000
	MULTISUM_BENCH_COLD_MBPS=0.001 "$MULTISUM" --bench --bench-time=1 \
	    -a md5 --bench-baseline=md5 data > table 2> err
	tr -s '\n ' '  ' < table > flat	# the verdict's lines wrap
	check "the table has the cold row" grep -q ' cold: data, read and not hashed after each run evicted it' flat
	check "a slow disk: hashing is free, the disk limits" grep -q \
	    "data, cold: md5 at [0-9.]* MB/s is faster than this disk's 0.00[0-9]* MB/s ([0-9.]* MB/s from the page cache): hashing is free here, the disk limits a run" \
	    flat
	MULTISUM_BENCH_COLD_MBPS=1e9 "$MULTISUM" --bench --bench-time=1 \
	    -a md5 --bench-baseline=md5 data > table 2> err
	tr -s '\n ' '  ' < table > flat
	check "a fast disk: the digest limits" grep -q \
	    "data, cold: this disk's 1000000000 MB/s ([0-9.]* MB/s from the page cache) is faster than md5 at [0-9.]* MB/s: the digest limits a run here, not the disk" \
	    flat
	mkdir tree
	random_file tree/a 3000
	random_file tree/b 5000
	# 3 s: a row the time ran out for has no run, and an ASan build
	# on a loaded machine once spent the 1 s before the tree's cold row
	status_is 0 "--bench over a tree" bench_json tree.json \
	    --bench-time=3 -a md5 --bench-baseline=md5 tree
	check "a cold row for the tree, measured" grep -q \
	    '"workload": "cold:tree", "bytes": 8000, .*"runs": [1-9]' tree.json
}

run json_all_algorithms
run json_files_and_baseline
run csv_matches_json
run table_has_chart_and_verdict
run ascii_is_ascii
run c_locale_is_ascii
run utf8_locale_draws_blocks
run bad_baseline_is_usage_error
run bad_format_is_usage_error
run stdin_is_usage_error
run missing_file_fails
run empty_file_fails
run tree_workload
run single_runs_are_tentative
run file_headings_distinct
run big_file_over_budget
run subversion_line
run subversion_needs_md4_and_md5
run clocks
run cold_verdict
finish
