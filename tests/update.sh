#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# update.sh - --update, --audit, --shard and --merge: keeping a tree's
# manifest over time, scripted scenario by scenario.
. "$TESTS_SRCDIR/lib.sh"

# A small tree: three files, one in a subdirectory.
tree() {
	mkdir -p d/sub
	echo one > d/a
	echo two > d/b
	echo three > d/sub/c
}

# age M: pretend M was written an hour from now, so that no entry of it
# is racily clean (files made by a test are seconds old).
age() {
	_s=$(( ($(date +%s) + 3600) * 1000000000 ))
	sed "1s/stamp=[0-9-]*/stamp=$_s/" "$1" > "$1.aged" && mv "$1.aged" "$1"
}

# fresh DIR...: what one run of -r -o writes, for comparison.
fresh() {
	multisum -r -o fresh.out "$@" && cat fresh.out
}

# gpg_record FILE: gpg --print-md SHA256's record of FILE, over two lines.
gpg_record() {
	sha256sum "$1" | awk -v n="$1" '{
		h = toupper($1); r = n ":"
		for (i = 1; i <= 64; i += 8) {
			if (i == 33) { print r; r = "       " }
			r = r " " substr(h, i, 8)
		}
		print r
	}'
}

# lines M: the manifest without its bookkeeping.
lines() {
	grep -v '^#' "$1"
}

test_first_run_creates() {
	tree
	status_is 0 "first update" multisum -r -u M d 2> err
	has_line err "0 unchanged, 3 added, 0 changed, 0 removed" "summary"
	fresh d > want
	lines M > got
	same got want "equals a fresh -r -o run"
	check "header" grep -qx '#multisum-ledger v1 stamp=[0-9]* fields=size,mtime_ns,ctime_ns,ino algorithms=sha256 walk=r scope=1' M
	is "$(sed -n 2p M)" "#multisum-scope operand d" "the operand, as given"
	is "$(grep -c '^#@ [0-9]* [0-9]* [0-9]* [0-9]*$' M)" 3 "one #@ line per entry"
	check "sha256sum -c reads it" sha256sum -c --strict M > /dev/null
	if have rhash; then
		check "rhash -c reads it" rhash -c M > /dev/null
	else
		skip_case "no rhash"
	fi
	multisum -r -a md5,sha256 -u M2 d 2> /dev/null
	check "cksum -c reads BSD lines" cksum -c --strict M2 > /dev/null
}

test_carries_unread() {
	tree
	multisum -r -u M d 2> /dev/null
	age M
	# A digest only the manifest knows: kept iff the file is not read.
	fake=0000000000000000000000000000000000000000000000000000000000000000
	sed "s/^[0-9a-f]*  d\/b\$/$fake  d\/b/" M > M2 && mv M2 M
	status_is 0 "update" multisum -r -u M d 2> err
	has_line err "3 unchanged, 0 added, 0 changed, 0 removed" "all unchanged"
	has_line M "$fake  d/b" "d/b carried over without reading it"
}

test_edit_add_delete_rename() {
	tree
	multisum -r -u M d 2> /dev/null
	age M
	echo "one, longer" > d/a
	echo new > d/n
	rm d/b
	mv d/sub/c d/sub/c2
	status_is 0 "update" multisum -r -u M --format=ndjson d > fates 2> err
	has_line err "0 unchanged, 2 added, 1 changed, 2 removed" "summary"
	has_line fates '{"path":"d/a","fate":"changed"}' "edit"
	has_line fates '{"path":"d/n","fate":"added"}' "add"
	has_line fates '{"path":"d/b","fate":"removed"}' "delete"
	has_line fates '{"path":"d/sub/c2","fate":"added"}' "rename: new name"
	has_line fates '{"path":"d/sub/c","fate":"removed"}' "rename: old name"
	fresh d > want
	lines M > got
	same got want "equals a fresh run"
	multisum -r -u M --quiet d > out 2> err
	check "--quiet: no summary" test ! -s err
	check "--quiet: nothing on stdout" test ! -s out
}

