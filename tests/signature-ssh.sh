#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# signature-ssh.sh - SSH signatures (SSHSIG) against OpenSSH's own
# ssh-keygen -Y sign/verify, both ways, for every key type (Ed25519,
# ECDSA P-256/384/521, RSA) and an encrypted key: multisum -c checks
# what ssh-keygen signed (--allowed-signers with --signer, --pubkey),
# ssh-keygen accepts what multisum -o --sign wrote; a wrong namespace, a
# wrong principal, a tampered list and a tampered signature are refused
# by both (exit 4, no OK line); the allowed signers options; FIDO (sk-)
# signatures made by tests/sshsig-sk.py from the specification, checked
# by both tools; the options' usage errors.

. "$TESTS_SRCDIR/lib.sh"

TYPES="ed25519 ecdsa256 ecdsa384 ecdsa521 rsa"

# Two files, their list LIST, and a key k_TYPE of each type (me@test).
setup() {
	have ssh-keygen || skip_test "no ssh-keygen (Debian: openssh-client)"
	echo one > f1
	echo two > f2
	multisum f1 f2 > LIST
	for _t in ${1:-$TYPES}; do
		case $_t in
		ed25519) _a="-t ed25519" ;;
		ecdsa*) _a="-t ecdsa -b ${_t#ecdsa}" ;;
		rsa) _a="-t rsa -b 2048" ;;
		esac
		ssh-keygen -q $_a -N '' -C me@test -f "k_$_t"
		echo "me@test $(cat "k_$_t.pub")" >> allowed
	done
}

# verified DESC CMD...: f1 and f2 verified, the good signature said (lib.sh).
verified() {
	_d=$1
	shift
	signature_verified "$_d" "f1 f2" ': good SSH signature' "$@"
}

# ssh-keygen's verdict on LIST.sig (principal, namespace).
keygen_verify() {
	ssh-keygen -Y verify -f allowed -I "$1" -n "$2" -s "${3:-LIST}.sig" \
	    < "${3:-LIST}" > /dev/null 2>&1
}

# Change one base64 character of the signature proper (its last line).
poke_sig() {
	_n=$(($(wc -l < "$1") - 1))
	awk -v L="$_n" 'NR == L { c = substr($0, 3, 1)
		$0 = substr($0, 1, 2) (c == "A" ? "B" : "A") substr($0, 4) }
		{ print }' "$1" > "$1.new" && mv "$1.new" "$1"
}

test_keygen_signs_multisum_verifies() {
	setup
	for t in $TYPES; do
		rm -f LIST.sig
		ssh-keygen -Y sign -f "k_$t" -n file LIST 2> /dev/null
		verified "$t: --allowed-signers --signer" \
		    multisum -c LIST --allowed-signers=allowed --signer=me@test
		has_line err "multisum: LIST: good SSH signature (LIST.sig, $(ssh-keygen -lf "k_$t.pub" | awk '{ print toupper(substr($NF, 2, length($NF) - 2)) " key " $2 }'), namespace file) by me@test" \
		    "$t: the key and the principal said as ssh-keygen says them"
		verified "$t: --pubkey=KEY.pub" multisum -c LIST --pubkey="k_$t.pub"
		verified "$t: any principal" \
		    multisum -c LIST --allowed-signers=allowed
	done
}

test_multisum_signs_keygen_verifies() {
	setup
	for t in $TYPES; do
		rm -f LIST.sig
		status_is 0 "$t: -o --sign" multisum -o LIST --sign="k_$t" f1 f2
		check "$t: ssh-keygen -Y verify accepts it" \
		    keygen_verify me@test file
		verified "$t: and multisum" multisum -c LIST --pubkey="k_$t.pub"
	done
	mkdir -p tree/a && echo three > tree/a/f3
	multisum -r --per-dir=SUMS --sign=k_ecdsa256 tree
	check "--per-dir signs each folder's list" ssh-keygen -Y verify \
	    -f allowed -I me@test -n file -s tree/a/SUMS.sig < tree/a/SUMS
	multisum -r -u ledger --sign=k_rsa tree > /dev/null
	check "-u signs its ledger" ssh-keygen -Y verify \
	    -f allowed -I me@test -n file -s ledger.sig < ledger
	multisum -o LIST --sign=k_ed25519 --namespace=release f1 f2
	check "--namespace signs for it" keygen_verify me@test release
	check_not "and not for file" keygen_verify me@test file
}

