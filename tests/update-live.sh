#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# update-live.sh - --update of trees that change while they are read, and runs
# that are killed: nothing recorded is lost, nothing partial passes for
# whole, and every summary says what was applied.
. "$TESTS_SRCDIR/lib.sh"

tree() {
	mkdir -p d/sub
	echo one > d/a
	echo two > d/b
	echo three > d/c
	echo four > d/sub/e
	echo five > d/sub/f
}

# age M: pretend M was written an hour from now, so that no entry of it
# is racily clean (files made by a test are seconds old).
age() {
	_s=$(( ($(date +%s) + 3600) * 1000000000 ))
	sed "1s/stamp=[0-9-]*/stamp=$_s/" "$1" > "$1.aged" && mv "$1.aged" "$1"
}

lines() {
	grep -v '^#' "$1"
}

# same_as_fresh M DESC OPERAND...: M's lines are a fresh -r -o run's.
same_as_fresh() {
	_m=$1 _d=$2
	shift 2
	multisum -r -o fresh.out "$@"
	lines "$_m" > got
	same got fresh.out "$_d"
}

# A listed file that is gone counts as removed; the rest is written.
test_listed_file_vanished() {
	tree
	multisum -r -u L d 2> /dev/null
	age L
	printf 'd/a\nd/b\nd/c\n' > list
	rm d/b
	status_is 0 "update" multisum -u L --files-from=list --format=ndjson \
	    > fates 2> err
	has_line err "multisum: d/b: vanished before it was read: removed" "said"
	has_line fates '{"path":"d/b","fate":"removed"}' "fate removed"
	has_line err "2 unchanged, 0 added, 0 changed, 3 removed" "summary"
	lacks L "d/b" "gone from the ledger"
	check "the others written" grep -q ' d/c$' L
}

# A file the walk listed, gone before it was examined: -r -u and -o
# write the rest (N12).  Caught by waiting until multisum reads the big
# file ahead of it (the walk has listed the directory by then).
test_walked_file_vanished() {
	mkdir d
	head -c 67108864 /dev/zero > d/a
	echo bye > d/b
	echo stay > d/c
	for how in u o; do
		case $how in
		u) multisum -r -a sha3-512,whirlpool -u L d 2> /dev/null
		   set -- -u L; out=L; then="removed" ;;
		o) set -- -o O; out=O; then="not listed" ;;
		esac
		"$MULTISUM" -r -j1 -a sha3-512,whirlpool "$@" d > /dev/null 2> err &
		pid=$!
		caught=no
		while kill -0 "$pid" 2> /dev/null; do
			if ls -l "/proc/$pid/fd" 2> /dev/null | grep -q '/d/a$'; then
				rm -f d/b
				caught=yes
				break
			fi
			sleep 0.01
		done
		wait "$pid"
		st=$?
		if [ $caught = no ]; then
			skip_case "the run read d/a before it could be caught"
			continue
		fi
		is "$st" 0 "-$how: exit status"
		has_line err "multisum: d/b: vanished before it was read: $then" \
		    "-$how: said"
		check "-$how: the manifest written" grep -q '(d/c)' "$out"
		lacks "$out" "d/b" "-$how: without the vanished file"
		echo bye > d/b
	done
}

# An unreadable file keeps its entry as it was; the run fails, the rest
# is written.  Read again later, it is carried over: its old entry was
# trusted, and still is.
test_unreadable_file_kept() {
	can_deny_read || skip_test "cannot make a file unreadable here"
	tree
	multisum -r -u L d 2> /dev/null
	age L
	grep -B1 ' d/b$' L > b.before
	chmod 000 d/b
	echo changed > d/c
	status_is 3 "update" without_dac "$MULTISUM" -r -u L --format=ndjson d \
	    > fates 2> err
	has_line err "multisum: d/b: Permission denied" "the cause, named"
	has_line fates '{"path":"d/b","fate":"kept","error":"Permission denied"}' \
	    "fate kept"
	has_line err "3 unchanged, 0 added, 1 changed, 0 removed, 1 kept" "summary"
	grep -B1 ' d/b$' L > b.after
	same b.after b.before "d/b's entry and bookkeeping kept as they were"
	has_line L "$(sha256sum d/c)" "the changed file written"
	chmod 644 d/b
	multisum -r -u L --format=ndjson d > fates 2> err
	has_line fates '{"path":"d/b","fate":"unchanged","rehashed":true}' \
	    "readable again (its ctime changed): read, the same"
	same_as_fresh L "then equal to a fresh run" d
	# An entry that was racily clean when written keeps no "#@" line: the
	# new stamp would make it look trustworthy.
	multisum -r -u R d 2> /dev/null
	chmod 000 d/b
	without_dac "$MULTISUM" -r -u R d 2> /dev/null
	chmod 644 d/b
	grep -B1 ' d/b$' R > b.racy
	is "$(grep -c '^#@' b.racy)" 0 "a racily clean entry kept without bookkeeping"
	check "but kept" grep -q ' d/b$' R
}

