#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# signature.sh - signed checksum lists, checked: keys and signatures made
# here by the real tools (signify-openbsd, minisign, gpg), multisum -c
# with --pubkey or --keyring checks them; the failure matrix (format x
# tampering -> every case exit 1 with no OK line, the reason said);
# OpenBSD's own layout against signify -C; standard input; the notes of a
# run without a key; the list read once.  Signing is signing.sh's.  A
# tool that is absent skips its cases, saying so.

. "$TESTS_SRCDIR/lib.sh"

# --------------------------------------------------------------- helpers

# Three files and their BSD-tagged list LIST (signify -C reads only those).
files_and_list() {
	echo one > f1
	echo two > f2
	printf 'three\n' > f3
	echo attacker > f5
	multisum --tag f1 f2 f3 > "$1"
}

signify_keys() {
	"$SIGNIFY" -G -n -c "test $1" -p "$1.pub" -s "$1.sec" > /dev/null 2>&1
}

minisign_keys() {
	minisign -G -W -p "$1.pub" -s "$1.key" < /dev/null > /dev/null 2>&1
}

# A GnuPG home of this test (outside the directories the cases copy),
# and a key NAME in it (expiring at EXPIRE).
gpg_home() {
	GNUPGHOME=$ms_tmp/$ms_name/gnupg-$1
	export GNUPGHOME
	mkdir -m 700 "$GNUPGHOME"
}
gpg_key() {
	gpg --batch --passphrase '' ${FAKE:+--faked-system-time "$FAKE"} \
	    --quick-gen-key "$1 <$1@example.org>" ed25519 sign "${2:-0}" \
	    > /dev/null 2>&1
}
gpg_fpr() {
	gpg --with-colons --list-keys "$1" 2> /dev/null |
	    awk -F: '$1 == "fpr" { print $10; exit }'
}
# Every gpg-agent the test started (one per home) goes at its end.
gpg_stop() {
	for _h in "$ms_tmp/$ms_name"/gnupg-*; do
		[ -d "$_h" ] && GNUPGHOME=$_h gpgconf --kill all 2> /dev/null
	done
	return 0
}

# verified DESC CMD...: f1, f2 and f3 verified, the good signature said
# (lib.sh).
verified() {
	_d=$1
	shift
	signature_verified "$_d" "f1 f2 f3" ': good .* signature' "$@"
}

# Change one character of line L, column C of FILE (to A, or B if it was A).
poke() {
	awk -v L="$2" -v C="$3" -v R="${4:-}" 'NR == L {
		c = substr($0, C, 1)
		r = R != "" ? R : (c == "A" ? "B" : "A")
		$0 = substr($0, 1, C - 1) r substr($0, C + 1)
	} { print }' "$1" > "$1.new" && mv "$1.new" "$1"
}

# poke, in an armoured signature, whose checksum line then goes (it is
# optional): gpgv then judges the signature itself, not the armour.
poke_armour() {
	poke "$@"
	grep -v '^=....$' "$1" > "$1.new" && mv "$1.new" "$1"
}

# One digest of f2's line changed (its first hex digit).
poke_digest() {
	sed '/(f2) = / { s/= a/= b/; t
	    s/= [0-9b-f]/= a/; }' "$1" > "$1.new" && mv "$1.new" "$1"
}

# The line of FILE that matches the RE.
line_of() {
	grep -n -e "$2" "$1" | head -n 1 | cut -d: -f1
}

# --------------------------------------------------------- the formats
# Each setup_FORMAT makes, in the current directory, f1 f2 f3, a signed
# list and the key, and sets CMD (the check), LIST (the file holding the
# list's lines), SIG (the file holding the signature), SIGLINE (the
# line of SIG where the signature's base64 begins), POKELINE (a line of
# it inside the signature proper, not the key id) and KEY.