# A write in the tick in which the file was hashed leaves its size and
# times as recorded: simulated by recording the stat after the write.
test_racy_same_tick() {
	echo aaaa > f
	multisum -u M f 2> /dev/null
	echo bbbb > f
	st=$(stat -c '%s %.9Y %.9Z %i' f | tr -d .)
	sed "s/^#@ .*/#@ $st/" M > M.racy
	cp M.racy M
	status_is 0 "update" multisum -u M f 2> err
	has_line err "0 unchanged, 0 added, 1 changed, 0 removed" "racy entry re-hashed"
	has_line M "$(sha256sum f)" "new digest"
	# The same manifest stamped long after the write is trusted: the
	# stamp, nothing else, made the difference.
	cp M.racy M
	age M
	multisum -u M f 2> err
	has_line err "1 unchanged, 0 added, 0 changed, 0 removed" "old entry trusted"
}

# Content changed, mtime restored: the ctime gives it away.  Same size
# and time is what rot looks like, so the new content is recorded only
# when --accept-corrupt says so (test_update_keeps_corrupt).
test_mtime_restored() {
	tree
	multisum -r -u M d 2> /dev/null
	age M
	mt=$(stat -c %y d/b)
	echo TWO > d/b
	touch -d "$mt" d/b
	multisum -r -u M --accept-corrupt d 2> err
	has_line err "2 unchanged, 0 added, 1 changed, 0 removed" "re-hashed"
	has_line M "$(sha256sum d/b)" "new digest"
}

# One changed file ahead of thousands of unchanged ones: more than the
# survey queues (4096), so the engine is restarted on the way.
test_long_queue() {
	mkdir d
	seq -w 1 5000 | sed 's|^|d/f|' | xargs touch
	multisum -r -u M d 2> /dev/null
	age M
	echo changed > d/f0001
	echo changed > d/f4999
	for j in 1 2; do
		cp M M$j
		multisum -j $j -r -u M$j d 2> err
		has_line err "4998 unchanged, 0 added, 2 changed, 0 removed" "-j $j summary"
		lines M$j > got
		fresh d > want
		same got want "-j $j equals a fresh run"
	done
}

test_odd_names() {
	mkdir d
	echo x > "d/new
line"
	echo y > 'd/back\slash'
	echo z > 'd/sp ace'
	multisum -r -a sha256 -u M d 2> /dev/null
	fresh d > want
	lines M > got
	same got want "escaped as a fresh run"
	check "sha256sum -c reads it" sha256sum -c --strict M > /dev/null
	age M
	cp M before
	multisum -r -u M d 2> err
	has_line err "3 unchanged, 0 added, 0 changed, 0 removed" "found again"
	same M before "nothing changed: the manifest is left as it was"
	echo w > d/w
	multisum -r -u M d 2> /dev/null
	check "something changed: rewritten" grep -q 'd/w$' M
}

# Other algorithms than the manifest's: the old lines are dropped, with
# a word, and every file is hashed with the new ones.
test_other_algorithms() {
	tree
	multisum -r -u M d 2> /dev/null
	age M
	multisum -r -a md5,sha256 -u M d 2> err
	has_line err "3 unchanged (3 rehashed), 0 added, 0 changed, 0 removed" \
	    "all re-hashed, the content the same"
	multisum -r -a md5,sha256 -o want d
	lines M > got
	same got want "BSD lines of both algorithms"
	age M
	multisum -r -a sha256 -u M d 2> err
	check "says lines were dropped" grep -q 'M: 3 lines of algorithms not selected dropped' err
	age M
	multisum -r -u M d 2> err
	has_line err "3 unchanged, 0 added, 0 changed, 0 removed" "without -a: the manifest's"
}

