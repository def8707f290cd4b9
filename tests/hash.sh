#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# hash.sh - hash mode: digests against independent tools, and every output
# format byte for byte against the tools it claims to match.
. "$TESTS_SRCDIR/lib.sh"

# ------------------------------------------------------------ references

# The algorithms that independent tools can check, as "ALGORITHM TOOL".
# The ALGORITHM is a name multisum accepts; ref_digest knows each pair.
pairs='md5 md5sum
sha1 sha1sum
sha224 sha224sum
sha256 sha256sum
sha384 sha384sum
sha512 sha512sum
blake2b b2sum
blake2b-256 b2sum
blake2b-8 b2sum
crc32 rhash
crc32c rhash
ripemd160 rhash
sha3-224 rhash
sha3-256 rhash
sha3-384 rhash
sha3-512 rhash
blake2s rhash
blake2b rhash
xxh32 xxhsum
xxh64 xxhsum
xxh128 xxhsum
xxh3 xxhsum
sha512-224 openssl
sha512-256 openssl
shake128 openssl
shake256 openssl
shake128-128 openssl
shake256-1024 openssl
blake2s openssl
blake2b openssl
sm3 openssl
ripemd160 openssl
sha3-256 openssl
sm3 cksum
blake2s-128 python3'

# ref_digest TOOL ALGORITHM < FILE: the tool's hex digest of its input.
ref_digest() {
	case $1:$2 in
	b2sum:blake2b)		b2sum ;;
	b2sum:blake2b-*)	b2sum -l "${2#blake2b-}" ;;
	rhash:*)		rhash --"$2" -p "%{$2}\n" - ;;
	xxhsum:xxh32)		xxhsum -H0 ;;
	xxhsum:xxh64)		xxhsum -H1 ;;
	xxhsum:xxh128)		xxhsum -H2 ;;
	xxhsum:xxh3)		xxhsum -H3 ;;
	openssl:shake*-*)	openssl dgst -"${2%-*}" -xoflen $((${2#*-} / 8)) -r ;;
	# OpenSSL's own default SHAKE lengths are half of FIPS 202's (ours)
	openssl:shake128)	openssl dgst -shake128 -xoflen 32 -r ;;
	openssl:shake256)	openssl dgst -shake256 -xoflen 64 -r ;;
	openssl:blake2s)	openssl dgst -blake2s256 -r ;;
	openssl:blake2b)	openssl dgst -blake2b512 -r ;;
	openssl:*)		openssl dgst -"$2" -r ;;
	cksum:*)		cksum -a "$2" --untagged ;;
	python3:blake2s-*)	python3 -c "import hashlib, sys
print(hashlib.blake2s(sys.stdin.buffer.read(), digest_size=${2#*-} // 8).hexdigest())" ;;
	*sum:*)			"$1" ;;
	esac | sed -n '1{s/^[^=]*= //;s/[ *].*//;p;}'
}

# Can TOOL serve as a reference for ALGORITHM here?
ref_usable() {
	have "$1" || return 1
	case $1:$2 in
	openssl:shake*)		openssl dgst -shake128 -xoflen 16 </dev/null >/dev/null 2>&1 ;;
	cksum:*)		cksum -a "$2" --untagged </dev/null >/dev/null 2>&1 ;;
	esac
}

sizes='0 1 55 56 63 64 65 127 128 129 4095 4096 1048577 3145728'

# Every digest of every size, in both io modes, on one and two threads,
# equals the independent tool's.  One multisum run computes all the
# digests of a file, so the per-digest lanes of the engine run too.
test_digests_match_reference_tools() {
	list=
	for s in $sizes; do
		random_file "f$s" "$s"
	done
	while read -r algo tool; do
		if ! ref_usable "$tool" "$algo"; then
			skip_case "$tool cannot check $algo here"
			continue
		fi
		case ",$list," in
		*",$algo,"*) ;;
		*) list=${list:+$list,}$algo ;;
		esac
		for s in $sizes; do
			ref_digest "$tool" "$algo" < "f$s" > "want.$s.$algo.$tool"
		done
		echo "$algo $tool" >> usable
	done <<EOF
