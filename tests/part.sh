#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# part.sh - one huge file across nodes: --part=K/N FILE on each node,
# then --merge of the N records, must write exactly what one run over
# FILE writes, for every digest that composes (the CRCs, BLAKE3, S3's,
# Dropbox's, HDFS's), at N = 1, 2, 3 and 7 and sizes around every
# alignment; every other digest is refused; a set of records with a part
# missing, twice, of another file, N, digest or split is refused, and so
# is a damaged one, with -o left as it was.  Records are read through
# the door every list is: UTF-16 ones too, /dev/zero refused.

. "$TESTS_SRCDIR/lib.sh"

COMPOSING="crc32 crc32c cksum crc64nvme blake3 s3etag s3-crc32 s3-crc32c
	s3-sha1 s3-sha256 dropbox hdfs-md5md5crc32c hdfs-composite-crc32c"
# small blocks, so that a few KiB cross many of them (S3's parts are
# 5 MiB at least: test_defaults_and_several_digests crosses them)
OPTS="--part-size=5M --block-size=2048 --bytes-per-crc=64"

# parts N FILE OPTION...: the N records of FILE, p.1 ... p.N.
parts() {
	_n=$1 _f=$2
	shift 2
	rm -f p.*
	_k=1
	while [ "$_k" -le "$_n" ]; do
		multisum "$@" --part="$_k/$_n" "$_f" -o "p.$_k" || return 1
		_k=$((_k + 1))
	done
}

# merges_to_one_run N FILE OPTION...: the merge of N parts is one run's.
merges_to_one_run() {
	_n=$1 _f=$2
	shift 2
	if ! parts "$_n" "$_f" "$@"; then
		fail "$*: --part failed on $_f"
		return
	fi
	multisum "$@" "$_f" > one
	multisum --merge p.* > merged
	same merged one "$*, $_f in $_n parts"
}

test_every_composing_digest() {
	# 0 and 1 byte, a KiB (a BLAKE3 chunk) each way,
	# two blocks and one more byte, a 4 MiB Dropbox block and one, odd
	random_files 0 1 1023 1024 1025 4096 4097 10007 4194305
	for a in $COMPOSING; do
		for n in 1 2 3 7; do
			for f in f*; do
				merges_to_one_run "$n" "$f" -a "$a" $OPTS
			done
		done
	done
}

test_defaults_and_several_digests() {
	random_file big 9000011	# over one S3 part and two Dropbox blocks
	all=$(echo $COMPOSING | tr ' ' ,)
	for n in 1 2 3 7; do
		merges_to_one_run "$n" big -a "$all"
	done
	merges_to_one_run 3 big -a blake3 -l 512
	merges_to_one_run 3 big -a crc32c --tag
	merges_to_one_run 3 big -a crc32c,s3etag --format=ndjson
	merges_to_one_run 2 big -a crc64nvme --base64
	merges_to_one_run 3 big -a hdfs-md5md5crc32c --block-size=1M
}

test_every_io_mode() {
	# parts that start inside a page (CRCs split anywhere), mapped or read
	random_file f 3000017
	for io in mmap read; do
		merges_to_one_run 3 f -a crc32c,crc64nvme --io=$io
		check "a part may start inside a page" \
		    grep -q 'range=1000006+1000006 ' p.2
		merges_to_one_run 3 f -a blake3 --io=$io
		merges_to_one_run 7 f -a s3-sha256,dropbox --io=$io $OPTS
	done
}