# No bookkeeping: an audit cannot tell corrupt from modified, and says so.
test_audit_foreign_manifest() {
	tree
	sha256sum d/a d/b d/sub/c > M
	mt=$(stat -c %y d/b)
	echo TWO > d/b
	touch -d "$mt" d/b
	status_is 1 "audit" multisum -r --audit=M d > out 2> err
	has_line out "modified d/b" "reported modified"
	check "says why" grep -q 'M: no multisum bookkeeping' err
	chmod 000 d/a
	if [ -r d/a ]; then
		skip_case "running as root: cannot make a file unreadable"
	else
		status_is 1 "unreadable file" multisum -r --audit=M d > out 2> err
		check "names it" grep -q 'd/a: Permission denied' err
	fi
}

# A manifest of records over several lines (gpg --print-md's) among
# sha256sum's lines: the line that ends a record, and a record the end
# closes, are entries like any other (the ledger reader lost both).
test_records_among_lines() {
	tree
	{
		gpg_record d/b
		sha256sum d/a
		gpg_record d/sub/c
	} > M
	{ sha256sum d/sub/c; gpg_record d/a; } > N
	check "audit: every file is there" multisum -r --audit=M d > out 2>&1
	has_line out "3 unchanged, 0 modified, 0 corrupt, 0 moved, 0 new, 0 missing" \
	    "none new, none missing"
	check "the line after a record and a record at the end, too" \
	    multisum -r --audit=N d/a d/sub > out 2>&1
	has_line out "2 unchanged, 0 modified, 0 corrupt, 0 moved, 0 new, 0 missing" \
	    "both unchanged"
	mt=$(stat -c %y d/a)
	echo ONE > d/a
	touch -d "$mt" d/a
	status_is 1 "a changed file after a record" multisum -r --audit=M d > out
	has_line out "modified d/a" "is modified"
	check "update keeps what it did not read again" \
	    multisum -r -a sha256 -u M d 2> /dev/null
	check "and has every file" test "$(lines M | wc -l)" = 3
}

# Bookkeeping that cannot be read vouches for nothing: those files are
# hashed again, the others are not, and nothing breaks.
test_damaged_bookkeeping() {
	tree
	multisum -r -u M d 2> /dev/null
	age M
	awk 'NR == 3 { print "#@ 4 x 1 2"; next } { print }' M > M2 && mv M2 M
	multisum -r -u M d 2> err
	has_line err "3 unchanged (1 rehashed), 0 added, 0 changed, 0 removed" \
	    "one bad #@ line"
	age M
	sed '1s/v1/v2/' M > M2 && mv M2 M
	multisum -r -u M d 2> err
	has_line err "3 unchanged (3 rehashed), 0 added, 0 changed, 0 removed" \
	    "unknown version"
	check "says so" grep -q 'M: no multisum bookkeeping' err
	fresh d > want
	lines M > got
	same got want "still a fresh run's lines"
}

test_foreign_manifest() {
	tree
	(cd . && sha256sum d/a d/b d/sub/c) > M
	multisum -r -u M d 2> err
	check "says so" grep -q 'M: no multisum bookkeeping.*hashed again' err
	has_line err "3 unchanged (3 rehashed), 0 added, 0 changed, 0 removed" \
	    "all read again"
	fresh d > want
	lines M > got
	same got want "rewritten as a fresh run"
}

# A manifest kept inside the tree it describes does not list itself.
test_manifest_inside_tree() {
	tree
	multisum -r -u d/SUMS d 2> err
	has_line err "0 unchanged, 3 added, 0 changed, 0 removed" "first run"
	lacks d/SUMS "SUMS" "no entry for the manifest or its temporary"
	age d/SUMS
	multisum -r -u d/SUMS d 2> err
	has_line err "3 unchanged, 0 added, 0 changed, 0 removed" "second run"
	status_is 0 "audit" multisum -r --audit=d/SUMS d > out 2> /dev/null
}