$pairs
EOF
	[ -n "$list" ] || skip_test "no reference tool at all"
	for io in mmap read; do
		for j in 1 2; do
			for s in $sizes; do
				if ! multisum --io=$io -j$j -a "$list" "f$s" > out; then
					fail "multisum --io=$io -j$j -a $list f$s failed"
					continue
				fi
				# BSD lines, one per algorithm, in the order of the list
				echo "$list" | tr , '\n' > names
				sed 's/.* = //' out | paste -d ' ' names - > got
				while read -r algo hex; do
					echo "$hex" > "got.$algo"
				done < got
				while read -r algo tool; do
					read -r want < "want.$s.$algo.$tool"
					read -r got < "got.$algo"
					is "$got" "$want" "$algo of $s bytes, --io=$io -j$j, against $tool"
				done < usable
			done
		done
	done
}

# The legacy lines of cksum (CRC, SysV and BSD sums) match coreutils'.
test_cksum_lines_match_coreutils() {
	have cksum || skip_test "no cksum"
	for s in 0 1 511 512 513 1023 1024 1025 1048577; do
		random_file "f$s" "$s"
	done
	for a in cksum sysv bsd; do
		case $a in
		cksum) cksum f* > want ;;
		*) cksum -a $a f* > want 2>/dev/null || { skip_case "cksum -a $a"; continue; } ;;
		esac
		for io in mmap read; do
			multisum -a $a --io=$io f* > got
			same got want "-a $a lines, --io=$io"
		done
	done
	# standard input: cksum prints no name
	cksum < f1025 > want
	multisum -a cksum < f1025 > got
	same got want "-a cksum on standard input"
}

# ------------------------------------------------------------ formats

# Files in n/ whose names need care: GNU escapes \, newline and CR.
make_awkward_names() {
	mkdir n
	cd n || return
	printf 'plain' > plain
	printf 'slash' > 'back\slash'
	printf 'newline' > "$(printf 'new\nline')"
	printf 'return' > "$(printf 'car\rret')"
	printf 'all' > "$(printf 'a\\b\nc\rd')"
	printf 'space' > 'two  spaces'
	printf 'star' > '*star'
	: > empty
	cd ..
}

