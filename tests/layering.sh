#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# layering.sh - the structure rules, checked on every build.  src/ has
# one folder per layer, and the order of the layers is README.md's table
# in "How it is built" (| layer | folder | owns | files |), read here, so
# that the map and the check cannot part.  Then:
#   - every folder of src/ is a row of that table and every row a folder;
#     every .c of a folder is named in its row, and every file a row names
#     is there;
#   - no call or data reference from a lower layer to a higher one: from
#     nm, object A uses object B when A has an undefined symbol that B
#     defines (T, W: a call; D, B, R, C and the rest: data);
#   - no #include of a header of a higher folder;
#   - no cycle between objects, of any length (Tarjan's strongly connected
#     components over the graph of uses);
#   - no file of src/, tests/, bench/ or fuzz/ over 800 lines;
# and the soft rules of STYLE.md and DESIGN.md:
#   - every file name of src/ in one folder only (nm knows an object by
#     its file name: a second xattr.o hides the first from the graph);
#   - each header's guard MS_<NAME>_H, NAME its file name;
#   - a private header (*_int.h, *_impl.h) included only from its folder;
#   - no function of src/ over 100 lines;
#   - each mode's entry point (what cli/ calls of modes/) takes a const
#     struct ms_options *;
#   - no open, fopen, read or their kin in manifest/: it parses the bytes
#     io/ hands it.
# Each rule's detector is run first on a small made-up tree where it must
# find what was planted (a three-object cycle, an upward call, an upward
# data reference, an upward include, an 801-line file, two files of one
# name, wrong and missing guards, a private header included from another
# folder, a 101-line function, a mode entry point without the options, an
# open and a read in manifest/).
. "$TESTS_SRCDIR/lib.sh"

top=$TESTS_SRCDIR/..
src=$top/src
build=$(dirname "$MULTISUM")
lib=$build/libmultisum.a
main_obj=$build/cli/multisum.o	# main() is the program's, not the archive's

# The ONE list of exceptions, each to be removed when fixed (a check below
# fails when one no longer holds).  An edge is FROM->TO: objects for a use
# (kernels/crc.o->digest/kat.o), files for an include.  A cycle is known
# by the edge that closes it: the graph without the listed edges must
# have none, and each listed edge must still lie on a cycle.  A long file
# is its path from the top.
KNOWN_UPWARD=""
#   digest/backend_s3.o->digest/algorithm.o (ms_algo_inner,
#   ms_algo_inner_load: the inner row an S3 row wraps): the table points
#   to its backends and this one back to it, for another row of the
#   table;
#   digest/backend_hdfs.o->digest/algorithm.o (ms_algo_row, ms_algo_load,
#   ms_algo_inner_load, ms_algos: the md5 and CRC rows an HDFS row is
#   built on, and the HDFS row a `hadoop fs -checksum` name means), the
#   same;
#   digest/backend_p2p.o->digest/algorithm.o (ms_algo_inner,
#   ms_algo_inner_load: the sha1 row AICH's tree is built on), the same;
#   digest/backend_btv2.o->digest/algorithm.o (ms_algo_inner,
#   ms_algo_inner_load: the sha256 row a btv2 root is built of), the
#   same;
#   digest/backend_btih.o->digest/algorithm.o (ms_algo_inner,
#   ms_algo_inner_load: the sha1 row a btih's pieces and info dict are
#   hashed with), the same.
KNOWN_CYCLES="digest/backend_s3.o->digest/algorithm.o
	digest/backend_hdfs.o->digest/algorithm.o
	digest/backend_p2p.o->digest/algorithm.o
	digest/backend_btv2.o->digest/algorithm.o
	digest/backend_btih.o->digest/algorithm.o"
KNOWN_LONG=""

# The soft rules' exceptions: what the code broke when the rules became
# checks (issue 30), each to go with its fix; a listed item that no longer
# breaks the rule fails, so that the list is pruned as the fixes land.
# A file name found in more than one folder: none (io/xattr.c became
# io/xattr_calls.c).
KNOWN_NAMESAKES=""
# A header, FOLDER/NAME.h, whose guard is not MS_<NAME>_H:
#   kernels/blake3_lanes.h, blake3_row.h, blake3_simd.h, md_simd.h: no
#   guard, bodies that each SIMD level's file includes once.
KNOWN_GUARDS="kernels/blake3_lanes.h kernels/blake3_row.h
	kernels/blake3_simd.h kernels/md_simd.h"