# Killed in the middle: multisum waits for more operands from a FIFO
# (opened after the new manifest's temporary), so the kill lands
# mid-update every time.
test_killed_update() {
	tree
	multisum -r -u M d 2> /dev/null
	cp M before
	echo new > d/new
	mkfifo list
	# the binary itself, not the shell function: $! must be multisum
	"$MULTISUM" -r -u M --files-from=list 2> /dev/null &
	pid=$!
	exec 4> list		# returns once multisum reads the list
	echo d >&4
	check "the update was under way" ls .M.* > /dev/null
	{ kill -9 "$pid"; wait "$pid"; } 2> /dev/null
	exec 4>&-
	same M before "old manifest intact"
}

test_audit_classes() {
	tree
	echo dup > d/x1
	echo dup > d/x2
	echo same > d/y
	multisum -r -u M d 2> /dev/null
	age M
	echo "one, longer" > d/a			# modified
	mt=$(stat -c %y d/b)
	echo TWO > d/b					# corrupt
	touch -d "$mt" d/b
	mv d/sub/c d/sub/moved				# moved
	echo fresh > d/n				# new
	rm d/x1 d/x2					# duplicates: one move
	echo dup > d/x3
	cp d/y d/y2					# a copy is new
	status_is 1 "audit" multisum -r --audit=M d > out 2> err
	has_line out "modified d/a" "modified"
	has_line out "corrupt d/b" "corrupt"
	has_line out "moved d/sub/c -> d/sub/moved" "moved"
	has_line out "new d/n" "new"
	has_line out "moved d/x1 -> d/x3" "a duplicate moved once"
	has_line out "missing d/x2" "the other duplicate missing"
	has_line out "new d/y2" "a copy of a present file is new"
	is "$(wc -l < out)" 7 "one line per changed path"
	has_line err "1 unchanged, 1 modified, 1 corrupt, 2 moved, 2 new, 1 missing" "summary"
	multisum -r --audit=M --format=ndjson d > nd 2> /dev/null
	has_line nd '{"path":"d/sub/moved","class":"moved","from":"d/sub/c"}' "ndjson"
	multisum -r -u M --accept-corrupt d 2> /dev/null
	status_is 0 "audit of an unchanged tree" multisum -r --audit=M d > out 2> err
	check "prints nothing" test ! -s out
	has_line err "7 unchanged, 0 modified, 0 corrupt, 0 moved, 0 new, 0 missing" "summary"
}

# Bit rot (other content, same size and modification time) is never
# absorbed by --update: said, the recorded digest kept, exit 1, until
# --accept-corrupt records the new content.  A racily clean entry cannot
# tell rot from a write in the same tick: changed, for both.
test_update_keeps_corrupt() {
	tree
	multisum -r -u M d 2> /dev/null
	age M
	good=$(grep '  d/b$' M)
	mt=$(stat -c %y d/b)
	echo TWO > d/b
	touch -d "$mt" d/b
	status_is 1 "update of a corrupt file" multisum -r -u M d > out 2> err
	check "said, naming it" grep -q "^multisum: d/b: corrupt: other content, same size and modification time; sha256 recorded ${good%%  *}, read $(sha256sum d/b | cut -c1-64); its entry is kept\$" err
	has_line err "2 unchanged, 0 added, 0 changed, 0 removed, 1 corrupt (entry kept)" "summary"
	has_line err "multisum: M: 1 corrupt file: its entry kept (--accept-corrupt records the new content)" "what to do"
	has_line M "$good" "the good digest kept"
	age M
	status_is 1 "again" multisum -r -u M --format=ndjson d > out 2> err
	has_line out '{"path":"d/b","fate":"corrupt"}' "NDJSON fate"
	age M
	status_is 1 "the audit still finds it" multisum -r --audit=M d > out 2> err
	has_line out "corrupt d/b" "corrupt"
	age M
	status_is 0 "--accept-corrupt" multisum -r -u M --accept-corrupt d > out 2> err
	check "said" grep -q "d/b: corrupt: .*; the new content is recorded (--accept-corrupt)\$" err
	has_line err "2 unchanged, 0 added, 1 changed, 0 removed" "summary"
	has_line M "$(sha256sum d/b)" "the new digest recorded"
	status_is 0 "audit" multisum -r --audit=M d > out 2> err
	usage_error "--accept-corrupt without --update" --accept-corrupt d
	# racily clean: the entry cannot tell, so an edit
	rm M
	multisum -r -u M d 2> /dev/null
	mt=$(stat -c %y d/a)
	echo ONE > d/a
	touch -d "$mt" d/a
	status_is 1 "the audit of a racily clean entry" multisum -r --audit=M d > out 2> err
	has_line out "modified d/a" "modified, not corrupt"
	status_is 0 "its update" multisum -r -u M d > out 2> err
	check "changed, not corrupt" grep -q "^2 unchanged (2 rehashed), 0 added, 1 changed, 0 removed\$" err
}

