#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# apt-lists.sh - Debian's lists read by -c: InRelease and Release (with
# Release.gpg), Packages (.gz, .xz), .dsc.  The repository and the source
# package are made by Debian's own tools (dpkg-deb, apt-ftparchive,
# dpkg-source), signed with a throwaway gpg key, and every corruption is
# cross-checked with apt itself reading the repository through a file:
# source in a private Dir (and dpkg-source -x for the .dsc): what apt
# refuses, multisum fails, and the other way round.  README's mirror
# recipe is run as written.
. "${TESTS_SRCDIR:-$(dirname "$0")}/lib.sh"

for t in dpkg-deb apt-ftparchive apt-get dpkg-source gpg gpgv xz; do
	have "$t" || skip_test "$t is not installed"
done

# A throwaway key, its public half in key.gpg.
make_key() {
	GNUPGHOME=$PWD/gnupg
	export GNUPGHOME
	mkdir -m 700 "$GNUPGHOME"
	gpg --batch --passphrase '' --quick-gen-key "repo <repo@example.org>" \
	    ed25519 sign 0 > /dev/null 2>&1
	gpg --export > key.gpg
}

# The gpg-agent make_key started, at the end of the test.
stop_key() {
	gpgconf --kill all 2> /dev/null
	return 0
}

# repo/: two tiny packages in pool/, dists/SUITE/main/binary-ARCH/
# Packages (and .gz, .xz), Release, InRelease, Release.gpg; SUITE is
# $suite (stable if unset), ARCH $arch (all if unset).
make_repo() {
	make_key
	s=${suite:-stable} a=${arch:-all}
	mkdir -p repo/pool/main "repo/dists/$s/main/binary-$a"
	for p in alpha beta; do
		mkdir -p "build-$p/DEBIAN" "build-$p/usr/share/$p"
		echo "hello $p" > "build-$p/usr/share/$p/file"
		printf 'Package: %s\nVersion: 1.0\nArchitecture: all\nMaintainer: T <t@example.org>\nDescription: tiny %s\n' \
		    "$p" "$p" > "build-$p/DEBIAN/control"
		dpkg-deb --build -Zgzip "build-$p" \
		    "repo/pool/main/${p}_1.0_all.deb" > /dev/null || return 1
	done
	(cd repo && apt-ftparchive packages pool) > Packages || return 1
	bin=repo/dists/$s/main/binary-$a
	cp Packages "$bin/Packages"
	gzip -9n < Packages > "$bin/Packages.gz"
	xz < Packages > "$bin/Packages.xz"
	sign_release
}

# Release of dists/SUITE as it is now, signed both ways.
sign_release() {
	s=${suite:-stable}
	(cd repo && apt-ftparchive -o APT::FTPArchive::Release::Suite="$s" \
	    -o APT::FTPArchive::Release::Codename="$s" \
	    -o APT::FTPArchive::Release::Architectures="${arch:-all}" \
	    -o APT::FTPArchive::Release::Components=main \
	    release "dists/$s") > Release || return 1
	mv Release "repo/dists/$s/Release"
	rm -f "repo/dists/$s/InRelease" "repo/dists/$s/Release.gpg"
	gpg --batch --clearsign -o "repo/dists/$s/InRelease" \
	    "repo/dists/$s/Release" 2> /dev/null &&
	    gpg --batch -abs -o "repo/dists/$s/Release.gpg" \
	    "repo/dists/$s/Release" 2> /dev/null
}

# apt, on the repository through a file: source, in a private Dir.
apt_here() {
	cd "$apt_top" || return 1
	mkdir -p apt/etc/apt/apt.conf.d apt/etc/apt/preferences.d \
	    apt/etc/apt/trusted.gpg.d apt/var/lib/apt/lists/partial \
	    apt/var/cache/apt/archives/partial apt/var/lib/dpkg
	: > apt/var/lib/dpkg/status
	echo "deb [signed-by=$PWD/key.gpg] file:$PWD/repo stable main" \
	    > apt/etc/apt/sources.list
	cd "${apt_in:-.}" || return 1
	apt-get -q -o Dir="$apt_top/apt" \
	    -o Dir::State::status="$apt_top/apt/var/lib/dpkg/status" \
	    -o Debug::NoLocking=1 -o APT::Architecture=amd64 \
	    -o APT::Architectures=amd64 -o APT::Sandbox::User=root \
	    -o Acquire::Languages=none "$@"
}

