#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# signing.sh - signed lists, written: -o LIST --sign=KEY with the real
# tools' keys (minisign, encrypted or not; signify without a passphrase),
# checked by the real tools (minisign -V, signify -V and -C); the list and
# its signature written both or neither, and an old signature never beside
# a new list (a rename failure injected with strace); --generate-key's
# keys used by minisign; the passphrase typed on a real terminal (tmux);
# the option rules; and README's "Checking a download" recipes, run as
# written, good and tampered.  Checking is signature.sh's.

. "$TESTS_SRCDIR/lib.sh"

files() {
	echo one > f1
	echo two > f2
}

# minisign -V's verdict on LIST with PUB.
minisign_ok() {
	check "$1: minisign -V verifies it" sh -c \
	    "minisign -V -q -p '$3' -m '$2' > /dev/null 2>&1"
}

# --------------------------------------------------------------- minisign

test_minisign_keys() {
	have minisign || skip_test "no minisign"
	files
	minisign -G -W -p plain.pub -s plain.key < /dev/null > /dev/null 2>&1
	status_is 0 "signed with minisign's unencrypted key" \
	    multisum -o SHA256SUMS --sign=plain.key f1 f2
	minisign_ok "unencrypted key" SHA256SUMS plain.pub
	check "the trusted comment is minisign's" \
	    grep -q '^trusted comment: timestamp:[0-9]*	file:SHA256SUMS	hashed$' SHA256SUMS.minisig
	status_is 0 "multisum -c checks it too" \
	    multisum -c SHA256SUMS --pubkey=plain.pub > out 2> err
	# an encrypted key: minisign reads the passphrase from standard input
	printf 'pass word\npass word\n' | minisign -G -p enc.pub -s enc.key > /dev/null 2>&1
	printf 'pass word\n' > pw
	status_is 0 "signed with minisign's encrypted key (scrypt)" \
	    multisum -o S2 --sign=enc.key --passphrase-file=pw f1 f2
	minisign_ok "encrypted key" S2 enc.pub
	printf 'wrong\n' > bad
	status_is 1 "a wrong passphrase" \
	    multisum -o S3 --sign=enc.key --passphrase-file=bad f1 f2 > out 2> err
	has_line err "multisum: enc.key: wrong passphrase for this key" "it says so"
	check "nothing written" test ! -e S3 -a ! -e S3.minisig
	if have setsid; then
		setsid "$MULTISUM" -o S3 --sign=enc.key f1 f2 > out 2> err < /dev/null
		is "$?" 1 "no terminal, no --passphrase-file: refused"
		check "it says how" grep -q 'give --passphrase-file=FILE' err
	else
		skip_case "no setsid"
	fi
}