test_the_record() {
	random_file f 5000
	multisum -a crc32c --part=2/3 f > rec
	check "a record is all comment lines" test "$(grep -vc '^#' rec)" -eq 0
	has_line rec "#multisum-part-name f" "it names the file"
	check "it holds the range and the size" grep -q \
	    '^#multisum-part v2 part=2/3 size=5000 mtime=[0-9]* range=1667+1667 format=gnu options=-$' \
	    rec
	is "$(tail -n 1 rec)" "#multisum-part-sum sha256=$(sed '$d' rec | \
	    multisum -a sha256 --untagged | cut -c1-64)" \
	    "it ends with the SHA-256 of the lines above"
	status_is 1 "-c of a record verifies nothing" multisum -c rec
	multisum -a blake3 --part=2/3 f > rec
	check "BLAKE3's parts are powers of two KiB" \
	    grep -q 'range=2048+2048 ' rec
	truncate -s 15729640 g
	multisum -a s3etag --part-size=5M --part=2/2 g > rec
	check "S3's are multiples of the part size" \
	    grep -q 'range=10485760+5243880 ' rec
	multisum -a crc32 --part=7/7 f > rec
	check "the last part may be short" grep -q 'range=4290+710 ' rec
	multisum -a blake3 --part=7/7 f > rec
	check "or empty" grep -q 'range=5000+0 ' rec
}

test_others_refused() {
	printf abc > f
	multisum --list-algorithms | awk 'NR > 1 && $1 !~ /-N$/ {print $1}' \
	    > names
	check "there are algorithms to try" test -s names
	while read -r a; do
		case " $(echo $COMPOSING) " in *" $a "*) continue ;; esac
		usage_error "$a does not compose" -a "$a" --part=1/2 f
		multisum -a "$a" --part=1/2 f 2> err
		check "$a: the line says it does not compose" \
		    grep -q "'$a' does not compose" err
	done < names
	usage_error "nor does a selection holding one" \
	    -a crc32c,sha256 --part=1/2 f
	usage_error "BLAKE3's powers of two and 6000000-byte S3 parts" \
	    -a blake3,s3etag --part-size=6000000 --part=1/2 f
	usage_error "a keyed BLAKE3's merge would need its key" \
	    -a blake3 --derive-key=ctx --part=1/2 f
	usage_error "--part takes one FILE" -a crc32c --part=1/2 f f
	usage_error "not standard input" -a crc32c --part=1/2 - < f
	usage_error "nor a tree" -a crc32c --part=1/2 -r .
	usage_error "nor a shard" -a crc32c --part=1/2 --shard=1/2 f
	usage_error "K <= N" -a crc32c --part=3/2 f
	usage_error "K >= 1" -a crc32c --part=0/2 f
}

# refused THIRD DESC TEXT: the merge of parts 1, 2, THIRD and 4 of f
# is refused (exit 1, -o left as it was) with TEXT in its message.
refused() {
	echo keep > out
	status_is 1 "$2 is refused" \
	    multisum --merge -o out p.1 p.2 "$1" p.4 2> err
	check "$2: it says why" grep -q -- "$3" err
	has_line out keep "$2: -o is left as it was"
}

# resum RECORD: its checksum line made again for what it now holds.
resum() {
	sed '/^#multisum-part-sum /d' "$1" > "$1.body"
	{
		cat "$1.body"
		echo "#multisum-part-sum sha256=$(multisum -a sha256 --untagged \
		    < "$1.body" | cut -c1-64)"
	} > "$1"
	rm -f "$1.body"
}

# A record carries the SHA-256 of its text: one digit of a state, or a
# field, altered is refused by name, as are a record cut before its sum
# and one of v1, which has none.
test_altered_records_refused() {
	truncate -s 33554432 f	# an 8 MiB S3 part in each record
	parts 4 f -a crc32c,blake3,s3etag
	for a in blake3 s3etag crc32c; do
		awk -v a="$a" '$1 == "#multisum-part-state" && $2 == a {
		    s = $NF; c = substr(s, 6, 1); c = (c == "0") ? "1" : "0";
		    $NF = substr(s, 1, 5) c substr(s, 7) } { print }' p.3 > x.3
		check "$a: one digit altered" sh -c '! cmp -s p.3 x.3'
		refused x.3 "one altered digit of a $a state" \
		    'x.3: a damaged --part record: its checksum does not match'
	done
	sed "s/size=33554432/size=33554433/" p.3 > s.3
	refused s.3 "an altered field" 's.3: .*checksum does not match'
	sed '$d' p.3 > c.3
	refused c.3 "a record cut before its sum" \
	    'c.3: a damaged --part record (no checksum line: cut short)'
	sed '1s/ v2 / v1 /; $d' p.3 > v.3
	refused v.3 "a record of v1" \
	    'v.3: a --part record of version 1, without a checksum of its own'
	cp p.3 e.3
	echo '#multisum-part-state crc32c -' >> e.3
	refused e.3 "a line after the sum" 'e.3: .*lines after its checksum'
	check "the set itself merges" multisum --merge p.1 p.2 p.3 p.4
}

