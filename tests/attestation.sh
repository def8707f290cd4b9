#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# attestation.sh - in-toto statements in DSSE envelopes (.intoto.jsonl)
# and Sigstore bundles (.sigstore.json) read by -c.  The material is made
# here by Python's cryptography from the specifications (DSSE's PAE,
# in-toto's Statement v1, the bundle's v0.1-v0.3 layouts): envelopes
# signed with ECDSA P-256 and Ed25519, a tampered payload, a wrong
# subject digest, a wrong key, keyless bundles, names outside the folder.
. "${TESTS_SRCDIR:-$(dirname "$0")}/lib.sh"

# The material, in the current folder, for the files named.
material() {
	python3 -c 'import cryptography' 2>/dev/null ||
	    skip_test "python3-cryptography absent"
	python3 - "$@" <<'PY' || fail "the material could not be made"
# Test material for attestations, from the DSSE and in-toto specifications
# and the Sigstore bundle format, with Python's cryptography.
import base64, hashlib, json, sys
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519

def pae(t, body):
    t = t.encode()
    return b"DSSEv1 %d %s %d %s" % (len(t), t, len(body), body)

def b64(b):
    return base64.b64encode(b).decode()

def pem(pub):
    return pub.public_bytes(serialization.Encoding.PEM,
        serialization.PublicFormat.SubjectPublicKeyInfo)

def sign(key, msg):
    if isinstance(key, ec.EllipticCurvePrivateKey):
        return key.sign(msg, ec.ECDSA(hashes.SHA256()))
    return key.sign(msg)

def statement(files, extra=None):
    subj = []
    for f in files:
        data = open(f, "rb").read()
        subj.append({"name": f, "digest": {
            "sha256": hashlib.sha256(data).hexdigest(),
            "sha512": hashlib.sha512(data).hexdigest()}})
    st = {"_type": "https://in-toto.io/Statement/v1", "subject": subj,
          "predicateType": "https://slsa.dev/provenance/v1",
          "predicate": {"buildDefinition": {"buildType": "x"}}}
    return json.dumps(st).encode()

def envelope(key, payload, t="application/vnd.in-toto+json"):
    return {"payloadType": t, "payload": b64(payload),
            "signatures": [{"keyid": "", "sig": b64(sign(key, pae(t, payload)))}]}

def main():
    p256 = ec.generate_private_key(ec.SECP256R1())
    other = ec.generate_private_key(ec.SECP256R1())
    ed = ed25519.Ed25519PrivateKey.generate()
    for name, k in (("p256", p256), ("other", other), ("ed25519", ed)):
        open(name + ".pem", "wb").write(pem(k.public_key()))
    files = sys.argv[1:]
    good = statement(files)
    def jsonl(name, envs):
        with open(name, "w") as f:
            for e in envs:
                f.write(json.dumps(e) + "\n")
    jsonl("p256.intoto.jsonl", [envelope(p256, statement(files[:1])),
                                envelope(p256, statement(files[1:]))])
    jsonl("ed25519.intoto.jsonl", [envelope(ed, good)])
    # the payload changed after signing: the signature is the old one's
    e = envelope(p256, good)
    st = json.loads(good)
    st["subject"][0]["digest"]["sha256"] = "0" * 64
    del st["subject"][0]["digest"]["sha512"]
    bad = json.dumps(st).encode()
    e["payload"] = b64(bad)
    jsonl("tampered-payload.intoto.jsonl", [e])
    # a wrong digest, signed as it is
    jsonl("wrong-digest.intoto.jsonl", [envelope(p256, bad)])
    # names outside the statement's folder
    st = json.loads(good)
    st["subject"][0]["name"] = "../outside.txt"
    st["subject"][1]["name"] = "/etc/hostname"
    jsonl("outside.intoto.jsonl", [envelope(p256, json.dumps(st).encode())])
    # Sigstore bundles: a key's (v0.2), and keyless ones (v0.1's chain,
    # v0.3's certificate) with a Rekor entry
    tlog = [{"logIndex": "1", "logId": {"keyId": b64(b"x" * 32)},
             "kindVersion": {"kind": "dsse", "version": "0.0.1"},
             "integratedTime": "1700000000",
             "inclusionPromise": {"signedEntryTimestamp": b64(b"set")},
             "inclusionProof": {"logIndex": "1", "rootHash": b64(b"r" * 32),
                                "treeSize": "2", "hashes": [b64(b"h" * 32)],
                                "checkpoint": {"envelope": "rekor\n"}},
             "canonicalizedBody": b64(b"{}")}]
    def bundle(name, media, vm, env):
        json.dump({"mediaType": media, "verificationMaterial": vm,
                   "dsseEnvelope": env}, open(name, "w"), indent=2)
    bundle("keyed.sigstore.json",
           "application/vnd.dev.sigstore.bundle+json;version=0.2",
           {"publicKey": {"hint": "p256"}, "tlogEntries": []},
           envelope(p256, good))
    cert = {"rawBytes": b64(b"0\x82\x01\x00 not really DER")}
    bundle("keyless.sigstore.json",
           "application/vnd.dev.sigstore.bundle+json;version=0.1",
           {"x509CertificateChain": {"certificates": [cert]},
            "tlogEntries": tlog}, envelope(p256, good))
    bundle("keyless3.sigstore.json",
           "application/vnd.dev.sigstore.bundle.v0.3+json",
           {"certificate": cert, "tlogEntries": tlog}, envelope(p256, good))

main()
PY
}

