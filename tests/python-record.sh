#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# python-record.sh - Python's RECORD read by -c: the wheels Debian ships
# (python3-pip-whl, python3-setuptools-whl) unpacked by python3's zipfile,
# a dist-info that pip installs from one of them (no network), and RECORD
# lines written by Python's own csv and hashlib: quoted names, every
# algorithm the format allows by hashlib's names, md5 and sha1 refused, the lines that may go
# without a digest, names outside the root never read, sizes checked.
. "${TESTS_SRCDIR:-$(dirname "$0")}/lib.sh"

WHEELS=/usr/share/python-wheels

need_wheels() {
	have python3 || skip_test "python3 absent"
	ls "$WHEELS"/*.whl >/dev/null 2>&1 || skip_test "no wheels in $WHEELS"
}

# RECORD lines for the files named, as the wheel format writes them:
# csv.writer, sha256 (or $ALG) in urlsafe base64 without padding.
record() {
	python3 - "${ALG:-sha256}" "$@" <<'PY'
import base64, csv, hashlib, os, sys
w = csv.writer(sys.stdout, lineterminator="\n")
alg = sys.argv[1]
for name in sys.argv[2:]:
    data = open(name, "rb").read()
    d = base64.urlsafe_b64encode(hashlib.new(alg, data).digest()).rstrip(b"=")
    w.writerow([name, alg + "=" + d.decode(), len(data)])
PY
}

test_debian_wheels_verify() {
	need_wheels
	for whl in "$WHEELS"/*.whl; do
		w=$(basename "$whl" .whl)
		python3 -m zipfile -e "$whl" "$w"
		set -- "$w"/*.dist-info/RECORD
		digests=$(grep -c ',sha256=' "$1")
		status_is 0 "$w verifies" multisum -c "$1" > out 2> err
		is "$(grep -c ': OK$' out)" "$digests" "$w: every digest line OK"
		is "$(grep -vc ': OK$' out)" 0 "$w: nothing else said"
		check "$w: names below the folder above *.dist-info" \
		    grep -q "^$w/.*\.py: OK$" out
	done
}

test_wheel_damage_reported() {
	need_wheels
	python3 -m zipfile -e "$WHEELS"/pip-*.whl w 2>/dev/null ||
	    python3 -m zipfile -e "$(ls "$WHEELS"/*.whl | head -n 1)" w
	set -- w/*.dist-info/RECORD
	a=$(grep ',sha256=' "$1" | sed -n 1p | cut -d, -f1)
	b=$(grep ',sha256=' "$1" | sed -n 2p | cut -d, -f1)
	c=$(grep ',sha256=' "$1" | sed -n 3p | cut -d, -f1)
	printf x >> "w/$a"
	rm "w/$b"
	status_is 1 "a changed and a missing file" multisum -c "$1" > out 2> err
	has_line out "w/$a: FAILED" "the changed file failed"
	has_line out "w/$b: FAILED open or read" "the missing file reported"
	has_line out "w/$c: OK" "the others verified"
	# the size alone differs: the digest is right, the line's size not
	sed "s|^\($c,sha256=[^,]*\),[0-9]*\$|\1,1|" "$1" > r && cp r "$1"
	status_is 1 "a wrong size" multisum -c "$1" > out 2> err
	has_line out "w/$c: FAILED" "a file of another size than listed failed"
}

test_installed_dist_info() {
	need_wheels
	set -- "$WHEELS"/pip-*.whl
	[ -f "$1" ] || skip_test "no pip wheel"
	for whl in "$WHEELS"/setuptools-*.whl "$1"; do
		[ -f "$whl" ] && break
	done
	PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
	    python3 "$1/pip" install --quiet --no-deps --target site \
	    "$whl" > /dev/null 2>&1 || skip_test "pip install --target failed"
	set -- site/*.dist-info/RECORD
	check "pip wrote a RECORD" [ -f "$1" ]
	status_is 0 "pip's installed RECORD verifies" multisum -c "$1" > out 2> err
	check "its files are under site/" grep -q '^site/.*: OK$' out
	lacks out "FAILED" "nothing failed"
	# --root from elsewhere: the names are below it
	mkdir elsewhere
	cp "$1" elsewhere/RECORD
	status_is 0 "--root for a RECORD moved away" \
	    multisum -c --root=site elsewhere/RECORD > out 2> err
	check "read below --root" grep -q '^site/.*: OK$' out
}

test_record_lines() {
	have python3 || skip_test "python3 absent"
	mkdir -p r/pkg r/pkg/__pycache__ r/pkg-1.0.dist-info
	echo one > r/pkg/one.py
	echo 'comma, "quote"' > 'r/pkg/a, "b".txt'
	echo two > r/pkg/two.bin
	echo three > r/pkg/three.bin
	echo four > r/pkg/four.bin
	echo cache > r/pkg/__pycache__/one.cpython-311.pyc
	echo outside > outside.txt
	(cd r && record pkg/one.py 'pkg/a, "b".txt' &&
	    ALG=sha384 record pkg/two.bin && ALG=sha512 record pkg/three.bin &&
	    ALG=blake2b record pkg/four.bin &&
	    printf '%s\n' 'pkg/__pycache__/one.cpython-311.pyc,,' \
	    'pkg-1.0.dist-info/RECORD,,') > r/pkg-1.0.dist-info/RECORD
	check "a name with a comma and a quote is quoted" \
	    grep -q '^"pkg/a, ""b"".txt",sha256=' r/pkg-1.0.dist-info/RECORD
	status_is 0 "every allowed form verifies" \
	    multisum -c r/pkg-1.0.dist-info/RECORD > out 2> err
	for f in pkg/one.py 'pkg/a, "b".txt' pkg/two.bin pkg/three.bin \
	    pkg/four.bin; do
		has_line out "r/$f: OK" "$f verified"
	done
	is "$(wc -l < out | tr -d ' ')" 5 "the lines without a digest skipped"
	is "$(wc -c < err | tr -d ' ')" 0 "and nothing said about them"
	# md5 and sha1 are forbidden by the format
	cp r/pkg-1.0.dist-info/RECORD keep
	(cd r && ALG=md5 record pkg/two.bin && ALG=sha1 record pkg/three.bin) \
	    >> r/pkg-1.0.dist-info/RECORD
	status_is 1 "md5 and sha1 refused" \
	    multisum -c r/pkg-1.0.dist-info/RECORD > out 2> err
	is "$(grep -c 'bin: not verified: a digest weaker than sha256' err)" 2 \
	    "said why, for each"
	is "$(grep -c 'r/pkg/two.bin: OK' out)" 1 "the sha384 line alone OK"
	is "$(grep -c 'r/pkg/three.bin: OK' out)" 1 "the sha512 line alone OK"
	is "$(grep -c 'r/pkg/' out)" 5 "no line of md5 or sha1 verified"
	# a name leaving the root is never opened, even a right one
	cp keep r/pkg-1.0.dist-info/RECORD
	(cd r && record ../outside.txt && record "$PWD/../outside.txt") \
	    >> r/pkg-1.0.dist-info/RECORD
	if have strace; then
		traced -f -e trace=open,openat -o trace "$MULTISUM" -c \
		    r/pkg-1.0.dist-info/RECORD > out 2> err
		lacks trace "outside.txt" "neither opened"
	fi
	status_is 1 "names outside the root fail the run" \
	    multisum -c r/pkg-1.0.dist-info/RECORD > out 2> err
	lacks out "outside.txt" "neither outside name verified"
	is "$(grep -c 'outside.txt.*not verified: outside the root' err)" 2 \
	    "both said not verified"
	# a line without a digest that the format does not allow one
	cp keep r/pkg-1.0.dist-info/RECORD
	echo 'pkg/one.py,,' >> r/pkg-1.0.dist-info/RECORD
	status_is 1 "a missing digest" \
	    multisum -c r/pkg-1.0.dist-info/RECORD > out 2> err
	check "said why" grep -q 'not verified: no digest' err
	# hashlib's names ("sha3_256"), not multisum's ("sha3-256")
	cp keep r/pkg-1.0.dist-info/RECORD
	(cd r && ALG=sha3_256 record pkg/two.bin && ALG=sha3_512 record \
	    pkg/two.bin && ALG=sha3_256 record pkg/three.bin |
	    sed 's/,sha3_256=/,sha3-256=/') >> r/pkg-1.0.dist-info/RECORD
	multisum -c r/pkg-1.0.dist-info/RECORD > out 2> err
	is "$(grep -c 'r/pkg/two.bin: OK' out)" 3 "sha3_256 and sha3_512 verify"
	check "sha3-256 is not a RECORD word" \
	    grep -q 'RECORD: 10: a RECORD digest that is not' err
}

test_record_by_content() {
	have python3 || skip_test "python3 absent"
	mkdir -p site/pkg
	echo one > site/pkg/one.py
	(cd site && record pkg/one.py) > list.csv
	status_is 0 "a RECORD by its lines, names below --root" \
	    multisum -c --root=site list.csv > out 2> err
	has_line out "site/pkg/one.py: OK" "read below --root"
	(cd site && record pkg/one.py) > site/list.csv
	(cd site && status_is 0 "without --root: the current folder" \
	    multisum -c list.csv > ../out 2> ../err)
	has_line out "pkg/one.py: OK" "as any list"
	# multisum's own line for a name that looks like a RECORD's end is
	# read as what it is (fuzz-roundtrip found it taken for a RECORD's)
	echo x > 'f,sha256=,0'
	multisum -a crc32c --base64 'f,sha256=,0' > own
	status_is 0 "a GNU line whose name holds a RECORD's shape" \
	    multisum -c -a crc32c own > out 2> err
	has_line out "f,sha256=,0: OK" "read back as multisum wrote it"
}

# README's recipes as written: the python3 line unpacks Debian's pip wheel
# (copied under the name the recipe gives) and the wheel's RECORD then
# verifies.  The installed packages' recipe runs as written on this
# machine's RECORDs, but Debian changed some of its files after their
# RECORD was written (stripped .so, rewritten METADATA: exit 1 here), so
# its verdicts are checked on a stand-in folder for exactly that path, a
# copy of the unpacked wheel; then a flipped byte in a listed file fails
# each recipe.
test_readme_recipes() {
	need_wheels
	sub="A Python wheel or installed package"
	readme_recipes "Lists software arrives with" "$sub" > recipes
	is "$(wc -l < recipes | tr -d ' ')" 2 "README's RECORD recipes are all known here"
	unpack=$(sed -n "/^### $sub\$/,/^##/s/^    \(python3 .*\)/\1/p" \
	    "$TESTS_SRCDIR/../README.md")
	whl=$(echo "$unpack" | sed 's/.* -e \([^ ]*\) .*/\1/')
	[ -f "$WHEELS/$whl" ] || skip_test "no $whl in $WHEELS"
	cp "$WHEELS/$whl" .
	multisum_on_path
	status_is 0 "README: $unpack" sh -c "$unpack" > out 2> err
	dp=/usr/lib/python3/dist-packages
	set -- $dp/*.dist-info/RECORD
	if [ -f "$1" ]; then
		line=$(sed -n '2p' recipes)
		sh -c "$line" > out 2> err
		check "README as written here: every RECORD read (0, or 1 for Debian's changed files)" \
		    [ $? -le 1 ]
		lacks err "RECORD: No such file" "README as written here: no RECORD missing"
	fi
	mkdir dp && cp -R w/. dp/
	sed "s|$dp/|$PWD/dp/|" recipes > r && mv r recipes
	while read -r line; do
		status_is 0 "README: $line" sh -c "$line" > out 2> err
		case $line in
		*--quiet*) is "$(wc -c < out | tr -d ' ')" 0 \
			"README: $line: nothing said of good files" ;;
		*) check "README: $line: its files OK" \
			grep -q '^w/pip/.*\.py: OK$' out
			lacks out FAILED "README: $line: nothing failed" ;;
		esac
	done < recipes
	# the failure path: a flipped byte in a listed file
	line=$(sed -n 2p recipes)
	check "the installed packages' path substituted" \
	    grep -q "$PWD/dp/" recipes
	f=$(grep ',sha256=' w/pip-*.dist-info/RECORD | sed -n 1p | cut -d, -f1)
	for d in w dp; do
		size=$(wc -c < "$d/$f")
		printf 'X' | dd of="$d/$f" bs=1 seek=$((size - 1)) conv=notrunc \
		    2> /dev/null
	done
	for line in "$(sed -n 1p recipes)" "$line"; do
		status_is 1 "README's recipe with a flipped byte: $line" \
		    sh -c "$line" > out 2> err
		check "$line: the file named FAILED" grep -q "/$f: FAILED\$" out
	done
}

run debian_wheels_verify
run wheel_damage_reported
run installed_dist_info
run record_lines
run record_by_content
run readme_recipes
finish
