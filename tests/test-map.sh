#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# test-map.sh - the map of the tests (tests/README.md, "The map": area,
# src/ folder, shell tests, unit tests, peer tools) against the tree:
# every test file of tests/ (NAME.sh but lib.sh, unit-NAME.c) and every
# test of Makefile.am's SH_TESTS and UNIT_TESTS is named in the table,
# every name in it is a file, every folder a folder of src/, and SH_TESTS
# lists the shell tests in the table's order (lowest layer first).  The
# readers are run first on a made-up map and Makefile.am, where they must
# find what was planted.
. "$TESTS_SRCDIR/lib.sh"

top=$TESTS_SRCDIR/..

# named README: "sh NAME", "unit NAME" and "folder NAME" for each
# `NAME` of the shell tests', unit tests' and folders' columns of the
# table under "## The map", in the order written.
named() {
	awk '
		/^## / { inside = $0 ~ /^## The map/; next }
		!inside || !/^\|/ || /^\| *area *\|/ || /^\|[-| ]*$/ { next }
		{
			split($0, c, "|")
			pick("folder", c[3]); pick("sh", c[4]); pick("unit", c[5])
		}
		function pick(kind, s) {
			while (match(s, /`[^`]*`/)) {
				print kind, substr(s, RSTART + 1, RLENGTH - 2)
				s = substr(s, RSTART + RLENGTH)
			}
		}' "$1"
}

# variable MAKEFILE VAR: the words of VAR's assignment in MAKEFILE, one a
# line, tests/ taken off.
variable() {
	awk -v var="$2" '
		$1 == var && $2 == "=" { on = 1; sub(/^[^=]*=/, "") }
		on {
			more = sub(/\\$/, "")
			for (i = 1; i <= NF; i++) { w = $i; sub(/^tests\//, "", w); print w }
			on = more
		}' "$1"
}

# test_files DIR: the tests' files below DIR, as the map names them.
test_files() {
	(cd "$1" && for _f in *.sh unit-*.c; do
		[ -f "$_f" ] && [ "$_f" != lib.sh ] && echo "${_f%.c}"
	done) | sort
}

# judge_map README MAKEFILE TESTS SRC: fail for each fault of the map.
judge_map() {
	named "$1" > map
	grep '^sh ' map | cut -d' ' -f2 > map.sh
	grep '^unit ' map | cut -d' ' -f2 > map.unit
	variable "$2" SH_TESTS > make.sh
	variable "$2" UNIT_TESTS | sort > make.unit
	check "the map names shell tests" test -s map.sh
	check "Makefile.am has SH_TESTS" test -s make.sh
	sort map.sh map.unit > map.all
	is "$(sort map.all | uniq -d)" "" "no test in two rows"
	test_files "$3" > files
	comm -23 files map.all > unnamed
	comm -13 files map.all > absent
	while read -r _t; do
		fail "tests/$_t is a test the map does not name"
	done < unnamed
	while read -r _t; do
		fail "$_t (in the map) is no file of tests/"
	done < absent
	check "every test file of tests/ is in the map, and no other" \
	    test ! -s unnamed -a ! -s absent
	same make.sh map.sh "SH_TESTS: the map's shell tests in the map's order"
	sort map.unit > map.unit.sorted
	same make.unit map.unit.sorted "UNIT_TESTS: the map's unit tests"
	grep '^folder ' map | cut -d' ' -f2 | sort -u > folders
	while read -r _d; do
		check "$_d (in the map) is a folder of src/" test -d "$4/$_d"
	done < folders
}

# ----------------------------------------------- the readers themselves

test_readers_find_planted_faults() {
	mkdir -p t src/low
	touch t/a.sh t/b.sh t/lib.sh t/unit-x.c t/stray.sh
	cat > README.md <<-'END'
	## The map

	| area | src/ folder | shell tests | unit tests | peer tools |
	|---|---|---|---|---|
	| low | `low/` | `b.sh`, `a.sh` | `unit-x` | `tool` |
	| high | `high/` | `gone.sh` | | |

	## Next
	| x | `x/` | `other.sh` | `unit-y` | |
	END
	cat > Makefile.am <<-'END'
	UNIT_TESTS = tests/unit-x
	SH_TESTS = \
		tests/a.sh \
		tests/b.sh \
		tests/gone.sh
	TESTS = $(UNIT_TESTS) $(SH_TESTS)
	END
	named README.md > got
	printf '%s\n' "folder low/" "sh b.sh" "sh a.sh" "unit unit-x" \
	    "folder high/" "sh gone.sh" > want
	same got want "the table's names in order; no peer tool, no other table"
	is "$(variable Makefile.am SH_TESTS | tr '\n' ' ')" "a.sh b.sh gone.sh " \
	    "SH_TESTS over its continued lines"
	(
		ms_checks=0 ms_fails=0
		judge_map README.md Makefile.am t src 3> diags
		echo "$ms_checks $ms_fails" > counts
	)
	is "$(cat counts)" "10 5" \
	    "stray.sh unmapped and gone.sh no file; a.sh out of order; high/ no folder"
	has_line diags "# readers_find_planted_faults: gone.sh (in the map) is no file of tests/" \
	    "the name with no file is said"
	has_line diags "# readers_find_planted_faults: tests/stray.sh is a test the map does not name" \
	    "the file with no name is said"
}

# --------------------------------------------------------- the real map

test_map_is_the_tree() {
	judge_map "$TESTS_SRCDIR/README.md" "$top/Makefile.am" "$TESTS_SRCDIR" \
	    "$top/src"
}

run readers_find_planted_faults
run map_is_the_tree
finish