setup() {
	mkdir sub sub/dir
	echo hello > sub/a.txt
	echo world > "sub/dir/b c.bin"
	echo outside > outside.txt
	(cd sub && material a.txt "dir/b c.bin")
}

test_keyed_envelopes_verify() {
	setup
	for k in p256 ed25519; do
		status_is 0 "$k: verified with its key" \
		    multisum -c --pubkey=sub/$k.pem sub/$k.intoto.jsonl > out 2> err
		has_line out "sub/a.txt: OK" "$k: a subject verified"
		has_line out "sub/dir/b c.bin: OK" "$k: a name with a space, in a folder"
		is "$(wc -l < out | tr -d ' ')" 2 "$k: a line a subject"
		check "$k: the signature said good" \
		    grep -q "good DSSE signature" err
	done
	has_line err "multisum: sub/ed25519.intoto.jsonl: good DSSE signature (Ed25519 key)" \
	    "the key's kind named"
	status_is 0 "a Sigstore bundle with a key" \
	    multisum -c --pubkey=sub/p256.pem sub/keyed.sigstore.json > out 2> err
	has_line out "sub/a.txt: OK" "its subject verified"
}

test_wrong_key_refused() {
	setup
	status_is 4 "another P-256 key" \
	    multisum -c --pubkey=sub/other.pem sub/p256.intoto.jsonl > out 2> err
	is "$(wc -c < out | tr -d ' ')" 0 "no file checked"
	check "said why" grep -q "no signature of the DSSE envelope" err
	status_is 4 "an Ed25519 key for a P-256 signature" \
	    multisum -c --pubkey=sub/ed25519.pem sub/p256.intoto.jsonl > out 2> err
	is "$(wc -c < out | tr -d ' ')" 0 "nothing checked"
	status_is 4 "a P-256 key for an Ed25519 signature" \
	    multisum -c --pubkey=sub/p256.pem sub/ed25519.intoto.jsonl > out 2> err
	is "$(wc -c < out | tr -d ' ')" 0 "nothing checked either"
}

test_tampered_refused() {
	setup
	status_is 4 "a payload changed after signing" \
	    multisum -c --pubkey=sub/p256.pem sub/tampered-payload.intoto.jsonl \
	    > out 2> err
	is "$(wc -c < out | tr -d ' ')" 0 "no file checked"
	status_is 1 "a wrong subject digest, signed" \
	    multisum -c --pubkey=sub/p256.pem sub/wrong-digest.intoto.jsonl \
	    > out 2> err
	has_line out "sub/a.txt: FAILED" "the subject failed"
	has_line out "sub/dir/b c.bin: OK" "the other verified"
	echo changed > sub/a.txt
	status_is 1 "a changed file" \
	    multisum -c --pubkey=sub/p256.pem sub/p256.intoto.jsonl > out 2> err
	has_line out "sub/a.txt: FAILED" "the changed file failed"
	rm "sub/dir/b c.bin"
	status_is 1 "a missing file" \
	    multisum -c --pubkey=sub/p256.pem sub/p256.intoto.jsonl > out 2> err
	has_line out "sub/dir/b c.bin: FAILED open or read" "reported"
}

test_unkeyed_says_so() {
	setup
	status_is 0 "digests checked without a key" \
	    multisum -c sub/p256.intoto.jsonl > out 2> err
	has_line out "sub/a.txt: OK" "verified"
	has_line err "multisum: sub/p256.intoto.jsonl: its DSSE signature was NOT checked (check it with --pubkey=KEY.pem)" \
	    "one line says the signature was not checked"
	status_is 1 "a tampered payload without a key: its digest" \
	    multisum -c sub/tampered-payload.intoto.jsonl > out 2> err
	has_line out "sub/a.txt: FAILED" "the changed digest failed"
	multisum -c sub/missing.intoto.jsonl > out 2> err
	check "an attestation that is not there fails" [ $? -ne 0 ]
	check "said so" grep -q "sub/missing.intoto.jsonl: No such file" err
	status_is 0 "--root" multisum -c --root=sub sub/p256.intoto.jsonl \
	    > out 2> err
	has_line out "sub/a.txt: OK" "names below --root"
}