test_gnu_format_matches_coreutils() {
	make_awkward_names
	cd n || return
	for tool in md5sum:md5 sha256sum:sha256 sha512sum:sha512 b2sum:blake2b; do
		t=${tool%:*} a=${tool#*:}
		if ! have "$t"; then
			skip_case "$t absent"
			continue
		fi
		"$t" -- * > ../want
		multisum -a "$a" -- * > ../got
		same ../got ../want "GNU lines of $a, as $t writes them"
		"$t" -b -- * > ../want
		multisum -b -a "$a" -- * > ../got
		same ../got ../want "GNU lines of $a with -b, as $t -b"
		"$t" < plain > ../want
		multisum -a "$a" < plain > ../got
		same ../got ../want "GNU line of $a for standard input, as $t"
	done
	# Lines on either side of the 1024 bytes format.c writes at once.
	if have sha512sum && have sha256sum; then
		d=$(printf '%0200d' 0)
		mkdir -p "$d/$d/$d/$d"
		for k in 60 80 90 100 110 120 130 150 180 250; do
			printf 'x' > "$d/$d/$d/$d/$(printf "%0${k}d" 1)"
		done
		for a in sha512 sha256; do
			"${a}sum" "$d/$d/$d/$d"/* > ../want
			multisum -a "$a" "$d/$d/$d/$d"/* > ../got
			same ../got ../want "GNU lines of 870 to 1060 bytes of $a, as ${a}sum"
			"${a}sum" --tag "$d/$d/$d/$d"/* > ../want
			multisum --tag -a "$a" "$d/$d/$d/$d"/* > ../got
			same ../got ../want "BSD lines of 870 to 1060 bytes of $a, as ${a}sum --tag"
		done
	else
		skip_case "sha512sum or sha256sum absent"
	fi
	if have b2sum; then
		b2sum -l 256 -- * > ../want
		multisum -a blake2b-256 -- * > ../got
		same ../got ../want "GNU lines of blake2b-256, as b2sum -l 256"
		multisum -a blake2b -l 256 -- * > ../got
		same ../got ../want "GNU lines of -a blake2b -l 256, as b2sum -l 256"
	else
		skip_case "b2sum absent"
	fi
}

test_bsd_tags_match_coreutils() {
	have sha256sum && have md5sum && have sha1sum || skip_test "no coreutils"
	make_awkward_names
	cd n || return
	sha256sum --tag -- * > ../want
	multisum --tag -- * > ../got
	same ../got ../want "--tag lines, as sha256sum --tag"
	multisum --format=bsd -- * > ../got
	same ../got ../want "--format=bsd lines, as sha256sum --tag"
	# several algorithms: one line each, in the order given, per file
	b2=
	for f in *; do
		md5sum --tag -- "$f"
		sha1sum --tag -- "$f"
		if have b2sum; then
			b2sum -l 256 --tag -- "$f"
			b2=,blake2b-256
		else
			skip_case "b2sum absent: no blake2b-256 among several algorithms"
		fi
	done > ../want
	multisum -a "md5,sha1$b2" -- * > ../got
	same ../got ../want "several algorithms: BSD tags in the order given"
}

# Every line multisum writes for algorithms coreutils knows, cksum -c
# verifies; a changed file makes it fail.
test_cksum_check_verifies_our_lines() {
	have cksum || skip_test "no cksum"
	make_awkward_names
	cd n || return
	random_file big 100000
	algos=md5,sha1,sha224,sha256,sha384,sha512,blake2b,blake2b-256,blake2b-8
	cksum -a sm3 </dev/null >/dev/null 2>&1 && algos=$algos,sm3
	multisum -a "$algos" -- * > ../manifest
	lines=$(wc -l < ../manifest)
	status_is 0 "cksum -c accepts every line" cksum -c ../manifest > ../out 2> ../err
	is "$(grep -c ': OK$' ../out)" "$lines" "cksum -c says OK for each of the $lines lines"
	lacks ../err "improperly formatted" "cksum -c found no bad line"
	echo changed >> plain
	status_is 1 "cksum -c notices a changed file" cksum -c ../manifest > ../out 2>&1
	has_line ../out "plain: FAILED" "the changed file FAILED"
}

test_zero_terminated_lines() {
	have sha256sum || skip_test "no sha256sum"
	make_awkward_names
	cd n || return
	sha256sum -z -- * > ../want
	multisum -z -- * > ../got
	same ../got ../want "-z lines (no escaping), as sha256sum -z"
	sha256sum -z --tag -- * > ../want
	multisum -z --tag -- * > ../got
	same ../got ../want "-z --tag lines, as sha256sum -z --tag"
	multisum -z -a md5,sha1 plain > ../got
	is "$(tr '\0' '\n' < ../got | wc -l | tr -d ' ')" 2 "-z with two algorithms: two NUL-ended lines"
	is "$(tr -cd '\n' < ../got | wc -c | tr -d ' ')" 0 "-z writes no newline"
}

# b64_ref ALGORITHM FILE: the base64 digest from an independent tool.
b64_ref() {
	if cksum -a "$1" --base64 --untagged "$2" >/dev/null 2>&1; then
		cksum -a "$1" --base64 --untagged "$2" | sed 's/ .*//'
	else
		case $1 in
		blake2b) openssl dgst -blake2b512 -binary "$2" ;;
		*) openssl dgst -"$1" -binary "$2" ;;
		esac | base64 | tr -d '\n'
		echo
	fi
}