# A directory that cannot be read keeps every entry below it.
test_unreadable_directory_kept() {
	can_deny_read || skip_test "cannot make a directory unreadable here"
	tree
	multisum -r -u L d 2> /dev/null
	age L
	lines L | grep ' d/sub/' > sub.before
	chmod 000 d/sub
	status_is 3 "update" without_dac "$MULTISUM" -r -u L d 2> err
	chmod 755 d/sub
	has_line err "multisum: d/sub: Permission denied" "named once"
	has_line err "3 unchanged, 0 added, 0 changed, 0 removed, 2 kept" \
	    "nothing removed"
	lines L | grep ' d/sub/' > sub.after
	same sub.after sub.before "the entries below it kept"
	same_as_fresh L "in walk order" d
}

# A missing operand (an unmounted tree) leaves the ledger untouched and
# no summary claims counts were applied (N9); a shard fails the same way.
test_missing_operand() {
	tree
	multisum -r -u L d 2> /dev/null
	cp L before
	for shard in "" "--shard=1/4" "--shard=2/4" "--shard=3/4" "--shard=4/4"; do
		status_is 3 "update $shard" multisum -r $shard -u L d missing 2> err
		has_line err "multisum: missing: No such file or directory" \
		    "$shard: named"
		has_line err "multisum: L: not updated" "$shard: not updated"
		lacks err "unchanged," "$shard: no summary"
		same L before "$shard: the ledger untouched"
	done
}

# A ledger that cannot be written (a full disk; here a file size limit,
# its signal ignored so that write fails with EFBIG): the old one stands,
# and no summary claims what was not applied.
test_write_error_not_updated() {
	tree
	multisum -r -u L d 2> /dev/null
	cp L before
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		echo "$i" > "d/new$i"
	done
	rm d/a
	limit=$(( $(wc -c < L) / 512 + 1 ))
	status_is 3 "the ledger outgrows the limit" \
	    sh -c 'trap "" XFSZ; ulimit -f "$1"; shift; "$@"' sh "$limit" \
	    "$MULTISUM" -r -u L d 2> err
	check "the write error is said" grep -q "multisum: L: write error: " err
	has_line err "multisum: L: not updated" "not updated"
	lacks err "added," "no summary"
	same L before "the ledger untouched"
}