# Does apt take the repository (its lists, then alpha's and beta's .debs)?
apt_takes() {
	apt_top=$PWD
	rm -rf apt dl && mkdir dl &&
	    (apt_here update) > apt.out 2>&1 &&
	    ! grep -q '^[EW]:' apt.out &&
	    (apt_in=dl apt_here download alpha beta) >> apt.out 2>&1
}

# The repository as made: both take it.
test_repository() {
	make_repo || fail "the repository could not be made"
	status_is 0 "InRelease, its signature checked" \
	    multisum -c repo/dists/stable/InRelease --keyring=key.gpg > out 2> err
	has_line out "repo/dists/stable/main/binary-all/Packages.xz: OK" \
	    "a file the Release lists, under its folder"
	check "the signature said good" grep -q "good OpenPGP signature" err
	status_is 0 "Release with Release.gpg beside it" \
	    multisum -c repo/dists/stable/Release --keyring=key.gpg > out 2> err
	check "the detached signature named" grep -q "Release.gpg" err
	for p in Packages Packages.gz Packages.xz; do
		status_is 0 "$p: the .debs under the folder above dists/" \
		    multisum -c "repo/dists/stable/main/binary-all/$p" > out 2> err
		has_line out "repo/pool/main/beta_1.0_all.deb: OK" "$p: a .deb"
	done
	(cd repo/dists/stable/main/binary-all &&
	    multisum -c Packages --root=../../../..) > out 2>&1
	has_line out "../../../../pool/main/alpha_1.0_all.deb: OK" "--root"
	(cd repo/dists/stable/main/binary-all && multisum -c Packages.xz) > out 2>&1
	has_line out "../../../../pool/main/beta_1.0_all.deb: OK" \
	    "named from inside dists/: the folder above it found"
	cp repo/dists/stable/main/binary-all/Packages elsewhere
	multisum -c elsewhere > out 2>&1
	check_not "outside dists/: its own folder" grep -q ': OK$' out
	# a Release with SHA256 lines only: every one of them read
	awk '/^SHA512:/ { s = 1; next } /^[^ ]/ { s = 0 } !s' \
	    repo/dists/stable/Release > repo/dists/stable/Release-256
	status_is 0 "a Release of SHA256 lines only" \
	    multisum -c repo/dists/stable/Release-256 > out 2> err
	is "$(grep -c ': OK$' out)" 3 "its three files checked"
	check "SHA256 said" grep -q "its SHA256 hashes are checked" err
	check "apt takes the repository" apt_takes
	[ -s dl/alpha_1.0_all.deb ] || { fail "apt downloaded nothing"; diag - < apt.out; }
	stop_key
}

# A Packages index changed after the Release was signed.
test_packages_corrupt() {
	make_repo || fail "the repository could not be made"
	bin=repo/dists/stable/main/binary-all
	sed 's/tiny alpha/tiny alpha!/' Packages | xz > "$bin/Packages.xz"
	status_is 1 "multisum fails a changed Packages.xz" \
	    multisum -c repo/dists/stable/InRelease --keyring=key.gpg > out 2> err
	has_line out "$bin/Packages.xz: FAILED" "the changed index named"
	has_line out "$bin/Packages: OK" "the others still checked"
	check_not "apt refuses it too" apt_takes
	check "apt's reason: the hash" grep -q "Hash Sum mismatch\|hash sum mismatch\|Hashes" apt.out
	# read as a list itself, a cut Packages.xz is damaged, said so
	head -c 100 "$bin/Packages.gz" > cut.gz
	status_is 1 "a cut Packages.gz, read as a list" \
	    multisum -c cut.gz > out 2> err
	has_line err "multisum: cut.gz: damaged or cut compressed data (gzip, xz)" \
	    "said so"
	stop_key
}