setup_signify() {
	files_and_list SHA256SUMS
	signify_keys k
	"$SIGNIFY" -S -s k.sec -m SHA256SUMS
	CMD="multisum -c SHA256SUMS --pubkey=k.pub" LIST=SHA256SUMS
	SIG=SHA256SUMS.sig SIGLINE=2 POKELINE=2 KEY=k.pub
}

setup_signify_embedded() {
	files_and_list SHA256
	signify_keys k
	"$SIGNIFY" -S -e -s k.sec -m SHA256 -x SHA256.sig
	rm SHA256
	CMD="multisum -c SHA256.sig --pubkey=k.pub" LIST=SHA256.sig
	SIG=SHA256.sig SIGLINE=2 POKELINE=2 KEY=k.pub
}

setup_minisign() {
	files_and_list SHA256SUMS
	minisign_keys m
	minisign -S -s m.key -m SHA256SUMS < /dev/null > /dev/null 2>&1
	CMD="multisum -c SHA256SUMS --pubkey=m.pub" LIST=SHA256SUMS
	SIG=SHA256SUMS.minisig SIGLINE=2 POKELINE=2 KEY=m.pub
}

setup_pgp_detached() {
	files_and_list SHA256SUMS
	gpg_home detached
	gpg_key signer
	gpg --batch --yes --armor --detach-sign -o SHA256SUMS.asc SHA256SUMS
	gpg --export > keys.gpg
	CMD="multisum -c SHA256SUMS --keyring=keys.gpg" LIST=SHA256SUMS
	SIG=SHA256SUMS.asc SIGLINE=$(( $(line_of SHA256SUMS.asc '^$') + 1 ))
	POKELINE=$((SIGLINE + 1)) KEY=keys.gpg
}

setup_pgp_clearsigned() {
	files_and_list list
	gpg_home clear
	gpg_key signer
	gpg --batch --yes --clearsign -o CHECKSUM list
	rm list
	gpg --export > keys.gpg
	CMD="multisum -c CHECKSUM --keyring=keys.gpg" LIST=CHECKSUM SIG=CHECKSUM
	SIGLINE=$(( $(line_of CHECKSUM '^-----BEGIN PGP SIGNATURE') + 2 ))
	POKELINE=$((SIGLINE + 1)) KEY=keys.gpg
}

# The same list, other content: the signature of another file.
other_signature() {
	mkdir other && cd other || return 1
	echo else > f1
	case $1 in
	signify)
		multisum --tag f1 > SHA256SUMS
		"$SIGNIFY" -S -s ../k.sec -m SHA256SUMS
		cp SHA256SUMS.sig ../SHA256SUMS.sig ;;
	signify_embedded)
		multisum --tag f1 > SHA256
		"$SIGNIFY" -S -e -s ../k.sec -m SHA256 -x SHA256.sig
		# its signature lines over our list
		{ head -n 2 SHA256.sig; tail -n +3 ../SHA256.sig; } > x
		mv x ../SHA256.sig ;;
	minisign)
		multisum --tag f1 > SHA256SUMS
		minisign -S -s ../m.key -m SHA256SUMS < /dev/null > /dev/null 2>&1
		cp SHA256SUMS.minisig .. ;;
	pgp_detached)
		multisum --tag f1 > SHA256SUMS
		gpg --batch --yes --armor --detach-sign -o ../SHA256SUMS.asc SHA256SUMS ;;
	pgp_clearsigned)
		multisum --tag f1 > list
		gpg --batch --yes --clearsign -o CHECKSUM list
		{ sed '/^-----BEGIN PGP SIGNATURE/,$d' ../CHECKSUM
		  sed -n '/^-----BEGIN PGP SIGNATURE/,$p' CHECKSUM; } > x
		mv x ../CHECKSUM ;;
	esac
	cd ..
}