test_generated_keys() {
	have minisign || skip_test "no minisign"
	files
	status_is 0 "--generate-key --no-passphrase" \
	    multisum --generate-key=plain --no-passphrase > out 2> err
	check "the secret key is private" sh -c \
	    '[ "$(stat -c %a plain.key)" = 600 ]'
	check "it is not encrypted (minisign's \"Ed\\0\\0B2\")" \
	    sh -c 'sed -n 2p plain.key | grep -q "^RWQAAEIy"'
	check "the public key's comment names its id" \
	    grep -q '^untrusted comment: minisign public key [0-9A-F]\{16\}$' plain.pub
	minisign -S -s plain.key -m f1 < /dev/null > /dev/null 2>&1
	minisign_ok "minisign signs with multisum's key" f1 plain.pub
	multisum -o SUMS --sign=plain.key f1 f2
	minisign_ok "multisum signs with it" SUMS plain.pub
	status_is 1 "an existing pair is never replaced" \
	    multisum --generate-key=plain --no-passphrase > out 2> err
	check "it says so" grep -q 'plain.key: exists: not replaced' err
	printf 'sekrit\n' > pw
	status_is 0 "--generate-key with --passphrase-file" \
	    multisum --generate-key=enc --passphrase-file=pw > out 2> err
	check "it is encrypted (minisign's \"Ed\" \"Sc\" \"B2\")" \
	    sh -c 'sed -n 2p enc.key | grep -q "^RWRTY0Iy"'
	echo sekrit | minisign -S -s enc.key -m f2 > /dev/null 2>&1
	minisign_ok "minisign opens multisum's encrypted key" f2 enc.pub
	: > empty
	status_is 1 "an empty passphrase is refused" \
	    multisum --generate-key=e --passphrase-file=empty > out 2> err
	check "no key written" test ! -e e.key -a ! -e e.pub
	if have setsid; then
		setsid "$MULTISUM" --generate-key=tty > out 2> err < /dev/null
		st=$?
		check "no terminal, no --passphrase-file: refused (exit $st)" \
		    [ "$st" -ne 0 ]
		check "no secret key is written unencrypted" \
		    test ! -e tty.key -a ! -e tty.pub
		has_line err "multisum: no terminal to ask a passphrase on: tty.key not written (--passphrase-file=FILE encrypts it, --no-passphrase leaves it unencrypted)" \
		    "a line says what to give"
		setsid "$MULTISUM" --generate-key=tty --no-passphrase > out 2> err \
		    < /dev/null
		is "$?" 0 "no terminal, --no-passphrase: an unencrypted key"
		check "as asked (minisign's \"Ed\\0\\0B2\")" \
		    sh -c 'sed -n 2p tty.key | grep -q "^RWQAAEIy"'
	else
		skip_case "no setsid"
	fi
}

# ---------------------------------------------------------------- signify

test_signify_keys() {
	have "$SIGNIFY" || skip_test "no signify"
	files
	"$SIGNIFY" -G -n -p rel.pub -s rel.sec > /dev/null 2>&1
	status_is 0 "signed with signify's key" multisum -o SHA256SUMS --sign=rel.sec f1 f2
	check "signify -V verifies it" \
	    "$SIGNIFY" -V -q -p rel.pub -m SHA256SUMS
	check "signify's comment" grep -qx 'untrusted comment: verify with rel.pub' SHA256SUMS.sig
	status_is 0 "the embedded form, BSD lines" \
	    multisum --tag -o SHA256 --sign=rel.sec --sign-embedded f1 f2
	check "signify -C checks it" "$SIGNIFY" -C -q -p rel.pub -x SHA256.sig
	check "signify -V -e verifies it" \
	    "$SIGNIFY" -V -e -q -p rel.pub -x SHA256.sig -m msg
	same msg SHA256 "its message is the list"
	status_is 0 "multisum -c SHA256.sig checks it" \
	    multisum -c SHA256.sig --pubkey=rel.pub > out 2> err
	# without --tag: BSD lines all the same, which signify -C reads
	status_is 0 "the embedded form without --tag" \
	    multisum -o SHA256 --sign=rel.sec --sign-embedded f1 f2 > out 2> err
	check "signify -C checks it (without --tag)" \
	    "$SIGNIFY" -C -q -p rel.pub -x SHA256.sig
	has_line err "multisum: --sign-embedded: the lines are BSD-tagged, as --tag writes them (signify -C reads no other)" \
	    "a note says the lines are tagged"
	usage_error "--sign-embedded with --untagged" -o S4 --sign=rel.sec \
	    --sign-embedded --untagged f1
	"$MULTISUM" -o S4 --sign=rel.sec --sign-embedded --untagged f1 2> err
	has_line err "multisum: --sign-embedded writes BSD-tagged lines (signify -C reads no other), not --format=gnu (--untagged)" \
	    "the refusal says why"
	usage_error "--sign-embedded with --format=ndjson" -o S4 \
	    --sign=rel.sec --sign-embedded --format=ndjson f1
	usage_error "--sign-embedded with -z" -o S4 --sign=rel.sec \
	    --sign-embedded -z f1
	check "nothing written by the refused runs" test ! -e S4 -a ! -e S4.sig
	# a passphrase-protected signify key: bcrypt_pbkdf is not libcrypto's
	echo pw | "$SIGNIFY" -G -p enc.pub -s enc.sec > /dev/null 2>&1
	status_is 1 "a passphrase-protected signify key is refused" \
	    multisum -o S2 --sign=enc.sec f1 > out 2> err
	check "saying why" grep -q 'bcrypt_pbkdf, which libcrypto lacks' err
	check "nothing written" test ! -e S2 -a ! -e S2.sig
	minisign -G -W -p m.pub -s m.key < /dev/null > /dev/null 2>&1 &&
	    status_is 1 "--sign-embedded with a minisign key" \
		multisum -o S3 --sign=m.key --sign-embedded f1 > out 2> err
}