# A .deb changed in the pool (same size: only the hash tells).
test_deb_corrupt() {
	make_repo || fail "the repository could not be made"
	deb=repo/pool/main/beta_1.0_all.deb
	size=$(wc -c < "$deb")
	printf 'X' | dd of="$deb" bs=1 seek=$((size - 1)) conv=notrunc 2> /dev/null
	is "$(wc -c < "$deb")" "$size" "the size kept"
	status_is 0 "the Release still holds (it lists indices only)" \
	    multisum -c repo/dists/stable/InRelease --keyring=key.gpg > out 2> err
	status_is 1 "multisum fails the .deb by Packages" \
	    multisum -c repo/dists/stable/main/binary-all/Packages.gz > out 2> err
	has_line out "$deb: FAILED" "the changed .deb named"
	has_line out "repo/pool/main/alpha_1.0_all.deb: OK" "the other .deb OK"
	check_not "apt refuses it too" apt_takes
	check "apt names the .deb" grep -q "beta" apt.out
	stop_key
}

# A .deb of another size, with the right hash nowhere: apt and multisum
# (size and hash) both refuse a longer file.
test_deb_longer() {
	make_repo || fail "the repository could not be made"
	deb=repo/pool/main/alpha_1.0_all.deb
	echo extra >> "$deb"
	status_is 1 "multisum fails a longer .deb" \
	    multisum -c repo/dists/stable/main/binary-all/Packages > out 2> err
	has_line out "$deb: FAILED" "the longer .deb named"
	check_not "apt refuses it too" apt_takes
	stop_key
}

# A Release whose hash is right but whose size is not, signed: apt and
# multisum both check the size too, of the strongest hash (SHA512).
test_size_lies() {
	make_repo || fail "the repository could not be made"
	rel=repo/dists/stable/Release
	# the SHA256 lines, which neither reads beside SHA512, may lie
	awk '/^SHA256:/ { s = 1; print; next } /^[^ ]/ { s = 0 }
	    s { $2 = $2 + 1; print " " $0; next } { print }' "$rel" > x &&
	    mv x "$rel"
	rm -f repo/dists/stable/InRelease
	gpg --batch --clearsign -o repo/dists/stable/InRelease "$rel" 2> /dev/null
	status_is 0 "SHA256 is not read beside SHA512" \
	    multisum -c repo/dists/stable/InRelease --keyring=key.gpg > out 2> err
	check "which is said" grep -q "its SHA512 hashes are checked" err
	check "apt takes it too" apt_takes
	awk '/^SHA512:/ { s = 1; print; next } /^[^ ]/ { s = 0 }
	    s && $3 == "main/binary-all/Packages.xz" { $2 = $2 + 1; print " " $0; next }
	    { print }' "$rel" > x && mv x "$rel"
	rm -f repo/dists/stable/InRelease
	gpg --batch --clearsign -o repo/dists/stable/InRelease "$rel" 2> /dev/null
	status_is 1 "multisum fails a file of another size" \
	    multisum -c repo/dists/stable/InRelease --keyring=key.gpg > out 2> err
	has_line out "repo/dists/stable/main/binary-all/Packages.xz: FAILED" \
	    "the file named"
	check_not "apt refuses it too" apt_takes
	stop_key
}

# A Release changed after it was signed: a bad signature, nothing read.
test_signature() {
	make_repo || fail "the repository could not be made"
	sed 's/^Suite: stable/Suite: stab1e/' repo/dists/stable/InRelease > x &&
	    mv x repo/dists/stable/InRelease
	status_is 4 "a changed InRelease: bad signature" \
	    multisum -c repo/dists/stable/InRelease --keyring=key.gpg > out 2> err
	check_not "no file checked" test -s out
	check_not "apt refuses it too" apt_takes
	# a wrong Release.gpg: the detached signature of something else
	make_repo_release_gpg_wrong
	status_is 4 "a Release.gpg of other bytes" \
	    multisum -c repo/dists/stable/Release --keyring=key.gpg > out 2> err
	status_is 3 "an InRelease not there: unreadable" \
	    multisum -c repo/dists/oldstable/InRelease > out 2> err
	stop_key
}