# Append f5's line inside what the signature covers.
add_line() {
	_l=$(multisum --tag f5)
	case $1 in
	pgp_clearsigned)
		awk -v L="$_l" '/^-----BEGIN PGP SIGNATURE/ { print L } { print }' \
		    CHECKSUM > x && mv x CHECKSUM ;;
	*)	echo "$_l" >> "$LIST" ;;
	esac
}

MATRIX=
# record FORMAT CASE: the verdict of the last signature_refused into the
# matrix.
record() {
	MATRIX="$MATRIX
$1|$2|exit $_st, $(grep -c ': OK$' out) OK lines: ${REASON:-no reason said}"
}

# One case: a fresh copy of the format's directory, tampered by the
# commands after the case's name, then checked with CMD.
matrix_case() {
	_fmt=$1 _case=$2
	shift 2
	rm -rf case && cp -R base case && cd case || return
	"$@"
	# shellcheck disable=SC2086
	signature_refused "$_fmt: $_case" $CMD
	record "$_fmt" "$_case"
	cd ..
}

matrix_for() {
	_fmt=$1
	mkdir base && cd base || return
	"setup_$_fmt"
	# shellcheck disable=SC2086
	verified "$_fmt: the signed list verifies" $CMD
	cd ..
	case $_fmt in
	pgp_*) matrix_case "$_fmt" "tampered signature" poke_armour "$SIG" "$POKELINE" 30 ;;
	*) matrix_case "$_fmt" "tampered signature" poke "$SIG" "$POKELINE" 30 ;;
	esac
	matrix_case "$_fmt" "tampered list: one digest" poke_digest "$LIST"
	matrix_case "$_fmt" "tampered list: one name" \
	    sh -c "cp f2 f4 && sed 's/(f2)/(f4)/' $LIST > x && mv x $LIST"
	matrix_case "$_fmt" "tampered list: one added line" add_line "$_fmt"
	matrix_case "$_fmt" "non-base64 signature" poke "$SIG" "$SIGLINE" 30 '*'
	case $_fmt in
	pgp_*)
		matrix_case "$_fmt" "truncated signature" \
		    sh -c "sed '$((SIGLINE + 1)),\$ d' $SIG > x && mv x $SIG"
		matrix_case "$_fmt" "unknown key" \
		    sh -c "GNUPGHOME=\$PWD/gnupg-other; export GNUPGHOME; mkdir -m 700 \$GNUPGHOME;
			gpg --batch --passphrase '' --quick-gen-key other ed25519 sign 0 2>/dev/null;
			gpg --export > keys.gpg; gpgconf --kill all" ;;
	*)
		matrix_case "$_fmt" "truncated signature" \
		    sh -c "sed '$SIGLINE s/^\(.\{40\}\).*/\1/' $SIG > x && mv x $SIG"
		# the right key's bytes, another key number: only the number can tell
		matrix_case "$_fmt" "keynum mismatch" poke "$KEY" 2 6
		matrix_case "$_fmt" "wrong key" sh -c "
			$SIGNIFY -G -n -p w.pub -s w.sec > /dev/null 2>&1 && mv w.pub $KEY" ;;
	esac
	[ "$_fmt" = minisign ] &&
	    matrix_case "$_fmt" "tampered trusted comment" \
		sh -c "sed '3 s/file:/file:x/' $SIG > x && mv x $SIG"
	matrix_case "$_fmt" "signature of another file" other_signature "$_fmt"
	case $_fmt in
	signify_embedded)
		matrix_case "$_fmt" "signature removed" \
		    sh -c "tail -n +3 $SIG > x && mv x $SIG" ;;
	pgp_clearsigned)
		matrix_case "$_fmt" "signature removed" \
		    sh -c "sed -n '4,/^-----BEGIN PGP SIGNATURE/ { /^-----/d; p; }' $SIG > x && mv x $SIG" ;;
	*)	matrix_case "$_fmt" "signature removed" rm "$SIG" ;;
	esac
	rm -rf base case
}

# ----------------------------------------------------------------- tests