# ------------------------------------------------- both or neither

test_written_together() {
	have minisign || skip_test "no minisign"
	files
	multisum --generate-key=k --no-passphrase > /dev/null
	multisum -o SUMS --sign=k.key f1
	cp SUMS old.list
	cp SUMS.minisig old.sig
	status_is 3 "an unreadable input" multisum -o SUMS --sign=k.key f1 missing \
	    > out 2> err
	same SUMS old.list "the old list stays"
	same SUMS.minisig old.sig "the old signature stays"
	status_is 0 "and the pair still checks" multisum -c SUMS --pubkey=k.pub > out 2> err
	echo 'not a signature' > T.minisig
	status_is 1 "a file that is no signature is never replaced" \
	    multisum -o T --sign=k.key f1 > out 2> err
	check "it says so" grep -q 'T.minisig: exists and is not a signature' err
	check "and writes no list either" test ! -e T
	mkdir d && cp f1 f2 d/ && multisum -r -o d/SUMS --sign=k.key d
	multisum -r -o d/SUMS --sign=k.key d
	lacks d/SUMS 'SUMS.minisig' "the list never lists its own signature"
	status_is 0 "the re-signed tree checks" multisum -c d/SUMS --pubkey=k.pub > out 2> err
	# a crash between the two renames, faked: the list's rename fails
	have strace || { skip_case "no strace: rename failures not injected"; return; }
	echo changed > f1
	traced -f -o /dev/null -e inject=rename:error=EIO:when=2 \
	    "$MULTISUM" -o SUMS --sign=k.key f1 > out 2> err
	is "$?" 3 "the list's rename failed: exit 3"
	same SUMS old.list "mid-way: the old list"
	check "beside the new signature" sh -c '! cmp -s SUMS.minisig old.sig'
	refused=$("$MULTISUM" -c SUMS --pubkey=k.pub 2>&1 > out)
	is "$?" 4 "which does not verify it"
	lacks out ': OK' "no file is reported OK"
	case $refused in
	*"BAD signature"*) pass ;;
	*) fail "a bad signature is said: $refused" ;;
	esac
	traced -f -o /dev/null -e inject=rename:error=EIO:when=1 \
	    "$MULTISUM" -o SUMS --sign=k.key f1 > out 2> err
	is "$?" 3 "the signature's rename failed: exit 3"
	check "the list untouched" sh -c '! grep -q "$("$MULTISUM" f1 | cut -c1-64)" SUMS'
	check "no temporary left" sh -c '! ls -A | grep -q "^\.SUMS"'
}

# ------------------------------------------------------- on a terminal

# tmux: wait until the pane shows TEXT (COUNT times: default once); a
# bound against a hang, not a timing assertion.  Keys go only after the
# prompt: echo is turned off with TCSAFLUSH, which drops what came before.
pane_shows() {
	_n=0
	while [ $_n -lt 1500 ]; do
		[ "$(tmux -L "$SOCK" capture-pane -p -t t 2> /dev/null |
		    grep -cF -e "$1")" -ge "${2:-1}" ] && return 0
		sleep 0.2
		_n=$((_n + 1))
	done
	return 1
}

