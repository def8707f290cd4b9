#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# rhash-output.sh - RHash's output and name features: --printf and
# --template directive by directive, --format=magnet, -k
# (--check-embedded) and --embed-crc; byte for byte against rhash where
# it is installed (names with blanks, a newline, UTF-8 and invalid
# UTF-8), and answers written here that need no rhash.

. "$TESTS_SRCDIR/lib.sh"

# mtime as rhash and multisum both print it, whatever the machine's zone
TZ=UTC
export TZ

need_rhash() {
	have rhash || { skip_case "rhash is not installed"; return 1; }
}

# The files with odd names, each holding "abc" or more.
odd_names() {
	mkdir d
	printf abc > 'a b.txt'
	printf 'abc\n' > "$(printf 'd/n\nl')"
	printf '' > 'd/é~-_.!*()+,;=:@&$[]#?'
	printf 'abcd' > "$(printf 'd/\377bad')"
	touch -d '2001-02-03 04:05:06' 'a b.txt'
}

# Each directive, alone and mixed, as rhash 1.4.3 reads them.
DIRECTIVES='%p|%f|%s|%{mtime}|%{MTime}
%c|%C|%m|%M|%h|%H|%t|%T|%a|%A|%e|%E|%w|%r|%R
%{crc32}|%{CRC32}|%{crc32c}|%{md4}|%{md5}|%{sha1}|%{tiger}|%{Tiger}
%{tth}|%{TTH}|%{ed2k}|%{aich}|%{whirlpool}|%{ripemd160}|%{has160}
%{sha-224}|%{sha-256}|%{Sha-384}|%{sha-512}|%{sha3-224}|%{sha3-256}
%{sha3-384}|%{sha3-512}|%{blake2s}|%{blake2b}|%{btih}|%{BTIH}|%b{btih}
%g|%G|%{gost12-256}|%{GOST12-512}|%{gost94}|%{gost94-cryptopro}
%{edon-r256}|%{Edon-r512}|%{snefru128}|%{snefru256}|%bg|%B{snefru128}
%xh|%bh|%Bh|%@h|%xT|%bM|%Bc|%@c|%x{md5}|%b{crc32}|%B{SHA1}|%@{tth}
%uf|%Uf|%up|%Up|%u|%U|%uq|%u@m|%U@m|%uBm|%UBc|%ubM|%uxm
%5s|%05s|%12c|%012f|%3{md5}|%l|%L
%%|%|%q|%d|%x|%xX|%XC|%{foo}|%{mtime|%{sha256}|%b{foo}|%{sha-256 }
\n|\t|\r|\\|\0|\101|\x41|\x4g|\q|\|\7|\1234'

test_printf_rhash() {
	have rhash || skip_test "rhash is not installed"
	odd_names
	printf '%s\n' "$DIRECTIVES" > directives
	for f in 'a b.txt' d/*; do
		while IFS= read -r t; do
			rhash --printf="$t" "$f" > want 2>&1
			"$MULTISUM" --printf="$t" "$f" > got 2>&1
			same got want "--printf='$t' on $(printf '%s' "$f" | od -c | head -n 1)"
		done < directives
	done
	printf abc | rhash --printf='%p %f %s %{mtime} %c\n' - > want
	printf abc | "$MULTISUM" --printf='%p %f %s %{mtime} %c\n' > got
	same got want "standard input as rhash names it"
}

# Answers that need no rhash ("abc", mtime 2001-02-03 04:05:06 UTC).
test_printf_expected() {
	odd_names
	"$MULTISUM" --printf='%f|%s|%{mtime}|%c|%C|%xT|%bc|%Bc|%5s|%05s\n' \
	    'a b.txt' > got
	printf '%s\n' 'a b.txt|3|2001-02-03 04:05:06|352441c2|352441C2|0487CA26443F59CFBC780F3CA0CE509C8C352C27C5DCCA20|gusedqq|NSRBwg==|    3|00003' > want
	same got want "file, size, mtime, crc32 in each encoding, widths"
	"$MULTISUM" --printf='%{tth} %a %h %{Sha-256}\n' 'a b.txt' > got
	printf '%s\n' 'asd4ujseh5m47pdyb46kbtsqtsgdklbhyxomuia vgmt4nsha2awvor6evyxqugcnsonbwe5 a9993e364706816aba3e25717850c26c9cd0d89d BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD' > want
	same got want "tth and aich in base32, sha1 in hex, a capital: upper case"
	"$MULTISUM" --printf='%uf %Up %UBm %u@c|%l\n' 'a b.txt' > got
	printf '%s\n' 'a%20b.txt a%20b.txt kAFQmDzST7DWlj99KOF%2Fcg%3D%3D 5%24A%c2|ed2k://|file|a%20b.txt|3|a448017aaf21d8525fc10ae87aa6729d|h=vgmt4nsha2awvor6evyxqugcnsonbwe5|/' > want
	same got want "URL-encoding in either case; the ed2k link"
	"$MULTISUM" --printf='%%%q%{foo}%x|\x41\101\0\q\\\n' 'a b.txt' > got
	printf '%%%%q%%{foo}%%x|AA\000\\q\\\n' > want
	same got want "unknown directives kept; escapes"
	"$MULTISUM" --printf='%f\n' "$(printf 'd/n\nl')" > got
	printf 'n\nl\n' > want
	same got want "a newline in a name, as it is"
}

test_template() {
	odd_names
	printf '%%f\\t%%c\n%%s\\n' > t
	printf 'x\0%%m' >> t
	"$MULTISUM" --template=t 'a b.txt' > got
	printf 'a b.txt\t352441c2\n3\nx' > want
	same got want "--template: the file's template, to its NUL"
	if need_rhash; then
		rhash --template=t 'a b.txt' d/* > want
		"$MULTISUM" --template=t 'a b.txt' d/* > got
		same got want "--template as rhash"
	fi
	status_is 2 "a template that cannot be read" "$MULTISUM" --template=none 'a b.txt' 2> err
	check "it is said" grep -q "none: No such file" err
	usage_error "--printf with --format" --printf=%c --format=bsd 'a b.txt'
}

test_magnet() {
	odd_names
	"$MULTISUM" --format=magnet 'a b.txt' > got
	printf '%s\n' 'magnet:?xl=3&dn=a%20b.txt&xt=urn:tree:tiger:asd4ujseh5m47pdyb46kbtsqtsgdklbhyxomuia&xt=urn:ed2k:a448017aaf21d8525fc10ae87aa6729d&xt=urn:aich:vgmt4nsha2awvor6evyxqugcnsonbwe5' > want
	same got want "RHash's default link: tth, ed2k, aich"
	"$MULTISUM" --format=magnet -a sha256,crc32,sha1 'a b.txt' > got
	printf '%s\n' 'magnet:?xl=3&dn=a%20b.txt&xt=urn:crc32:352441c2&xt=urn:sha1:vgmt4nsha2awvor6evyxqugcnsonbwe5&xt=urn:sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' > want
	same got want "-a's digests in RHash's order, sha1 in base32"
	usage_error "a digest RHash has no name for" --format=magnet -a blake3 'a b.txt'
	need_rhash || return 0
	rhash --magnet 'a b.txt' d/* > want
	"$MULTISUM" --format=magnet 'a b.txt' d/* > got
	same got want "--format=magnet as rhash --magnet"
	rhash --magnet --crc32 --md4 --md5 --sha1 --tiger --tth --ed2k --aich \
	    --whirlpool --ripemd160 --has160 --sha224 --sha256 --sha384 \
	    --sha512 --sha3-224 --sha3-256 --sha3-384 --sha3-512 --crc32c \
	    --blake2s --blake2b 'a b.txt' d/* > want
	"$MULTISUM" --format=magnet -a blake2b,blake2s,crc32c,sha3-512,sha3-384,sha3-256,sha3-224,sha512,sha384,sha256,sha224,has160,ripemd160,whirlpool,aich,ed2k,tth,tiger,sha1,md5,md4,crc32 \
	    'a b.txt' d/* > got
	same got want "every digest both have, in rhash's order"
	rhash --magnet --sha512 --edonr256 --sha3-224 --gost94 \
	    --gost94-cryptopro --gost12-256 --gost12-512 --edonr512 \
	    --snefru128 --snefru256 --has160 --sha224 'a b.txt' d/* > want
	"$MULTISUM" --format=magnet -a snefru256,snefru128,edonr512,edonr256,streebog512,streebog256,gost94-cryptopro,gost94,has160,sha3-224,sha512,sha224 \
	    'a b.txt' d/* > got
	same got want "GOST, EDON-R and Snefru in rhash's order and names"
	printf abc | rhash --magnet - > want
	printf abc | "$MULTISUM" --format=magnet > got
	same got want "standard input's link"
}

# -a btih: the info hash of a one-file torrent of the file, as rhash
# --btih computes it: the default piece length (16 KiB; from 16 MiB on,
# the size / 512 rounded down to a power of two), --piece-size
# (--bt-piece-length) and --private (--bt-private), the basename.
test_btih() {
	: > empty
	is "$("$MULTISUM" -a btih empty)" \
	    "1ce8637c5f73f5ada1a28843e0629b300fd8a7d6  empty" \
	    "an empty file: no pieces (rhash's answer)"
	is "$(printf abc | "$MULTISUM" -a btih)" \
	    "5d990795c399ed311b9e4f8e5877a717584ed85a  -" \
	    "standard input is named - (hashlib's answer)"
	usage_error "--piece-size without btih" --piece-size=16K empty
	usage_error "--private without btih" --private empty
	need_rhash || return 0
	mkdir d
	for n in 0 1 4095 4096 4097 16383 16384 16385 100000; do
		random_file "d/f é $n" $n
	done
	# the default's first steps: 16 MiB - 1, 16 MiB, 32 MiB + 1
	for n in 16777215 16777216 33554433; do
		truncate -s $n "d/s $n"
	done
	# multisum's options, then rhash's
	while IFS='|' read -r opt ropt; do
		rhash --btih --simple $ropt d/* > want
		"$MULTISUM" -a btih $opt d/* > got
		same got want "btih as rhash's, options '$opt'"
	done <<-EOF
	|
	--private|--bt-private
	--piece-size=4096|--bt-piece-length=4096
	--piece-size=16385 --private|--bt-piece-length=16385 --bt-private
	--piece-size=1M|--bt-piece-length=1048576
	EOF
	(cd d && rhash --btih --simple -- *) > want
	(cd d && "$MULTISUM" -a btih -- *) > got
	same got want "btih of names without a folder"
	rhash --magnet --btih --sha1 --tth d/* > want
	"$MULTISUM" --format=magnet -a btih,sha1,tth d/* > got
	same got want "btih in magnet links as rhash's"
	rhash --printf='%{btih} %f\n' --bt-private d/* > want
	"$MULTISUM" --printf='%{btih} %f\n' --private -a btih d/* > got
	same got want "--printf's %{btih} as rhash's"
	rhash --magnet --btih --bt-piece-length=4096 d/* > want
	"$MULTISUM" --format=magnet -a btih --piece-size=4K d/* > got
	same got want "--format=magnet with --piece-size as rhash's"
	rhash --printf='%{btih}\n' --bt-private d/* > want
	"$MULTISUM" --printf='%{btih}\n' --private d/* > got
	same got want "--printf's %{btih} alone takes --private"
}

# The names -k reads, and what each holds.
crc_names() {
	printf abc > 'v [352441C2].mkv'
	printf abc > 'w(352441c2).txt'
	printf abc > 'f[352441C2].x'
	printf abc > 'a [11111111] b [352441C2].x'
	printf abd > 'x [352441C2].mkv'
	printf abc > 'c [352441C2] d (11111111).x'
}

test_check_embedded() {
	crc_names
	status_is 0 "all OK" "$MULTISUM" -k 'v [352441C2].mkv' 'w(352441c2).txt' \
	    'f[352441C2].x' 'a [11111111] b [352441C2].x' > got
	printf '%s\n' 'v [352441C2].mkv: OK' 'w(352441c2).txt: OK' \
	    'f[352441C2].x: OK' 'a [11111111] b [352441C2].x: OK' > want
	same got want "[CRC] and (CRC), either case, the last one"
	status_is 1 "a mismatch" "$MULTISUM" --check-embedded \
	    'x [352441C2].mkv' 'c [352441C2] d (11111111).x' 'v [352441C2].mkv' > got
	has_line got 'x [352441C2].mkv: FAILED' "the changed file"
	has_line got 'c [352441C2] d (11111111).x: FAILED' "the last CRC counts"
	has_line got 'v [352441C2].mkv: OK' "the others still checked"
	printf abc > plain.txt
	status_is 1 "a name without a CRC32" "$MULTISUM" -k plain.txt 2> err
	check "it is said" grep -q 'plain.txt: the name carries no CRC32' err
	"$MULTISUM" -k 'gone [352441C2].x' 2> err
	rc=$?
	check "an unreadable file fails" [ "$rc" -ne 0 ]
	need_rhash || return 0
	# rhash's word (OK or ERR) and multisum's (OK or FAILED), file by file
	for f in *; do
		case $f in *'['*|*'('*) ;; *) continue ;; esac
		r=$(rhash -k "$f" 2>&1 | sed -n 's/.* \(OK\|ERR\) *$/\1/p')
		m=$("$MULTISUM" -k "$f" 2>&1 | sed -n 's/.*: \(OK\|FAILED\)$/\1/p')
		is "$m" "$(echo "$r" | sed 's/ERR/FAILED/')" "-k's verdict on '$f' as rhash's"
	done
}

test_embed_crc() {
	printf abc > p.txt
	printf abc > noext
	printf abc > 'two.dots.tar'
	printf abc > 'v [11111111].mkv'
	mkdir sub
	printf abc > sub/s.txt
	"$MULTISUM" --embed-crc p.txt noext two.dots.tar 'v [11111111].mkv' \
	    sub/s.txt > got
	printf '%s\n' 'p [352441C2].txt 352441C2' 'noext [352441C2] 352441C2' \
	    'two.dots [352441C2].tar 352441C2' 'v [11111111].mkv 11111111' \
	    'sub/s [352441C2].txt 352441C2' > want
	# the SFV line of a name that carries a CRC: its file's own
	sed -i 's/^v \[11111111\]\.mkv 11111111$/v [11111111].mkv 352441C2/' want
	same got want "the SFV lines of the new names"
	check "renamed" [ -f 'p [352441C2].txt' ] && [ ! -e p.txt ]
	check "renamed in its folder" [ -f 'sub/s [352441C2].txt' ]
	check "one that carries a CRC is left" [ -f 'v [11111111].mkv' ]
	printf xyz > e.txt
	printf old > 'e [352441C2].txt'
	printf abc > e.txt
	"$MULTISUM" --embed-crc e.txt 2> err
	rc=$?
	check "a name taken fails" [ "$rc" -ne 0 ]
	is "$(cat 'e [352441C2].txt')" old "the other file is not replaced"
	check "nor the file lost" [ -f e.txt ]
	printf abc > q.txt
	"$MULTISUM" --embed-crc --embed-crc-delimiter=_ -a md5 q.txt > got
	check "--embed-crc-delimiter" [ -f 'q_[352441C2].txt' ]
	has_line got 'MD5 (q_[352441C2].txt) = 900150983cd24fb0d6963f7d28e17f72' \
	    "-a's lines name the new name"
	usage_error "a delimiter of two characters" --embed-crc \
	    --embed-crc-delimiter=ab q.txt
	need_rhash || return 0
	mkdir r m
	printf abc > r/p.txt; printf abc > m/p.txt
	printf abc > r/two.dots.tar; printf abc > m/two.dots.tar
	rhash --embed-crc r/p.txt r/two.dots.tar > /dev/null
	"$MULTISUM" --embed-crc m/p.txt m/two.dots.tar > /dev/null
	is "$(ls m)" "$(ls r)" "the names rhash --embed-crc gives"
}

run printf_rhash
run printf_expected
run template
run magnet
run btih
run check_embedded
run embed_crc
finish
