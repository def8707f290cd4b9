#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# shards.sh - shard manifests that know they are shards: their
# bookkeeping, read by the checkers as comments; a missing operand fails
# every shard; --merge refuses a set that is not one run's, whole.
. "$TESTS_SRCDIR/lib.sh"

tree() {
	mkdir -p t/x t/y
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
		echo "$i" > "t/f$i"
		echo "x$i" > "t/x/g$i"
	done
	echo odd > 't/y/new
line'
}

# shards N OPTS...: s1 .. sN of -r OPTS t, and "full", one run's.
shards() {
	_n=$1
	shift
	multisum -r "$@" -o full t
	_k=1
	while [ "$_k" -le "$_n" ]; do
		multisum -r --shard="$_k/$_n" "$@" -o "s$_k" t
		_k=$((_k + 1))
	done
}

test_bookkeeping() {
	tree
	mkdir 'u v'
	echo w > 'u v/w'
	multisum -r --shard=2/3 -a md5,sha256 --exclude='*.tmp' -o s t 'u v' 2> /dev/null
	is "$(sed -n 1p s)" \
	    "#multisum-ledger v1 shard=2/3 algorithms=md5,sha256 walk=r scope=3" \
	    "the header: shard, algorithms, walk options, scope"
	is "$(sed -n 2,4p s | tr '\n' '|')" \
	    "#multisum-scope operand t|#multisum-scope operand u v|#multisum-scope exclude *.tmp|" \
	    "operands and excludes as given"
	mkdir 'a
b'
	echo z > 'a
b/z'
	multisum -r --shard=1/1 -o n 'a
b'
	is "$(sed -n 2p n)" '#multisum-scope operand a\nb' "a newline escaped"
	multisum -r --shard=1/2 -u L t 2> /dev/null
	check "a shard's ledger: stamp and shard" grep -qx \
	    '#multisum-ledger v1 stamp=[0-9]* fields=size,mtime_ns,ctime_ns,ino shard=1/2 algorithms=sha256 walk=r scope=1' L
	multisum -r -o plain t
	check_not "-o without --shard: no bookkeeping" grep -q '^#' plain
}

# The checkers skip the bookkeeping lines, escaped names and all.
test_checkers_skip_it() {
	tree
	multisum -r --shard=1/2 -o gnu t
	multisum -r --shard=2/2 -a md5,sha256 -o bsd t
	check "sha256sum -c --strict" sha256sum -c --strict gnu > /dev/null
	check "cksum -c --strict (BSD lines)" cksum -c --strict bsd > /dev/null
	if have rhash; then
		rhash -c gnu > out 2>&1
		check "rhash -c" grep -q 'Everything OK' out
		check_not "rhash: no line taken for an entry" grep -qi 'multisum' out
	else
		skip_case "no rhash"
	fi
	multisum -r --shard=1/2 -u L t 2> /dev/null
	check "sha256sum -c of a shard's ledger" sha256sum -c --strict L > /dev/null
	check "multisum -c" multisum -c --strict --quiet gnu
}

# A missing or unreadable operand fails every shard as it fails a whole
# run: exit 3, nothing written (it used to be an empty manifest, exit 0).
test_missing_operand_fails_every_shard() {
	tree
	for k in 1 2 3 4; do
		status_is 3 "shard $k of a missing tree" \
		    multisum -r --shard="$k/4" -o "m$k" t/none 2> err
		has_line err "multisum: t/none: No such file or directory" "$k: named"
		check "$k: nothing written" test ! -e "m$k"
		status_is 3 "shard $k: a missing file operand" \
		    multisum --shard="$k/4" -o "m$k" t/f1 t/nofile 2> err
		has_line err "multisum: t/nofile: No such file or directory" "$k: named"
	done
	if can_deny_read; then
		chmod 000 t/x
		for k in 1 2 3 4; do
			status_is 3 "shard $k: an unreadable operand" without_dac \
			    "$MULTISUM" -r --shard="$k/4" -o "m$k" t/x 2> err
		done
		chmod 755 t/x
	else
		skip_case "cannot make a directory unreadable here"
	fi
}

test_merge_whole_set() {
	tree
	shards 4
	status_is 0 "merge" multisum --merge -o all s1 s2 s3 s4 2> err
	same all full "equals one run"
	check "silent" test ! -s err
	status_is 0 "any order" multisum --merge -o all2 s3 s1 s4 s2
	same all2 full "any order, the same"
}

# Each way a set can be wrong is refused, named, and nothing is written.
test_merge_refusals() {
	tree
	shards 4
	multisum -r --shard=3/4 -a md5 -o m3 t
	multisum -r --shard=2/3 -o n2 t
	multisum -r --shard=3/4 -o o3 t t/x
	multisum -r --shard=3/4 --exclude='*9' -o e3 t
	multisum -r --shard=3/4 -L -o l3 t
	refused() {
		_what=$1 _msg=$2
		shift 2
		rm -f out
		status_is 1 "$_what" multisum --merge -o out "$@" 2> err
		check "$_what: says '$_msg'" grep -qF -- "$_msg" err
		check "$_what: nothing written" test ! -e out
	}
	refused "a shard missing" "missing shard: 3/4" s1 s2 s4
	refused "two missing" "missing shards: 2-3/4" s1 s4
	refused "a shard twice" "s1: shard 1/4 given twice (s1 and s1)" s1 s1 s2 s3 s4
	refused "another N" "n2: shard 2/3, but s1 is shard 1/4" s1 s2 n2 s4
	refused "other algorithms" "m3: other algorithms than s1 (md5)" s1 s2 m3 s4
	refused "other operands" "o3: other operands than s1" s1 s2 o3 s4
	refused "other excludes" "e3: other excludes than s1" s1 s2 e3 s4
	refused "other walk options" "l3: other walk options (-r, -L) than s1" s1 s2 l3 s4
	lines() { grep -v '^#' "$1"; }
	lines s3 > p3
	refused "no shard bookkeeping" \
	    "p3: no shard bookkeeping (not written with --shard)" s1 s2 p3 s4
}