test_base64_digests() {
	cksum --base64 </dev/null >/dev/null 2>&1 || { have openssl && have base64; } ||
	    skip_test "neither cksum --base64 (coreutils 9.2) nor openssl and base64"
	random_file data 1000
	# 16, 28, 32, 48 and 64 bytes: two, one and no '=' of padding
	for a in md5 sha224 sha256 sha384 sha512 blake2b; do
		want=$(b64_ref $a data)
		multisum --base64 -a $a data > got
		has_line got "$want  data" "--base64 GNU line of $a"
		multisum --base64 --tag -a $a data > got
		is "$(sed 's/.* = //' got)" "$want" "--base64 BSD line of $a"
	done
}

test_sfv_format() {
	printf 'one' > one
	printf 'two' > 'two words'
	random_file three 70000
	multisum --format=sfv -a crc32 one 'two words' three > got
	if have rhash; then
		rhash --sfv one 'two words' three | grep -v '^;' > want
		same got want "--format=sfv lines, as rhash --sfv"
	else
		skip_case "rhash absent"
	fi
	has_line got "one 7A6C86F1" "SFV: NAME, a space, the CRC-32 in upper case"
	usage_error "--format=sfv -a md5" --format=sfv -a md5 one
	usage_error "--format=sfv with two algorithms" --format=sfv -a crc32,md5 one
}

# ndjson: one JSON object per file, which a JSON parser reads back into
# the very bytes of each name; names that are not UTF-8 included.
test_ndjson_format() {
	make_awkward_names
	cd n || return
	printf 'q' > 'say "hi"'
	printf 't' > "$(printf 'tab\there')"
	printf 'c' > "$(printf 'ctl\001\037')"
	printf 'u' > "$(printf 'utf8-\303\251-\342\202\254-\360\237\230\200')"
	printf 'l' > "$(printf 'latin1-\351')"
	printf 'o' > "$(printf 'overlong-\300\200')"
	printf 's' > "$(printf 'surrogate-\355\240\200')"
	printf 'b' > "$(printf 'beyond-\364\220\200\200')"
	printf 'x' > "$(printf 'cut-\342\202')"
	printf 'd' > "$(printf 'del-\177')"
	check "--format=ndjson" multisum --format=ndjson -a md5,sha256 -- * > ../got
	n=0
	for f in *; do n=$((n + 1)); done
	is "$(wc -l < ../got | tr -d ' ')" "$n" "one line per file"
	has_line ../got "$(printf '{"path":"say \\"hi\\"","size":1,"md5":"%s","sha256":"%s"}' \
	    "$(md5sum < 'say "hi"' | cut -c1-32)" "$(sha256sum < 'say "hi"' | cut -c1-64)")" \
	    "quotes are escaped in a path"
	if ! have python3; then
		skip_case "python3 absent: ndjson not parsed"
		return
	fi
	check "every line is UTF-8 JSON naming a file with its size and digests" \
	    python3 -c '
import hashlib, json, os, sys
bad = 0
seen = set()
for raw in open("../got", "rb"):
    try:
        o = json.loads(raw.decode("utf-8"))
    except ValueError as e:
        print("# not UTF-8 JSON: %r (%s)" % (raw, e)); bad += 1; continue
    name = o["path"].encode("utf-8", "surrogateescape")
    data = open(name, "rb").read()
    if list(o) != ["path", "size", "md5", "sha256"] or o["size"] != len(data) \
       or o["md5"] != hashlib.md5(data).hexdigest() \
       or o["sha256"] != hashlib.sha256(data).hexdigest():
        print("# wrong object for %r: %r" % (name, o)); bad += 1
    seen.add(name)
missing = set(os.listdir(b".")) - seen
if missing:
    print("# no object for %r" % sorted(missing)); bad += 1
sys.exit(bad != 0)'
}