# What a run killed by SIGKILL leaves: its temporary beside the ledger
# (".L.multisum-XXXXXX", the ledger as far as it got).  With the ledger
# inside its tree the next run would record it as a file of the tree; it
# removes it instead, and says so.  A temporary a live run holds (its
# lock), one of another name, a user's file of our name that is no
# manifest, one with a second link: all let be.
test_killed_run_temporary() {
	tree
	multisum -r -u d/L d 2> /dev/null
	mkfifo p
	# a real kill: the run blocks reading the FIFO, its temporary open
	"$MULTISUM" -r -u d/L d p 2> /dev/null &
	run=$!
	wait_for "the run made its temporary" sh -c 'ls -a d | grep -q "^\.L\.multisum-"'
	kill -KILL "$run"
	wait "$run" 2> /dev/null
	left=$(ls -a d | grep '^\.L\.multisum-')
	check "the killed run left its temporary" test -n "$left"
	cp d/L d/.L.multisum-Ab3dE9
	cp d/L d/.L.Ab3dE9
	echo "my own notes" > d/.L.multisum-notes
	cp d/L d/.L.multisum-Linked
	ln d/.L.multisum-Linked linked
	status_is 0 "the next run" multisum -r -u d/L d 2> err
	if ! built_with HAVE_FSTATFS; then
		# the portable build: a lock may be unseen, nothing removed
		has_line err "multisum: d/$left: left by a run that was killed or runs on another machine: not removed (this system cannot tell a local file system)" \
		    "the killed run's temporary kept, said why"
		check "kept" test -e "d/$left"
		return
	fi
	has_line err "multisum: d/$left: removed: the temporary file of a run that was killed" \
	    "the killed run's temporary removed, said"
	has_line err "multisum: d/.L.multisum-Ab3dE9: removed: the temporary file of a run that was killed" \
	    "a partial one too"
	check_not "gone" test -e "d/$left"
	check_not "both" test -e d/.L.multisum-Ab3dE9
	lacks d/L "$left" "never recorded"
	check "a file of another name is kept" test -e d/.L.Ab3dE9
	check "a user's file of our name that is no manifest is kept" \
	    test -e d/.L.multisum-notes
	check "one with another link is kept" test -e d/.L.multisum-Linked
	if have flock; then
		cp d/L d/.L.multisum-Live01
		# the holder is the sleep itself, so that the kill ends it
		(exec 9< d/.L.multisum-Live01 && flock -x 9 && touch locked &&
		    exec sleep 600) > /dev/null 2>&1 &
		holder=$!
		wait_for "the holder took its lock" test -e locked
		multisum -r -u d/L d 2> err
		check "a live run's temporary is let be" test -e d/.L.multisum-Live01
		lacks err "Live01" "and not said"
		kill "$holder"
		wait "$holder" 2> /dev/null
	else
		skip_case "flock (util-linux) absent"
	fi
}

# A stray line: said with its number, left out, the rest kept (N11).  A
# file with no checksum line at all is not taken for a ledger.
test_stray_line() {
	tree
	multisum -r -u L d 2> /dev/null
	age L
	echo 'hand-edited note' >> L
	sed '4a\
garbage in the middle' L > L2 && mv L2 L
	status_is 0 "update" multisum -r -u L d 2> err
	has_line err "multisum: L: 2 improperly formatted lines (lines 5, 14): not kept" \
	    "named by number"
	has_line err "5 unchanged, 0 added, 0 changed, 0 removed" "nothing lost"
	lacks L "hand-edited" "left out"
	same_as_fresh L "equal to a fresh run" d
	printf 'Dear diary,\nnothing happened.\n' > notes
	cp notes notes.before
	status_is 1 "not a ledger" multisum -r -u notes d 2> err
	has_line err "multisum: notes: holds no checksum line: not replaced" "said"
	same notes notes.before "untouched"
}

# Files re-read only because their times were too recent to trust are
# unchanged, and say they were read (N3).
test_rehashed_is_unchanged() {
	tree
	multisum -r -u L d 2> /dev/null
	status_is 0 "second run at once" multisum -r -u L --format=ndjson d \
	    > fates 2> err
	has_line err "5 unchanged (5 rehashed), 0 added, 0 changed, 0 removed" \
	    "summary"
	has_line fates '{"path":"d/a","fate":"unchanged","rehashed":true}' "ndjson"
	age L
	multisum -r -u L --format=ndjson d > fates 2> err
	has_line err "5 unchanged, 0 added, 0 changed, 0 removed" "trusted: not read"
	has_line fates '{"path":"d/a","fate":"unchanged"}' "ndjson: not read"
}

# A symbolic link loop under -L is a warning about it (N9).
test_link_loop() {
	tree
	ln -s loop1 d/loop2
	ln -s loop2 d/loop1
	ln -s .. d/sub/up
	status_is 0 "update -L" multisum -r -L -u L d 2> err
	has_line err "multisum: d/loop1: symbolic link loop, not followed" "named"
	has_line err "multisum: d/sub/up: symbolic link loop, not followed" \
	    "a link to an ancestor too"
	has_line err "0 unchanged, 5 added, 0 changed, 0 removed" "summary"
	check "written" test -s L
}

