#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# per-dir.sh - --per-dir=NAME: one manifest in each folder, written by
# -r and found and verified by -c -r; files no manifest lists, folders
# without one, and folders that disappeared (chkbit issue 16); a folder
# copied anywhere checks itself, also with sha256sum -c.
. "${TESTS_SRCDIR:-$(dirname "$0")}/lib.sh"

nl='
'

tree() {
	mkdir -p t/a/b t/empty "t/odd${nl}dir"
	echo 1 > t/one
	echo 2 > t/a/two
	echo 3 > t/a/b/three
	echo "with, comma" > "t/a/b/x y, z"
	echo back > 't/a/back\slash'
	echo o > "t/odd${nl}dir/f"
}

test_writes_one_manifest_per_folder() {
	tree
	status_is 0 "write" multisum -r --per-dir=SHA256SUMS t 2> err
	for d in t t/a t/a/b t/empty "t/odd${nl}dir"; do
		check "$d has its manifest" test -f "$d/SHA256SUMS"
		is "$(head -n 1 "$d/SHA256SUMS")" "#multisum-folder v1" "$d: the first line"
	done
	has_line t/SHA256SUMS "$(cd t && multisum one)" "its own file, by its name there"
	has_line t/SHA256SUMS "#/ a" "a subfolder named"
	has_line t/SHA256SUMS '#/ odd\ndir' "a subfolder's newline escaped"
	lacks t/SHA256SUMS "two" "a subfolder's file is its own manifest's"
	has_line t/a/b/SHA256SUMS "$(cd t/a/b && multisum "x y, z")" "a name with spaces and a comma"
	has_line t/a/SHA256SUMS "$(cd t/a && multisum 'back\slash')" "a backslash escaped as sha256sum does"
	is "$(grep -vc '^#' t/empty/SHA256SUMS)" 0 "an empty folder: bookkeeping only"
	# again: a manifest never lists itself, and the rerun is the same
	cp t/a/SHA256SUMS first
	multisum -r --per-dir=SHA256SUMS t
	same t/a/SHA256SUMS first "a second run writes the same"
	lacks t/a/SHA256SUMS "SHA256SUMS" "never listed in itself"
	# sha256sum reads them where they lie (the # lines are comments)
	if have sha256sum; then
		for d in t t/a t/a/b; do
			status_is 0 "sha256sum -c in $d" sh -c 'cd "$1" && sha256sum -c --quiet SHA256SUMS' sh "$d"
		done
	else
		skip_case "sha256sum absent"
	fi
	# --tag and two algorithms: BSD lines, which cksum -c reads
	status_is 0 "bsd lines" multisum -r -a sha256,sha512 --per-dir=SUMS t
	has_line t/a/SUMS "SHA512 (two) = $(multisum -a sha512 t/a/two | cut -c1-128)" "BSD lines"
	if have cksum && cksum --help 2>&1 | grep -q -- '--check'; then
		status_is 0 "cksum -c" sh -c 'cd t/a && cksum -c --quiet SUMS'
	else
		skip_case "cksum -c (coreutils 9) absent"
	fi
}

test_a_folder_with_an_unreadable_file_keeps_its_manifest() {
	[ "$(id -u)" = 0 ] && have setpriv && as=nobody || as=
	tree
	multisum -r --per-dir=SHA256SUMS t
	cp t/a/SHA256SUMS old
	echo 22 > t/a/two
	echo 11 > t/one
	if [ -n "$as" ]; then
		chmod -R a+rwX t
		chmod 000 t/a/two
		status_is 3 "unreadable" setpriv --reuid=65534 --regid=65534 --clear-groups \
		    "$MULTISUM" -r --per-dir=SHA256SUMS t > out 2> err
	else
		chmod 000 t/a/two
		if cat t/a/two > /dev/null 2>&1; then
			skip_test "root reads any file and setpriv is absent"
		fi
		status_is 3 "unreadable" multisum -r --per-dir=SHA256SUMS t > out 2> err
	fi
	check "the file named" grep -q "t/a/two: Permission denied" err
	check "the folder named" grep -q "t/a/SHA256SUMS.*not written: 1 file could not be read" err
	same t/a/SHA256SUMS old "that folder's manifest is as it was"
	has_line t/SHA256SUMS "$(cd t && multisum one)" "the others are written"
	chmod 644 t/a/two
}