test_failure_matrix() {
	for _fmt in signify signify_embedded minisign pgp_detached pgp_clearsigned; do
		case $_fmt in
		signify*) have "$SIGNIFY" || { skip_case "$_fmt: no signify"; continue; } ;;
		minisign) have minisign && have "$SIGNIFY" ||
		    { skip_case "$_fmt: no minisign"; continue; } ;;
		pgp_*) have gpg && have gpgv || { skip_case "$_fmt: no gpg"; continue; } ;;
		esac
		mkdir "$_fmt" && cd "$_fmt" || return
		matrix_for "$_fmt"
		gpg_stop
		cd ..
	done
	diag "the matrix (format | case | verdict):"
	echo "$MATRIX" | sed '/^$/d' | diag -
}

# Expired and revoked OpenPGP keys: gpgv exits 0 for both.
test_pgp_expired_and_revoked() {
	have gpg && have gpgv || skip_test "no gpg"
	files_and_list SHA256SUMS
	gpg_home old
	FAKE=20200101T000000 gpg_key old 2020-06-01
	gpg --batch --yes --faked-system-time 20200301T000000 --detach-sign \
	    -o SHA256SUMS.gpg SHA256SUMS 2> /dev/null
	gpg --export > old.gpg
	check "gpgv itself exits 0 for the expired key" \
	    gpgv --keyring ./old.gpg SHA256SUMS.gpg SHA256SUMS 2> /dev/null
	signature_refused "an expired key" multisum -c SHA256SUMS --keyring=old.gpg
	check "the expiry is said" grep -q 'which has expired' err
	gpg --batch --yes --faked-system-time 20200301T000000 --clearsign \
	    -o CHECKSUM SHA256SUMS 2> /dev/null
	signature_refused "an expired key, clear-signed" multisum -c CHECKSUM --keyring=old.gpg
	rm SHA256SUMS.gpg CHECKSUM
	gpg_home rev
	gpg_key rev
	gpg --batch --yes --detach-sign -o SHA256SUMS.gpg SHA256SUMS
	gpg --export > rev.gpg
	verified "signed by the key, not yet revoked" \
	    multisum -c SHA256SUMS --keyring=rev.gpg
	sed 's/^:-----/-----/' "$GNUPGHOME"/openpgp-revocs.d/*.rev |
	    gpg --batch --import 2> /dev/null
	gpg --export > rev.gpg
	check "gpgv itself exits 0 for the revoked key" \
	    gpgv --keyring ./rev.gpg SHA256SUMS.gpg SHA256SUMS 2> /dev/null
	signature_refused "a revoked key" multisum -c SHA256SUMS --keyring=rev.gpg
	check "the revocation is said" grep -q 'which was revoked' err
	gpg_stop
}

# Every form of OpenPGP key and signature: binary and armoured keyrings,
# .gpg, .asc, .sign and .sig beside the list, --signature, --signer.
test_pgp_forms() {
	have gpg && have gpgv || skip_test "no gpg"
	files_and_list SHA256SUMS
	gpg_home a
	gpg_key signer
	fpr=$(gpg_fpr signer)
	gpg --export > keys.gpg
	gpg --armor --export > keys.asc
	gpg --batch --yes --detach-sign -o sig.bin SHA256SUMS
	for s in gpg asc sign sig; do
		cp sig.bin "SHA256SUMS.$s"
		verified "SHA256SUMS.$s beside it" multisum -c SHA256SUMS --keyring=keys.gpg
		has_line err "multisum: SHA256SUMS: good OpenPGP signature (SHA256SUMS.$s) by signer <signer@example.org>, key $fpr" \
		    "the signer and its fingerprint are said ($s)"
		rm "SHA256SUMS.$s"
	done
	verified "an armoured exported key (dearmoured by multisum)" \
	    multisum -c SHA256SUMS --keyring=keys.asc --signature=sig.bin
	verified "--signer pins the primary key" multisum -c SHA256SUMS \
	    --keyring=keys.gpg --signature=sig.bin --signer="$fpr"
	signature_refused "--signer of another key" multisum -c SHA256SUMS \
	    --keyring=keys.gpg --signature=sig.bin \
	    --signer=0000000000000000000000000000000000000000
	check "it says whose it is" grep -q 'not by --signer' err
	cp keys.gpg kr
	verified "a keyring name without a slash is this directory's" \
	    multisum -c SHA256SUMS --keyring=kr --signature=sig.bin
	# two signatures, one by a key the keyring lacks (Ubuntu's two keys)
	gpg_home b
	gpg_key stranger
	gpg --batch --yes --detach-sign -o sig2.bin SHA256SUMS
	cat sig.bin sig2.bin > SHA256SUMS.gpg
	verified "one good signature of two, the other's key unknown" \
	    multisum -c SHA256SUMS --keyring=keys.gpg
	signature_refused "gpgv missing" env MULTISUM_GPGV=/nonexistent/gpgv \
	    "$MULTISUM" -c SHA256SUMS --keyring=keys.gpg
	check "it says to install gpgv" grep -q 'cannot run /nonexistent/gpgv' err
	gpg_stop
}

# A clear-signed list as OpenPGP signs it: trailing blanks are not signed,
# so they may come and go; what multisum parses is the signed text.
test_pgp_clearsigned_text() {
	have gpg && have gpgv || skip_test "no gpg"
	files_and_list list
	gpg_home c
	gpg_key signer
	gpg --export > keys.gpg
	gpg --batch --yes --clearsign -o CHECKSUM list
	sed '/(f1)/ s/$/   /' CHECKSUM > x && mv x CHECKSUM
	verified "trailing blanks added after signing: still the signed text" \
	    multisum -c CHECKSUM --keyring=keys.gpg
	lacks out 'f1   ' "the name is the signed one, without the blanks"
	{ echo; cat CHECKSUM; echo; } > x && mv x CHECKSUM
	verified "blank lines around the message" multisum -c CHECKSUM --keyring=keys.gpg
	{ multisum --tag f5; cat CHECKSUM; } > x && mv x CHECKSUM
	signature_refused "a line before the message" multisum -c CHECKSUM --keyring=keys.gpg
	check "where it is is said" grep -q 'line 1: text outside the signed message' err
	gpg_stop
}

# Process PID has ended (a zombie whose parent died counts as ended).
gone() {
	! ps -o stat= -p "$1" 2> /dev/null | grep -q '^[^Z]'
}

# A gpgv that does not answer is killed after its time limit (the list's
# signature then counts for nothing); a signal that ends the run kills
# gpgv and removes the dearmoured keyring from TMPDIR.
test_pgp_gpgv_time_limit() {
	have gpg && have gpgv || skip_test "no gpg"
	files_and_list SHA256SUMS
	gpg_home t
	gpg_key signer
	gpg --armor --export > keys.asc
	gpg --batch --yes --detach-sign -o SHA256SUMS.gpg SHA256SUMS
	gpg_stop
	printf '#!/bin/sh\necho $$ > "%s/gpgv.pid"\nexec sleep 300\n' \
	    "$PWD" > hang
	chmod +x hang
	mkdir tmpd
	export TMPDIR="$PWD/tmpd"
	MULTISUM_GPGV=$PWD/hang timeout 30 "$MULTISUM" -c SHA256SUMS \
	    --keyring=keys.asc > out 2> err
	st=$?
	check "a gpgv that hangs is given up on (exit $st)" \
	    [ "$st" -ne 0 -a "$st" -ne 124 ]
	has_line err "multisum: SHA256SUMS: signature not valid: SHA256SUMS.gpg: $PWD/hang did not answer within 3 s (killed; MULTISUM_GPGV_TIMEOUT sets the limit); no file checked" \
	    "one line names the list and the time limit"
	lacks out ': OK' "no file is reported OK"
	check "the hanging gpgv was killed" \
	    gone "$(cat gpgv.pid)"
	is "$(ls tmpd)" "" "no keyring is left in TMPDIR"
	MULTISUM_GPGV_TIMEOUT=1 MULTISUM_GPGV=$PWD/hang timeout 30 \
	    "$MULTISUM" -c SHA256SUMS --keyring=keys.asc > out 2> err
	check "MULTISUM_GPGV_TIMEOUT sets the limit" grep -q 'within 1 s' err
	MULTISUM_GPGV_TIMEOUT=x "$MULTISUM" -c SHA256SUMS --keyring=keys.asc \
	    > out 2> err
	check "a limit that is no number is said" \
	    grep -q 'MULTISUM_GPGV_TIMEOUT=x is not a number of seconds' err
	verified "a real gpgv answers within the limit" \
	    multisum -c SHA256SUMS --keyring=keys.asc
	for sig in TERM HUP INT; do
		rm -f gpgv.pid
		# a background job of sh ignores INT: set -m gives it its own
		(set -m; MULTISUM_GPGV_TIMEOUT=120 MULTISUM_GPGV=$PWD/hang \
		    exec "$MULTISUM" -c SHA256SUMS --keyring=keys.asc \
		    > out 2> err) &
		pid=$!
		wait_for "gpgv started" test -s gpgv.pid
		is "$(ls tmpd | wc -l | tr -d ' ')" 1 \
		    "SIG$sig: the keyring is in TMPDIR while gpgv runs"
		kill -"$sig" "$pid"
		wait "$pid"
		st=$?
		sleep 0.2
		check "SIG$sig ends the run (exit $st)" [ "$st" -gt 128 ]
		check "SIG$sig kills gpgv" \
		    gone "$(cat gpgv.pid)"
		is "$(ls tmpd)" "" "SIG$sig removes the keyring from TMPDIR"
		kill "$(cat gpgv.pid)" 2> /dev/null
	done
}

# signify and minisign: both of minisign's forms, the key as base64, and
# a key made by signify used for minisign's format (they share it).
test_ed25519_forms() {
	have minisign || skip_test "no minisign"
	files_and_list SHA256SUMS
	minisign_keys m
	minisign -S -s m.key -m SHA256SUMS < /dev/null > /dev/null 2>&1
	verified "minisign's prehashed signature" multisum -c SHA256SUMS --pubkey=m.pub
	check "the trusted comment is shown" \
	    grep -q 'trusted comment: timestamp:[0-9]*	file:SHA256SUMS	hashed$' err
	verified "the key as minisign -P's base64" \
	    multisum -c SHA256SUMS --pubkey="$(tail -n 1 m.pub)"
	minisign -S -l -s m.key -m SHA256SUMS < /dev/null > /dev/null 2>&1
	verified "minisign's legacy signature" multisum -c SHA256SUMS --pubkey=m.pub
	for k in nothing.pub RWQnothing SHA256SUMS; do
		status_is 4 "--pubkey=$k: unusable, it fails before any list" \
		    multisum -c SHA256SUMS --pubkey="$k" > out 2> err
		lacks out ': OK' "--pubkey=$k: nothing is checked"
		check "--pubkey=$k: it is named" grep -q "$k" err
	done
}

# minisign's trusted comment is printable text (its is_printable):
# UTF-8 with no control character but tab.  A refused one is said as
# such; printable text that is not what was signed fails the signature.
test_minisign_trusted_printable() {
	have minisign || skip_test "no minisign"
	setup_minisign
	cp "$SIG" signed
	for c in '\302\205' '\177' '\001' '\300\257' '\355\240\200'; do
		sed "3 s/file:/file:$(printf "$c")/" signed > "$SIG"
		signature_refused "trusted comment with $c" $CMD
		is "$REASON" "SHA256SUMS.minisig: not a minisign signature: its trusted comment is too long or not printable text" \
		    "$c: not printable"
	done
	for c in '\303\251' '\302\240' '\t' '\364\217\277\277'; do
		sed "3 s/file:/file:$(printf "$c")/" signed > "$SIG"
		signature_refused "trusted comment with $c" $CMD
		lacks err "not printable" "$c: printable"
	done
}

# OpenBSD's layout, as on its mirrors: SHA256.sig embedded over the files;
# multisum -c SHA256.sig agrees with signify -C.
test_openbsd_layout() {
	have "$SIGNIFY" || skip_test "no signify"
	signify_keys openbsd-76-base
	for f in base76.tgz comp76.tgz bsd.rd; do
		head -c 3000 /dev/urandom > "$f"
	done
	multisum --tag base76.tgz comp76.tgz bsd.rd > SHA256
	"$SIGNIFY" -S -e -s openbsd-76-base.sec -m SHA256 -x SHA256.sig
	"$SIGNIFY" -C -p openbsd-76-base.pub -x SHA256.sig > signify.out 2>&1
	is "$?" 0 "signify -C accepts it"
	multisum -c SHA256.sig --pubkey=openbsd-76-base.pub > out 2> err
	is "$?" 0 "multisum -c SHA256.sig --pubkey accepts it"
	grep ': OK$' signify.out | sort > want
	grep ': OK$' out | sort > got
	same got want "the same files OK as signify -C"
	is "$(wc -l < got | tr -d ' ')" 3 "all three"
	check "the good signature is said" grep -qx \
	    'multisum: SHA256.sig: good signify signature (at its top, key [0-9A-F]*)' err
	is "$(wc -l < err | tr -d ' ')" 1 "and nothing else (its two lines are not parsed)"
	status_is 0 "--strict: no improper line" multisum -c --strict SHA256.sig \
	    --pubkey=openbsd-76-base.pub > out 2> err
	# a tampered signature: both refuse
	poke SHA256.sig 2 40
	"$SIGNIFY" -C -p openbsd-76-base.pub -x SHA256.sig > signify.out 2>&1
	is "$?" 1 "signify -C refuses a tampered signature"
	signature_refused "multisum refuses it too" multisum -c SHA256.sig --pubkey=openbsd-76-base.pub
}

# Standard input: read once; a detached signature needs --signature.
test_standard_input() {
	have "$SIGNIFY" || skip_test "no signify"
	files_and_list SHA256
	signify_keys k
	"$SIGNIFY" -S -e -s k.sec -m SHA256 -x SHA256.sig
	"$SIGNIFY" -S -s k.sec -m SHA256 -x SHA256.det
	verified "an embedded signature on standard input" \
	    sh -c '"$MULTISUM" -c --pubkey=k.pub < SHA256.sig'
	signature_refused "a detached signature of standard input, unnamed" \
	    sh -c '"$MULTISUM" -c --pubkey=k.pub - < SHA256'
	check "it says to name it" grep -q 'needs --signature=FILE' err
	check "it says what it found no trace of" \
	    grep -q 'found no signify signature in it' err
	verified "named with --signature" \
	    sh -c '"$MULTISUM" -c --pubkey=k.pub --signature=SHA256.det < SHA256'
	poke_digest SHA256
	signature_refused "a tampered list on standard input" \
	    sh -c '"$MULTISUM" -c --pubkey=k.pub --signature=SHA256.det < SHA256'
}

# The list is opened once: what is verified is what is parsed.
test_list_read_once() {
	have strace || skip_test "no strace"
	have "$SIGNIFY" || skip_test "no signify"
	files_and_list SHA256SUMS
	signify_keys k
	"$SIGNIFY" -S -s k.sec -m SHA256SUMS
	traced -f -e trace=open,openat -o trace \
	    "$MULTISUM" -c SHA256SUMS --pubkey=k.pub > out 2> err
	is "$?" 0 "it verifies under strace"
	is "$(grep -c '"SHA256SUMS"' trace)" 1 "SHA256SUMS is opened once"
	is "$(grep -c '"SHA256SUMS.sig"' trace)" 1 "its signature once"
}

# Without a key: the files are checked, one line says the signature was not.
test_notes_without_key() {
	have "$SIGNIFY" || skip_test "no signify"
	files_and_list SHA256SUMS
	signify_keys k
	cp SHA256SUMS SHA256
	"$SIGNIFY" -S -s k.sec -m SHA256SUMS
	"$SIGNIFY" -S -e -s k.sec -m SHA256 -x SHA256.sig
	status_is 0 "a list with a signature beside it" multisum -c SHA256SUMS > out 2> err
	has_line out "f2: OK" "its files are checked"
	has_line err "multisum: SHA256SUMS: its signature SHA256SUMS.sig was NOT checked (check it with --pubkey=KEY.pub)" \
	    "one line says its signature was not checked"
	is "$(wc -l < err | tr -d ' ')" 1 "and only that"
	status_is 0 "signify's embedded form" multisum -c --strict SHA256.sig > out 2> err
	has_line out "f3: OK" "its files are checked (the signature lines skipped)"
	has_line err "multisum: SHA256.sig: the signify signature at its top was NOT checked (check it with --pubkey=KEY.pub)" \
	    "one line says so"
	is "$(wc -l < err | tr -d ' ')" 1 "and only that"
	mv SHA256SUMS.sig SHA256SUMS.gpg
	multisum -c SHA256SUMS > out 2> err
	check "an OpenPGP signature beside it: --keyring" \
	    grep -q 'SHA256SUMS.gpg was NOT checked (check it with --keyring=KEYRING)' err
	status_is 0 "--status prints no OK, and still the note" \
	    multisum -c --status SHA256SUMS > out 2> err
	check "the note" grep -q 'NOT checked' err
	rm SHA256SUMS.gpg
	multisum -c SHA256SUMS > out 2> err
	check "an unsigned list: no note" test ! -s err
	# signify's first line without its second: two lines of the list
	{ echo "untrusted comment: not a signature"; cat SHA256SUMS; } > odd
	status_is 1 "a comment line alone is an improper line (--strict)" \
	    multisum -c --strict odd > out 2> err
	has_line out "f1: OK" "the line after it is verified"
	check "and no note of a signature" sh -c '! grep -q "NOT checked" err'
}

# A real OpenPGP file of this machine: apt's InRelease, clear-signed by
# Debian's archive keys, checked with Debian's keyring (where present).
test_debian_inrelease() {
	have gpgv || skip_test "no gpgv"
	kr=/usr/share/keyrings/debian-archive-keyring.gpg
	f=$(ls /var/lib/apt/lists/*_InRelease 2> /dev/null | head -n 1)
	[ -r "$kr" ] && [ -n "$f" ] || skip_test "no apt InRelease and Debian keyring here"
	cp "$f" InRelease
	multisum -c InRelease --keyring="$kr" > out 2> err
	check "Debian's clear-signed InRelease: a good signature" \
	    grep -q '^multisum: InRelease: good OpenPGP signature (clear-signed) by ' err
	awk '!d && /^Suite: / { sub(/^Suite: /, "Suite: x"); d = 1 } { print }' \
	    InRelease > x && mv x InRelease
	signature_refused "one word of it changed" multisum -c InRelease --keyring="$kr"
}

run failure_matrix
run pgp_expired_and_revoked
run pgp_forms
run pgp_clearsigned_text
run pgp_gpgv_time_limit
run ed25519_forms
run minisign_trusted_printable
run openbsd_layout
run standard_input
run list_read_once
run notes_without_key
run debian_inrelease
finish