make_repo_release_gpg_wrong() {
	echo other > other
	gpg --batch --yes -abs -o repo/dists/stable/Release.gpg other 2> /dev/null
}

# A partial mirror: files the Release lists that are absent are said,
# not failed, unless --strict; apt takes it as long as one index is there.
test_partial_mirror() {
	make_repo || fail "the repository could not be made"
	rm repo/dists/stable/main/binary-all/Packages \
	    repo/dists/stable/main/binary-all/Packages.gz
	status_is 0 "absent files are a partial mirror's" \
	    multisum -c repo/dists/stable/InRelease --keyring=key.gpg > out 2> err
	has_line out "repo/dists/stable/main/binary-all/Packages.xz: OK" \
	    "the file there checked"
	check "the absent files counted" grep -q "2 listed files are absent" err
	status_is 1 "--strict fails them" multisum --strict \
	    -c repo/dists/stable/InRelease --keyring=key.gpg > out 2> err
	check "apt takes it too (Packages.xz is there)" apt_takes
	stop_key
}

# Names that leave the tree are refused, never opened.
test_names_leave() {
	mkdir -p d/dists/x && echo secret > outside
	h=$(sha256sum outside | cut -d' ' -f1)
	{
		echo "Origin: x"
		echo "SHA256:"
		echo " $h 7 ../../../outside"
		echo " $h 7 /etc/passwd"
	} > d/dists/x/Release
	multisum -c d/dists/x/Release > out 2> err
	check_not "refused" test "$?" -eq 0
	check_not "nothing opened outside the tree" grep -q "OK" out
	check "the reason said" grep -q "leaves its folder" err
	{
		echo "Package: p"
		echo "Filename: pool/../../outside"
		echo "SHA256: $h"
	} > d/Packages
	multisum -c d/Packages > out 2> err
	check_not "a Filename with .. refused" test "$?" -eq 0
	check_not "nothing opened" grep -q "OK" out
}

# A .dsc made by dpkg-source -b: its tarball checked, beside it; a
# changed tarball fails both multisum and dpkg-source -x.
test_dsc() {
	make_key
	mkdir -p src/tiny-1.0/debian/source && cd src || return
	echo hello > tiny-1.0/hello.txt
	echo '3.0 (native)' > tiny-1.0/debian/source/format
	printf 'Source: tiny\nMaintainer: T <t@example.org>\nSection: misc\nPriority: optional\n\nPackage: tiny\nArchitecture: all\nDescription: tiny\n tiny.\n' \
	    > tiny-1.0/debian/control
	printf 'tiny (1.0) unstable; urgency=low\n\n  * Initial.\n\n -- T <t@example.org>  Mon, 07 Dec 2026 00:00:00 +0000\n' \
	    > tiny-1.0/debian/changelog
	printf '#!/usr/bin/make -f\n%%:\n\tdh $@\n' > tiny-1.0/debian/rules
	dpkg-source -b tiny-1.0 > /dev/null 2>&1 || fail "dpkg-source -b"
	gpg --batch --clearsign -o tiny_1.0.dsc.signed tiny_1.0.dsc 2> /dev/null
	mv tiny_1.0.dsc.signed tiny_1.0.dsc
	cd ..
	status_is 0 "a signed .dsc, checked with its key" \
	    multisum -c src/tiny_1.0.dsc --keyring=key.gpg > out 2> err
	has_line out "src/tiny_1.0.tar.xz: OK" "its tarball, beside it"
	check "dpkg-source takes it too" dpkg-source -x src/tiny_1.0.dsc x1 > dpkg.out 2>&1
	printf 'X' | dd of=src/tiny_1.0.tar.xz bs=1 seek=40 conv=notrunc 2> /dev/null
	status_is 1 "a changed tarball fails" \
	    multisum -c src/tiny_1.0.dsc --keyring=key.gpg > out 2> err
	has_line out "src/tiny_1.0.tar.xz: FAILED" "the tarball named"
	check_not "dpkg-source refuses it too" dpkg-source -x src/tiny_1.0.dsc x2 > dpkg.out 2>&1
	check "dpkg-source's reason: the checksum" grep -qi "checksum" dpkg.out
	# a .changes, written by hand in its format: a file it lists that
	# is absent fails (an upload is no partial mirror)
	{
		printf 'Format: 1.8\nSource: tiny\nChecksums-Sha256:\n'
		for f in tiny_1.0.dsc tiny_1.0.tar.xz; do
			printf ' %s %s %s\n' "$(sha256sum < "src/$f" | cut -d' ' -f1)" \
			    "$(wc -c < "src/$f")" "$f"
		done
	} > src/tiny_1.0_source.changes
	rm src/tiny_1.0.tar.xz
	status_is 1 "a .changes' file absent fails" \
	    multisum -c src/tiny_1.0_source.changes > out 2> err
	has_line out "src/tiny_1.0.dsc: OK" "the .dsc it lists checked"
	has_line out "src/tiny_1.0.tar.xz: FAILED open or read" "the absent one failed"
	stop_key
}

