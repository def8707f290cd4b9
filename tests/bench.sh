#!/bin/sh
# bench.sh - TAP tests of `multisum --bench`: the shape and sanity of its
# output in every format, never its speed.  Every run uses a tiny
# --bench-time, so the figures are noisy by design: the checks hold for
# any machine, load or compiler (min <= median <= max, runs >= 1, every
# algorithm and workload present, the CSV and JSON agreeing).
#
# The JSON is checked with python3, or jq, or failing both with awk over
# the one-result-a-line layout that multisum writes.

: "${MULTISUM:?MULTISUM must name the multisum binary}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/multisum-bench.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM

n=0
failed=0
why=

fail() {
	why="$*"
	return 1
}

# run NAME: call test_NAME, print its TAP line.
run() {
	n=$((n + 1))
	why=
	if "test_$1"; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		[ -n "$why" ] && printf '%s\n' "$why" | sed 's/^/#   /'
		failed=$((failed + 1))
	fi
}

skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

if [ -n "$BENCH_CHECKER" ]; then
	checker=$BENCH_CHECKER		# to test the fallbacks
elif command -v python3 >/dev/null 2>&1; then
	checker=python3
elif command -v jq >/dev/null 2>&1; then
	checker=jq
else
	checker=awk
fi
echo "# JSON checked with $checker"

SYNTHETIC="oneshot-64KiB oneshot-1MiB oneshot-16MiB chunked-16x1MiB small-20000x1KiB"

# check_json FILE ALGOS WORKLOADS: FILE is the bench's JSON; every
# algorithm of the space-separated ALGOS (all of the self-test's when
# empty) has a result for every workload of WORKLOADS; every result is
# sane; the engine row names the selection.
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
    seen[(r["algorithm"], r["workload"])] = r
for a in algos:
    for w in workloads:
        assert (a, w) in seen, "no result for %s %s" % (a, w)
engine = [r for r in d["results"] if r["workload"] == "engine"]
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
		    and ([$d.results[] | select(.workload == "engine")] | length) == 1
		    and all($want[]; . as $a | all($wl[]; . as $x |
			any($d.results[]; .algorithm == $a and .workload == $x)))
		  then ($d.results | length)
		  else error("bad shape or missing results") end' "$1" ;;
	awk) awk -v algos="$2" -v wls="$3" '
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

# The default run measures every algorithm of "-a all"; this one run
# costs a few seconds whatever the budget (each cell runs at least once).
test_json_all_algorithms() {
	"$MULTISUM" --bench --bench-time=0.1 --format=json >"$tmp/all.json" \
	    2>"$tmp/all.err" || fail "exit $?: $(cat "$tmp/all.err")" || return
	algos=
	if [ "$checker" = awk ]; then
		# Without a JSON parser: the names from the self-test list.
		algos=$(sed -n 's/^  {"algorithm": "\([^"]*\)", "result".*/\1/p' \
		    "$tmp/all.json" | tr '\n' ' ')
	fi
	count=$(check_json "$tmp/all.json" "$algos" "$SYNTHETIC" \
	    2>"$tmp/check.err") || fail "$(cat "$tmp/check.err")" || return
	[ "$count" -ge 100 ] || fail "only $count results for every algorithm"
}

test_json_files_and_baseline() {
	"$MULTISUM" --bench --bench-time=0.3 --format=json -a md5,xxh3 \
	    --bench-baseline=sha1 "$tmp/data" >"$tmp/files.json" \
	    2>"$tmp/files.err" || fail "exit $?: $(cat "$tmp/files.err")" || return
	check_json "$tmp/files.json" "md5 xxh3 sha1" \
	    "$SYNTHETIC file:$tmp/data" >/dev/null 2>"$tmp/check.err" ||
	    fail "$(cat "$tmp/check.err")" || return
	grep -q "\"workload\": \"read:$tmp/data\"" "$tmp/files.json" ||
	    fail "no read row"
	grep -q '"baseline": "sha1"' "$tmp/files.json" || fail "baseline not sha1"
	grep -q '"algorithm": "md5,xxh3", "class": null, "workload": "engine"' \
	    "$tmp/files.json" || fail "engine row does not name md5,xxh3"
}