test_raw_digest() {
	random_file data 5000
	have sha256sum || skip_test "no sha256sum"
	want=$(sha256sum < data | cut -c1-64)
	multisum --raw data > got
	is "$(size_of got)" 32 "--raw writes the 32 bytes of a SHA-256"
	is "$(od -An -v -tx1 got | tr -d ' \n')" "$want" "--raw bytes are the digest"
	multisum --raw < data > got
	is "$(od -An -v -tx1 got | tr -d ' \n')" "$want" "--raw of standard input"
	multisum --raw -a md5 data > got
	is "$(od -An -v -tx1 got | tr -d ' \n')" "$(md5sum < data | cut -c1-32)" "--raw -a md5"
	usage_error "--raw with two files" --raw data data
	usage_error "--raw with -r" --raw -r .
	if have tar && tar cf a.tar data got 2>/dev/null; then
		usage_error "--raw with a whole archive" --raw --archive=a.tar
		multisum --raw --archive=a.tar data > got
		is "$(od -An -v -tx1 got | tr -d ' \n')" "$want" "--raw of one archive member"
	else
		skip_case "no tar"
	fi
}

# -a all: every algorithm of the spec's table, each line as the algorithm
# alone would print it, in table order.
test_all_algorithms() {
	random_file data 3000
	: > want
	for a in md5 sha1 sha224 sha256 sha384 sha512 sha512-224 sha512-256 \
	    sha3-224 sha3-256 sha3-384 sha3-512 shake128 shake256 blake2b \
	    blake2s blake2bp blake2sp blake3 sm3 ripemd160 crc32 crc32c cksum crc64nvme xxh32 \
	    xxh64 xxh3 xxh128; do
		multisum --tag -a $a data >> want || fail "-a $a"
	done
	multisum -a all data > got
	same got want "-a all: each algorithm of the table once, in table order"
	multisum -a all,md5 -a sha256 data > got
	same got want "-a all,md5 -a sha256: duplicates dropped"
	multisum -a sha256,md5,sha256 data > got
	is "$(cut -d' ' -f1 got | tr '\n' ' ')" "SHA256 MD5 " "-a order kept, duplicates dropped"
}

# -o writes the manifest atomically: all of it, or none of it.
test_output_file_is_atomic() {
	random_file a 100
	random_file b 2000000
	umask 022
	multisum a b > want
	multisum -o m a b > out
	same m want "-o FILE holds what standard output would"
	is "$(size_of out)" 0 "-o writes nothing to standard output"
	is "$(ls -l m | cut -c1-10)" "-rw-r--r--" "-o FILE gets the mode of a new file"
	multisum b > m		# -o replaces only a manifest
	status_is 3 "-o with an unreadable input fails" multisum -o m a nosuch b 2> err
	is "$(cat m)" "$(multisum b)" "-o FILE keeps its old content when an input fails"
	is "$(ls -A | tr '\n' ' ')" "a b err m out want " "no temporary file is left behind"
	has_line err "multisum: nosuch: No such file or directory" "the input is named"
	status_is 3 "-o a new FILE with a failing input fails" multisum -o new nosuch 2> err
	check_not "-o creates no FILE when an input fails" test -e new
	status_is 3 "-o into a missing directory fails" multisum -o nodir/m a 2> err
	is "$(ls -A | tr '\n' ' ')" "a b err m out want " "still no temporary file"
	multisum -o m --io=mmap -j2 a b
	same m want "-o replaces FILE once everything is written"
}

# ------------------------------------------------------------ operands

make_tree() {
	mkdir -p t/dir t/dir/sub t/dir-x t/dir.x t/empty
	for f in t/B t/a t/_ t/A t/Z t/'a b' t/dir/x t/dir/sub/y t/dir-x/z \
	    t/dir.x/w t/.hidden "$(printf 't/\303\244')"; do
		printf '%s' "$f" > "$f"
	done
	random_file t/dir/big 1500000
}