# --partial writes what there is, says what is missing, and records the
# shards it holds: merged with the rest later, it is whole.
test_merge_partial() {
	tree
	shards 4
	status_is 0 "partial" multisum --merge --partial -o part s1 s2 s4 2> err
	has_line err "multisum: missing shard: 3/4 (the merged manifest is partial, and says so)" \
	    "names the missing shard"
	is "$(head -n 1 part)" \
	    "#multisum-ledger v1 shard=1-2,4/4 algorithms=sha256 walk=r scope=1" \
	    "records the shards it holds"
	is "$(grep -vc '^#' part)" "$(cat s1 s2 s4 | grep -vc '^#')" "every entry of them"
	status_is 0 "completed later" multisum --merge -o all part s3
	same all full "then whole"
	multisum --merge --partial -o again part s3 2> err
	same again full "--partial of a whole set: whole"
	check "and silent" test ! -s err
	grep -v '^#' s3 > p3
	status_is 0 "a plain manifest, --partial" \
	    multisum --merge --partial -o mixed s1 s2 p3 s4 2> err
	has_line err "multisum: p3: no shard bookkeeping (not written with --shard): merged unchecked" \
	    "said"
	grep -v '^#' mixed > got
	same got full "merged"
}

# Shards kept with -u merge into what -u of the whole tree writes.
test_merge_update_shards() {
	tree
	for k in 1 2 3; do
		multisum -r --shard="$k/3" -u "u$k" t 2> /dev/null
	done
	multisum --merge -o merged u1 u2 u3
	check "a whole ledger's header" grep -qx \
	    '#multisum-ledger v1 stamp=[0-9]* fields=size,mtime_ns,ctime_ns,ino algorithms=sha256 walk=r scope=1' merged
	is "$(grep -c '^#@' merged)" "$(grep -vc '^#' merged)" "every entry's bookkeeping"
	status_is 0 "updated as a whole" multisum -r -u merged t 2> err
	has_line err "25 unchanged (25 rehashed), 0 added, 0 changed, 0 removed" \
	    "nothing lost (racily clean: files seconds old)"
}

# README's recipe, run here with GNU parallel (no ssh), one job bad: the
# tree is missing on its "host".  Every other exit status is 0, and the
# merge refuses the set, naming the missing shard.
test_gnu_parallel_one_bad_job() {
	have parallel || skip_test "GNU parallel is not installed"
	for h in 1 2 3 4; do
		mkdir "host$h"
		(cd "host$h" && tree)
	done
	rm -r host3/t
	(cd host1 && multisum -r -o ../full t)
	parallel --will-cite -j 4 "cd host{} && $MULTISUM -r --shard={}/4 -o ../shard{}.sha256 t" \
	    ::: 1 2 3 4 2> err
	is "$?" 1 "parallel: one job failed"
	has_line err "multisum: t: No such file or directory" "the job said why"
	check "the bad job wrote nothing" test ! -e shard3.sha256
	status_is 1 "the merge refuses" multisum --merge -o tree.sha256 \
	    shard1.sha256 shard2.sha256 shard3.sha256 shard4.sha256 2> err
	has_line err "multisum: shard3.sha256: No such file or directory" \
	    "the missing manifest named"
	has_line err "multisum: missing shard: 3/4 (--partial merges the others)" \
	    "the missing shard named"
	check "nothing written" test ! -e tree.sha256
	# an old shard3 of another run left behind: refused too
	(cd host1 && multisum -r --shard=3/4 -o ../shard3.sha256 t t/x)
	status_is 1 "a stale shard refused" multisum --merge -o tree.sha256 \
	    shard1.sha256 shard2.sha256 shard3.sha256 shard4.sha256 2> err
	check "named" grep -q 'shard3.sha256: other operands than shard1.sha256' err
	(cd host1 && multisum -r --shard=3/4 -o ../shard3.sha256 t)
	status_is 0 "the job rerun" multisum --merge -o tree.sha256 \
	    shard1.sha256 shard2.sha256 shard3.sha256 shard4.sha256
	same tree.sha256 full "then whole"
}

test_usage() {
	mkdir d
	usage_error "--shard with --format=ndjson" -r --shard=1/2 --format=ndjson d
	usage_error "--shard with -z" -r --shard=1/2 -z d
	usage_error "--partial without --merge" --partial d
	usage_error "--checkpoint without --update" --checkpoint=5 d
	usage_error "--checkpoint=x" -u M --checkpoint=x d
}

run bookkeeping
run checkers_skip_it
run missing_operand_fails_every_shard
run merge_whole_set
run merge_refusals
run merge_partial
run merge_update_shards
run gnu_parallel_one_bad_job
run usage
finish