test_keyless_refused() {
	setup
	for b in keyless keyless3; do
		for key in "" --pubkey=sub/p256.pem; do
			status_is 4 "$b $key: refused" \
			    multisum -c $key sub/$b.sigstore.json > out 2> err
			is "$(wc -c < out | tr -d ' ')" 0 "$b $key: nothing verified"
			is "$(wc -l < err | tr -d ' ')" 1 "$b $key: one line"
			check "$b $key: names cosign's command" \
			    grep -q "cosign verify-blob-attestation --bundle sub/$b.sigstore.json" err
			lacks err "good" "$b $key: never called good"
		done
	done
}

test_outside_never_opened() {
	setup
	status_is 1 "names outside the statement's folder" \
	    multisum -c --pubkey=sub/p256.pem sub/outside.intoto.jsonl > out 2> err
	is "$(grep -c 'not verified: outside the root' err)" 2 "both said"
	is "$(wc -c < out | tr -d ' ')" 0 "neither verified"
	if have strace; then
		traced -f -e trace=open,openat -o trace "$MULTISUM" -c \
		    --pubkey=sub/p256.pem sub/outside.intoto.jsonl > out 2> err
		lacks trace "outside.txt" "not opened"
		lacks trace "/etc/hostname" "nor the absolute one"
	fi
}

# An envelope's payload changed after signing: a space added to each.
tamper() {
	python3 - "$1" <<'PY' || fail "$1 could not be changed"
import base64, json, sys
def change(e):
    p = base64.b64decode(e["payload"]).replace(b'"subject"', b' "subject"', 1)
    e["payload"] = base64.b64encode(p).decode()
name = sys.argv[1]
text = open(name).read()
if name.endswith(".jsonl"):
    envs = [json.loads(l) for l in text.splitlines() if l]
    for e in envs:
        change(e)
    out = "".join(json.dumps(e) + "\n" for e in envs)
else:
    b = json.loads(text)
    change(b["dsseEnvelope"])
    out = json.dumps(b)
open(name, "w").write(out)
PY
}

# README's recipes as written: release.intoto.jsonl beside its subjects
# (run in dist/), app.sigstore.json above them (run with --root=dist),
# cosign.pub a P-256 PEM key; then a flipped byte in a subject fails each
# (1), and so does an envelope changed after signing (4).
test_readme_recipes() {
	readme_recipes "Lists software arrives with" "Attestations" > recipes
	is "$(wc -l < recipes | tr -d ' ')" 2 "README's attestation recipes are all known here"
	mkdir dist
	echo hello > dist/app.tar.gz
	echo world > dist/app.whl
	(cd dist && material app.tar.gz app.whl)
	cp dist/p256.pem cosign.pub
	cp dist/p256.pem dist/cosign.pub
	cp dist/keyed.sigstore.json app.sigstore.json
	cp dist/p256.intoto.jsonl dist/release.intoto.jsonl
	multisum_on_path
	while read -r line; do
		case $line in
		*release.intoto.jsonl*) dir=dist pre= ;;
		*) dir=. pre=dist/ ;;
		esac
		status_is 0 "README: $line" sh -c "cd $dir && $line" > out 2> err
		has_line out "${pre}app.tar.gz: OK" "README: $line: a subject OK"
		has_line out "${pre}app.whl: OK" "README: $line: the other OK"
		check "README: $line: the signature good" \
		    grep -q "good DSSE signature" err
	done < recipes
	printf 'X' | dd of=dist/app.whl bs=1 seek=2 conv=notrunc 2> /dev/null
	while read -r line; do
		case $line in
		*release.intoto.jsonl*) dir=dist pre= f=dist/release.intoto.jsonl ;;
		*) dir=. pre=dist/ f=app.sigstore.json ;;
		esac
		status_is 1 "README's recipe with a flipped byte: $line" \
		    sh -c "cd $dir && $line" > out 2> err
		has_line out "${pre}app.whl: FAILED" "$line: the file named"
		has_line out "${pre}app.tar.gz: OK" "$line: the other OK"
		tamper "$f"
		status_is 4 "README's recipe with a changed envelope: $line" \
		    sh -c "cd $dir && $line" > out 2> err
		is "$(wc -c < out | tr -d ' ')" 0 "$line: nothing checked"
	done < recipes
}

run keyed_envelopes_verify
run wrong_key_refused
run tampered_refused
run unkeyed_says_so
run keyless_refused
run outside_never_opened
run readme_recipes
finish
