#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# exit-status.sh - the native exit statuses (SPEC.md, "Exit status"): one
# row per failure path of each mode, with the status a scheduler acts on
# (0 verified; 1 mismatch, corrupt, missing: do not retry; 2 usage; 3 not
# read or not written: retry; 4 signature), the priority rule (1, then 4,
# then 3), the faces' own statuses, and contrib/kubernetes/verify-job.yaml:
# its command line for each index, its podFailurePolicy on each status.
. "${TESTS_SRCDIR:-$(dirname "$0")}/lib.sh"

YAML=$TESTS_SRCDIR/../contrib/kubernetes/verify-job.yaml
TABLE=$ms_tmp/table

# policy STATUS: what verify-job.yaml's podFailurePolicy does with a pod
# that exits STATUS (each rule's action and its onExitCodes values).
policy() {
	[ "$1" = 0 ] && { echo "index succeeds"; return; }
	awk -v st="$1" '/- action:/ { a = $3 }
	    /values:/ { gsub(/[][,]/, " "); for (i = 2; i <= NF; i++)
		if ($i == st) { print a; exit } }' "$YAML" | grep . ||
	    echo "no rule: counted"
}

# row WANT PATH COMMAND: COMMAND (a shell line, standard input empty)
# exits WANT; the row goes to the table the last test shows.
row() {
	eval "$3" < /dev/null > out 2> err
	_st=$?
	printf '%-58s %s  %s\n' "$2" "$_st" "$(policy "$_st")" >> "$TABLE"
	if [ "$_st" -eq "$1" ]; then
		pass
	else
		fail "$2: exit status $_st, want $1"
		diag - < err
	fi
}

# Files a and b, their list; hex digests that match nothing.
setup() {
	echo a > a
	echo b > b
	multisum a b > good
	zero=$(printf '%064d' 0)
	printf '%s  a\n' "$zero" > bad
	printf '%s  gone\n' "$(multisum a | cut -c1-64)" > lost
	printf '%s  /proc/self/mem\n' "$zero" > mem
	mkdir -p dir
	printf '%s  dir\n' "$zero" > isdir
	echo 'not a checksum line' > junk
}

test_hash() {
	setup
	row 0 "hash: every file read" 'multisum a b'
	row 3 "hash: an operand that does not exist" 'multisum a nosuch'
	row 3 "hash: an input that cannot be read (EIO)" 'multisum a /proc/self/mem b'
	row 3 "hash: a directory without -r" 'multisum a dir'
	row 3 "hash: standard output is /dev/full" 'multisum a > /dev/full'
	row 3 "hash: -o in a place that cannot hold it" 'multisum -o /dev/full/x a'
	row 3 "hash: --files-from list that does not exist" \
	    'multisum --files-from=nosuch'
	row 2 "usage: unknown option" 'multisum --bogus a'
	row 2 "usage: unknown algorithm" 'multisum -a nosuch a'
	row 2 "usage: bad length" 'multisum -a blake2b -l 7 a'
	row 2 "usage: --stdin-name, standard input not an input" \
	    'multisum --stdin-name=k a'
	row 3 "hash: --match set that does not exist" 'multisum --match=nosuch a'
	row 1 "hash: --match set with no digest" 'multisum --match=junk a'
	row 3 "priority: read error and /dev/full -> 3" \
	    'multisum a nosuch > /dev/full'
	# a bound above a 40 MB limit: the allocation fails (harden.sh)
	if (ulimit -v 40000 && "$MULTISUM" -j1 a) > /dev/null 2>&1; then
		row 3 "hash: memory ran out (ulimit -v 40000, --memory=1G)" \
		    '(ulimit -v 40000 && multisum --buffer-size=64M --memory=1G -j1 a)'
	else
		skip_case "cannot run under a 40 MB memory limit here"
	fi
}

test_check() {
	setup
	row 0 "-c: every entry verified" 'multisum -c good'
	row 1 "-c: a mismatch" 'multisum -c bad'
	row 1 "-c: an entry missing" 'multisum -c lost'
	row 3 "-c: an entry that cannot be read (EIO)" 'multisum -c mem'
	row 3 "-c: an entry that is a directory" 'multisum -c isdir'
	row 3 "-c: a list that does not exist" 'multisum -c nosuch'
	row 1 "-c: a list with no valid line" 'multisum -c junk'
	row 1 "-c --strict: an improper line" 'cat good junk > mixed;
	    multisum -c --strict mixed'
	row 3 "-c: standard output is /dev/full" 'multisum -c good > /dev/full'
	row 1 "--expect: a mismatch" "multisum --expect=$zero a"
	row 1 "--expect: a file missing" "multisum --expect=$zero gone"
	row 3 "--expect: a file that cannot be read" \
	    "multisum --expect=$zero /proc/self/mem"
	row 1 "priority: a mismatch and an unreadable entry -> 1" \
	    'multisum -c mem bad'
	row 1 "priority: an unreadable entry and a missing one -> 1" \
	    'multisum -c lost mem'
	row 1 "priority: a mismatch and /dev/full -> 1" \
	    'multisum -c bad > /dev/full'
}

