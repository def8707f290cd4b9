#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# content-addressed.sh - -c DIR of stores whose file names are the
# digests of their contents, made by the real tools: a restic repository
# (verified without its password), an OCI image layout (umoci, else one
# built here by hand), git-lfs objects; --names-are-digests[=ALG] on any
# directory; one flipped byte reported by the file's name with status 1.
# And --tree-digest=go-h1 against golang.org/x/mod's dirhash, built here
# from Debian's golang-golang-x-mod-dev.  README's recipes for them are
# run as written.
. "${TESTS_SRCDIR:-$(dirname "$0")}/lib.sh"

nl='
'

# Change the byte at offset $2 of file $1 (to 0x00, or 0x01 if it was 0).
flip() {
	_b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	if [ "$_b" = 0 ]; then _c='\001'; else _c='\000'; fi
	printf "$_c" | dd of="$1" bs=1 seek="$2" conv=notrunc 2> /dev/null
}

sha() {
	sha256sum "$1" | cut -c1-64
}

test_names_are_digests() {
	mkdir -p s/sub
	printf hello > "s/sub/$(printf hello | sha256sum | cut -c1-64)"
	printf hello > "s/$(printf hello | sha512sum | cut -c1-128)"
	printf x > s/README
	status_is 0 "a store of good names" multisum -c --names-are-digests s > out
	has_line out "s/sub/$(printf hello | sha256sum | cut -c1-64): OK" "a file whose name is its SHA-256"
	has_line out "s/README: not a digest name" "another name is said, skipped"
	has_line out "s/$(printf hello | sha512sum | cut -c1-128): not a digest name" \
	    "a SHA-512 name is not a SHA-256"
	status_is 1 "--strict: a name that is no digest fails" \
	    multisum -c --strict --names-are-digests s > /dev/null
	status_is 0 "=sha512 takes the 128-digit names" \
	    multisum -c --names-are-digests=sha512 s > out
	has_line out "s/$(printf hello | sha512sum | cut -c1-128): OK" "checked by SHA-512"
	# upper-case hex is the same name
	upper=$(printf hello | sha256sum | cut -c1-64 | tr a-f A-F)
	mv s/sub/* "s/sub/$upper"
	status_is 0 "a name in upper case" multisum -c --names-are-digests s > out
	has_line out "s/sub/$upper: OK" "compared as hex"
	printf hellO > "s/sub/$upper"
	status_is 1 "another content fails" multisum -c --names-are-digests s > out 2> err
	has_line out "s/sub/$upper: FAILED" "named FAILED"
	has_line err "multisum: WARNING: 1 computed checksum did NOT match" "the summary"
}

test_symlinks_not_followed() {
	mkdir s out
	printf hello > "out/$(printf hello | sha256sum | cut -c1-64)"
	ln -s "../out/$(printf hello | sha256sum | cut -c1-64)" "s/$(printf hello | sha256sum | cut -c1-64)"
	ln -s ../out s/dir
	status_is 0 "links are not followed" multisum -c --names-are-digests s > out.txt
	lacks out.txt "OK" "nothing outside s was read"
}

test_unknown_directory() {
	mkdir d
	echo x > d/f
	sha256sum d/f > list
	status_is 3 "a directory of no known layout: as ever" multisum -c d 2> err
	has_line err "multisum: d: Is a directory" "coreutils' reason"
	status_is 3 "with --names-are-digests each operand is a directory" \
	    multisum -c --names-are-digests d list > out 2> err
	mkdir -p s/blobs/sha256 && : > s/oci-layout
	status_is 0 "a list beside a store" multisum -c s list > out
	has_line out "d/f: OK" "the list's file checked"
	# with a key every operand is a list to verify, never read unsigned
	: > empty.pub
	multisum -c s list --pubkey=empty.pub > out 2> err
	check "a key: the run fails" [ $? -ne 0 ]
	lacks out "d/f: OK" "the unsigned list is not read beside a store"
	usage_error "an unknown algorithm" -c --names-are-digests=nope d
	usage_error "no operand" -c --names-are-digests
}

test_restic() {
	have restic || { skip_case "restic absent"; pass; return; }
	mkdir files
	random_file files/big 400000
	echo small > files/small
	RESTIC_PASSWORD=x restic init --repo R -q > /dev/null 2>&1
	RESTIC_PASSWORD=x restic backup --repo R -q files > /dev/null 2>&1
	check "restic made its repository" test -f R/config
	unset RESTIC_PASSWORD
	status_is 0 "verified without the password" multisum -c R > out
	check "a pack under data/ checked" grep -q "^R/data/../[0-9a-f]\{64\}: OK$" out
	check "its index checked" grep -q "^R/index/[0-9a-f]\{64\}: OK$" out
	check "its snapshot checked" grep -q "^R/snapshots/[0-9a-f]\{64\}: OK$" out
	check "its key checked" grep -q "^R/keys/[0-9a-f]\{64\}: OK$" out
	lacks out "R/config" "config has no digest name"
	status_is 0 "restic agrees" env RESTIC_PASSWORD=x \
	    restic check --repo R --read-data -q
	pack=$(ls -S R/data/*/* | head -n 1)
	flip "$pack" 1000
	status_is 1 "one flipped byte in a pack" multisum -c R > out
	has_line out "$pack: FAILED" "the pack named"
	status_is 1 "restic refuses it too" env RESTIC_PASSWORD=x \
	    restic check --repo R --read-data -q
}

