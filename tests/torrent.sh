#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# torrent.sh - -c FILE.torrent: torrents made by mktorrent and
# transmission-create (v1) and by libtorrent (v2 and hybrid), single- and
# multi-file, verified intact, with a flipped byte (the damaged piece as
# a byte range of its file), a truncated file and a missing one; names
# that could leave the root refused; strict bencoding; --root; -a btv2
# against libtorrent's pieces roots; -a btih against the info hash of
# mktorrent's torrent of the file; README's torrent recipes as written.
. "${TESTS_SRCDIR:-$(dirname "$0")}/lib.sh"

# A python3 that has libtorrent (Debian's python3-libtorrent is for the
# system's python3, which a PATH may put behind another).
LTPY=
for py in python3 /usr/bin/python3; do
	if "$py" -c 'import libtorrent' 2>/dev/null; then
		LTPY=$py
		break
	fi
done

# libtorrent TORRENT PATH v2|hybrid PIECE: a torrent of PATH.
libtorrent() {
	"$LTPY" - "$@" <<'PY'
import os, sys, libtorrent as lt
out, path, kind, piece = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
fs = lt.file_storage()
lt.add_files(fs, path)
t = lt.create_torrent(fs, piece,
    flags=lt.create_torrent.v2_only if kind == "v2" else 0)
lt.set_piece_hashes(t, os.path.dirname(os.path.abspath(path)))
open(out, "wb").write(lt.bencode(t.generate()))
PY
}

# d/a.bin, d/c.bin, d/sub/b.bin (one stream of 220,001 bytes in that
# order), and big.bin; copies to restore them from.
setup() {
	mkdir -p d/sub
	random_file d/a.bin 100000
	random_file d/c.bin 70001
	random_file d/sub/b.bin 50000
	random_file big.bin 300000
	cp -R d d.orig
	cp big.bin big.orig
}

restore() {
	rm -rf d big.bin
	cp -R d.orig d
	cp big.orig big.bin
}