test_passphrase_on_a_terminal() {
	have tmux || skip_test "no tmux"
	have minisign || skip_test "no minisign"
	unset TMUX
	SOCK=multisum-test-$$
	files
	cat > run.sh <<-EOF
	trap 'echo interrupted' INT
	"$MULTISUM" --generate-key=t; echo \$? > gen.done
	"$MULTISUM" -o SUMS --sign=t.key f1; echo \$? > sign.done
	"$MULTISUM" -o S2 --sign=t.key f1; echo \$? > wrong.done
	"$MULTISUM" -o S3 --sign=t.key f1; echo \$? > int.done
	ls -A > ls.out; stty -a > stty.out; echo > all.done
	exec sleep 600
	EOF
	tmux -L "$SOCK" -f /dev/null new-session -d -s t -x 120 -y 30 "sh run.sh"
	check "asked for a new passphrase" pane_shows "Passphrase for the new key:"
	tmux -L "$SOCK" send-keys -t t "s3kr1t" Enter
	check "asked again" pane_shows "The same passphrase again:"
	tmux -L "$SOCK" send-keys -t t "s3kr1t" Enter
	check "asked to unlock the key" pane_shows "Passphrase of the minisign key:"
	tmux -L "$SOCK" send-keys -t t "s3kr1t" Enter
	check "asked again for the second signing" \
	    pane_shows "Passphrase of the minisign key:" 2
	tmux -L "$SOCK" send-keys -t t "not it" Enter
	# interrupted at the prompt: the terminal as it was, no temporary left
	check "asked a third time" pane_shows "Passphrase of the minisign key:" 3
	tmux -L "$SOCK" send-keys -t t C-c
	_n=0
	while [ ! -e all.done ] && [ $_n -lt 1500 ]; do sleep 0.2; _n=$((_n + 1)); done
	tmux -L "$SOCK" capture-pane -p -t t > screen
	tmux -L "$SOCK" kill-server 2> /dev/null
	is "$(cat gen.done 2> /dev/null)" 0 "the key pair was made"
	check "encrypted" sh -c 'sed -n 2p t.key | grep -q "^RWRTY0Iy"'
	is "$(cat sign.done 2> /dev/null)" 0 "the list was signed"
	minisign_ok "signed after the passphrase was typed" SUMS t.pub
	is "$(cat wrong.done 2> /dev/null)" 1 "a wrong passphrase typed: refused"
	check "and said" grep -q 'wrong passphrase for this key' screen
	lacks screen "s3kr1t" "the passphrase never shows"
	lacks screen "not it" "nor the wrong one"
	is "$(cat int.done 2> /dev/null)" 130 "interrupted at the prompt: killed by SIGINT"
	lacks ls.out ".S3." "-o's temporary is removed"
	check "the terminal echoes again" grep -q ' echo ' stty.out
}

# --------------------------------------------------------------- rules

test_option_rules() {
	echo x > f
	usage_error "--pubkey without -c" --pubkey=k.pub f
	usage_error "--keyring without -c" --keyring=k.gpg f
	usage_error "--pubkey and --keyring" -c --pubkey=k.pub --keyring=k.gpg f
	usage_error "--signature without a key" -c --signature=s f
	usage_error "--signer without --keyring" -c --pubkey=k.pub --signer=0000000000000000000000000000000000000000 f
	usage_error "--signer that is no fingerprint" -c --keyring=k --signer=1234 f
	usage_error "--signature for two lists" -c --pubkey=k --signature=s a b
	usage_error "--signature=- with the list on standard input" -c --pubkey=k --signature=-
	usage_error "--pubkey=- with the list on standard input" -c --pubkey=- -
	usage_error "--keyring=- and --signature=-" -c --keyring=- --signature=- L
	usage_error "--passphrase-file=- with standard input hashed" -o L --sign=k.key \
	    --passphrase-file=-
	usage_error "--expect with --pubkey" --expect=abc --pubkey=k f
	usage_error "--sign without -o" --sign=k.key f
	usage_error "--sign with -c" -c --sign=k.key f
	usage_error "--sign-embedded without --sign" -o L --sign-embedded f
	usage_error "--passphrase-file alone" --passphrase-file=p f
	usage_error "--no-passphrase without --generate-key" --no-passphrase f
	usage_error "--generate-key with an operand" --generate-key=k f
	usage_error "--generate-key with -a" --generate-key=k -a md5
	usage_error "--generate-key with -c" --generate-key=k -c
	usage_error "--passphrase-file and --no-passphrase" --generate-key=k \
	    --passphrase-file=p --no-passphrase
	check "no key was made by a refused run" test ! -e k.key
}

