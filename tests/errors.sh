#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# errors.sh - inputs that cannot be read, outputs that cannot be written,
# and bad options: the message, the exit status, and that the other
# inputs are still hashed.
. "$TESTS_SRCDIR/lib.sh"

# sha256 FILE: its digest, as sha256sum prints it.
sha256() {
	sha256sum < "$1" | cut -c1-64
}

# An input that fails among inputs that do not: the others are hashed, in
# order; the failure is one coreutils-worded line; the exit status is 3.
# expect_failure MESSAGE MULTISUM-ARGS... (the operands a, BAD, b)
expect_failure() {
	_msg=$1
	shift
	status_is 3 "$* fails" multisum "$@" > got 2> err
	has_line err "multisum: $_msg" "$*: says '$_msg'"
	is "$(wc -l < err | tr -d ' ')" 1 "$*: one line on standard error"
	printf '%s  a\n%s  b\n' "$(sha256 a)" "$(sha256 b)" > want
	same got want "$*: the other operands are hashed, in order"
}

make_ab() {
	printf 'first\n' > a
	random_file b 3000000
}

test_missing_file() {
	make_ab
	for opts in "-j1" "-j2" "--io=mmap -j1" "--io=mmap -j2"; do
		# shellcheck disable=SC2086
		expect_failure "nosuch: No such file or directory" $opts a nosuch b
	done
	ln -s nowhere dangling
	expect_failure "dangling: No such file or directory" a dangling b
}

test_unreadable_file() {
	make_ab
	# root reads a mode-000 file; /proc/self/mem fails for anyone
	if [ "$(id -u)" -eq 0 ]; then
		skip_case "running as root: mode 000 does not stop root"
	else
		printf 'secret' > locked
		chmod 000 locked
		expect_failure "locked: Permission denied" a locked b
		expect_failure "locked: Permission denied" --io=mmap -j2 a locked b
		mkdir -p tree/open tree/shut
		printf 'x' > tree/open/f
		chmod 000 tree/shut
		status_is 3 "-r with an unreadable directory fails" multisum -r tree > got 2> err
		has_line err "multisum: tree/shut: Permission denied" "the directory is named"
		has_line got "$(sha256 tree/open/f)  tree/open/f" "the rest of the tree is hashed"
	fi
	if [ -r /proc/self/mem ]; then
		# reading page 0 of one's own address space is EIO, even for root
		expect_failure "/proc/self/mem: Input/output error" a /proc/self/mem b
		expect_failure "/proc/self/mem: Input/output error" --io=mmap -j2 a /proc/self/mem b
	else
		skip_case "no /proc/self/mem"
	fi
}

test_directory_operand() {
	make_ab
	mkdir d
	expect_failure "d: Is a directory" a d b
	expect_failure "d: Is a directory" --io=mmap -j2 a d b
}

# feed FIFO FILE: write FILE into FIFO from the background.
feed() {
	cat "$2" > "$1" &
	feeder=$!
}

# unfeed GOT WANT: reap the writer.  If the FIFO was read to its end (GOT
# is WANT) the writer ends by itself; if not, it may wait forever for a
# reader, so it is killed (a blocked open or write dies of the signal).
unfeed() {
	cmp -s "$1" "$2" || kill "$feeder" 2>/dev/null
	wait "$feeder" 2>/dev/null
}

test_fifo_operand() {
	make_ab
	have mkfifo || skip_test "no mkfifo"
	mkfifo p || skip_test "mkfifo failed"
	random_file data 1000000
	for opts in "-j1" "-j2" "--io=mmap -j1" "--io=mmap -j2" "--buffer-size=4K -j2"; do
		feed p data
		printf '%s  a\n%s  p\n%s  b\n' "$(sha256 a)" "$(sha256 data)" "$(sha256 b)" > want
		# shellcheck disable=SC2086
		multisum $opts a p b > got
		unfeed got want
		same got want "a FIFO among files, $opts: its content is hashed"
	done
	multisum -a md5,sha1,blake2b,crc32 data | sed 's/(data)/(p)/' > want
	feed p data
	multisum -a md5,sha1,blake2b,crc32 p > got
	unfeed got want
	same got want "a FIFO through several digests"
}

test_standard_input() {
	make_ab
	sha256sum < b > want
	multisum < b > got
	same got want "no operand: standard input, named -"
	multisum - < b > got
	same got want "- is standard input"
	sha256sum a - b < b > want
	multisum a - b < b > got
	same got want "- among files"
	sha256sum - - < a > want
	multisum - - < a > got
	same got want "- twice: the second read finds the end, as sha256sum's"
	cat b | multisum -j2 --io=mmap > got
	sha256sum < b > want
	same got want "a pipe with --io=mmap -j2"
	# a descriptor already read from: hash what is left, as sha256sum does
	for io in read mmap auto; do
		{ dd bs=1000 count=1 of=/dev/null 2>/dev/null; multisum --io=$io -; } < b > got
		{ dd bs=1000 count=1 of=/dev/null 2>/dev/null; sha256sum -; } < b > want
		same got want "standard input at offset 1000, --io=$io: the rest is hashed"
	done
	status_is 3 "closed standard input fails" multisum <&- > got 2> err
	has_line err "multisum: -: Bad file descriptor" "a closed standard input is named -"
}