test_encrypted_key() {
	setup ed25519
	ssh-keygen -q -t ed25519 -N 'a secret' -C me@test -f enc
	echo "me@test $(cat enc.pub)" >> allowed
	echo 'a secret' > pass
	echo 'not it' > wrong
	status_is 0 "an encrypted key signs" \
	    multisum -o LIST --sign=enc --passphrase-file=pass f1 f2
	check "ssh-keygen accepts its signature" keygen_verify me@test file
	rm LIST.sig
	status_is 1 "a wrong passphrase" \
	    multisum -o LIST --sign=enc --passphrase-file=wrong f1 f2 2> err
	check "is said" grep -q 'wrong passphrase' err
	check_not "and nothing is signed" test -e LIST.sig
	status_is 1 "no terminal and no --passphrase-file" \
	    multisum -o LIST --sign=enc f1 f2 < /dev/null 2> err
	check "says how to give it" grep -q 'passphrase-file' err
}

test_refused_by_both() {
	setup "ed25519 ecdsa256 rsa"
	for t in ed25519 ecdsa256 rsa; do
		mkdir "$t" && cp f1 f2 LIST allowed "k_$t" "k_$t.pub" "$t" &&
		    cd "$t" || return
		ssh-keygen -Y sign -f "k_$t" -n git LIST 2> /dev/null
		signature_refused "$t: another namespace" \
		    multisum -c LIST --allowed-signers=allowed --signer=me@test
		check "is said" grep -q 'signed for another namespace' err
		check_not "$t: ssh-keygen too" keygen_verify me@test file
		verified "$t: --namespace=git" multisum -c LIST \
		    --allowed-signers=allowed --signer=me@test --namespace=git
		signature_refused "$t: another principal" multisum -c LIST \
		    --allowed-signers=allowed --signer=you@test --namespace=git
		check "is said" grep -q "another principal's" err
		check_not "$t: ssh-keygen too" keygen_verify you@test git
		cp LIST.sig keep.sig
		echo two > f1
		multisum f1 f2 > LIST.new && cat LIST.new > LIST
		signature_refused "$t: a tampered list" multisum -c LIST \
		    --allowed-signers=allowed --namespace=git
		check_not "$t: ssh-keygen too" keygen_verify me@test git
		echo one > f1
		multisum f1 f2 > LIST
		check "$t: (the list restored verifies)" \
		    keygen_verify me@test git
		poke_sig LIST.sig
		signature_refused "$t: a tampered signature" multisum -c LIST \
		    --allowed-signers=allowed --namespace=git
		check_not "$t: ssh-keygen too" keygen_verify me@test git
		cd ..
	done
}

test_allowed_signers_options() {
	setup ed25519
	ssh-keygen -Y sign -f k_ed25519 -n git LIST 2> /dev/null
	key=$(cat k_ed25519.pub)
	echo "# a comment" > a1
	echo "other@test $(cat k_ed25519.pub | sed 's/AAAA/AAAB/')" >> a1
	echo "me@test,*@example.org,!bad@example.org namespaces=\"file,g*\",valid-after=\"20200101\" $key" >> a1
	verified "a pattern, namespaces=, valid-after=" multisum -c LIST \
	    --allowed-signers=a1 --signer=x@example.org --namespace=git
	check "ssh-keygen agrees" ssh-keygen -Y verify -f a1 -I x@example.org \
	    -n git -s LIST.sig < LIST
	signature_refused "a !pattern" multisum -c LIST --allowed-signers=a1 \
	    --signer=bad@example.org --namespace=git
	check_not "ssh-keygen agrees" ssh-keygen -Y verify -f a1 \
	    -I bad@example.org -n git -s LIST.sig < LIST
	echo "me@test namespaces=\"file\" $key" > a2
	signature_refused "namespaces= without it" multisum -c LIST --allowed-signers=a2 \
	    --signer=me@test --namespace=git
	check "is said" grep -q 'a2 line 1: .*namespaces=' err
	echo "me@test valid-before=\"20200101Z\" $key" > a3
	signature_refused "valid-before= past" multisum -c LIST --allowed-signers=a3 \
	    --signer=me@test --namespace=git
	check_not "ssh-keygen agrees" ssh-keygen -Y verify -f a3 -I me@test \
	    -n git -s LIST.sig < LIST
	echo "me@test cert-authority $key" > a4
	signature_refused "cert-authority" multisum -c LIST --allowed-signers=a4 \
	    --signer=me@test --namespace=git
	check "says certificates are not supported" \
	    grep -q 'certificates, which are not supported' err
}

