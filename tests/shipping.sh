#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# shipping.sh - what a distribution needs from the build: the licence
# text and --version lines, the manual's date and sections, the ELF
# dlopen notes (or, with --disable-lazy-loading, ordinary DT_NEEDED
# entries) naming each library, the --without-... builds' messages, and
# the faces' names "make install" links with configure's options.
# Which libraries this build has is read from config.h, so the same file
# tests the default, the linked and the reduced builds.

. "$TESTS_SRCDIR/lib.sh"

top=$(cd "$TESTS_SRCDIR/.." && pwd)
config=${MS_HELPERS:-.}/../config.h

# conf NAME: the value config.h gives NAME (quotes removed), or nothing.
conf() {
	sed -n "s/^#define $1 //p" "$config" 2>/dev/null | tr -d '"'
}

test_licence() {
	check "COPYING is the BSD 2-Clause text" \
	    grep -q "^Redistribution and use in source and binary forms" "$top/COPYING"
	check "COPYING names the holder" \
	    grep -qx "Copyright (c) 2026 the multisum authors" "$top/COPYING"
}

test_version() {
	ver=$(multisum --version | head -n 1 | sed 's/^multisum //')
	multisum --version > got
	printf '%s\n' "multisum $ver" \
	    "Copyright (c) 2026 the multisum authors" \
	    "License BSD-2-Clause: <https://spdx.org/licenses/BSD-2-Clause.html>" \
	    "This is free software: you are free to change and redistribute it." \
	    "There is NO WARRANTY, to the extent permitted by law." > want
	same got want "--version in GNU's shape"
	ln -s "$MULTISUM" sha256sum
	./sha256sum --version > got
	sed "1s/.*/sha256sum (multisum) $ver/" want > want2
	same got want2 "sha256sum --version: the same lines, coreutils' first line"
}

test_manual() {
	man=$top/man/multisum.1
	check "the manual's date is a real date" \
	    grep -qE '^\.TH MULTISUM 1 "[0-9]{4}-[0-9]{2}-[0-9]{2}"' "$man"
	has_line "$man" ".SH COPYRIGHT" "the manual has COPYRIGHT"
	has_line "$man" ".SH AUTHORS" "the manual has AUTHORS"
	if have mandoc; then
		check "mandoc -Tlint finds nothing" mandoc -Tlint "$man"
	else
		skip_case "mandoc absent: the manual is not linted"
	fi
}

# The libraries of this build: "FEATURE SONAME PRIORITY" lines.
libraries() {
	echo "libcrypto $(conf MS_SONAME_CRYPTO) required"
	[ "$(conf MS_HAVE_LIBB2)" = 1 ] && echo "libb2 $(conf MS_SONAME_B2) recommended"
	[ "$(conf MS_HAVE_LIBXXHASH)" = 1 ] &&
		echo "libxxhash $(conf MS_SONAME_XXHASH) recommended"
	[ "$(conf MS_HAVE_LIBARCHIVE)" = 1 ] &&
		echo "libarchive $(conf MS_SONAME_ARCHIVE) suggested"
	return 0
}

test_dlopen_notes() {
	[ -r "$config" ] || skip_test "config.h not found at $config"
	have readelf || skip_test "readelf absent"
	libraries > libs
	readelf -n "$MULTISUM" > notes
	readelf -p .note.dlopen "$MULTISUM" > json 2>/dev/null
	readelf -d "$MULTISUM" > dynamic
	if [ "$(conf MS_LAZY_LOADING)" = 0 ]; then
		# Linked: the libraries are DT_NEEDED, no note is needed.
		while read -r feature soname priority; do
			check "linked build: $soname is NEEDED" \
			    grep -qF "Shared library: [$soname]" dynamic
		done < libs
		lacks notes "0x407c0c0a" "linked build: no dlopen note"
		return
	fi
	is "$(grep -c 'FDO .*0x407c0c0a' notes)" "$(wc -l < libs | tr -d ' ')" \
	    "one FDO note of type 0x407c0c0a per library"
	while read -r feature soname priority; do
		lacks dynamic "[$soname]" "lazy build: $soname is not NEEDED"
		check "a note for $feature" grep -qF \
		    "{\"feature\":\"$feature\",\"description\":\"" json
		check "the note of $feature names $soname, $priority" grep -qF \
		    "\"priority\":\"$priority\",\"soname\":[\"$soname\"]}]" json
	done < libs
	if have python3 && have objcopy; then
		objcopy -O binary --only-section=.note.dlopen "$MULTISUM" notes.bin
		check "each note's payload is a JSON array" python3 -c '
import json, struct, sys
b = open(sys.argv[1], "rb").read(); o = 0; n = 0
while o < len(b):
    namesz, descsz, typ = struct.unpack_from("<III", b, o); o += 12
    assert b[o:o + namesz] == b"FDO\0" and typ == 0x407c0c0a
    o += (namesz + 3) & ~3
    doc = json.loads(b[o:o + descsz].rstrip(b"\0")); o += (descsz + 3) & ~3
    assert isinstance(doc, list) and all("soname" in d for d in doc); n += 1
assert n == int(sys.argv[2])' notes.bin "$(wc -l < libs)"
	else
		skip_case "python3 or objcopy absent: the JSON is not parsed"
	fi
}