test_check_finds_and_verifies_them_all() {
	tree
	multisum -r --per-dir=SHA256SUMS t
	status_is 0 "all verify" multisum -c -r --per-dir=SHA256SUMS t > out 2> err
	has_line out "t/a/b/x y, z: OK" "a file three folders down"
	has_line out "t/one: OK" "the top"
	is "$(grep -c ': OK$' out)" 6 "every file"
	lacks out SHA256SUMS "no manifest is verified as a file"
	# the cases of a tree that has changed
	echo X > t/one
	echo new > t/a/new
	mkdir t/fresh && echo f > t/fresh/f
	rm -r t/a/b
	rm "t/odd${nl}dir/f"
	status_is 1 "changed" multisum -c -r --per-dir=SHA256SUMS t > out 2> err
	has_line out "t/one: FAILED" "a changed file"
	has_line out "t/a/new: not listed in any SHA256SUMS" "a file no manifest lists"
	has_line out "t/a/b/: missing folder (listed in its parent's SHA256SUMS)" \
	    "a folder that is gone, found by its parent's manifest"
	has_line out "t/fresh/: no SHA256SUMS" "a folder without one"
	has_line out "t/fresh/f: not listed in any SHA256SUMS" "and its file"
	has_line out '\t/odd\ndir/f: FAILED open or read' "a missing file"
	has_line err "multisum: WARNING: 2 files are not listed in any SHA256SUMS" "counted"
	has_line err "multisum: WARNING: 1 folder has no SHA256SUMS" "counted"
	has_line err "multisum: WARNING: 1 listed folder is missing" "counted"
	# only unlisted files and a folder without a manifest: fine unless --strict
	multisum -r --per-dir=SHA256SUMS t
	echo newer > t/a/newer
	mkdir t/later && echo l > t/later/l
	status_is 0 "unlisted files pass" multisum -c -r --per-dir=SHA256SUMS t > out 2> err
	has_line out "t/a/newer: not listed in any SHA256SUMS" "still said"
	status_is 1 "--strict fails them" multisum -c -r --strict --per-dir=SHA256SUMS t > out 2> err
	status_is 0 "--quiet" multisum -c -r --quiet --per-dir=SHA256SUMS t > out 2> err
	lacks out ": OK" "--quiet: no OK lines"
	has_line out "t/later/: no SHA256SUMS" "--quiet still says what is wrong"
	status_is 1 "--status --strict" multisum -c -r --status --strict --per-dir=SHA256SUMS t > out 2> err
	check_not "--status says nothing" test -s out
	rm -r t/a
	status_is 0 "--ignore-missing" multisum -c -r --ignore-missing --per-dir=SHA256SUMS t > out 2> err
	lacks out "missing folder" "a missing folder is let be"
}

# A folder its parent lists was written with a manifest: one that is gone
# took its files' digests with it, and fails as a missing file does (a
# corrupted file there must not pass with two warnings).
test_a_lost_manifest_fails() {
	tree
	multisum -r --per-dir=SHA256SUMS t
	rm t/a/SHA256SUMS
	echo rot > t/a/two
	status_is 1 "a listed folder without its manifest" \
	    multisum -c -r --per-dir=SHA256SUMS t > out 2> err
	has_line out "t/a/: missing SHA256SUMS (its parent's lists the folder)" \
	    "said"
	has_line out "t/a/two: not listed in any SHA256SUMS" "its files unlisted"
	has_line out "t/a/b/three: OK" "the folders below still verify"
	has_line err "multisum: WARNING: 1 listed folder has no SHA256SUMS" "counted"
	status_is 0 "--ignore-missing lets it be" \
	    multisum -c -r --ignore-missing --per-dir=SHA256SUMS t > out 2> err
	has_line out "t/a/: no SHA256SUMS" "then a folder without one"
	status_is 0 "an operand's own manifest has no parent to miss it" \
	    multisum -c -r --per-dir=SHA256SUMS t/a/b > out 2> err
}

# A killed run's temporary manifest in a folder is neither listed nor
# "not listed": the next write removes it.
test_a_killed_runs_temporary() {
	tree
	multisum -r --per-dir=SHA256SUMS t
	cp t/a/SHA256SUMS t/a/.SHA256SUMS.multisum-Xy12Zw
	status_is 0 "check" multisum -c -r --per-dir=SHA256SUMS t > out 2> err
	lacks out "Xy12Zw" "not reported"
	status_is 0 "write" multisum -r --per-dir=SHA256SUMS t 2> err
	lacks t/a/SHA256SUMS "Xy12Zw" "not listed"
	if ! built_with HAVE_FSTATFS; then
		# the portable build: a lock may be unseen, nothing removed
		check "kept" test -e t/a/.SHA256SUMS.multisum-Xy12Zw
		has_line err "multisum: t/a/.SHA256SUMS.multisum-Xy12Zw: left by a run that was killed or runs on another machine: not removed (this system cannot tell a local file system)" \
		    "said why"
		return
	fi
	check_not "removed" test -e t/a/.SHA256SUMS.multisum-Xy12Zw
	has_line err "multisum: t/a/.SHA256SUMS.multisum-Xy12Zw: removed: the temporary file of a run that was killed" \
	    "said"
}

# cfv's and chkbit's point: a folder copied anywhere checks itself.
test_a_copied_folder_checks_itself() {
	tree
	multisum -r --per-dir=SHA256SUMS t
	mkdir elsewhere
	cp -r t/a elsewhere/copy
	status_is 0 "the copy" multisum -c -r --per-dir=SHA256SUMS elsewhere/copy > out 2> err
	has_line out "elsewhere/copy/b/three: OK" "below the copy"
	echo rot > elsewhere/copy/b/three
	status_is 1 "rot in the copy" multisum -c -r --per-dir=SHA256SUMS elsewhere/copy > out 2> err
	has_line out "elsewhere/copy/b/three: FAILED" "found"
	(cd elsewhere/copy && multisum -c -r --per-dir=SHA256SUMS .) > out 2> err
	has_line out "./two: OK" "from inside, as ."
}