test_security_keys() {
	python3 -c 'import cryptography' 2> /dev/null ||
	    skip_test "no python3 cryptography (Debian: python3-cryptography)"
	setup ed25519
	for k in ed25519 ecdsa; do
		python3 "$TESTS_SRCDIR/sshsig-sk.py" "$k" 1 LIST file sk
		echo "me@test $(cat sk.pub)" > allowed
		verified "sk-$k" multisum -c LIST --pubkey=sk.pub
		verified "sk-$k, --allowed-signers" multisum -c LIST \
		    --allowed-signers=allowed --signer=me@test
		check "sk-$k: ssh-keygen agrees" keygen_verify me@test file
		poke_sig LIST.sig
		signature_refused "sk-$k: tampered" multisum -c LIST --pubkey=sk.pub
		check_not "sk-$k: ssh-keygen agrees" keygen_verify me@test file
		# ssh-keygen -Y verify accepts an untouched key: so do we, saying so
		python3 "$TESTS_SRCDIR/sshsig-sk.py" "$k" 0 LIST file sk
		echo "me@test $(cat sk.pub)" > allowed
		verified "sk-$k: untouched" multisum -c LIST --pubkey=sk.pub
		check "is said" grep -q 'not touched' err
		check "sk-$k: ssh-keygen accepts it too" keygen_verify me@test file
	done
	status_is 1 "an sk- key does not sign here" \
	    multisum -o LIST --sign=sk.pub f1 f2 2> /dev/null
}

test_options() {
	setup ed25519
	ssh-keygen -Y sign -f k_ed25519 -n file LIST 2> /dev/null
	usage_error "--signer without a key" -c LIST --signer=me@test
	usage_error "--namespace without a key" -c LIST --namespace=git
	usage_error "an empty --namespace" -c LIST --pubkey=k_ed25519.pub \
	    --namespace=
	usage_error "--allowed-signers and --pubkey" -c LIST \
	    --allowed-signers=allowed --pubkey=k_ed25519.pub
	multisum --generate-key=mk --no-passphrase 2> /dev/null
	status_is 4 "--namespace with a minisign key" \
	    multisum -c LIST --pubkey=mk.pub --namespace=git 2> err
	check "is said" grep -q 'namespace is for SSH signatures' err
	status_is 1 "--namespace signing with a minisign key" \
	    multisum -o L2 --sign=mk.key --namespace=git f1 2> err
	check_not "writes nothing" test -e L2
	multisum -c LIST > out 2> err
	check "without a key, the files are checked" grep -qx 'f1: OK' out
	check "and the note says how to check the SSH signature" \
	    grep -q 'NOT checked (check it with --allowed-signers=FILE' err
	ssh-keygen -q -t ed25519 -N '' -C other -f other
	signature_refused "another key than --pubkey's" multisum -c LIST --pubkey=other.pub
	check "is said" grep -q 'signed by another key than other.pub' err
	mv LIST.sig other.sig
	signature_refused "no LIST.sig" multisum -c LIST --pubkey=k_ed25519.pub
	verified "--signature=FILE" multisum -c LIST --pubkey=k_ed25519.pub \
	    --signature=other.sig
	verified "standard input with --signature" multisum -c - \
	    --pubkey=k_ed25519.pub --signature=other.sig < LIST
}

run keygen_signs_multisum_verifies
run multisum_signs_keygen_verifies
run encrypted_key
run refused_by_both
run allowed_signers_options
run security_keys
run options
finish