test_signature() {
	setup
	multisum --generate-key=k --no-passphrase > /dev/null 2>&1 ||
	    skip_test "no key could be made"
	echo r > r
	echo m > m
	# signed lists: of a and b; of r, made a directory since; of m,
	# changed since; one with a digit changed (not what was signed)
	multisum --sign=k.key -o SUMS a b 2> /dev/null &&
	multisum --sign=k.key -o READ r 2> /dev/null &&
	multisum --sign=k.key -o MIS m 2> /dev/null &&
	multisum --sign=k.key -o TAMPERED a 2> /dev/null ||
	    fail "the signed lists were not written"
	rm r && mkdir r
	echo changed > m
	sed "1s/^./$(head -c1 TAMPERED | tr 0-9a-f 1-9a-f0)/" TAMPERED > t &&
	    cat t > TAMPERED
	cp good UNSIGNED
	row 0 "-c --pubkey: signature and files verified" \
	    'multisum -c --pubkey=k.pub SUMS'
	row 4 "-c --pubkey: a signature that does not verify" \
	    'multisum -c --pubkey=k.pub TAMPERED'
	row 4 "-c --pubkey: no signature" 'multisum -c --pubkey=k.pub UNSIGNED'
	row 4 "-c --pubkey: a key that cannot be used" \
	    'multisum -c --pubkey=nothing.pub SUMS'
	row 3 "-c --pubkey: good signature, an entry not read" \
	    'multisum -c --pubkey=k.pub READ'
	row 1 "-c --pubkey: good signature, a mismatch" \
	    'multisum -c --pubkey=k.pub MIS'
	row 4 "priority: a bad signature and an entry not read -> 4" \
	    'multisum -c --pubkey=k.pub READ TAMPERED'
	row 1 "priority: a mismatch and a bad signature -> 1" \
	    'multisum -c --pubkey=k.pub TAMPERED MIS'
}

test_update_audit() {
	setup
	mkdir t && echo 1 > t/one && echo 2 > t/two
	row 0 "-u: a first run" 'multisum -u L -r t'
	row 0 "--audit: nothing changed" 'multisum --audit=L -r t'
	row 3 "-u: an operand missing (an unmounted tree)" \
	    'multisum -u L -r t nosuch'
	row 3 "-u: an operand that cannot be read (EIO)" \
	    'multisum -u L -r t /proc/self/mem'
	row 3 "-u: a ledger that cannot be read (a directory)" \
	    'multisum -u dir -r t'
	row 1 "-u: a ledger with no checksum line" 'multisum -u junk -r t'
	row 3 "--audit: a ledger that does not exist" \
	    'multisum --audit=nosuch -r t'
	cp L L2
	echo 3 > t/two && touch -d '2020-01-01' t/two t/one
	multisum -u L2 -r t 2> /dev/null
	echo 9 > t/two && touch -d '2020-01-01' t/two
	row 1 "--audit: a corrupt file (same size and time)" \
	    'multisum --audit=L2 -r t'
	rm t/one
	row 1 "--audit: a file missing" 'multisum --audit=L2 -r t'
}

test_merge_part() {
	setup
	mkdir t && for i in 1 2 3 4 5 6; do echo $i > t/$i; done
	multisum -r --shard=1/2 -o s1 t && multisum -r --shard=2/2 -o s2 t
	row 0 "--merge: every shard" 'multisum --merge s1 s2'
	row 1 "--merge: a shard missing" 'multisum --merge s1'
	row 1 "--merge: a shard that does not exist (a job failed)" 'multisum --merge s1 nosuch'
	row 3 "--merge: output to /dev/full" 'multisum --merge s1 s2 > /dev/full'
	head -c 300000 /dev/zero > big
	multisum -a blake3 --part=1/2 -o p1 big &&
	    multisum -a blake3 --part=2/2 -o p2 big
	row 0 "--part: the parts merged" 'multisum --merge p1 p2'
	row 1 "--part: a part missing" 'multisum --merge p1'
	row 1 "--part: a part that does not exist (a job failed)" 'multisum --merge p1 nosuch'
	row 3 "--part: a file that does not exist" \
	    'multisum -a blake3 --part=1/2 -o p3 nosuch'
	sed '1s/part=1\/2/part=x/' p1 > pbad
	row 1 "--part: a damaged record" 'multisum --merge pbad p2'
}

test_per_dir() {
	setup
	mkdir -p t/x t/y && echo 1 > t/x/1 && echo 2 > t/y/2
	row 0 "--per-dir: written" 'multisum -r --per-dir=SUMS t'
	row 0 "-c --per-dir: verified" 'multisum -c -r --per-dir=SUMS t'
	echo 3 > t/x/1
	row 1 "-c --per-dir: a mismatch" 'multisum -c -r --per-dir=SUMS t'
	echo 1 > t/x/1 && rm -r t/y
	row 1 "-c --per-dir: a listed folder missing" \
	    'multisum -c -r --per-dir=SUMS t'
	row 1 "--per-dir: an operand that is no folder" \
	    'multisum -r --per-dir=SUMS t a'
	mkdir -p u/z && echo 1 > u/z/1 && multisum -r --per-dir=SUMS u &&
	    rm u/z/1 && mkdir u/z/1
	row 3 "-c --per-dir: an entry not read (a directory now)" \
	    'multisum -c -r --per-dir=SUMS u'
}