test_recursive_order() {
	make_tree
	# entries in byte order of their names, directory by directory
	cat > want_order <<'EOF'
t/.hidden
t/A
t/B
t/Z
t/_
t/a
t/a b
t/dir/big
t/dir/sub/y
t/dir/x
t/dir-x/z
t/dir.x/w
EOF
	printf 't/\303\244\n' >> want_order
	for j in 1 2 8; do
		multisum -r -j$j t > got.$j
		cut -c67- got.$j > order
		same order want_order "-r -j$j visits entries in byte order"
	done
	same got.2 got.1 "-r: -j2 prints what -j1 prints"
	same got.8 got.1 "-r: -j8 prints what -j1 prints"
	if have sha256sum; then
		while IFS= read -r f; do sha256sum "$f"; done < want_order > want
		same got.1 want "-r digests are sha256sum's"
	else
		skip_case "sha256sum absent: -r's digests not compared"
	fi
	multisum -r t/dir t/a > got
	is "$(cut -c67- got | tr '\n' ' ')" "t/dir/big t/dir/sub/y t/dir/x t/a " \
	    "-r: operands in the order given"
	multisum -r t/dir/ > got
	has_line got "$(sha256sum < t/dir/x | cut -c1-64)  t/dir/x" "-r DIR/: no doubled slash"
}

test_exclude() {
	make_tree
	multisum -r --exclude='*.x' --exclude=sub --exclude='t/A' t > got
	cut -c67- got > order
	lacks order "t/dir.x/w" "--exclude='*.x' skips a directory by its name"
	lacks order "t/dir/sub/y" "--exclude=sub skips a subdirectory"
	lacks order "t/A" "--exclude=t/A matches a path"
	has_line order "t/dir-x/z" "other entries stay"
	has_line order "t/a b" "names with spaces stay"
	multisum -r --exclude='[aA]*' t > got
	cut -c67- got > order
	lacks order "t/a" "a bracket glob excludes"
	has_line order "t/B" "a bracket glob excludes only its matches"
}

test_symlinks() {
	make_tree
	ln -s ../B t/dir/link-to-file
	ln -s ../dir-x t/dir/link-to-dir
	ln -s nowhere t/dir/dangling
	multisum -r t/dir > got
	lacks got "link-to" "-r without -L skips symbolic links"
	lacks got "dangling" "-r without -L skips dangling links"
	status_is 3 "-r -L reports a dangling link" multisum -r -L t/dir > got 2> err
	has_line got "$(multisum < t/B | cut -c1-64)  t/dir/link-to-file" "-L follows a link to a file"
	has_line got "$(multisum < t/dir-x/z | cut -c1-64)  t/dir/link-to-dir/z" "-L follows a link to a directory"
	has_line err "multisum: t/dir/dangling: No such file or directory" "the dangling link is named"
	rm t/dir/dangling
	ln -s .. t/dir/sub/loop
	status_is 0 "-L: a symbolic link loop is a warning" multisum -r -L t/dir > got 2> err
	has_line err "multisum: t/dir/sub/loop: symbolic link loop, not followed" \
	    "the loop is named"
	has_line got "$(multisum < t/dir/x | cut -c1-64)  t/dir/x" "files around the loop are hashed"
	ln -s t/B top-link
	multisum top-link > got
	has_line got "$(multisum < t/B | cut -c1-64)  top-link" "a link given as operand is followed"
}