# ------------------------------------------ signed where lists are made

# signed_ok DESC LIST PUB: -c LIST --pubkey=PUB says a good signature and
# no file FAILED, exit 0.
signed_ok() {
	"$MULTISUM" -c "$2" --pubkey="$3" > .out 2> .err
	_st=$?
	if [ "$_st" = 0 ] && grep -q ': good .* signature' .err &&
	    grep -q ': OK$' .out && ! grep -q 'FAILED' .out; then
		pass
	else
		fail "$1 (exit status $_st)"
		cat .out .err | head -n 4 | diag -
	fi
}

# --update's ledger, signed as it is written, at a checkpoint too.
test_sign_update() {
	have minisign || skip_test "no minisign"
	multisum --generate-key=k --no-passphrase 2> /dev/null
	mkdir d && echo 1 > d/a && echo 2 > d/b
	status_is 0 "--update --sign" multisum -r -u L --sign=k.key d \
	    > out 2> err
	minisign_ok "the new ledger" L k.pub
	signed_ok "-c L --pubkey verifies the ledger" L k.pub
	echo 3 > d/c
	multisum -r -u L --sign=k.key d > out 2> err
	signed_ok "an updated ledger is signed again" L k.pub
	has_line .out "d/c: OK" "with its new file"
	echo 4 > d/e
	sleep 2		# (a file younger than its ledger's 2 s is hashed again)
	multisum -r -u L d > out 2> err
	"$MULTISUM" -c L --pubkey=k.pub > out 2> err
	st=$?
	check "an unsigned update leaves a signature that fails (exit $st)" \
	    [ "$st" -ne 0 ]
	multisum -r -u L --sign=k.key d > out 2> err
	signed_ok "nothing changed, --sign: the ledger is signed all the same" \
	    L k.pub
	# the ledger inside the tree: its signature is never hashed into it
	multisum -r -u d/L --sign=k.key d > out 2> err
	multisum -r -u d/L --sign=k.key d > out 2> err
	lacks d/L 'L.minisig' "the signature is not listed in its ledger"
	signed_ok "the ledger in the tree verifies" d/L k.pub
	# a run killed after a checkpoint leaves a ledger that verifies
	mkdir big
	head -c 200M /dev/urandom | split -b 1M - big/p
	"$MULTISUM" -r -j1 -a sha3-512,whirlpool -u B --checkpoint=1 \
	    --sign=k.key big > /dev/null 2>&1 &
	pid=$!
	wait_for "a checkpoint" test -s B
	kill -9 "$pid" 2> /dev/null
	wait "$pid"
	if [ $? = 137 ]; then
		signed_ok "a checkpoint is signed with it" B k.pub
	else
		skip_case "the run ended before it was killed"
	fi
	multisum -r -j1 -u B --sign=k.key big > out 2> err
	signed_ok "the resumed run's ledger is signed" B k.pub
	is "$(grep -c ": OK$" .out)" 400 "with every file (two digests each)"
	usage_error "--sign-embedded with --update" -u L --sign=k.key \
	    --sign-embedded d
}