# Manifests another tool wrote, one per folder (sha256sum in each): read,
# though without folder bookkeeping nothing can be missed as a folder.
test_foreign_per_folder_manifests() {
	have sha256sum || skip_test "sha256sum absent"
	tree
	for d in t t/a t/a/b; do
		(cd "$d" && find . -maxdepth 1 -type f ! -name SHA256SUMS -printf '%f\n' |
		    sort | xargs -d '\n' sha256sum > SHA256SUMS)
	done
	status_is 0 "sha256sum's manifests" multisum -c -r --per-dir=SHA256SUMS t/a > out 2> err
	has_line out "t/a/b/x y, z: OK" "verified"
	rm -r t/a/b
	status_is 0 "no folder bookkeeping: a gone folder is not known" \
	    multisum -c -r --per-dir=SHA256SUMS t/a > out 2> err
	lacks out "missing folder" "nothing claimed"
}

# A folder's manifest lists its own files: a name that leaves the folder
# (.., absolute) is refused, one failure line each naming the manifest,
# and never opened (../dev/zero would never end); "..x" is a name.
test_names_that_leave_the_folder_are_refused() {
	tree
	echo dots > t/a/..x
	multisum -r --per-dir=SUMS t
	d=$(sed -n 's/  one$//p' t/SUMS)
	up=$(pwd | sed 's|[^/][^/]*|..|g')
	{
		echo "$d  ../one"
		echo "$d  b/../../one"
		echo "$d  $(pwd)/t/one"
		echo "$(printf '%064d' 0)  ../..$up/dev/zero"
	} >> t/a/SUMS
	timeout 20 "$MULTISUM" -c -r --per-dir=SUMS t > out 2> err
	is "$?" 1 "a refused name is a failure"
	has_line out "t/a/../one: FAILED (refused: a name in t/a/SUMS that leaves its folder; not opened)" \
	    "'../one' refused, naming the manifest"
	is "$(grep -c 'FAILED (refused: a name in t/a/SUMS' out)" 4 \
	    "every name that leaves it, one line each"
	lacks out "^t/a/.*/one: OK" "nothing outside the folder read"
	has_line out "t/a/..x: OK" "a name beginning with .. is a name"
	check "the count said" grep -q 'WARNING: 4 listed names leave the folder of their SUMS' err
}

test_usage() {
	usage_error "--per-dir without -r" --per-dir=SHA256SUMS .
	usage_error "-c --per-dir without -r" -c --per-dir=SHA256SUMS .
	usage_error "a name with a slash" -r --per-dir=a/SUMS .
	usage_error "--per-dir and -o" -r --per-dir=SUMS -o x .
	usage_error "--per-dir and ndjson" -r --per-dir=SUMS --format=ndjson .
	usage_error "--per-dir and --match" -r --per-dir=SUMS --match=x .
	usage_error "-c -r without --per-dir" -c -r SUMS
	echo x > f
	status_is 1 "a file operand" multisum -r --per-dir=SUMS f 2> err
	check "said" grep -q "f: not a directory: --per-dir writes one manifest per folder" err
	status_is 1 "a file operand, checked" multisum -c -r --per-dir=SUMS f 2> err
	check "said, checked" grep -q "f: not a directory: --per-dir checks the manifests of folders" err
}

# A tree deeper than PATH_MAX: every folder gets its manifest, written
# and read from its folder opened as -r's walk opens it (R5: 1,286
# folders failed with 'File name too long').
test_deep_tree() {
	deep_tree top
	if ! built_with MS_HAVE_PROC_SELF_FD; then
		# the portable build: refused with a line that says why
		status_is 3 "write, refused" multisum -r --per-dir=SUMS top > out 2> err
		check "said why" grep -q "a folder deeper than PATH_MAX: its manifest cannot be named on this system (no /proc/self/fd)" err
		return
	fi
	status_is 0 "write" multisum -r --per-dir=SUMS top > out 2> err
	lacks err "File name too long" "no folder fails"
	(
		cd top || exit 1
		i=0
		while [ $i -lt 24 ]; do cd "$deep_name" || exit 1; i=$((i + 1)); done
		sha256sum -c --quiet SUMS
	) > out 2>&1
	check "the deepest folder's manifest, checked by sha256sum there" [ $? -eq 0 ]
	status_is 0 "check" multisum -c -r --per-dir=SUMS top > out 2> err
	check "the deep file OK" grep -q '/deep: OK$' out
	lacks err "no SUMS" "every folder's manifest found"
}

run writes_one_manifest_per_folder
run a_folder_with_an_unreadable_file_keeps_its_manifest
run check_finds_and_verifies_them_all
run a_lost_manifest_fails
run a_killed_runs_temporary
run a_copied_folder_checks_itself
run deep_tree
run foreign_per_folder_manifests
run names_that_leave_the_folder_are_refused
run usage
finish