# A tree deeper than PATH_MAX: --update and --audit reach its files as
# -r does (its folders opened from their parents), and list them.
test_deep_tree() {
	deep_tree top
	status_is 0 "update" multisum -r -u M top 2> err
	has_line err "0 unchanged, 1 added, 0 changed, 0 removed" "the deep file added"
	lacks err "File name too long" "no error"
	is "$(grep -c '^#@ 5 ' M)" 1 "with its bookkeeping"
	multisum -r top > want
	is "$(lines M)" "$(cat want)" "the line -r writes"
	status_is 0 "audit" multisum -r --audit=M top 2> err
	has_line err "1 unchanged, 0 modified, 0 corrupt, 0 moved, 0 new, 0 missing" "audited"
}

test_report_write_error() {
	[ -w /dev/full ] || skip_test "no /dev/full"
	tree
	multisum -r -u M d 2> /dev/null
	echo x > d/x
	status_is 1 "audit to a full disk" multisum -r --audit=M d > /dev/full 2> err
	check "says so" grep -q 'write error' err
	status_is 3 "update fates to a full disk" \
	    multisum -r -u M --format=ndjson d > /dev/full 2> err
	check "says so" grep -q 'write error' err
}

test_audit_quotes() {
	mkdir d
	echo a > 'd/a b'
	multisum -r -u M d 2> /dev/null
	echo x > 'd/a b'
	multisum -r --audit=M d > out 2> /dev/null
	has_line out "modified 'd/a b'" "coreutils-style quoting"
}

# A tree whose names exercise the order (x/ vs x.z) and the escaping.
big_tree() {
	mkdir -p t/x/y t/x.z t/b
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		echo "$i" > "t/f$i"
		echo "$i$i" > "t/x/y/g$i"
		echo "$i" > "t/x.z/h $i"
	done
	printf a > 't/b/back\slash'
	printf b > 't/b/new
line'
}

test_shards_merge() {
	big_tree
	multisum -r -a md5,sha256 -o full t
	for n in 1 2 3 7; do
		set --
		k=1
		while [ "$k" -le "$n" ]; do
			multisum -r -a md5,sha256 --shard="$k/$n" -o "s$k" t
			set -- "$@" "s$k"
			k=$((k + 1))
		done
		status_is 0 "merge of $n" multisum --merge -o merged "$@"
		same merged full "$n shards merged equal one run"
		is "$(cat "$@" | grep -vc '^#')" "$(wc -l < full)" \
		    "$n shards partition the tree"
	done
	# conflicting entries are refused, identical ones are not (manifests
	# without shard bookkeeping: --partial)
	multisum -r -a md5,sha256 --shard=1/2 -o s1 t
	lines s1 > p1
	sed '1s/= \(.\)/= \1\1/; 1s/= \(.*\).$/= \1/' p1 > p1.bad
	status_is 1 "conflict refused" multisum --merge --partial -o bad p1 p1.bad 2> err
	check "names the entry" grep -q 'conflicting entries in p1 and p1.bad' err
	check "writes nothing" test ! -e bad
	multisum --merge --partial -o twice p1 p1 2> /dev/null
	same twice p1 "a repeated identical manifest merges with --partial"
}