# A private header included from another folder, FILE->HEADER: none.
KNOWN_PRIVATE=""
# A function over 100 lines, FOLDER/FILE.c:NAME (issue 30 item 3):
KNOWN_LONG_FUNCTIONS="bench/bench.c:ms_bench_main cli/help.c:ms_cli_help
	cli/multisum.c:parse"
# A mode entry point without a const struct ms_options *: none.
KNOWN_MODE_ENTRIES=""
# A file of manifest/ that opens or reads, FILE:CALL: none (io/text_input.c
# opens every list, and manifest/ pulls the bytes it hands over).
KNOWN_MANIFEST_IO=""

# ------------------------------------------------------------ detectors

# layers README: "FOLDER LAYER" for each row of its "How it is built"
# table, in the order written.
layers() {
	awk '
		/^## / { inside = $0 ~ /^## How it is built/; next }
		inside && /^\| *[0-9]+ *\| *`[a-z0-9_]+\/` *\|/ {
			split($0, c, "|")
			n = c[2]; gsub(/ /, "", n)
			f = c[3]; gsub(/[ `\/]/, "", f)
			print f, n
		}' "$1"
}

# listed README: "FOLDER FILE" for each file named in a row's last column.
listed() {
	awk '
		/^## / { inside = $0 ~ /^## How it is built/; next }
		inside && /^\| *[0-9]+ *\| *`[a-z0-9_]+\/` *\|/ {
			n = split($0, c, "|")
			f = c[3]; gsub(/[ `\/]/, "", f)
			files = c[n - 1]
			while (match(files, /`[^`]*`/)) {
				print f, substr(files, RSTART + 1, RLENGTH - 2)
				files = substr(files, RSTART + RLENGTH)
			}
		}' "$1"
}

# uses SRC OBJECT...: "A B KIND SYMBOL" for each symbol that object A
# uses and object B defines, KIND "call" or "data", A and B named
# FOLDER/NAME.o by where NAME.c lies below SRC.  An OBJECT is a .o or an
# archive of them.
uses() {
	_src=$1
	shift
	{
		for _f in "$_src"/*/*.c; do
			_d=${_f%/*}
			_b=${_f##*/}
			echo "F ${_b%.c}.o ${_d##*/}"
		done
		nm -A -g --defined-only "$@" | awk 'NF == 3 {
			n = split($1, p, ":"); o = p[n - 1]; sub(/.*\//, "", o)
			print "D", o, $3, $2 }'
		nm -A -u "$@" | awk 'NF >= 2 && $(NF - 1) == "U" {
			n = split($1, p, ":"); o = p[n - 1]; sub(/.*\//, "", o)
			print "U", o, $NF }'
	} | awk '
		function name(o) { return ((o in dir) ? dir[o] : "?") "/" o }
		$1 == "F" { dir[$2] = $3; next }
		$1 == "D" {
			def[$3] = $2
			kind[$3] = $4 ~ /^[TWti]$/ ? "call" : "data"
			next
		}
		{ use[++n] = $2 " " $3 }
		END {
			for (i = 1; i <= n; i++) {
				split(use[i], u, " ")
				if ((u[2] in def) && def[u[2]] != u[1])
					print name(u[1]), name(def[u[2]]), kind[u[2]], u[2]
			}
		}' | sort -u
}

# includes SRC: "FOLDER/FILE FOLDER/HEADER" for each #include "F/H" of
# a source or header below SRC.
includes() {
	for _f in "$1"/*/*.c "$1"/*/*.h; do
		[ -f "$_f" ] || continue
		_d=${_f%/*}
		_n=${_d##*/}/${_f##*/}
		sed -n 's|^[ 	]*#[ 	]*include[ 	]*"\([^"/]*/[^"]*\)".*|\1|p' "$_f" |
		    sed "s|^|$_n |"
	done
}

# upward LAYERS: of the "A B ..." lines on standard input, "A->B ..." for
# each from a lower layer to a higher one (LAYERS: "FOLDER LAYER" lines),
# and "A->B unknown-folder" where B's folder is not in LAYERS.
upward() {
	awk 'NR == FNR { layer[$1] = $2; next }
		{
			split($1, a, "/"); split($2, b, "/")
			e = $1 "->" $2
			for (i = 3; i <= NF; i++)
				e = e " " $i
			if (!(b[1] in layer) || !(a[1] in layer))
				print e, "unknown-folder"
			else if (layer[a[1]] + 0 < layer[b[1]] + 0)
				print e
		}' "$1" -
}

# without LIST: the "A B ..." edges on standard input but those named
# A->B in LIST.
without() {
	awk -v list=" $(echo $1) " 'index(list, " " $1 "->" $2 " ") == 0'
}

# on_cycle A B CYCLES EDGES: is there an edge A->B in file EDGES, with A and B
# in one strongly connected component of CYCLES (cycles' output)?
on_cycle() {
	grep -q "^$1 $2 " "$4" &&
	    awk -F, -v a="$1" -v b="$2" '{
		x = y = 0
		for (i = 1; i <= NF; i++) { x += $i == a; y += $i == b }
		if (x && y) found = 1
	    } END { exit !found }' "$3"
}

# cycles: of the "A B ..." edges on standard input, each strongly
# connected component of more than one node (every cycle lies in one),
# its nodes in byte order, joined by commas.
cycles() {
	awk '
		function strong(v,    i, w, k, j, t, s) {
			idx[v] = low[v] = ++count
			stack[++sp] = v
			on[v] = 1
			for (i = 1; i <= nout[v]; i++) {
				w = out[v, i]
				if (!(w in idx)) {
					strong(w)
					if (low[w] < low[v])
						low[v] = low[w]
				} else if (on[w] && idx[w] < low[v]) {
					low[v] = idx[w]
				}
			}
			if (low[v] != idx[v])
				return
			k = 0
			do {
				w = stack[sp--]
				on[w] = 0
				comp[++k] = w
			} while (w != v)
			if (k < 2)
				return
			for (i = 2; i <= k; i++)	# insertion sort
				for (j = i; j > 1 && comp[j - 1] > comp[j]; j--) {
					t = comp[j]; comp[j] = comp[j - 1]; comp[j - 1] = t
				}
			s = comp[1]
			for (i = 2; i <= k; i++)
				s = s "," comp[i]
			print s
		}
		!(($1, $2) in seen) {
			seen[$1, $2] = 1
			out[$1, ++nout[$1]] = $2
			if (!($1 in node)) { node[$1] = 1; order[++nn] = $1 }
			if (!($2 in node)) { node[$2] = 1; order[++nn] = $2 }
		}
		END {
			for (i = 1; i <= nn; i++)
				if (!(order[i] in idx))
					strong(order[i])
		}' | sort
}

# long_files TOP DIR...: "PATH LINES" for each file below TOP/DIR (C, sh,
# Python, awk) over 800 lines, PATH relative to TOP.
long_files() {
	_top=$1
	shift
	(cd "$_top" && for _d in "$@"; do
		find "$_d" -type f \( -name '*.[ch]' -o -name '*.sh' -o \
		    -name '*.py' -o -name '*.awk' \)
	done | sort | while IFS= read -r _f; do
		_n=$(wc -l < "$_f")
		[ "$_n" -le 800 ] || echo "$_f $_n"
	done)
}

# namesakes SRC: "NAME FOLDER/NAME..." for each file name (.c, .h) that
# more than one folder below SRC has.
namesakes() {
	(cd "$1" && ls -- */*.[ch]) | awk -F/ '
		{ n[$2]++; in_[$2] = in_[$2] " " $0 }
		END { for (f in n) if (n[f] > 1) print f in_[f] }' | sort
}

# guards SRC: "FOLDER/NAME.h GUARD" for each header below SRC whose first
# #ifndef, and the #define after it, are not both MS_<NAME>_H ("none":
# no #ifndef; "undefined": no #define after it).
guards() {
	(cd "$1" && awk '
		function judged() {
			if (f != "" && (g != w || d != w))
				print f, (g == "" ? "none" : g != w ? g : \
				    d == "" ? "undefined" : d)
		}
		FNR == 1 {
			judged()
			f = w = FILENAME
			sub(/.*\//, "", w); sub(/\.h$/, "", w)
			w = "MS_" toupper(w) "_H"
			g = d = ""
		}
		/^#[ \t]*ifndef[ \t]/ && g == "" { g = $2; next }
		/^#[ \t]*define[ \t]/ && g != "" && d == "" { d = $2 }
		END { judged() }' */*.h)
}

# private: of the "FOLDER/FILE FOLDER/HEADER" lines on standard input
# (includes' output), "FILE->HEADER" for each *_int.h or *_impl.h
# included from another folder.
private() {
	awk '$2 ~ /_(int|impl)\.h$/ {
		split($1, a, "/"); split($2, b, "/")
		if (a[1] != b[1]) print $1 "->" $2
	}'
}

# long_functions SRC: "FOLDER/FILE.c:NAME LINES" for each function below
# SRC over 100 lines, from the line that names it (a definition starts
# its line with the name, STYLE.md; else the line above its brace, as in
# "char (*rows(void))[4]") to its closing brace.
long_functions() {
	(cd "$1" && awk '
		FNR == 1 { name = ""; body = 0 }
		/^[A-Za-z_][A-Za-z0-9_]*\(/ {
			name = $0; sub(/\(.*/, "", name); at = FNR; next
		}
		/^\{/ && name == "" && match(prev, /[A-Za-z_][A-Za-z0-9_]*\(/) {
			name = substr(prev, RSTART, RLENGTH - 1); at = FNR - 1
		}
		/^\{/ && name != "" { body = 1; next }
		{ prev = $0 }
		/^\}/ && body {
			if (FNR - at + 1 > 100)
				print FILENAME ":" name, FNR - at + 1
			body = 0; name = ""
		}' */*.c)
}

# mode_entries SRC: "NAME (PARAMETERS)" for each function a header of
# SRC/modes declares and a file of SRC/cli calls.
mode_entries() {
	awk '
		FILENAME ~ /\.c$/ {
			s = $0
			while (match(s, /[A-Za-z_][A-Za-z0-9_]*\(/)) {
				called[substr(s, RSTART, RLENGTH - 1)] = 1
				s = substr(s, RSTART + RLENGTH)
			}
			next
		}
		decl { d = d " " $0 }
		!decl {
			if (!/^[A-Za-z]/ || !match($0, /[A-Za-z_][A-Za-z0-9_]*\(/))
				next
			name = substr($0, RSTART, RLENGTH - 1)
			d = substr($0, RSTART + RLENGTH)
			decl = 1
		}
		d ~ /;/ {
			sub(/\).*/, "", d); gsub(/[ \t]+/, " ", d)
			if (name in called)
				print name, "(" d ")"
			decl = 0
		}' "$1"/cli/*.c "$1"/modes/*.h
}

# file_calls SRC FOLDER: "FOLDER/FILE:CALL" for each call of a function
# that opens or reads a file (open, openat, creat, fopen, fdopen,
# freopen, read, pread, readv, preadv, fread, mmap, opendir) in the .c
# and .h files of SRC/FOLDER; comments, strings and members (ops->read)
# are no calls.
file_calls() {
	(cd "$1" && awk -v q="'" '
		FNR == 1 { st = "" }
		{
			t = ""
			for (i = 1; i <= length($0); i++) {
				c = substr($0, i, 1); c2 = substr($0, i, 2)
				if (st == "/") {
					if (c2 == "*/") { st = ""; i++ }
				} else if (st != "") {
					if (c == "\\") i++
					else if (c == st) st = ""
				} else if (c2 == "/*") { st = "/"; i++; t = t " " }
				else if (c2 == "//") break
				else if (c == "\"" || c == q) st = c
				else t = t c
			}
			if (st != "/")
				st = ""
			r = "(^|[^A-Za-z0-9_.>])(open|openat|creat|fopen|fdopen|freopen|" \
			    "read|pread|readv|preadv|fread|mmap|opendir)[ \t]*\\("
			while (match(t, r)) {
				c = substr(t, RSTART, RLENGTH)
				sub(/^[^a-z]/, "", c); sub(/[ \t]*\($/, "", c)
				print FILENAME ":" c
				t = substr(t, RSTART + RLENGTH)
			}
		}' "$2"/*.[ch]) | sort -u
}

# judge WHAT KNOWN FILE: each line of FILE ("ITEM [why...]") fails unless
# ITEM is in the list KNOWN (then a diagnostic); each item of KNOWN that
# FILE no longer has fails too, so that the list never goes stale.
judge() {
	_known=$(echo $2)	# one line, one blank between items
	while read -r _item _why; do
		case " $_known " in
		*" $_item "*) diag "known exception: $1 $_item${_why:+ $_why}"; pass ;;
		*) fail "$1 $_item${_why:+ $_why}" ;;
		esac
	done < "$3"
	_used=
	for _k in $_known; do
		if grep -q "^$_k\( \|\$\)" "$3"; then
			pass
			_used="$_used $_k"
		else
			fail "$_k (listed as a known $1) no longer holds"
		fi
	done
	diag "known exceptions in use ($1):${_used:- none}"
}

# ----------------------------------------------- the detectors themselves

# A made-up tree of two layers, high above low, in a README of its own.
fake_tree() {
	mkdir -p fake/src/low fake/src/high
	cat > fake/README.md <<-'END'
	## How it is built

	| layer | folder | owns | files |
	|---|---|---|---|
	| 2 | `high/` | above | `h.c` |
	| 1 | `low/` | below | `l.c`, `a.c`, `b.c`, `c.c`, `d.c` |

	## Next
	| 3 | `nowhere/` | not in the section | `x.c` |
	END
}

# compile DIR/NAME.c ...: each into NAME.o, then all into t.a.
compile() {
	for _c in "$@"; do
		_o=${_c##*/}
		cc -c -o "${_o%.c}.o" "fake/src/$_c" -Ifake/src || return 1
	done
	ar rc t.a *.o
}

test_detector_reads_the_table() {
	fake_tree
	is "$(layers fake/README.md | tr '\n' ' ')" "high 2 low 1 " \
	    "the rows of How it is built, in order, and no other table"
	listed fake/README.md > named
	is "$(wc -l < named | tr -d ' ')" 6 "six files named"
	has_line named "low c.c" "a file of the last column"
}

test_detector_finds_a_three_object_cycle() {
	have nm && have cc && have ar || skip_test "no nm, cc or ar"
	fake_tree
	printf 'void b(void);\nvoid a(void) { b(); }\n' > fake/src/low/a.c
	printf 'void c(void);\nvoid b(void) { c(); }\nvoid e(void) { }\n' > fake/src/low/b.c
	printf 'void a(void);\nvoid c(void) { a(); }\n' > fake/src/low/c.c
	printf 'void e(void);\nvoid d(void) { e(); }\n' > fake/src/low/d.c
	compile low/a.c low/b.c low/c.c low/d.c || skip_test "cannot compile"
	uses fake/src t.a > edges
	has_line edges "low/c.o low/a.o call a" "c.o calls a() of a.o"
	cycles < edges > all
	is "$(cat all)" "low/a.o,low/b.o,low/c.o" \
	    "a -> b -> c -> a is one cycle; d.o calls b.o one way"
	is "$(without "low/c.o->low/a.o" < edges | cycles)" "" \
	    "no cycle once the edge that closes it is left out"
	check "c.o -> a.o lies on the cycle" on_cycle low/c.o low/a.o all edges
	check_not "d.o -> b.o does not" on_cycle low/d.o low/b.o all edges
	printf 'x y\ny z\nz w\nw y\n' | cycles > got
	is "$(cat got)" "w,y,z" "a cycle behind a one-way edge"
}

test_detector_finds_upward_uses() {
	have nm && have cc && have ar || skip_test "no nm, cc or ar"
	fake_tree
	cat > fake/src/high/h.c <<-'END'
	const int table[4] = { 1, 2, 3, 4 };
	int count;
	int limit = 5;
	void up(void) { }
	END
	printf 'extern const int table[4];\nint peek(void) { return table[2]; }\n' \
	    > fake/src/low/a.c
	printf 'extern int count, limit;\nvoid bump(void) { count += limit; }\n' \
	    > fake/src/low/b.c
	printf 'void up(void);\nvoid c(void) { up(); }\n' > fake/src/low/c.c
	printf 'int peek(void);\nint call_down(void) { return peek(); }\n' \
	    > fake/src/high/d.c
	compile high/h.c low/a.c low/b.c low/c.c high/d.c ||
	    skip_test "cannot compile"
	layers fake/README.md > layers
	uses fake/src t.a | upward layers > got
	has_line got "low/a.o->high/h.o data table" \
	    "a read-only table (R) of a higher layer"
	has_line got "low/b.o->high/h.o data count" \
	    "a variable (B) of a higher layer"
	has_line got "low/b.o->high/h.o data limit" \
	    "an initialised variable (D) of a higher layer"
	has_line got "low/c.o->high/h.o call up" "a function of a higher layer"
	is "$(wc -l < got | tr -d ' ')" 4 "high/d.o calling down is no fault"
}

test_detector_finds_an_upward_include() {
	fake_tree
	printf '#include "high/h.h"\n#include "low/l.h"\n' > fake/src/low/a.c
	printf '#include "low/l.h"\n#include <stdio.h>\n#include "config.h"\n' \
	    > fake/src/high/h.c
	printf '#include "nowhere/n.h"\n' > fake/src/low/l.h
	layers fake/README.md > layers
	includes fake/src | upward layers > got
	has_line got "low/a.c->high/h.h" "a lower file including a higher header"
	has_line got "low/l.h->nowhere/n.h unknown-folder" \
	    "a folder the table does not list"
	is "$(wc -l < got | tr -d ' ')" 2 "downward and same-folder includes pass"
}

test_detector_finds_a_long_file() {
	mkdir -p fake/src/low fake/tests
	awk 'BEGIN { for (i = 0; i < 801; i++) print "x" }' > fake/src/low/a.c
	awk 'BEGIN { for (i = 0; i < 800; i++) print "x" }' > fake/src/low/b.h
	awk 'BEGIN { for (i = 0; i < 900; i++) print "x" }' > fake/tests/t.sh
	awk 'BEGIN { for (i = 0; i < 900; i++) print "x" }' > fake/tests/data.txt
	long_files fake src tests > got
	printf 'src/low/a.c 801\ntests/t.sh 900\n' > want
	same got want "801 lines is over, 800 is not; only code counts"
}

test_detector_finds_namesakes() {
	mkdir -p fake/src/low fake/src/high
	touch fake/src/low/a.c fake/src/high/a.c fake/src/low/b.h \
	    fake/src/high/b.h fake/src/low/c.c fake/src/high/c.h
	namesakes fake/src > got
	printf 'a.c high/a.c low/a.c\nb.h high/b.h low/b.h\n' > want
	same got want "one name in two folders; c.c and c.h are two names"
}

test_detector_finds_wrong_guards() {
	mkdir -p fake/src/low
	printf '#ifndef MS_GOOD_H\n#define MS_GOOD_H\n#endif\n' > fake/src/low/good.h
	printf '/* x */\n#ifndef MS_LOW_BAD_H\n#define MS_LOW_BAD_H\n#endif\n' \
	    > fake/src/low/bad.h
	printf '#ifndef MS_HALF_H\n#define MS_HALF\n#endif\n' > fake/src/low/half.h
	printf '#define X 1\n#ifndef MS_LATE_H\n' > fake/src/low/late.h
	printf 'int x;\n' > fake/src/low/none.h
	guards fake/src > got
	sort got > sorted
	printf '%s\n' "low/bad.h MS_LOW_BAD_H" "low/half.h MS_HALF" \
	    "low/late.h undefined" "low/none.h none" > want
	same sorted want "a guard not MS_<NAME>_H, half a guard, none"
}

test_detector_finds_foreign_private_includes() {
	mkdir -p fake/src/low fake/src/high
	printf '#include "low/l_int.h"\n#include "low/e_impl.h"\n' \
	    > fake/src/high/h.c
	printf '#include "low/l_int.h"\n#include "low/l.h"\n' > fake/src/low/a.c
	printf '#include "high/h_int.h"\n' > fake/src/low/b.h
	includes fake/src | private | sort > got
	printf '%s\n' "high/h.c->low/e_impl.h" "high/h.c->low/l_int.h" \
	    "low/b.h->high/h_int.h" > want
	same got want "_int.h and _impl.h from another folder; its own is fine"
}

test_detector_finds_a_long_function() {
	mkdir -p fake/src/low
	awk 'BEGIN {
		print "int proto(void);\nstatic int\nlong_one(int a,\n    int b)\n{"
		for (i = 0; i < 96; i++) print "\ta += b;"
		print "\treturn a;\n}\n\nstatic int\njust_100(int a)\n{"
		for (i = 0; i < 97; i++) print "\ta++;"
		print "}\nstatic const int t[] = {\n\t1,\n};"
		print "static char (*rows(void))[4]\n{"
		for (i = 0; i < 98; i++) print "\t;"
		print "}"
	}' > fake/src/low/a.c
	long_functions fake/src > got
	printf '%s\n' "low/a.c:long_one 101" "low/a.c:rows 101" > want
	same got want "101 lines from the name to the brace is over, 100 is not"
}

test_detector_finds_a_mode_entry_without_options() {
	mkdir -p fake/src/cli fake/src/modes
	cat > fake/src/modes/m.h <<-'END'
	/* ms_comment(int x); */
	int	 ms_good_main(const struct ms_options *o);
	int	 ms_bare_main(struct ms_options *o);
	int	 ms_args_main(int argc,
		    char **argv);
	int	 ms_unused_main(int x);
	END
	cat > fake/src/cli/c.c <<-'END'
	int main(int argc, char **argv) { return ms_good_main(&o) +
	    ms_bare_main(&o) + ms_args_main(argc, argv); }
	END
	mode_entries fake/src > got
	has_line got "ms_good_main (const struct ms_options *o)" "an entry point"
	grep -v 'const struct ms_options \*' got > bad
	printf '%s\n' "ms_bare_main (struct ms_options *o)" \
	    "ms_args_main (int argc, char **argv)" > want
	same bad want "no const, no options; one cli/ does not call is none"
}

test_detector_finds_file_calls() {
	mkdir -p fake/src/manifest
	cat > fake/src/manifest/m.c <<-'END'
	/* read(fd) in a comment,
	   open(p) in its second line */
	#error an apostrophe's string ends with its line
	DIR *d(const char *p) { return opendir(p); }
	static int f(struct x *s, const char *p)
	{
		int fd = open(p, 0);	// fopen(p) after a comment mark
		FILE *fp = fopen (p, "r /* fread(x) */");
		char c = '"';
		s->ops->read(s); s->io.read(s); ms_read(s); thread(s);
		return read(fd, buf, c) + (int)fread(buf, 1, 1, fp);
	}
	END
	file_calls fake/src manifest > got
	printf '%s\n' manifest/m.c:fopen manifest/m.c:fread manifest/m.c:open \
	    manifest/m.c:opendir manifest/m.c:read > want
	same got want "calls, not comments, strings, members or namesakes"
}

test_judge_fails_stale_exceptions() {
	printf 'a->b data x\n' > found
	(
		ms_checks=0 ms_fails=0
		judge "upward edge" "a->b c->d" found 3> diags
		echo "$ms_checks $ms_fails" > counts
	)
	is "$(cat counts)" "3 1" "a known edge passes, a stale one fails"
	(
		ms_checks=0 ms_fails=0
		judge "upward edge" "" found 3> diags
		echo "$ms_checks $ms_fails" > counts
	)
	is "$(cat counts)" "1 1" "an unknown edge fails"
}

# ------------------------------------------------------- the real tree

test_layers_are_the_readme_table() {
	layers "$top/README.md" > layers
	check "README's table has rows" test -s layers
	is "$(cut -d' ' -f2 layers | sort -n | uniq -d)" "" "no two rows share a layer"
	cut -d' ' -f1 layers | sort > rows
	for _d in "$src"/*/; do
		_d=${_d%/}
		echo "${_d##*/}"
	done | sort > folders
	same folders rows "every folder of src/ is a row, every row a folder"
	listed "$top/README.md" | sort > named
	for _f in "$src"/*/*.c; do
		_d=${_f%/*}
		echo "${_d##*/} ${_f##*/}"
	done | sort > sources
	grep '\.c$' named > named.c
	same named.c sources "every .c of a folder is named in its row, and no other"
	while read -r _d _f; do
		check "$_d/$_f (named in README) exists" test -f "$src/$_d/$_f"
	done < named
}

test_no_upward_use() {
	have nm || skip_test "no nm"
	[ -f "$lib" ] || skip_test "no $lib"
	[ -f "$main_obj" ] || skip_test "no $main_obj"
	layers "$top/README.md" > layers
	uses "$src" "$lib" "$main_obj" > edges
	has_line edges "cli/multisum.o modes/hash.o call ms_hash_main" \
	    "nm sees main's call of hash mode"
	check "nm sees data references" grep -q ' data ' edges
	upward layers < edges | awk '
		{ e = $1; $1 = ""; why[e] = why[e] $0 }
		END { for (e in why) print e why[e] }' | sort > found
	judge "upward use" "$(echo "$KNOWN_UPWARD" | tr ' ' '\n' | grep '\.o$')" found
}

test_no_upward_include() {
	layers "$top/README.md" > layers
	includes "$src" > incs
	has_line incs "modes/hash.c modes/hash.h" "includes name their folder"
	upward layers < incs > found
	judge "upward include" "$(echo "$KNOWN_UPWARD" | tr ' ' '\n' | grep -v '\.o$')" found
}

test_no_cycle() {
	have nm || skip_test "no nm"
	[ -f "$lib" ] || skip_test "no $lib"
	[ -f "$main_obj" ] || skip_test "no $main_obj"
	uses "$src" "$lib" "$main_obj" > edges
	check "the graph was read" test -s edges
	without "$KNOWN_CYCLES" < edges | cycles > found
	while read -r _c; do
		fail "a cycle between $_c (break it, or list the edge that closes it)"
	done < found
	cycles < edges > all
	for _k in $KNOWN_CYCLES; do
		diag "known exception: $_k closes a cycle"
		check "$_k (listed as closing a cycle) still does" \
		    on_cycle "${_k%%->*}" "${_k#*->}" all edges
	done
}

test_no_file_over_800_lines() {
	long_files "$top" src tests bench fuzz > found
	check "there are C files to measure" \
	    test -n "$(cd "$top" && find src -name '*.c' | head -n 1)"
	judge "long file" "$KNOWN_LONG" found
}

test_no_file_name_in_two_folders() {
	check "there are files to compare" test -f "$src/io/xattr_calls.c"
	namesakes "$src" > found
	judge "file name in two folders" "$KNOWN_NAMESAKES" found
}

test_guards_are_file_names() {
	check "there are headers" test -f "$src/base/util.h"
	guards "$src" > found
	judge "guard" "$KNOWN_GUARDS" found
}

test_private_headers_stay_home() {
	includes "$src" > incs
	check "some private header is included" grep -q '_int\.h$' incs
	private < incs > found
	judge "private header from another folder" "$KNOWN_PRIVATE" found
}

test_no_function_over_100_lines() {
	long_functions "$src" > found
	judge "function over 100 lines" "$KNOWN_LONG_FUNCTIONS" found
}

test_mode_entries_take_the_options() {
	mode_entries "$src" > entries
	has_line entries "ms_hash_main (const struct ms_options *o)" \
	    "cli/ calls hash mode's entry point"
	grep -v 'const struct ms_options \*' entries > found
	judge "mode entry point without the options" "$KNOWN_MODE_ENTRIES" found
}

test_manifest_opens_nothing() {
	# the detector sees the door's own calls, one layer up
	file_calls "$src" io > door
	has_line door "io/text_input.c:fopen" "io/text_input.c opens lists"
	file_calls "$src" manifest > found
	judge "file opened or read in manifest/" "$KNOWN_MANIFEST_IO" found
}

run detector_reads_the_table
run detector_finds_a_three_object_cycle
run detector_finds_upward_uses
run detector_finds_an_upward_include
run detector_finds_a_long_file
run detector_finds_namesakes
run detector_finds_wrong_guards
run detector_finds_foreign_private_includes
run detector_finds_a_long_function
run detector_finds_a_mode_entry_without_options
run detector_finds_file_calls
run judge_fails_stale_exceptions
run layers_are_the_readme_table
run no_upward_use
run no_upward_include
run no_cycle
run no_file_over_800_lines
run no_file_name_in_two_folders
run guards_are_file_names
run private_headers_stay_home
run no_function_over_100_lines
run mode_entries_take_the_options
run manifest_opens_nothing
finish