# flip FILE OFFSET: change one byte.
flip() {
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf "\\$(printf '%03o' $(( (b + 1) % 256 )))" |
	    dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# faults_multi TORRENT DAMAGED-LINE: the multi-file torrent of d intact,
# then c.bin with its byte 40000 flipped (DAMAGED-LINE said, the other
# files OK), cut to 60000 bytes, missing.
faults_multi() {
	status_is 0 "$1 intact" multisum -c "$1" > out 2> err
	has_line out "d/a.bin: OK" "$1: a.bin"
	has_line out "d/c.bin: OK" "$1: c.bin"
	has_line out "d/sub/b.bin: OK" "$1: sub/b.bin"
	flip d/c.bin 40000
	status_is 1 "$1: a flipped byte" multisum -c "$1" > out 2> err
	has_line out "$2" "$1: the damaged piece as bytes of c.bin"
	has_line out "d/a.bin: OK" "$1: a.bin untouched"
	has_line out "d/sub/b.bin: OK" "$1: sub/b.bin untouched"
	check "$1: said on stderr" grep -q "1 of 3 files in $1 did NOT" err
	restore
	truncate -s 60000 d/c.bin
	status_is 1 "$1: a short file" multisum -c "$1" > out 2> err
	has_line out "d/c.bin: FAILED short: 60000 of 70001 bytes" "$1: short"
	lacks out "d/a.bin: FAILED" "$1: a.bin not failed"
	restore
	rm d/c.bin
	status_is 1 "$1: a missing file" multisum -c "$1" > out 2> err
	has_line out "d/c.bin: FAILED missing" "$1: missing"
	status_is 0 "$1: --ignore-missing" multisum -c --ignore-missing \
	    --quiet "$1" > out 2> err
	lacks out "FAILED" "$1: the files beside a missing one do not fail"
	restore
}

# faults_single TORRENT DAMAGED-LINE: the same for big.bin, byte 100000.
faults_single() {
	status_is 0 "$1 intact" multisum -c "$1" > out 2> err
	has_line out "big.bin: OK" "$1: OK"
	flip big.bin 100000
	status_is 1 "$1: a flipped byte" multisum -c "$1" > out 2> err
	has_line out "$2" "$1: the damaged piece"
	restore
	truncate -s 200000 big.bin
	status_is 1 "$1: a short file" multisum -c "$1" > out 2> err
	has_line out "big.bin: FAILED short: 200000 of 300000 bytes" "$1: short"
	restore
	rm big.bin
	status_is 1 "$1: a missing file" multisum -c "$1" > out 2> err
	has_line out "big.bin: FAILED missing" "$1: missing"
	restore
}

test_mktorrent() {
	have mktorrent || skip_test "no mktorrent"
	setup
	mktorrent -l 15 -o m.torrent d > /dev/null
	mktorrent -l 15 -o s.torrent big.bin > /dev/null
	# stream byte 140000: piece 4 of 32 KiB, bytes 131072-163839
	faults_multi m.torrent "d/c.bin: FAILED piece 4 (bytes 31072-63839)"
	faults_single s.torrent "big.bin: FAILED piece 3 (bytes 98304-131071)"
}

test_transmission() {
	have transmission-create || skip_test "no transmission-create"
	setup
	HOME=$PWD transmission-create -s 16 -o m.torrent d > /dev/null
	HOME=$PWD transmission-create -s 32 -o s.torrent big.bin > /dev/null
	# stream byte 140000: piece 8 of 16 KiB, bytes 131072-147455
	faults_multi m.torrent "d/c.bin: FAILED piece 8 (bytes 31072-47455)"
	faults_single s.torrent "big.bin: FAILED piece 3 (bytes 98304-131071)"
}

# v1: a piece shared with a missing file cannot be verified, and says so.
test_v1_shared_piece() {
	have mktorrent || skip_test "no mktorrent"
	setup
	mktorrent -l 15 -o m.torrent d > /dev/null
	rm d/c.bin
	status_is 1 "a missing file" multisum -c m.torrent > out 2> err
	has_line out "d/a.bin: NOT VERIFIED piece 3 (bytes 98304-99999): it spans a file missing or cut short" \
	    "the piece a.bin shares with it"
}

test_libtorrent_v2() {
	[ -n "$LTPY" ] || skip_test "no python3-libtorrent"
	setup
	libtorrent m.torrent d v2 32768
	libtorrent s.torrent big.bin v2 32768
	# v2's pieces are per file: c.bin's byte 40000 is its piece 1
	faults_multi m.torrent "d/c.bin: FAILED piece 1 (bytes 32768-65535)"
	faults_single s.torrent "big.bin: FAILED piece 3 (bytes 98304-131071)"
}

test_libtorrent_hybrid() {
	[ -n "$LTPY" ] || skip_test "no python3-libtorrent"
	setup
	libtorrent m.torrent d hybrid 32768
	libtorrent s.torrent big.bin hybrid 16384
	check "padding files in the v1 list" grep -q "4:attr1:p" m.torrent
	faults_multi m.torrent "d/c.bin: FAILED piece 1 (bytes 32768-65535)"
	faults_single s.torrent "big.bin: FAILED piece 6 (bytes 98304-114687)"
}

# a file that is there but cannot be read is status 3 (retry), and one
# longer than the torrent says fails
test_unreadable_and_longer() {
	have mktorrent || skip_test "no mktorrent"
	setup
	mktorrent -l 15 -o m.torrent d > /dev/null
	rm d/c.bin
	mkdir d/c.bin
	status_is 3 "a folder where a file should be" multisum -c m.torrent \
	    > out 2> err
	has_line out "d/c.bin: FAILED open or read: Is a directory" "said"
	restore
	echo more >> d/sub/b.bin
	status_is 1 "a longer file" multisum -c m.torrent > out 2> err
	has_line out "d/sub/b.bin: FAILED longer than the torrent says: 50005 bytes, not 50000" \
	    "said"
	has_line out "d/a.bin: OK" "the others verify"
}

# the default root is the torrent's folder; --root puts it elsewhere
test_root() {
	have mktorrent || skip_test "no mktorrent"
	setup
	mktorrent -l 15 -o m.torrent d > /dev/null
	mkdir t elsewhere
	mv m.torrent t/
	status_is 1 "the torrent's folder" multisum -c t/m.torrent > out 2> err
	has_line out "d/a.bin: FAILED missing" "not beside the torrent"
	mv d elsewhere/
	status_is 0 "--root" multisum -c --root=elsewhere t/m.torrent > out 2> err
	has_line out "d/sub/b.bin: OK" "found under --root"
	usage_error "--root is -c's" --root=x big.bin
}

# bencode mk: a torrent with one file whose path is given (bencoded).
evil() {
	printf 'd4:infod5:filesld6:lengthi5e4:path%see4:name1:x12:piece lengthi16384e6:pieces20:aaaaaaaaaaaaaaaaaaaaee' "$1"
}

test_names_that_leave_the_root() {
	mkdir x
	echo hello > secret
	for p in 'l2:..6:secrete' 'l7:/secrete' 'l0:e' 'l1:.6:secrete' \
	    'l7:x/../..e'; do
		evil "$p" > evil.torrent
		status_is 1 "refused: $p" multisum -c evil.torrent > out 2> err
		check "said: $p" grep -q "could leave the folder" err
		check "nothing verified: $p" test ! -s out
	done
	# a single-file torrent named ".."
	printf 'd4:infod6:lengthi5e4:name2:..12:piece lengthi16384e6:pieces20:aaaaaaaaaaaaaaaaaaaaee' > evil.torrent
	status_is 1 "a name of .." multisum -c evil.torrent > out 2> err
	check "refused" grep -q "could leave the folder" err
}

test_strict_bencoding() {
	good='d4:infod6:lengthi5e4:name1:f12:piece lengthi16384e6:pieces20:aaaaaaaaaaaaaaaaaaaaee'
	printf hello > f
	printf '%s' "$good" > ok.torrent
	status_is 1 "a well-formed torrent (the file does not match)" \
	    multisum -c ok.torrent > out 2> err
	has_line out "f: FAILED piece 0 (bytes 0-4)" "its piece"
	n=0
	for bad in "${good}x" "${good%e}" 'd4:infod6:lengthi05e4:name1:f12:piece lengthi16384e6:pieces20:aaaaaaaaaaaaaaaaaaaaee' \
	    'd4:infod6:lengthi-0e4:name1:f12:piece lengthi16384e6:pieces20:aaaaaaaaaaaaaaaaaaaaee' \
	    'd4:infod4:name1:f6:lengthi5e12:piece lengthi16384e6:pieces20:aaaaaaaaaaaaaaaaaaaaee' \
	    'd4:infod6:lengthi5e4:name1:f12:piece lengthi16384e6:pieces99999999999:aaee' \
	    'd4:infod6:lengthi5e4:name1:f12:piece lengthi99999999999999999999e6:pieces20:aaaaaaaaaaaaaaaaaaaaee' \
	    'd4:infod6:lengthi5e4:name1:f12:piece lengthi16384e6:pieces19:aaaaaaaaaaaaaaaaaaaee'; do
		n=$((n + 1))
		printf '%s' "$bad" > bad.torrent
		status_is 1 "malformed $n refused" multisum -c bad.torrent > out 2> err
		check "malformed $n: said" grep -q "not a valid torrent" err
		check "malformed $n: nothing verified" test ! -s out
	done
	deep=$(awk 'BEGIN { for (i = 0; i < 100000; i++) printf "l"; for (i = 0; i < 100000; i++) printf "e" }')
	printf '%s' "$deep" > deep.torrent
	status_is 1 "deep nesting refused" multisum -c deep.torrent > out 2> err
	check "said" grep -q "nested too deeply" err
}

# -a btv2 is libtorrent's pieces root, on block and piece boundaries
test_btv2_root() {
	[ -n "$LTPY" ] || skip_test "no python3-libtorrent"
	for n in 1 16383 16384 16385 32768 49153 300000; do
		random_file f$n $n
		libtorrent t$n.torrent f$n v2 16384
		want=$("$LTPY" -c "import libtorrent as lt, sys
print(lt.torrent_info(sys.argv[1]).files().root(0))" t$n.torrent)
		is "$(multisum -a btv2 f$n)" "$want  f$n" "btv2 of $n bytes"
	done
	is "$(printf '' | multisum -a btv2)" \
	    "0000000000000000000000000000000000000000000000000000000000000000  -" \
	    "an empty file: no root, zeros"
}

# -a btih is the info hash of mktorrent's torrent of the file (its info
# dict, the last key of the torrent's: length, name, piece length, pieces
# and, with -p, private)
info_hash() {
	python3 -c 'import hashlib, sys
d = open(sys.argv[1], "rb").read()
print(hashlib.sha1(d[d.index(b"4:infod") + 6:-1]).hexdigest())' "$1"
}

test_btih_mktorrent() {
	have mktorrent || skip_test "no mktorrent"
	have python3 || skip_test "no python3"
	for n in 1 32767 32768 32769 200000; do
		random_file "f é $n" $n
		for l in 15 16; do
			mktorrent -l $l -o t.torrent "f é $n" > /dev/null
			is "$(multisum -a btih --piece-size=$((1 << l)) "f é $n")" \
			    "$(info_hash t.torrent)  f é $n" "btih of $n bytes, 2^$l"
			rm t.torrent
		done
		mktorrent -p -l 15 -o p.torrent "f é $n" > /dev/null
		is "$(multisum -a btih --piece-size=32K --private "f é $n")" \
		    "$(info_hash p.torrent)  f é $n" "private btih of $n bytes"
		rm p.torrent
	done
}

# README's torrent recipes run as written: a single-file torrent beside
# its file, a multi-file one whose files are under ~/Downloads (HOME is
# this test's folder; sh expands no ~ after "--root=", so README writes
# "--root ~/Downloads"), made by mktorrent; then a flipped byte in each
# fails it, the damaged piece named.  Its -a btih recipe prints the info
# hash of mktorrent's private torrent of 256K pieces, and another once a
# byte is flipped.
test_readme_recipes() {
	have mktorrent || skip_test "no mktorrent"
	readme_recipes "Lists software arrives with" "Verifying a torrent's files" \
	    > recipes
	is "$(wc -l < recipes | tr -d ' ')" 3 "README's torrent recipes are all known here"
	multisum_on_path
	HOME=$PWD/home
	export HOME
	mkdir -p home/Downloads/album
	random_file debian-13.0.0-amd64-netinst.iso 300000
	mktorrent -l 15 -o debian-13.0.0-amd64-netinst.iso.torrent \
	    debian-13.0.0-amd64-netinst.iso > /dev/null
	for n in 03 04 05; do
		random_file "home/Downloads/album/$n.flac" 70001
	done
	mktorrent -l 15 -o album.torrent home/Downloads/album > /dev/null
	while read -r line; do
		case $line in
		*netinst*) file=debian-13.0.0-amd64-netinst.iso name=$file
			piece="piece 1 (bytes 32768-65535)" ;;
		*album*) file=home/Downloads/album/04.flac name=album/04.flac
			# its byte 40000 is the stream's 110001: piece 3
			piece="piece 3 (bytes 28303-61070)" ;;
		*"btih --piece-size=256K --private big.iso")
			random_file big.iso 600000
			mktorrent -p -l 18 -o big.torrent big.iso > /dev/null
			status_is 0 "README: $line" sh -c "$line" > out 2> err
			has_line out "$(info_hash big.torrent)  big.iso" \
			    "README: $line: mktorrent's info hash"
			flip big.iso 300000
			sh -c "$line" > out 2> err
			lacks out "$(info_hash big.torrent)" \
			    "README: $line: a flipped byte changes it"
			continue ;;
		*) fail "README recipe without a layout here: $line"; continue ;;
		esac
		status_is 0 "README: $line" sh -c "$line" > out 2> err
		has_line out "$name: OK" "README: $line: its file OK"
		flip "$file" 40000
		status_is 1 "README: $line, a flipped byte" sh -c "$line" > out 2> err
		has_line out "$name: FAILED $piece" \
		    "README: $line: the damaged piece named"
	done < recipes
}

run mktorrent
run btih_mktorrent
run transmission
run v1_shared_piece
run libtorrent_v2
run libtorrent_hybrid
run unreadable_and_longer
run root
run names_that_leave_the_root
run strict_bencoding
run btv2_root
run readme_recipes
finish