test_files_from() {
	make_tree
	printf 't/a\n\nt/a b\nt/dir/x\n' > list
	multisum --files-from=list > got
	multisum t/a 't/a b' t/dir/x > want
	same got want "--files-from: one name a line, empty lines skipped"
	multisum --files-from=- < list > got
	same got want "--files-from=- reads the names from standard input"
	multisum --files-from=list t/B > got
	multisum t/a 't/a b' t/dir/x t/B > want
	same got want "--files-from, then the operands"
	printf 'x' > "$(printf 'new\nline')"
	printf 't/a\0new\nline\0t/B\0' > list0
	multisum --files0-from=list0 > got
	multisum t/a "$(printf 'new\nline')" t/B > want
	same got want "--files0-from: NUL-separated names may hold newlines"
	printf 't/dir\n' > dirs
	multisum -r --files-from=dirs > got
	multisum -r t/dir > want
	same got want "--files-from with -r walks the directories listed"
	status_is 3 "a missing list is an error" multisum --files-from=nolist > got 2> err
	has_line err "multisum: nolist: No such file or directory" "the list is named"
}

# A list of names is read as -c's lists are, with a bound on a line:
# /dev/zero (one endless line) is refused in one line naming it, in
# bounded memory and time, and the operands after it are still hashed.
test_files_from_endless_line() {
	make_tree
	limit=$(memory_limit)
	(ulimit -v $limit; exec timeout 60 "$MULTISUM" \
	    --files-from=/dev/zero t/B) > got 2> err
	is "$?" 1 "--files-from=/dev/zero: exit 1, no list of names"
	is "$(wc -l < err | tr -d ' ')" 1 "--files-from=/dev/zero: one line"
	has_line err "multisum: /dev/zero: not a list of file names (a line of over 16 MiB)" \
	    "--files-from=/dev/zero: the list and the cause"
	multisum t/B > want
	same got want "--files-from=/dev/zero: the operands still hashed"
	(ulimit -v $limit; tr '\0' a < /dev/zero |
	    exec timeout 60 "$MULTISUM" --files0-from=- t/B) > got 2> err
	is "$?" 1 "--files0-from with an endless name: exit 1"
	has_line err "multisum: -: not a list of file names (a line of over 16 MiB)" \
	    "--files0-from with an endless name: the list and the cause"
	same got want "--files0-from with an endless name: the operands still hashed"
}

test_archive() {
	have tar || skip_test "no tar"
	mkdir -p src/sub src/emptydir
	random_file src/a.bin 70000
	printf 'text\n' > src/sub/b.txt
	: > src/sub/empty
	random_file src/big 2000000
	ln -s a.bin src/link
	(cd src && tar cf ../a.tar a.bin sub link big) || skip_test "tar failed"
	(cd src && tar czf ../a.tar.gz .) || skip_test "tar czf failed"
	mkdir x
	(cd x && tar xf ../a.tar)
	for ar in a.tar a.tar.gz; do
		# every regular member, in archive order, named by its path
		(cd x && tar tf "../$ar" | sed 's|^\./||' | while read -r m; do
			[ -f "$m" ] && [ ! -L "$m" ] && sha256sum "$m"
		done) > want
		multisum --archive=$ar > got
		same got want "--archive=$ar: every regular member, as sha256sum of the extracted files"
		grep -e '  a.bin$' -e '  sub/b.txt$' want > want2
		multisum --archive=$ar sub/b.txt a.bin > got
		same got want2 "--archive=$ar: operands select members, in archive order"
		status_is 1 "--archive=$ar: a missing member is an error" \
		    multisum --archive=$ar a.bin nosuch > got 2> err
		has_line err "multisum: nosuch: not found in $ar" "the missing member is named"
		has_line got "$(cd x && sha256sum a.bin)" "the members found are still hashed"
	done
	multisum --archive=- < a.tar.gz > got
	multisum --archive=a.tar.gz > want
	same got want "--archive=- reads the archive from standard input"
	multisum --archive=a.tar -a md5,crc32 big > got
	is "$(wc -l < got | tr -d ' ')" 2 "--archive with two algorithms"
	echo "not an archive" > bad.tar
	status_is 1 "a file that is no archive is an error" multisum --archive=bad.tar > got 2> err
	check "the error names the archive" grep -q "bad.tar" err
}