# A feature left out by configure says so in --list-algorithms and when
# used; a feature built in never says so.
test_without() {
	[ -r "$config" ] || skip_test "config.h not found at $config"
	multisum --list-algorithms > list
	printf 'abc' > f
	for x in libb2:blake2bp libxxhash:xxh3; do
		lib=${x%%:*} alg=${x#*:}
		flag=$(echo "$lib" | tr 'a-z' 'A-Z')
		if [ "$(conf MS_HAVE_$flag)" = 1 ]; then
			lacks list "(no $lib)" "with $lib: no row says (no $lib)"
			status_is 0 "with $lib: -a $alg works" multisum -a "$alg" f > /dev/null
		else
			check "without $lib: $alg's row says (no $lib)" \
			    grep -q "^$alg .*(no $lib)" list
			status_is 2 "without $lib: -a $alg is refused" multisum -a "$alg" f 2> err
			has_line err "multisum: $alg: this multisum was built without $lib (configure --without-$lib)" \
			    "without $lib: the message names the library"
		fi
	done
	# -a all is every row this build computes, whatever was left out.
	status_is 0 "-a all hashes with what the build has" \
	    multisum -a all f > all.out
	check "-a all prints a SHA256 line" \
	    grep -q '^SHA256 (f) = .*' all.out
	if [ "$(conf MS_HAVE_LIBXXHASH)" = 1 ]; then
		check "-a all includes xxh3 where it is built" grep -q '^XXH3 (f)' all.out
	else
		lacks all.out "XXH3 (f)" "-a all leaves xxh3 out without libxxhash"
	fi
	if [ "$(conf MS_HAVE_LIBARCHIVE)" = 1 ]; then
		tar cf a.tar f
		status_is 0 "with libarchive: --archive works" multisum --archive=a.tar > /dev/null
	else
		status_is 1 "without libarchive: --archive fails" multisum --archive=f 2> err
		has_line err "multisum: f: this multisum was built without libarchive (configure --without-libarchive), so --archive cannot read it" \
		    "without libarchive: the message names the library"
	fi
}

# configure --enable-coreutils-names and --enable-b3sum-name: "make
# install" links each face's name to multisum (and uninstall removes
# them); without them it links none.  A copy of the distributed tree
# (make distdir) is configured with each set and installed into a
# DESTDIR, with this build's program standing in for its own (make -o).
test_face_names() {
	builddir=${MS_HELPERS:-}/..
	[ -f "$builddir/Makefile" ] || skip_test "no build tree (run through make check)"
	have make || skip_test "no make"
	# shellcheck disable=SC2030,SC2031
	( unset MAKEFLAGS MFLAGS MAKELEVEL
	  make -s -C "$builddir" distdir distdir="$PWD/tree" ) > log 2>&1 ||
	    { diag - < log; skip_test "make distdir failed"; }
	for set in "" "--enable-b3sum-name" \
	    "--enable-coreutils-names --enable-b3sum-name"; do
		rm -rf root
		# shellcheck disable=SC2086
		( cd tree && unset MAKEFLAGS MFLAGS MAKELEVEL &&
		  ./configure -q --prefix=/usr $set > ../log 2>&1 &&
		  mkdir -p src && cp "$MULTISUM" src/multisum &&
		  make -s -o src/multisum install-exec DESTDIR="$PWD/../root" \
		      >> ../log 2>&1 ) || { fail "configure $set, install"; diag - < log; continue; }
		ls root/usr/bin | sort | tr '\n' ' ' > got
		case $set in
		"") want="multisum " ;;
		--enable-b3sum-name) want="b3sum multisum " ;;
		*) want="b2sum b3sum cksum md5sum multisum sha1sum sha224sum sha256sum sha384sum sha512sum " ;;
		esac
		is "$(cat got)" "$want" "configure ${set:-with neither}: the names installed"
		if [ -L root/usr/bin/b3sum ]; then
			is "$(readlink root/usr/bin/b3sum)" multisum "b3sum is a link to multisum"
			printf 'hi\n' > f
			root/usr/bin/b3sum f > out 2>&1
			has_line out "$(printf 'hi\n' | multisum -a blake3 | sed 's/-$/f/')" \
			    "installed b3sum answers as b3sum"
		fi
		( cd tree && unset MAKEFLAGS MFLAGS MAKELEVEL &&
		  make -s uninstall DESTDIR="$PWD/../root" ) >> log 2>&1
		is "$(ls root/usr/bin 2>/dev/null)" "" "make uninstall removes every name"
	done
	# a directory of their own, for a distribution that has the tools
	rm -rf root
	( cd tree && unset MAKEFLAGS MFLAGS MAKELEVEL &&
	  make -s -o src/multisum install-exec DESTDIR="$PWD/../root" \
	      facedir=/usr/lib/multisum/faces ) > log 2>&1 ||
	    { fail "install with facedir"; diag - < log; }
	is "$(ls root/usr/bin)" multisum "facedir: bindir holds multisum only"
	is "$(readlink root/usr/lib/multisum/faces/b3sum)" /usr/bin/multisum \
	    "facedir: b3sum links to bindir's multisum"
}

run licence
run version
run manual
run dlopen_notes
run without
run face_names
finish