# A ledger of another shard would lose that shard's entries: refused.
test_other_shard_refused() {
	tree
	multisum -r --shard=1/2 -u L d 2> /dev/null
	cp L before
	status_is 1 "shard 2 on shard 1's ledger" multisum -r --shard=2/2 -u L d 2> err
	has_line err "multisum: L: the ledger of shard 1/2, this run is shard 2/2: not updated" \
	    "said"
	same L before "untouched"
	multisum -r -u W d 2> /dev/null
	status_is 1 "a shard on a whole ledger" multisum -r --shard=1/2 -u W d 2> err
	check "said" grep -q 'W: the ledger of a whole tree, this run is shard 1/2' err
	status_is 0 "the whole tree on a shard's ledger" multisum -r -u L d 2> err
	same_as_fresh L "becomes the whole's" d
}

# killed_after_checkpoint LEDGER ARG...: multisum -r -u LEDGER ARG...
# --checkpoint=1 reads its operands from a FIFO: d1, then, once the
# interval has passed, d2; it is killed with SIGKILL as soon as it has
# written its first checkpoint (so the kill lands after it every time).
killed_after_checkpoint() {
	_l=$1
	shift
	mkfifo list
	"$MULTISUM" -r -u "$_l" "$@" --checkpoint=1 --debug --files-from=list \
	    2> err &
	_pid=$!
	exec 4> list
	echo d1 >&4
	sleep 1.2	# the interval has passed: the next result checkpoints
	echo d2 >&4
	wait_for "a checkpoint" grep -q "$_l: checkpoint 1 written" err
	{ kill -9 "$_pid"; wait "$_pid"; } 2> /dev/null
	exec 4>&-
}

# Killed after a checkpoint: the ledger then holds what was done and the
# old entries not reached; the next run reads only the rest and ends as
# a fresh run would.  Operands come from a FIFO, so that the kill lands
# between two of them every time; the clock matters only in that the
# interval (1 s) must have passed, which waiting for it ensures.
test_checkpoint_resume() {
	mkdir d1 d2 d3
	for i in 1 2 3 4 5 6; do
		echo "one $i" > "d1/f$i"
		echo "two $i" > "d2/f$i"
		echo "three $i" > "d3/f$i"
	done
	multisum -r -u L d3 2> /dev/null
	age L
	# a digest only the old ledger knows: survives iff carried unread
	fake=0000000000000000000000000000000000000000000000000000000000000000
	sed "s/^[0-9a-f]*  d3\/f6\$/$fake  d3\/f6/" L > L2 && mv L2 L
	sleep 3		# the files older than the run's stamp by its 2 s margin
	cp L before
	killed_after_checkpoint L
	# what the engine had handed back by then: some of d1, maybe of d2
	done=$(lines L | grep -c ' d[12]/')
	check "the checkpoint holds what was done" test "$done" -ge 1
	has_line L "$fake  d3/f6" "and the old entries not reached"
	is "$(grep -c '^#@' L)" "$((done + 6))" "each with its bookkeeping"
	check "a ledger still" grep -q '^#multisum-ledger v1 stamp=' L
	is "$(tail -n 1 L)" "#multisum-checkpoint unfinished" \
	    "its last line says the run had not finished"
	printf 'd1\nd2\nd3\n' > list2
	status_is 0 "resumed" multisum -r -u L --files-from=list2 --format=ndjson \
	    > fates 2> err
	is "$(grep -c '"added"' fates)" "$((12 - done))" \
	    "only what the checkpoint had not recorded is read"
	is "$(grep -c '"rehashed"\|"changed"\|"removed"' fates)" 0 \
	    "nothing recorded is read again"
	has_line L "$fake  d3/f6" "d3 carried over unread"
	grep -v 'd3/f6' L | grep -v '^#' > got
	multisum -r -o fresh.out d1 d2 d3
	grep -v 'd3/f6' fresh.out > want
	same got want "ends as a fresh run"
	lacks L "#multisum-checkpoint" "the finished ledger is no checkpoint"
}