test_csv_matches_json() {
	"$MULTISUM" --bench --bench-time=0.3 --format=csv -a md5,xxh3 \
	    --bench-baseline=sha1 "$tmp/data" >"$tmp/files.csv" ||
	    fail "exit $?" || return
	head -n 1 "$tmp/files.csv" | grep -q \
	    '^algorithm,class,workload,bytes,repeat,runs,mbps_median,mbps_min,mbps_max,' ||
	    fail "header: $(head -n 1 "$tmp/files.csv")" || return
	rows=$(($(wc -l <"$tmp/files.csv") - 1))
	results=$(grep -c '^  {"algorithm": .*"workload": ' "$tmp/files.json")
	[ "$rows" -eq "$results" ] || fail "$rows CSV rows, $results JSON results" ||
	    return
	# Every row as many fields as the header (no field here holds a
	# comma except the quoted engine list).
	awk -F, 'NR == 1 { n = NF; next }
		{ line = $0; gsub(/"[^"]*"/, "x", line); if (split(line, f, ",") != n) exit 1 }
		' "$tmp/files.csv" || fail "a row has the wrong field count"
}

test_table_has_chart_and_verdict() {
	"$MULTISUM" --bench --bench-time=0.2 -a sha256,md5,xxh3 >"$tmp/table" ||
	    fail "exit $?" || return
	grep -q '^CPU ' "$tmp/table" || fail "no CPU line" || return
	grep -q '^Libraries .*OpenSSL' "$tmp/table" || fail "no libraries" || return
	grep -q '^algorithm  *class  *64KiB  *1MiB  *16MiB  *16x1MiB  *20000x1KiB' \
	    "$tmp/table" || fail "no table heading" || return
	grep -q '^16 MiB one-shot, MB/s' "$tmp/table" || fail "no chart" || return
	grep -q '^Verdict' "$tmp/table" || fail "no verdict" || return
	grep -q '^- Fastest secure digest' "$tmp/table" || fail "no fastest secure" ||
	    return
	grep -q '^- MD5 runs at' "$tmp/table" || fail "no MD5 comparison"
}

test_ascii_is_ascii() {
	"$MULTISUM" --bench --bench-time=0.2 -a sha256,xxh3 --ascii >"$tmp/ascii" ||
	    fail "exit $?" || return
	grep -q '^xxh3 *#' "$tmp/ascii" || fail "no ASCII bar" || return
	extra=$(LC_ALL=C tr -d '\000-\177' <"$tmp/ascii" | wc -c)
	[ "$extra" -eq 0 ] || fail "$extra non-ASCII bytes"
}

test_c_locale_is_ascii() {
	LC_ALL=C "$MULTISUM" --bench --bench-time=0.2 -a sha256,xxh3 \
	    >"$tmp/clocale" || fail "exit $?" || return
	extra=$(LC_ALL=C tr -d '\000-\177' <"$tmp/clocale" | wc -c)
	[ "$extra" -eq 0 ] || fail "$extra non-ASCII bytes in the C locale"
}

test_utf8_locale_draws_blocks() {
	LC_ALL=$utf8 "$MULTISUM" --bench --bench-time=0.2 -a sha256,xxh3 \
	    >"$tmp/utf8" || fail "exit $?" || return
	grep -q "$(printf '\342\226\210')" "$tmp/utf8" || fail "no block character"
}

test_bad_baseline_is_usage_error() {
	"$MULTISUM" --bench --bench-baseline=no-such-algo >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "exit $rc, not 2" || return
	grep -q "Try 'multisum --help'" "$tmp/err" || fail "no --help hint" || return
	[ ! -s "$tmp/out" ] || fail "wrote to standard output"
}

test_bad_format_is_usage_error() {
	"$MULTISUM" --bench --format=ndjson >/dev/null 2>&1
	rc=$?
	[ "$rc" -eq 2 ] || fail "exit $rc, not 2"
}

test_stdin_is_usage_error() {
	"$MULTISUM" --bench - </dev/null >/dev/null 2>&1
	rc=$?
	[ "$rc" -eq 2 ] || fail "exit $rc, not 2"
}

test_missing_file_fails() {
	"$MULTISUM" --bench "$tmp/no-such-file" >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 1 ] || fail "exit $rc, not 1" || return
	grep -q 'no-such-file: No such file or directory' "$tmp/err" ||
	    fail "message: $(cat "$tmp/err")"
}

# A FILE operand: any 300 kB will do.
dd if=/dev/zero of="$tmp/data" bs=1000 count=300 2>/dev/null

test_empty_file_fails() {
	: >"$tmp/empty"
	"$MULTISUM" --bench "$tmp/empty" >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 1 ] || fail "exit $rc, not 1" || return
	grep -q 'empty: there is nothing to measure' "$tmp/err" ||
	    fail "message: $(cat "$tmp/err")"
}

run json_all_algorithms
run json_files_and_baseline
run csv_matches_json
run table_has_chart_and_verdict
run ascii_is_ascii
run c_locale_is_ascii
utf8=$(locale -a 2>/dev/null | grep -i -m 1 -E '^(C|en_US)\.utf-?8$')
if [ -n "$utf8" ]; then
	run utf8_locale_draws_blocks
else
	skip utf8_locale_draws_blocks "no UTF-8 locale installed"
fi
run bad_baseline_is_usage_error
run bad_format_is_usage_error
run stdin_is_usage_error
run missing_file_fails
run empty_file_fails
echo "1..$n"
exit 0
