#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# interop.sh - manifests written by other tools verify with multisum -c,
# fail on one corrupted byte, and manifests written by multisum verify
# with coreutils.  A form whose tool is absent is skipped (skip_case).
# One test per tool; each form is two checks (verifies, a corrupted byte
# fails), each reverse form one.

. "$TESTS_SRCDIR/lib.sh"

M=$MULTISUM

setup() {
	printf 'hello\n' > a
	printf 'x\n' > b
	awk 'BEGIN { for (i = 0; i < 40000; i++) printf "%06d some text\n", i }' > big
	cp big big.orig
	NL=$(printf 'new\nline')
	printf 'nl' > "$NL"
	printf 'bs' > 'back\slash'
}

# interop DESC TOOL COMMAND...: COMMAND writes a manifest of a, b and big.
# $ICHECK: options of multisum -c, -a for untagged digests that only
# their length identifies (one algorithm per length, SPEC.md).
interop() {
	_desc=$1 _tool=$2
	shift 2
	if ! have "$_tool"; then
		skip_case "$_desc: $_tool absent"
		return
	fi
	"$@" > manifest 2> /dev/null
	_lines=$(grep -v '^;' manifest | grep -c 'big')
	if "$M" -c $ICHECK manifest > out 2> err && ! grep -qv ': OK$' out &&
	    [ "$(grep -c '^big: OK$' out)" = "$_lines" ] && [ "$_lines" -gt 0 ]; then
		pass
	else
		fail "$_desc verifies"
		{ head -n 5 manifest; cat out err; } | diag -
	fi
	# One corrupted byte in the middle of big.
	printf 'X' | dd of=big bs=1 seek=300000 conv=notrunc 2> /dev/null
	"$M" -c $ICHECK manifest > out 2> err
	_st=$?
	cp big.orig big
	if [ "$_st" = 1 ] && [ "$(grep -c '^big: FAILED$' out)" = "$_lines" ] &&
	    [ "$(grep -c '^a: OK$' out)" -ge 1 ]; then
		pass
	else
		fail "$_desc: a corrupted byte fails"
		cat out err | diag -
	fi
}

test_coreutils_manifests() {
	setup
	interop "md5sum" md5sum md5sum a b big
	interop "sha1sum" sha1sum sha1sum a b big
	interop "sha256sum" sha256sum sha256sum a b big
	interop "sha512sum --tag" sha512sum sha512sum --tag a b big
	ICHECK="-a blake2b" interop "b2sum" b2sum b2sum a b big
	ICHECK="-a blake2b-256" interop "b2sum -l 256" b2sum b2sum -l 256 a b big
	ICHECK=
	interop "cksum -a md5 --tag" cksum cksum -a md5 --tag a b big
	interop "cksum -a sha256" cksum cksum -a sha256 a b big
	interop "cksum -a blake2b -l 128" cksum cksum -a blake2b -l 128 a b big
	interop "cksum -a sm3" cksum cksum -a sm3 a b big
	interop "cksum -a sha384 --untagged" cksum cksum -a sha384 --untagged a b big
}

test_rhash_manifests() {
	setup
	interop "rhash --bsd" rhash rhash --bsd --md5 --sha1 --sha256 --sha512 \
	    --sha3-256 --blake2s --blake2b --ripemd160 --crc32 --crc32c a b big
	interop "rhash --sfv" rhash rhash --sfv a b big
	ICHECK="-a crc32" interop "rhash --simple" rhash rhash --simple a b big
	ICHECK=
	interop "rhash --simple --sha256" rhash rhash --simple --sha256 a b big
	# 8 hex digits are CRC-32's guess; CRC-32C stands in (issue 31)
	interop "rhash --simple, no -a" rhash rhash --simple a b big
	interop "rhash --simple --crc32c --md5" rhash rhash --simple --crc32c \
	    --md5 a b big
	interop "rhash --crc32c --sha3-256" rhash rhash --crc32c --sha3-256 a b big
	interop "rhash --sfv --crc32c" rhash rhash --sfv --crc32c a b big
}

test_openssl_manifests() {
	setup
	interop "openssl dgst -sha256" openssl openssl dgst -sha256 a b big
	interop "openssl dgst -md5" openssl openssl dgst -md5 a b big
	interop "openssl dgst -sha1" openssl openssl dgst -sha1 a b big
	interop "openssl dgst -sha3-256" openssl openssl dgst -sha3-256 a b big
	interop "openssl dgst -blake2b512" openssl openssl dgst -blake2b512 a b big
	interop "openssl dgst -r -sha256" openssl openssl dgst -r -sha256 a b big
	interop "openssl dgst -r -sha512" openssl openssl dgst -r -sha512 a b big
}

test_xxhsum_manifests() {
	setup
	for h in 0 1 2 3; do
		case $h in 0) ICHECK="-a xxh32" ;; 2) ICHECK="-a xxh128" ;; *) ICHECK= ;; esac
		interop "xxhsum -H$h" xxhsum xxhsum -H$h a b big
		ICHECK=
		interop "xxhsum -H$h --tag" xxhsum xxhsum -H$h --tag a b big
	done
}

# ------------------------------------------- multisum's manifests elsewhere

# reverse DESC TOOL VERIFY-COMMAND -- MULTISUM-ARGS...
reverse() {
	_desc=$1 _tool=$2 _verify=$3
	shift 3
	if ! have "$_tool"; then
		skip_case "$_desc: $_tool absent"
		return
	fi
	"$M" "$@" > manifest
	if $_verify manifest > out 2> err && ! grep -qi 'fail\|err\|improper' out err &&
	    grep -q OK out; then
		pass
	else
		fail "$_desc"
		{ cat manifest out err; } | diag -
	fi
}

test_multisum_manifests_elsewhere() {
	setup
	reverse "multisum manifest verifies with sha256sum -c" sha256sum \
	    "sha256sum -c" a b big "$NL" 'back\slash'
	reverse "multisum -b manifest verifies with md5sum -c" md5sum \
	    "md5sum -c" -a md5 -b a b
	reverse "multisum --tag verifies with cksum -c" cksum "cksum -c" \
	    --tag -a md5,sha1,sha224,sha256,sha384,sha512,blake2b,sm3 a b big "$NL"
	reverse "multisum BLAKE2b-256 tags verify with cksum -c" cksum "cksum -c" \
	    --tag -a blake2b-256 a b
	reverse "multisum -a blake2b-128 verifies with b2sum -c" b2sum "b2sum -c" \
	    -a blake2b-128 a b
	reverse "multisum --tag -a sha3-256 verifies with rhash -c" \
	    rhash "rhash -c" --tag -a sha3-256 a b
}

run coreutils_manifests
run rhash_manifests
run openssl_manifests
run xxhsum_manifests
run multisum_manifests_elsewhere
finish