# --merge's manifest, and each folder's of --per-dir.
test_sign_merge_per_dir() {
	have minisign && have "$SIGNIFY" || skip_test "no minisign or signify"
	"$SIGNIFY" -G -n -p rel.pub -s rel.sec > /dev/null 2>&1
	multisum --generate-key=k --no-passphrase 2> /dev/null
	mkdir d && echo 1 > d/a && echo 2 > d/b && echo 3 > d/c
	multisum -r --shard=1/2 -o s1 d && multisum -r --shard=2/2 -o s2 d
	status_is 0 "--merge --sign" multisum --merge -o ALL --sign=rel.sec \
	    s1 s2 > out 2> err
	check "signify -V verifies the merged manifest" \
	    "$SIGNIFY" -V -q -p rel.pub -m ALL
	signed_ok "-c ALL --pubkey verifies it" ALL rel.pub
	usage_error "--merge --sign without -o" --merge --sign=rel.sec s1 s2
	"$MULTISUM" --merge --sign=rel.sec s1 s2 2> err
	has_line err "multisum: --sign needs --output" "which names -o alone"
	head -c 3000000 /dev/urandom > pf
	multisum -a blake3 --tag --part=1/2 pf > p1
	multisum -a blake3 --tag --part=2/2 pf > p2
	status_is 0 "--merge --sign of --part records" multisum --merge -o PM \
	    --sign=k.key p1 p2 > out 2> err
	signed_ok "-c PM --pubkey verifies the merged record" PM k.pub
	mkdir -p t/x/y && echo a > t/a && echo b > t/x/b && echo c > t/x/y/c
	status_is 0 "--per-dir --sign" multisum -r --per-dir=SUMS --sign=k.key t \
	    > out 2> err
	for f in t t/x t/x/y; do
		minisign_ok "$f/SUMS" "$f/SUMS" k.pub
	done
	(cd t/x && signed_ok "-c SUMS --pubkey in a folder" SUMS ../../k.pub)
	multisum -r --per-dir=SUMS --sign=k.key t > out 2> err
	lacks t/SUMS 'SUMS.minisig' "a signature is not listed in its folder's manifest"
	minisign_ok "t/SUMS written again" t/SUMS k.pub
	multisum -c -r --per-dir=SUMS t > out 2> err
	lacks err 'not listed' "-c --per-dir does not call the signatures unlisted"
	usage_error "--sign-embedded with --per-dir" -r --per-dir=SUMS \
	    --sign=rel.sec --sign-embedded t
}

# -------------------------------------------------- README's recipes