# An ordinary list is never taken for Debian's, nor the other way round.
test_not_confused() {
	echo hi > f
	sha256sum f > SHA256SUMS
	status_is 0 "a GNU list" multisum -c SHA256SUMS > out 2> err
	has_line out "f: OK" "read as before"
	printf 'Format: 1.8\nFiles:\n x 1 f\n' > x.changes
	multisum -c x.changes > out 2> err
	check_not "a .changes with no SHA256 lists nothing" test "$?" -eq 0
	check "said so" grep -q "no properly formatted" err
}

# README's "Lists software arrives with": every recipe it gives is known
# to a test (this one, torrent.sh's and content-addressed.sh's), and its
# Debian mirror recipe runs as written on a repository of dists/bookworm
# and binary-amd64, with this test's key.gpg for exactly the path
# /usr/share/keyrings/debian-archive-keyring.gpg; then a .deb's flipped
# byte fails it (1), and so does an InRelease changed after signing (4).
test_readme_recipes() {
	sec="Lists software arrives with"
	# 14: 1 here, 3 torrent.sh, 6 content-addressed.sh, 2 python-record.sh
	# (the wheel's and the installed packages' RECORDs; its python3 line
	# is no multisum recipe) and 2 attestation.sh (envelopes, bundle)
	is "$(readme_recipes "$sec" | wc -l | tr -d ' ')" 14 \
	    "README's recipes are all known to the tests"
	readme_recipes "$sec" "A Debian mirror" > recipes
	is "$(wc -l < recipes | tr -d ' ')" 1 "its Debian mirror recipe"
	multisum_on_path
	suite=bookworm arch=amd64
	make_repo || fail "the repository could not be made"
	key=/usr/share/keyrings/debian-archive-keyring.gpg
	line=$(sed "s|$key|$PWD/key.gpg|" recipes)
	check "the keyring's path substituted" test "$line" != "$(cat recipes)"
	status_is 0 "README: $line" sh -c "cd repo && $line" > out 2> err
	has_line out "dists/bookworm/main/binary-amd64/Packages.xz: OK" \
	    "the InRelease's indices checked"
	has_line out "pool/main/beta_1.0_all.deb: OK" "Packages.xz's .debs checked"
	deb=repo/pool/main/beta_1.0_all.deb
	size=$(wc -c < "$deb")
	printf 'X' | dd of="$deb" bs=1 seek=$((size - 1)) conv=notrunc 2> /dev/null
	status_is 1 "README's recipe with a flipped byte in a .deb" \
	    sh -c "cd repo && $line" > out 2> err
	has_line out "pool/main/beta_1.0_all.deb: FAILED" "the .deb named"
	sed 's/^Codename: bookworm$/Codename: trixie/' repo/dists/bookworm/InRelease > x &&
	    mv x repo/dists/bookworm/InRelease
	status_is 4 "README's recipe with a changed InRelease" \
	    sh -c "cd repo && $line" > out 2> err
	lacks out ": OK" "nothing checked"
	stop_key
}

run repository
run packages_corrupt
run deb_corrupt
run deb_longer
run size_lies
run signature
run partial_mirror
run names_leave
run dsc
run not_confused
run readme_recipes
finish