# A shard's run killed after a checkpoint left a manifest of what it had
# done: --merge takes it for no whole shard (the files it had not reached
# would be missing without a word), --partial merges it as a missing
# shard, and once its --update has finished the set merges to one run's.
test_checkpoint_is_no_whole_shard() {
	mkdir d1 d2
	for i in 1 2 3 4 5 6 7 8; do
		echo "one $i" > "d1/f$i"
		echo "two $i" > "d2/f$i"
	done
	killed_after_checkpoint S1 --shard=1/2
	printf 'd1\nd2\n' > list2
	multisum -r --shard=2/2 -u S2 --files-from=list2 2> /dev/null
	status_is 1 "--merge of a checkpoint" multisum --merge -o M S1 S2 2> err
	has_line err "multisum: S1: a checkpoint of shard 1/2 whose run did not finish (its --update, run again, finishes it): not a whole shard" \
	    "said"
	check "nothing written" test ! -e M
	status_is 0 "--merge --partial" multisum --merge --partial -o M S1 S2 \
	    2> err
	has_line err "multisum: missing shard: 1/2 (the merged manifest is partial, and says so)" \
	    "its shard counted missing"
	check "the result says it is partial" grep -q '^#multisum-ledger.* shard=2/2' M
	status_is 0 "the shard's run finished" multisum -r --shard=1/2 -u S1 \
	    --files-from=list2 2> /dev/null
	status_is 0 "then the set merges" multisum --merge -o M S1 S2
	same_as_fresh M "to one run's manifest" d1 d2
}

# A new ledger keeps a new file's mode through every checkpoint: the
# second one made it 0000 (R1), and after a kill a user could no longer
# resume, -c or --audit it.
test_checkpoint_keeps_mode() {
	mkdir d1 d2 d3 d4
	for i in 1 2 3 4 5 6; do
		echo "one $i" > "d1/f$i"
		echo "two $i" > "d2/f$i"
		echo "three $i" > "d3/f$i"
		echo "four $i" > "d4/f$i"
	done
	: > probe
	want=$(stat -c %a probe)
	mkfifo list
	"$MULTISUM" -r -u L --checkpoint=1 --debug --files-from=list 2> err &
	pid=$!
	exec 4> list
	echo d1 >&4
	sleep 1.2
	echo d2 >&4
	wait_for "a checkpoint" grep -q "L: checkpoint 1 written" err
	sleep 1.2
	echo d3 >&4
	# the engine may hold d3's results until it is given more
	sleep 0.5
	echo d4 >&4
	wait_for "a second checkpoint" grep -q "L: checkpoint 2 written" err
	is "$(stat -c %a L)" "$want" "the second checkpoint: a new file's mode"
	{ kill -9 "$pid"; wait "$pid"; } 2> /dev/null
	exec 4>&-
	is "$(stat -c %a L)" "$want" "after the kill too"
	if [ "$(id -u)" = 0 ] && have setpriv; then
		chown -R 65534 .
		printf 'd1\nd2\nd3\nd4\n' > list2
		status_is 0 "another user resumes it" setpriv --reuid=65534 \
		    --regid=65534 --clear-groups "$MULTISUM" -r -u L \
		    --files-from=list2
	else
		skip_case "as another user: needs root and setpriv"
	fi
}

# --checkpoint=0: only the end writes the ledger (and =1, in the same
# run, does checkpoint: the test can tell).
test_checkpoint_off() {
	mkdir d1 d2
	echo a > d1/a
	echo b > d2/b
	for secs in 0 1; do
		rm -f list
		mkfifo list
		"$MULTISUM" -r -u "L$secs" --checkpoint=$secs --debug \
		    --files-from=list 2> "err$secs" &
		pid=$!
		exec 4> list
		echo d1 >&4
		sleep 1.2
		echo d2 >&4
		exec 4>&-
		wait "$pid"
		same_as_fresh "L$secs" "--checkpoint=$secs: the ledger written" d1 d2
	done
	lacks err0 "checkpoint" "=0: none written"
	has_line err1 "multisum: L1: checkpoint 1 written" "=1: one written"
}

run listed_file_vanished
run walked_file_vanished
run unreadable_file_kept
run unreadable_directory_kept
run missing_operand
run write_error_not_updated
run killed_run_temporary
run stray_line
run rehashed_is_unchanged
run link_loop
run other_shard_refused
run checkpoint_resume
run checkpoint_is_no_whole_shard
run checkpoint_off
run checkpoint_keeps_mode
finish