# An OCI layout by hand: a config, a layer and a manifest, index.json.
oci_by_hand() {
	mkdir -p "$1/blobs/sha256"
	printf '{"imageLayoutVersion":"1.0.0"}' > "$1/oci-layout"
	mkdir layer && echo content > layer/f && tar -C layer -cf layer.tar f
	gzip -n < layer.tar > layer.tgz
	printf '{"architecture":"amd64","os":"linux","rootfs":{"type":"layers","diff_ids":["sha256:%s"]}}' \
	    "$(sha layer.tar)" > config.json
	printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"sha256:%s","size":%s},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar+gzip","digest":"sha256:%s","size":%s}]}' \
	    "$(sha config.json)" "$(wc -c < config.json | tr -d ' ')" \
	    "$(sha layer.tgz)" "$(wc -c < layer.tgz | tr -d ' ')" > manifest.json
	printf '{"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:%s","size":%s}]}' \
	    "$(sha manifest.json)" "$(wc -c < manifest.json | tr -d ' ')" > "$1/index.json"
	for f in config.json layer.tgz manifest.json; do
		cp "$f" "$1/blobs/sha256/$(sha "$f")"
	done
}

test_oci_layout() {
	if have umoci; then
		umoci init --layout L > /dev/null 2>&1
		umoci new --image L:t > /dev/null 2>&1
		check "umoci made blobs" test -d L/blobs/sha256
	else
		skip_case "umoci absent: the layout is made by hand"
		oci_by_hand L
	fi
	mkdir -p L/blobs/sha512
	printf blob > "L/blobs/sha512/$(printf blob | sha512sum | cut -c1-128)"
	status_is 0 "an OCI layout" multisum -c L > out
	n=$(ls L/blobs/sha256 | wc -l)
	is "$(grep -c '^L/blobs/sha256/[0-9a-f]\{64\}: OK$' out)" "$n" "every sha256 blob"
	has_line out "L/blobs/sha512/$(printf blob | sha512sum | cut -c1-128): OK" \
	    "a sha512 blob by its folder's algorithm"
	lacks out "index.json" "index.json is no blob"
	blob=$(ls -S L/blobs/sha256/* | head -n 1)
	flip "$blob" 3
	status_is 1 "a flipped byte in a blob" multisum -c L > out
	has_line out "$blob: FAILED" "the blob named"
}

test_oci_by_hand() {
	oci_by_hand L
	status_is 0 "a layout made by hand" multisum -c L > out
	is "$(grep -c ': OK$' out)" 3 "its three blobs"
}

test_git_lfs() {
	have git-lfs || { skip_case "git-lfs absent"; pass; return; }
	mkdir g && cd g || return
	git init -q && git lfs install --local > /dev/null
	git lfs track '*.bin' > /dev/null
	head -c 5000 /dev/urandom > x.bin
	git add . && git -c user.name=t -c user.email=t@t commit -qm x
	obj=$(find .git/lfs/objects -type f)
	check "git lfs stored the object" test -n "$obj"
	status_is 0 "the repository's objects" multisum -c . > out
	has_line out "./$obj: OK" "the object checked"
	status_is 0 "or .git itself" multisum -c .git > /dev/null
	flip "$obj" 10
	status_is 1 "a flipped byte in an object" multisum -c . > out
	has_line out "./$obj: FAILED" "the object named"
	git lfs fsck > fsck.out 2>&1
	check "git lfs fsck refuses it too" grep -q "corrupt" fsck.out
}

# Go's dirhash, built off-line from Debian's golang-golang-x-mod-dev.
go_h1() {
	[ -x "$ms_tmp/goh1" ] && return 0
	have go && [ -d /usr/share/gocode/src/golang.org/x/mod/sumdb/dirhash ] ||
	    return 1
	mkdir -p "$ms_tmp/gosrc/src/goh1"
	cat > "$ms_tmp/gosrc/src/goh1/main.go" <<'GO'
package main

import (
	"fmt"
	"os"
	"strings"

	"golang.org/x/mod/sumdb/dirhash"
)

func main() {
	var h string
	var err error
	if strings.HasSuffix(os.Args[1], ".zip") {
		h, err = dirhash.HashZip(os.Args[1], dirhash.Hash1)
	} else {
		h, err = dirhash.HashDir(os.Args[1], os.Args[2], dirhash.Hash1)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(h)
}
GO
	(cd "$ms_tmp/gosrc/src/goh1" && GO111MODULE=off GOPATH=/usr/share/gocode \
	    GOCACHE="$ms_tmp/gocache" GOFLAGS= go build -o "$ms_tmp/goh1" .) \
	    > /dev/null 2>&1
}

go_tree() {
	mkdir -p t/a/b t/c
	echo one > t/one
	echo two > t/a/two
	head -c 70000 /dev/urandom > t/a/b/big
	echo dot > t/a.x		# a.x sorts before a/ as Go sorts names
	: > t/c/empty
	echo sp > "t/with space"
}

test_tree_digest_dir() {
	go_h1 || { skip_case "go or golang-golang-x-mod-dev absent"; pass; return; }
	go_tree
	status_is 0 "a directory" multisum --tree-digest=go-h1 t > got
	is "$(cat got)" "$("$ms_tmp/goh1" t "")" "HashDir with no prefix"
	status_is 0 "with a prefix" multisum --tree-digest=go-h1 \
	    --tree-prefix=example.com/m@v1.0.0 t/ > got
	is "$(cat got)" "$("$ms_tmp/goh1" t example.com/m@v1.0.0)" \
	    "HashDir with module@version/"
	echo changed >> t/a/two
	check_not "a changed file changes it" \
	    test "$(multisum --tree-digest=go-h1 t)" = "$(cat got)"
}

test_tree_digest_zip() {
	go_h1 || { skip_case "go or golang-golang-x-mod-dev absent"; pass; return; }
	have zip || { skip_case "zip absent"; pass; return; }
	go_tree
	(cd t && zip -qrD ../m.zip .)
	status_is 0 "a zip" multisum --tree-digest=go-h1 m.zip > got
	is "$(cat got)" "$("$ms_tmp/goh1" m.zip)" "HashZip"
}

test_tree_digest_newline() {
	mkdir t
	echo x > "t/new${nl}line"
	status_is 1 "a name with a newline" multisum --tree-digest=go-h1 t > out 2> err
	check "refused as Go refuses it" grep -q "newline" err
	is "$(cat out)" "" "no value printed"
	if go_h1; then
		check_not "Go refuses it too" "$ms_tmp/goh1" t "" 2> /dev/null
	fi
}

test_tree_digest_usage() {
	mkdir t
	usage_error "an unknown kind" --tree-digest=go-h2 t
	usage_error "two operands" --tree-digest=go-h1 t t
	usage_error "--tree-prefix alone" --tree-prefix=x t
}

# README's store and go-h1 recipes run as written, each on its layout
# made here: /srv/ is this test's srv/ (substituted for exactly "/srv/"),
# ~ is home/ (HOME set); a restic repository and a git-lfs one by their
# tools, an OCI layout by hand, sha512-named files.  Each store then has
# a flipped byte: exit 1, the file FAILED.  The go-h1 lines print Go's
# dirhash (when go is here), and another after a flipped byte.
test_readme_recipes() {
	readme_recipes "Lists software arrives with" \
	    "Stores whose file names are their digests" > recipes
	is "$(wc -l < recipes | tr -d ' ')" 6 "README's store recipes are all known here"
	multisum_on_path
	HOME=$PWD/home
	export HOME
	mkdir -p srv/cas home/src
	while read -r line; do
		line=$(printf '%s\n' "$line" | sed "s| /srv/| $PWD/srv/|")
		case $line in
		*restic-repo*)
			have restic || { skip_case "restic absent"; continue; }
			random_file big 400000
			RESTIC_PASSWORD=x restic init --repo srv/restic-repo -q > /dev/null 2>&1
			RESTIC_PASSWORD=x restic backup --repo srv/restic-repo -q big > /dev/null 2>&1
			file=$(ls -S srv/restic-repo/data/*/* | head -n 1) ;;
		*oci-image/*)
			oci_by_hand oci-image
			file=$(ls -S oci-image/blobs/sha256/* | head -n 1) ;;
		*src/project*)
			have git-lfs || { skip_case "git-lfs absent"; continue; }
			(mkdir home/src/project && cd home/src/project &&
			    git init -q && git lfs install --local > /dev/null &&
			    git lfs track '*.bin' > /dev/null &&
			    head -c 5000 /dev/urandom > x.bin && git add . &&
			    git -c user.name=t -c user.email=t@t commit -qm x)
			file=$(find home/src/project/.git/lfs/objects -type f) ;;
		*names-are-digests=sha512*)
			printf hello > "srv/cas/$(printf hello | sha512sum | cut -c1-128)"
			file=$(ls srv/cas/*) ;;
		*go-h1*m/) go_tree && mv t m; readme_go "$line" m m example.com/m@v1.2.3
			continue ;;
		*go-h1*v1.2.3.zip)
			have zip || { skip_case "zip absent"; continue; }
			go_tree && (cd t && zip -qrD ../v1.2.3.zip .)
			readme_go "$line" t v1.2.3.zip; continue ;;
		*) fail "README recipe without a layout here: $line"; continue ;;
		esac
		status_is 0 "README: $line" sh -c "$line" > out 2> err
		check "README: $line: a file OK" grep -q "${file##*/}: OK\$" out
		flip "$file" 3
		status_is 1 "README: $line, a flipped byte" sh -c "$line" > out 2> err
		check "README: $line: the file FAILED" grep -q "${file##*/}: FAILED\$" out
	done < recipes
}

# readme_go RECIPE TREE OPERAND [PREFIX]: RECIPE prints Go's h1: of
# OPERAND, and another once a file of TREE (or in OPERAND) is changed.
readme_go() {
	status_is 0 "README: $1" sh -c "$1" > got 2> err
	check "README: $1: an h1: digest" grep -q '^h1:[A-Za-z0-9+/]*=$' got
	if go_h1; then
		is "$(cat got)" "$("$ms_tmp/goh1" "$3" "${4:-}")" "README: $1: Go's"
	else
		skip_case "go or golang-golang-x-mod-dev absent"
	fi
	echo changed >> "$2/a/two"
	[ "$2" = "$3" ] || (cd "$2" && zip -qrD "../$3" .)
	check_not "README: $1: a changed file changes it" \
	    test "$(sh -c "$1")" = "$(cat got)"
}

run names_are_digests
run symlinks_not_followed
run unknown_directory
run restic
run oci_layout
run oci_by_hand
run git_lfs
run tree_digest_dir
run tree_digest_zip
run tree_digest_newline
run tree_digest_usage
run readme_recipes
finish