test_incomplete_sets_refused() {
	random_file f 100000
	random_file g 100000
	parts 4 f -a crc32c,blake3
	cp p.3 f.3
	status_is 1 "a missing part is refused" \
	    multisum --merge p.1 p.2 p.4 2> err
	check "it names the part missing" grep -q 'part 3 of 4 missing' err
	status_is 1 "so are two" multisum --merge p.1 p.4 2> err
	check "it names both" grep -q 'parts 2, 3 of 4 missing' err
	refused p.2 "a part given twice" 'part 2/4 given twice'
	multisum -a crc32c,blake3 --part=3/4 g -o g.3
	refused g.3 "a part of another file" \
	    'not a part of the file of p.1: another file'
	multisum -a crc32c --part=3/4 f -o a.3
	refused a.3 "a part of other digests" 'other algorithms'
	multisum -a crc32c,blake3 --part=3/5 f -o n.3
	refused n.3 "a part of another N" 'another number of parts'
	touch -d '2001-01-01' f
	multisum -a crc32c,blake3 --part=3/4 f -o t.3
	refused t.3 "a part of the file at another time" \
	    'modification time differs'
	# below, each record altered and summed again, as if another
	# multisum had written it
	sed 's/range=[0-9]*+/range=50000+/' f.3 > o.3
	resum o.3
	refused o.3 "an overlapping part" 'holds bytes 50000 to'
	sed '/^#multisum-part-sum/d' f.3 | sed '$s/..$//' > d.3
	resum d.3
	refused d.3 "a damaged state" 'the saved state of blake3 is damaged'
	sed '/^#multisum-part-sum/d' f.3 | sed '$s/.$//' > h.3
	resum h.3
	refused h.3 "half a byte of a state" 'h.3: a damaged --part record'
	# --part refuses every column of hashdeep's: no record holds its lines
	sed 's/ format=[a-z]* / format=hashdeep /' f.3 > x.3
	resum x.3
	refused x.3 "a record of hashdeep lines" 'x.3: not a --part record'
	printf 'abc\n' > junk
	refused junk "what is no record" 'junk: not a --part record'
	check "the set, complete, merges" multisum --merge p.4 p.3 p.2 p.1
}

# Records are opened through the door every list is (io/text_input.c):
# saved as UTF-16 they merge as they are; /dev/zero is no record, said in
# a line, in bounded memory.
test_records_through_the_door() {
	random_file f 10000
	parts 4 f -a crc32c,blake3
	multisum -a crc32c,blake3 f > one
	if have iconv; then
		for k in 1 2 3 4; do
			iconv -f UTF-8 -t UTF-16 p.$k > u.$k
		done
		status_is 0 "UTF-16 records merge" \
		    multisum --merge u.1 u.2 u.3 u.4 > merged 2> err
		same merged one "UTF-16 records: one run's line"
	else
		skip_case "iconv absent"
	fi
	limit=$(memory_limit)
	echo keep > out
	(ulimit -v $limit; exec timeout 60 "$MULTISUM" --merge -o out \
	    p.1 p.2 /dev/zero p.4) 2> err
	is $? 1 "/dev/zero among records: refused (1), not a timeout"
	has_line err "multisum: /dev/zero: not a --part record (a line too long for one)" \
	    "/dev/zero among records: the file and the cause"
	has_line out keep "/dev/zero among records: -o is left as it was"
}

run every_composing_digest
run defaults_and_several_digests
run every_io_mode
run the_record
run altered_records_refused
run others_refused
run incomplete_sets_refused
run records_through_the_door
finish