test_xattr() {
	built_with MS_XATTR_LINUX || skip_test "built without Linux's xattr calls"
	setup
	touch -d '2020-01-01' a		# older than the racy margin
	multisum --xattr=update a > /dev/null 2>&1 ||
	    skip_test "no user extended attributes here"
	row 0 "--xattr=audit: tag verified" 'multisum --xattr=audit a'
	row 3 "--xattr: a file that does not exist" \
	    'multisum --xattr=audit nosuch'
	echo x > a && touch -d '2020-01-01' a
	row 1 "--xattr=audit: corrupt (same time, other content)" \
	    'multisum --xattr=audit a'
	row 1 "priority: corrupt and a file missing -> 1" \
	    'multisum --xattr=audit a nosuch'
}

test_archive_match_bench() {
	setup
	have tar || skip_test "no tar"
	tar cf t.tar a b
	row 0 "--archive: every member" 'multisum --archive=t.tar'
	row 1 "--archive: a member asked for not in it" \
	    'multisum --archive=t.tar nosuch'
	row 3 "--archive: an archive that does not exist" \
	    'multisum --archive=nosuch.tar'
	row 1 "--archive: a file that is no archive" 'multisum --archive=junk'
	row 1 "-c --archive: a mismatch" 'multisum -c --archive=t.tar bad'
	multisum a > set
	row 0 "--match: a set" 'multisum --match=set a b'
	: > empty
	row 3 "--bench: a file that does not exist" \
	    'multisum --bench --bench-time=0.01 -a md5 nosuch'
	row 1 "--bench: an empty file" \
	    'multisum --bench --bench-time=0.01 -a md5 empty'
	row 2 "--bench: standard input" 'multisum --bench -a md5 -'
	row 0 "--stdin-name: standard input named" \
	    'echo a | multisum --stdin-name=k -o part.sha256'
	has_line part.sha256 "$(multisum a | cut -c1-64)  k" \
	    "--stdin-name=k: the line names k"
}

# The coreutils and b3sum faces keep their tools' statuses: 1.
test_faces() {
	setup
	for face in sha256sum md5sum b3sum; do
		ln -s "$MULTISUM" $face
	done
	row 1 "sha256sum face: a file that does not exist" './sha256sum nosuch'
	row 1 "sha256sum face: -c, an entry not read" './sha256sum -c mem'
	row 1 "sha256sum face: > /dev/full" './sha256sum a > /dev/full'
	row 1 "md5sum face: unknown option" './md5sum --bogus'
	row 1 "b3sum face: a file that does not exist" './b3sum nosuch'
}

# verify-job.yaml: its command line for each index, no Kubernetes here
# (its scheduling and volumes are not tested); its policy on each status.
test_kubernetes_job() {
	have python3 || skip_test "python3 absent (reading the job's command)"
	multisum_on_path
	job_command "$YAML" > command
	check "the job has a command" test -s command
	check "it is an Indexed Job of 16" grep -q '^  completions: 16$' "$YAML"
	is "$(policy 1)" FailJob "status 1 fails the Job"
	is "$(policy 2)" FailJob "status 2 fails the Job"
	is "$(policy 4)" FailJob "status 4 fails the Job"
	is "$(policy 3)" Count "status 3 is retried, counted"
	check "restartPolicy Never (podFailurePolicy needs it)" \
	    grep -q 'restartPolicy: Never' "$YAML"
	mkdir -p data/tree
	for i in $(seq 1 40); do echo $i > data/tree/$i; done
	(cd data && multisum -r -o tree.sha256 tree)
	sed "s|/data|$PWD/data|" command > pod.sh
	pods() {
		for i in $(seq 0 15); do
			JOB_COMPLETION_INDEX=$i sh pod.sh > /dev/null 2>&1
			echo $?
		done | sort | uniq -c | sed 's/^ *//' | tr '\n' ' '
	}
	is "$(pods)" "16 0 " "every index verifies"
	echo 99 > data/tree/7
	is "$(pods)" "15 0 1 1 " "a corrupt file: its index exits 1 (FailJob)"
	echo 7 > data/tree/7 && rm data/tree/8 && mkdir data/tree/8
	is "$(pods)" "15 0 1 3 " "a file not read: its index exits 3 (retried)"
	rmdir data/tree/8
	is "$(pods)" "15 0 1 1 " "a file missing: its index exits 1 (FailJob)"
	sort -u "$TABLE" | diag -
}

run hash
run check
run signature
run update_audit
run merge_part
run per_dir
run xattr
run archive_match_bench
run faces
run kubernetes_job
finish