# A hard link in a tar has no data of its own: it is its target's file.
test_archive_hard_link() {
	have tar || skip_test "no tar"
	mkdir src
	printf 'shared\n' > src/one
	ln src/one src/two
	(cd src && tar cf ../h.tar one two) || skip_test "tar failed"
	(cd src && sha256sum one two) > want
	multisum --archive=h.tar > got
	same got want "a hard-linked member is hashed as its target"
	multisum --archive=h.tar one two > got
	same got want "named with its target, too"
	# the target's data went by unread: say so, and fail
	status_is 1 "a link whose target was not hashed fails" \
	    multisum --archive=h.tar two > got 2> err
	has_line err "multisum: two: hard link to one, which was not hashed (name it too)" \
	    "the message names the link and its target"
	# and -c finds a link's digest through its target
	check "-c verifies a hard-linked member" \
	    multisum --archive=h.tar -c want > got
	has_line got "two: OK" "the link is OK"
}

# ------------------------------------------------------------ the table

test_list_algorithms() {
	check "--list-algorithms succeeds" multisum --list-algorithms > list
	for a in md5 sha1 sha224 sha256 sha384 sha512 sha512-224 sha512-256 \
	    sha3-224 sha3-256 sha3-384 sha3-512 shake128 shake256 blake2b \
	    blake2b-N blake2s blake2s-N blake2bp blake2sp sm3 ripemd160 crc32 \
	    crc32c cksum xxh32 xxh64 xxh3 xxh128 bsd sysv; do
		check "--list-algorithms lists $a" grep -q "^$a " list
	done
	# and every name it lists is usable
	printf 'x' > data
	sed 1d list | while read -r name rest; do
		case $name in
		*-N) name=${name%-N}-128 ;;
		esac
		multisum -a "$name" data > /dev/null || echo "$name"
	done > unusable
	is "$(tr '\n' ' ' < unusable)" "" "every listed algorithm hashes"
}

test_algorithm_usage_errors() {
	printf 'x' > data
	usage_error "-a nosuch" -a nosuch data
	usage_error "an empty -a" -a '' data
	usage_error "-a ," -a , data
	usage_error "-a sha2 without -l" -a sha2 data
	usage_error "-a sha2 -l 200" -a sha2 -l 200 data
	usage_error "-a sha3 -l 128" -a sha3 -l 128 data
	usage_error "-a sha256 -l 512" -a sha256 -l 512 data
	usage_error "-a blake2b -l 520" -a blake2b -l 520 data
	usage_error "-a blake2b -l 7" -a blake2b -l 7 data
	usage_error "-l 0" -a blake2b -l 0 data
	usage_error "-l abc" -a blake2b -l abc data
	usage_error "-l with two variable algorithms" -a blake2b,shake128 -l 256 data
	usage_error "-a blake2b-N" -a blake2b-N data
	usage_error "-a blake2b-12" -a blake2b-12 data
	usage_error "--format=gnu with two algorithms" --format=gnu -a md5,sha1 data
	usage_error "--format=xml" --format=xml data
	# and the accepted spellings
	multisum -a sha2 -l 256 data > got
	has_line got "$(multisum -a sha256 data)" "-a sha2 -l 256 is sha256"
	multisum -a SHA3 -l 512 data > got
	has_line got "$(multisum -a sha3-512 data)" "-a SHA3 -l 512 is sha3-512"
	multisum -a Blake2B-256 --tag data > got
	has_line got "$(multisum -a blake2b -l 256 --tag data)" "-a Blake2B-256 is blake2b -l 256"
}

run digests_match_reference_tools
run cksum_lines_match_coreutils
run gnu_format_matches_coreutils
run bsd_tags_match_coreutils
run cksum_check_verifies_our_lines
run zero_terminated_lines
run base64_digests
run sfv_format
run ndjson_format
run raw_digest
run all_algorithms
run output_file_is_atomic
run recursive_order
run exclude
run symlinks
run files_from
run files_from_endless_line
run archive
run archive_hard_link
run list_algorithms
run algorithm_usage_errors
finish