test_vanishing_file() {
	make_ab
	printf 'soon gone' > gone
	printf 'a\ngone\nb\n' > list
	rm gone
	status_is 3 "a listed file that vanished fails" multisum --files-from=list > got 2> err
	has_line err "multisum: gone: No such file or directory" "the vanished file is named"
	printf '%s  a\n%s  b\n' "$(sha256 a)" "$(sha256 b)" > want
	same got want "the rest of the list is hashed"
}

# A mapped file that shrinks while it is hashed is a read error, not a
# crash.  shrink-helper truncates it at set moments (no race); then the
# real program runs against a concurrent truncation, where any outcome
# but a crash is fine.
test_shrinking_mapped_file() {
	helper=${MS_HELPERS:-}/shrink-helper
	[ -x "$helper" ] || skip_test "no shrink-helper (run through make check)"
	for when in start middle thread; do
		for algos in sha256 md5,sha1,blake2b,crc32,xxh3 blake2b-256 blake2bp blake2sp \
		    sha3-256,shake128,sm3,ripemd160,xxh128; do
			shrunk_fails "$helper" "$when" "$algos"
		done
	done
	for algos in sha256 md5,blake2bp,crc32; do
		"$helper" victim grow "$algos" > out 2>&1
		has_line out "read error: file changed as we read it" \
		    "a mapped file that grew after the open changed as it was read ($algos)"
	done
	random_file big 12000000
	for round in 1 2 3 4 5 6; do
		cp big victim
		case $round in
		1|2) opts="-j1" ;;
		3|4) opts="-j2 -a sha256,blake2bp,crc32" ;;
		*) opts="-j2 -a blake2sp" ;;
		esac
		# shellcheck disable=SC2086
		truncated_while_hashed "round $round" 0 $opts
	done
}

test_write_errors() {
	[ -w /dev/full ] || skip_test "no /dev/full"
	make_ab
	for opts in "" "-a md5,sha1" "--format=ndjson" "-z" "--raw" "--tag --base64"; do
		# shellcheck disable=SC2086
		status_is 3 "'$opts' > /dev/full fails" multisum $opts a > /dev/full 2> err
		has_line err "multisum: write error: No space left on device" \
		    "'$opts' > /dev/full says write error"
	done
	# more output than the stdio buffer: the error comes while writing
	i=0
	while [ $i -lt 2000 ]; do
		: > "e$i"
		i=$((i + 1))
	done
	status_is 3 "2000 lines > /dev/full fail" multisum e* > /dev/full 2> err
	has_line err "multisum: write error: No space left on device" "2000 lines: write error"
	status_is 3 "a closed standard output fails" multisum a >&- 2> err
	check "a closed standard output: write error" grep -q "^multisum: write error" err
	for opt in --version --help --list-algorithms; do
		status_is 3 "$opt > /dev/full fails" multisum $opt > /dev/full 2> err
		has_line err "multisum: write error: No space left on device" "$opt: write error"
	done
}

test_bad_options() {
	printf 'x' > data
	usage_error "--nosuch" --nosuch data
	for args in "--nosuch:unrecognized option '--nosuch'" "-Q:invalid option -- 'Q'" \
	    "-a:option '-a' requires an argument" \
	    "--algorithm:option '--algorithm' requires an argument"; do
		multisum ${args%%:*} > /dev/null 2> err
		has_line err "multisum: ${args#*:}" "${args%%:*}: says ${args#*:}"
	done
	usage_error "-Q" -Q data
	usage_error "-a without its argument" data -a
	usage_error "--io=bogus" --io=bogus data
	usage_error "--buffer-size=1" --buffer-size=1 data
	usage_error "--buffer-size=2G" --buffer-size=2G data
	usage_error "--buffer-size=abc" --buffer-size=abc data
	usage_error "--buffer-size=4Ki" --buffer-size=4Ki data
	usage_error "-j0" -j0 data
	usage_error "-j abc" -j abc data
	usage_error "-j 99999" -j 99999 data
	usage_error "--jobs=-1" --jobs=-1 data
	usage_error "--format without its argument" data --format
	# and the accepted forms of the same options
	multisum --buffer-size=4K --io=read -j 3 data > got
	has_line got "$(sha256 data)  data" "--buffer-size=4K --io=read -j 3"
	multisum --buffer-size=1MiB --io=auto --jobs=1 -- data > got
	has_line got "$(sha256 data)  data" "--buffer-size=1MiB --io=auto --jobs=1 --"
}

run missing_file
run unreadable_file
run directory_operand
run fifo_operand
run standard_input
run vanishing_file
run shrinking_mapped_file
run write_errors
run bad_options
finish