test_shards_update_audit_check() {
	big_tree
	multisum -r -o full t
	for k in 1 2 3; do
		multisum -r --shard="$k/3" -u "u$k" t 2> /dev/null
	done
	multisum --merge -o merged u1 u2 u3
	lines merged > got
	same got full "updated shards merged equal one run"
	age merged
	total=0
	for k in 1 2 3; do
		multisum -r --shard="$k/3" --audit=merged t > out 2> err
		check "audit of shard $k: nothing missing" test ! -s out
		total=$((total + $(multisum -c --shard="$k/3" full | grep -c ': OK$')))
	done
	is "$total" "$(wc -l < full)" "-c shards cover the manifest once"
	# adding files moves no other file between shards
	multisum -r --shard=2/3 -o before t
	echo more > t/more1
	echo more > t/x/more2
	multisum -r --shard=2/3 -o after t
	grep -v more after > after.old
	same after.old before "shard 2 kept its files"
}

# The split is the documented one: FNV-1a 64 of the operand-relative
# path, modulo N, plus one.
test_shard_hash_documented() {
	have python3 || skip_test "no python3"
	big_tree
	for k in 1 2 3; do
		multisum -r --shard="$k/3" t | grep -v '^#' | sed 's/^[^ ]*  //' > "got$k"
	done
	multisum -r t | sed 's/^[^ ]*  //' | python3 -c '
import sys
for line in sys.stdin.buffer:
    name = line.rstrip(b"\n")
    key = name[2:]          # below the operand "t/"
    h = 0xcbf29ce484222325
    for c in key.replace(b"\\n", b"\n").replace(b"\\\\", b"\\"):
        h = ((h ^ c) * 0x100000001b3) % 2**64
    open("want%d" % (h % 3 + 1), "ab").write(name + b"\n")
'
	for k in 1 2 3; do
		same "got$k" "want$k" "shard $k is FNV-1a's"
	done
}

test_gnu_parallel_recipe() {
	have parallel || skip_test "GNU parallel is not installed"
	big_tree
	multisum -r -o full t
	parallel --will-cite -j 4 "$MULTISUM" -r --shard={}/4 -o shard{}.sha256 t \
	    ::: 1 2 3 4
	multisum --merge -o all.sha256 shard1.sha256 shard2.sha256 \
	    shard3.sha256 shard4.sha256
	same all.sha256 full "4 shards by GNU parallel merged equal one run"
}

# The recipe's --return copies with rsync, which a host may lack: the
# text that introduces it, in README and the man page, says so.
test_parallel_recipe_names_rsync() {
	check "README" sh -c "grep -B4 '^    parallel --sshlogin' '$TESTS_SRCDIR/../README.md' | grep -q 'rsync'"
	check "man page" sh -c "grep -B5 '^parallel .-.-sshlogin' '$TESTS_SRCDIR/../man/multisum.1' | grep -q 'rsync'"
}

test_usage() {
	mkdir d
	usage_error "--update with -o" -r -u M -o x d
	usage_error "--update with -z" -r -u M -z d
	usage_error "--audit with --format=gnu" -r --audit=M --format=gnu d
	usage_error "--shard=0/3" -r --shard=0/3 d
	usage_error "--shard=4/3" -r --shard=4/3 d
	usage_error "--shard=x" -r --shard=x d
	usage_error "--merge without manifests" --merge
	usage_error "--shard with --archive" --shard=1/2 --archive=a.tar
	usage_error "--update with --check" -u M -c d
}

run first_run_creates
run carries_unread
run edit_add_delete_rename
run racy_same_tick
run mtime_restored
run long_queue
run odd_names
run other_algorithms
run damaged_bookkeeping
run foreign_manifest
run audit_foreign_manifest
run records_among_lines
run manifest_inside_tree
run killed_update
run audit_classes
run audit_quotes
run report_write_error
run update_keeps_corrupt
run deep_tree
run shards_merge
run shards_update_audit_check
run shard_hash_documented
run gnu_parallel_recipe
run parallel_recipe_names_rsync
run usage
finish