# The layout each recipe of README's "Checking a download" expects, made
# with this test's keys standing for the projects'.  RECIPE_SIG is what a
# tampering then breaks.
layout() {
	case $1 in
	*ubuntu.gpg*)
		gpg_setup
		head -c 5000 /dev/urandom > ubuntu-24.04.1-desktop-amd64.iso
		{ multisum -b ubuntu-24.04.1-desktop-amd64.iso
		  echo "$(printf '%064d' 0) *ubuntu-24.04.1-live-server-amd64.iso"; } > SHA256SUMS
		gpg --batch --yes --detach-sign -o SHA256SUMS.gpg SHA256SUMS
		gpg --export > ubuntu.gpg
		RECIPE_SIG=SHA256SUMS.gpg ;;
	*debian-cd.gpg*)
		gpg_setup
		head -c 5000 /dev/urandom > debian-12.8.0-amd64-netinst.iso
		{ multisum -a sha512 debian-12.8.0-amd64-netinst.iso
		  echo "$(printf '%0128d' 0)  debian-edu-12.8.0-amd64-netinst.iso"; } > SHA512SUMS
		gpg --batch --yes --armor --detach-sign -o SHA512SUMS.sign SHA512SUMS
		gpg --armor --export > debian-cd.gpg
		RECIPE_SIG=SHA512SUMS.sign ;;
	*fedora.gpg*)
		gpg_setup
		iso=Fedora-Workstation-Live-x86_64-41-1.4.iso
		head -c 5000 /dev/urandom > "$iso"
		{ echo "# $iso: 5000 bytes"; multisum --tag "$iso"; } > body
		gpg --batch --yes --clearsign -o Fedora-Workstation-41-1.4-x86_64-CHECKSUM body
		gpg --export > fedora.gpg
		RECIPE_SIG=Fedora-Workstation-41-1.4-x86_64-CHECKSUM ;;
	*openbsd-76-base.pub*)
		"$SIGNIFY" -G -n -p openbsd-76-base.pub -s openbsd-76-base.sec > /dev/null 2>&1
		head -c 5000 /dev/urandom > bsd.rd
		head -c 5000 /dev/urandom > base76.tgz
		multisum --tag base76.tgz bsd.rd > SHA256
		echo "SHA256 (comp76.tgz) = $(printf '%064d' 0)" >> SHA256
		"$SIGNIFY" -S -e -s openbsd-76-base.sec -m SHA256 -x SHA256.sig
		rm SHA256
		RECIPE_SIG=SHA256.sig ;;
	*minisign.pub*)
		minisign -G -W -p minisign.pub -s minisign.key < /dev/null > /dev/null 2>&1
		head -c 5000 /dev/urandom > tool-1.0.tar.gz
		multisum tool-1.0.tar.gz > SHA256SUMS
		minisign -S -s minisign.key -m SHA256SUMS < /dev/null > /dev/null 2>&1
		RECIPE_SIG=SHA256SUMS.minisig ;;
	*generate-key=release*)
		mkdir dist && head -c 5000 /dev/urandom > dist/tool-1.0.tar.gz ;;
	*sign=release.key*) ;;
	*pubkey=release.pub*)
		RECIPE_SIG=SHA256SUMS.minisig ;;
	*allowed_signers*|*id_ed25519.pub*)
		[ -f id_ed25519 ] ||
		    ssh-keygen -q -t ed25519 -N '' -C release -f id_ed25519
		echo "release@example.org $(cat id_ed25519.pub)" > allowed_signers
		head -c 5000 /dev/urandom > tool-1.0.tar.gz
		multisum tool-1.0.tar.gz > SHA256SUMS
		rm -f SHA256SUMS.sig
		ssh-keygen -Y sign -f id_ed25519 -n file SHA256SUMS 2> /dev/null
		RECIPE_SIG=SHA256SUMS.sig ;;
	*sign=id_ed25519*)
		mkdir -p dist && head -c 5000 /dev/urandom > dist/tool-1.0.tar.gz ;;
	*)
		return 1 ;;
	esac
}

gpg_setup() {
	GNUPGHOME=$PWD/gnupg
	export GNUPGHOME
	[ -d gnupg ] && return
	mkdir -m 700 gnupg
	gpg --batch --passphrase '' --quick-gen-key 'Project <p@example.org>' \
	    ed25519 sign 0 > /dev/null 2>&1
}

# Run one recipe line as written, with no terminal: --generate-key then
# needs to be told not to encrypt (--no-passphrase, as README's prose
# says; on a terminal it asks), and the key then asks no passphrase.
recipe() {
	_cmd=$1
	case $_cmd in
	*--generate-key=*) _cmd="$_cmd --no-passphrase" ;;
	esac
	if have setsid; then
		setsid sh -c "$_cmd" > out 2> err < /dev/null
	else
		sh -c "$_cmd" > out 2> err < /dev/null
	fi
}

# Change the byte at OFFSET of FILE (to another value).
flip_byte() {
	_b=$(od -An -tu1 -j "$2" -N 1 "$1" | tr -d ' ')
	printf "\\$(printf %03o $(( (_b + 1) % 256 )))" |
	    dd of="$1" bs=1 seek="$2" conv=notrunc 2> /dev/null
}

test_readme_recipes() {
	have gpg && have minisign && have "$SIGNIFY" && have gpgv && have ssh-keygen ||
	    skip_test "gpg, gpgv, minisign, signify and ssh-keygen are all needed"
	have setsid || skip_test "no setsid (a recipe must not find a terminal)"
	readme=$TESTS_SRCDIR/../README.md
	mkdir bin && ln -s "$MULTISUM" bin/multisum
	PATH=$PWD/bin:$PATH
	export PATH
	sed -n '/^## Checking a download$/,/^## /p' "$readme" |
	    sed -n 's/^    \(multisum .*\)$/\1/p' > recipes
	is "$(wc -l < recipes | tr -d ' ')" 11 "README's recipes are all known to this test"
	n=0
	while read -r line; do
		n=$((n + 1))
		case $line in
		*id_ed25519*|*allowed_signers*) dir=ssh ;;
		*generate-key*|*--sign=*|*release.pub*) dir=signing ;;
		*) dir=r$n ;;
		esac
		mkdir -p "$dir" && cd "$dir" || return
		RECIPE_SIG=
		if ! layout "$line"; then
			fail "README recipe without a layout here: $line"
			cd ..
			continue
		fi
		recipe "$line"
		st=$?
		if [ "$st" = 0 ] && ! grep -q 'FAILED' out; then
			pass
		else
			fail "README: '$line' (exit $st)"
			cat out err | head -n 5 | diag -
		fi
		case $line in
		*" -c "*) check "README: '$line': a file OK" grep -q ': OK$' out
			check "README: '$line': a good signature said" grep -q ': good .* signature' err ;;
		esac
		if [ -n "$RECIPE_SIG" ]; then
			# a bad signature: its last base64 line changed (armour checksum dropped)
			case $RECIPE_SIG in
			*.gpg) flip_byte "$RECIPE_SIG" $(( $(wc -c < "$RECIPE_SIG") - 8 )) ;;
			*.minisig|*.sig)
			    # an SSH signature's last base64 line is its signature
			    l=2 c=30
			    grep -q '^-----BEGIN SSH SIG' "$RECIPE_SIG" &&
				l=$(($(wc -l < "$RECIPE_SIG") - 1)) c=3
			    awk -v L=$l -v C=$c 'NR == L { c = substr($0, C, 1)
			    $0 = substr($0, 1, C - 1) (c == "A" ? "B" : "A") substr($0, C + 1) } { print }' \
			    "$RECIPE_SIG" > x && mv x "$RECIPE_SIG" ;;
			*) awk '/^-----BEGIN PGP SIGNATURE/ { s = 1 } s && length($0) > 40 && !d {
			    c = substr($0, 30, 1); $0 = substr($0, 1, 29) (c == "A" ? "B" : "A") substr($0, 31); d = 1 }
			    !/^=....$/ { print }' "$RECIPE_SIG" > x && mv x "$RECIPE_SIG" ;;
			esac
			recipe "$line"
			st=$?
			case $line in *minisign.pub*) cp err ../minisign.err ;; esac
			if [ "$st" = 4 ] && ! grep -q ': OK$' out &&
			    grep -q 'signature not valid: .*BAD signature.*; no file checked$' err; then
				pass
			else
				fail "README: '$line' with a bad signature (exit $st)"
				cat out err | head -n 5 | diag -
			fi
		fi
		[ "$dir" = signing ] || gpgconf --kill all 2> /dev/null
		cd ..
	done < recipes
	GNUPGHOME=$PWD/r1/gnupg gpgconf --kill all 2> /dev/null
	# README's sample lines are the program's
	bad=$(sed -n 's/^    \(multisum: SHA256SUMS: signature not valid: .*\)$/\1/p' "$readme")
	good=$(sed -n 's/^    multisum: SHA256SUMS: good minisign signature (SHA256SUMS.minisig, key [0-9A-F]*); trusted comment: timestamp:[0-9]*	file:SHA256SUMS	hashed$/ok/p' "$readme")
	is "$good" ok "README's good-signature line has the program's shape"
	has_line minisign.err "$bad" "README's bad-signature line is the program's"
}

run minisign_keys
run generated_keys
run signify_keys
run written_together
run passphrase_on_a_terminal
run option_rules
run readme_recipes
run sign_update
run sign_merge_per_dir
finish
