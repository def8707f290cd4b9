#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# io-hardening.sh - the I/O side of hardening (issues 9 and 10): one reader per
# stream, -o that never lists or clobbers what it should not, signals,
# descriptors, odd files, mapped files that shrink, and the shape of
# what reaches standard output.
. "$TESTS_SRCDIR/lib.sh"

# tool NAME: a link to multisum named NAME (a personality) in ./bin.
tool() {
	mkdir -p bin
	ln -sf "$MULTISUM" "bin/$1"
}

# Standard input (and any stream) has one reader, in operand order: the
# first "-" gets all the data, the second none, at every -j.
test_stdin_twice() {
	random_file data 3145728
	sha256sum - - < data > want
	for j in 1 2 4; do
		multisum -a sha256 -j "$j" - - < data > got
		same got want "-j $j: '- -' hashes everything for the first -"
		cat data | multisum -a sha256 -j "$j" - data - > got
		{ sed -n 1p want; sha256sum data; sed -n 2p want; } > want3
		same got want3 "-j $j: '- data -' from a pipe"
	done
	tool cksum
	cat data | command cksum - - > want
	cat data | bin/cksum - - > got
	same got want "cksum - - from a pipe"
}

# -o never lists its own output or temporary, on the first run or the next.
test_output_not_self_listed() {
	mkdir t
	printf 'a\n' > t/a
	for round in 1 2; do
		(cd t && multisum -a sha256 -r -o MANIFEST .) 2> err
		status_is 0 "round $round: -r -o MANIFEST . succeeds" test -s t/MANIFEST
		is "$(cat t/MANIFEST)" "$(cd t && sha256sum ./a)" "round $round: only ./a is listed"
		(cd t && sha256sum -c --strict MANIFEST) > /dev/null 2>&1
		check "round $round: the manifest verifies" [ $? -eq 0 ]
	done
	is "$(ls -A t | tr '\n' ' ')" "MANIFEST a " "no temporary left behind"
}

# -o never replaces an input, nor a file that is not a manifest.
test_output_refusals() {
	printf 'x\n' > a.tar.xz
	printf 'y\n' > b.tar.xz
	cp a.tar.xz keep
	status_is 1 "-o onto a tarball (manifest name forgotten) fails" \
	    multisum -o a.tar.xz b.tar.xz 2> err
	same a.tar.xz keep "the tarball is untouched"
	has_line err "multisum: a.tar.xz: exists and is not a checksum manifest: not replaced (remove it first)" \
	    "says why"
	status_is 1 "-o f f fails" multisum -o a.tar.xz a.tar.xz 2> /dev/null
	same a.tar.xz keep "f is untouched"
	multisum -a sha256 -o SUMS b.tar.xz
	cp SUMS keep
	status_is 1 "-o SUMS SUMS (an input) fails" multisum -a sha256 -o SUMS SUMS b.tar.xz 2> err
	same SUMS keep "the manifest that was an input is untouched"
	has_line err "multisum: SUMS: is the output file (-o): not read" "says why"
	status_is 0 "an existing manifest is replaced" multisum -o SUMS a.tar.xz
	: > empty
	status_is 0 "an empty file is replaced" multisum -o empty a.tar.xz
	ls -A > list
	lacks list ".SUMS." "no temporary left behind"
}

# -o keeps the mode of the manifest it replaces and writes through a link.
test_output_mode_and_link() {
	printf 'a\n' > a
	multisum -o SUMS a
	chmod 600 SUMS
	multisum -o SUMS a
	is "$(ls -l SUMS | cut -c1-10)" "-rw-------" "a 0600 manifest stays 0600"
	mkdir real
	multisum -o real/SUMS a
	ln -s real/SUMS link
	printf 'b\n' > b
	multisum -a sha256 -o link b
	check "the link is still a link" [ -L link ]
	is "$(cat real/SUMS)" "$(sha256sum b)" "its target got the new manifest"
	ln -s real/NEW dangling
	multisum -a sha256 -o dangling b
	check "a dangling link's target is created" [ -L dangling ] && [ -f real/NEW ]
}

# A signal that ends the run while -o writes (SIGTERM, SIGINT, a file
# size or CPU limit's, timeout -s ALRM, kill -USR1): the temporary goes,
# the old manifest stays.
test_output_signal() {
	printf 'a\n' > a
	multisum -o SUMS a
	cp SUMS keep
	mkfifo fifo
	for sig in TERM INT XFSZ XCPU ALRM USR1 USR2 VTALRM PROF; do
		# (env: an asynchronous command starts with SIGINT ignored)
		env --default-signal="$sig" "$MULTISUM" -o SUMS a fifo &
		pid=$!
		n=0
		# wait (not timed: polled) until the temporary exists
		while [ -z "$(ls -A | grep '^\.SUMS\.')" ] && [ $n -lt 200 ]; do
			sleep 0.05; n=$((n + 1))
		done
		kill -s "$sig" "$pid"
		# a run that outlived the signal gets a writer that waits for
		# its open, then goes (no race with the run reaching the FIFO)
		(: > fifo) &
		writer=$!
		wait "$pid"
		st=$?
		# SIGKILL: the subshell catches TERM (lib.sh's trap), and a
		# caught signal restarts its open of the FIFO: it would wait on
		# for a reader when the run died before opening it
		kill -KILL "$writer" 2>/dev/null; wait "$writer" 2>/dev/null
		check "SIG$sig: the run died of it ($st)" [ "$st" -gt 128 ]
		ls -A > list
		lacks list ".SUMS." "SIG$sig: the temporary is removed"
		same SUMS keep "SIG$sig: the old manifest is intact"
	done
}

# A list read from standard input may not name "-" (wc --files0-from=-).
test_list_from_stdin_names_stdin() {
	printf 'a\n' > a
	printf 'b\n' > b
	printf 'a\n-\nb\n' | multisum -a sha256 --files-from=- > got 2> err
	check "refused: exit 1" [ $? -eq 1 ]
	sha256sum a b > want
	same got want "the rest of the list is hashed"
	has_line err "multisum: when reading file names from standard input, no file name of '-' allowed" "says why"
	printf 'a\0-\0b\0' | multisum -a sha256 --files0-from=- > got 2> /dev/null
	same got want "--files0-from=- too"
}

# Closed descriptors 0-2: no file takes their place.
test_closed_std_descriptors() {
	printf 'a\n' > a
	multisum -a sha256 - <&- > got 2> err
	check "stdin closed: exit 3" [ $? -eq 3 ]
	has_line err "multisum: -: Bad file descriptor" "stdin closed: a read error"
	multisum -a sha256 -o SUMS a missing 2>&-
	check "stderr closed: a failed -o run writes nothing" [ ! -e SUMS ]
	multisum -a sha256 -o SUMS a 2>&-
	is "$(cat SUMS)" "$(sha256sum a)" "stderr closed: the manifest holds only its lines"
	ls -A > list
	lacks list ".SUMS." "no temporary left behind"
	if [ ! -d /proc/self/fd ]; then
		skip_case "no /proc/self/fd: the descriptors of -o not looked at"
		return 0
	fi
	# While -o writes (held on a FIFO), descriptor 2 is not its temporary.
	mkfifo fifo
	"$MULTISUM" -o SUMS a fifo 2>&- &
	pid=$!
	n=0
	while [ -z "$(ls -A | grep '^\.SUMS\.')" ] && [ $n -lt 200 ]; do
		sleep 0.05; n=$((n + 1))
	done
	fd2=$(readlink "/proc/$pid/fd/2")
	: > fifo	# waits for the run to open the FIFO, then lets it end
	wait "$pid"
	case $fd2 in
	*/.SUMS.*) fail "stderr closed: descriptor 2 is the -o temporary ($fd2)" ;;
	*) pass ;;
	esac
}

# Write errors as coreutils 9.1 words them; --help/--version into a full device.
test_write_errors() {
	printf 'a\n' > a
	tool sha256sum
	sha256sum a > SUMS
	for args in "a" "-c SUMS"; do
		bin/sha256sum $args > /dev/full 2> err
		check "sha256sum $args > /dev/full: exit 1" [ $? -eq 1 ]
		# named as called (bin/sha256sum), as coreutils' error() does
		is "$(cat err)" "bin/sha256sum: write error" "sha256sum $args: coreutils' words"
	done
	for opt in --help --version; do
		bin/sha256sum $opt > /dev/full 2> /dev/null
		check "sha256sum $opt > /dev/full: exit 1" [ $? -eq 1 ]
		multisum $opt > /dev/full 2> /dev/null
		check "multisum $opt > /dev/full: exit 3" [ $? -eq 3 ]
	done
}

# Hash-mode messages quote names: a newline cannot forge a message line.
test_messages_quote_names() {
	multisum "$(printf 'no\nsuch')" 2> err
	is "$(wc -l < err | tr -d ' ')" 1 "one message line"
	has_line err "multisum: 'no'\$'\\n''such': No such file or directory" "quoted as coreutils does"
}

# A mapped file that shrinks is a read error whatever thread touches the
# window: the caller's, a second thread, libb2's OpenMP threads (blake2bp,
# blake2sp read the window directly now).  Then the real program, at -j1
# and -j2, against a concurrent truncation: never a crash, and a digest it
# prints is that of the whole file or of what is left, never of zeros.
test_sigbus_every_thread() {
	helper=${MS_HELPERS:-}/shrink-helper
	[ -x "$helper" ] || skip_test "no shrink-helper (run through make check)"
	for when in start middle thread; do
		for algos in blake2bp blake2sp sha256,blake2bp; do
			shrunk_fails "$helper" "$when" "$algos"
		done
	done
	random_file whole 12000000
	head -c 8192 whole > rest
	for args in "-j1 -a sha256" "-j2 -a sha256,md5" "-j2 -a blake2bp" "-j1 -a blake2bp"; do
		multisum $args whole > want_whole
		multisum $args rest | sed 's/rest/victim/' > want_rest
		for round in 1 2 3; do
			cp whole victim
			multisum --io=mmap $args victim > got 2> err &
			pid=$!
			truncate -s 8192 victim
			wait "$pid"
			st=$?
			if [ "$st" -gt 128 ]; then
				fail "$args: killed by signal $((st - 128))"
			elif [ "$st" -eq 0 ]; then
				sed 's/victim/whole/' got > got_whole
				if cmp -s got_whole want_whole || cmp -s got want_rest; then
					pass
				else
					fail "$args: a digest of neither the file nor what is left"
				fi
			else
				check "$args: failed, and no digest printed" [ ! -s got ]
			fi
		done
	done
}

# wait_for FILE TEXT: poll (at most about 30 s, not a timing assertion)
# until FILE holds TEXT; fails if it never does.
wait_for() {
	_n=0
	while ! grep -qF -e "$2" "$1" 2>/dev/null; do
		[ $_n -ge 600 ] && return 1
		sleep 0.05
		_n=$((_n + 1))
	done
}

# On a terminal each result is printed as soon as it and every earlier
# one are done: the first line shows while a FIFO (the last operand)
# still waits for its writer.
test_terminal_streams() {
	have script || skip_test "no script(1)"
	printf 'a\n' > a
	mkfifo fifo
	for j in 1 2; do
		for tool in multisum sha256sum; do
			if [ $tool = sha256sum ]; then
				tool sha256sum
				cmd="bin/sha256sum"
			else
				cmd="$MULTISUM -a sha256 -j $j"
			fi
			rm -f ts
			script -qfc "$cmd a fifo" ts < /dev/null > /dev/null 2>&1 &
			pid=$!
			if wait_for ts "$(sha256sum a)"; then
				pass
			else
				fail "$tool -j $j: the first line waits for the FIFO"
			fi
			printf 'b\n' > fifo
			wait "$pid"
			wait_for ts "$(printf 'b\n' | sha256sum | cut -c1-64)  fifo"
			check "$tool -j $j: then the FIFO's line" [ $? -eq 0 ]
		done
	done
}

# many_files N: d/ with N small files whose long names fill buffers soon.
many_files() {
	mkdir d
	i=0
	while [ $i -lt "$1" ]; do
		printf '%s\n' "$i" > "d/file-with-a-rather-long-name-to-fill-buffers-$i"
		i=$((i + 1))
	done
}

# Runs sharing a pipe never mangle each other's lines (coreutils'
# tests/misc/md5sum-parallel.sh): every write is whole lines, at most
# PIPE_BUF bytes.
test_parallel_runs_one_pipe() {
	tool md5sum
	many_files 1500
	(cd d && md5sum *) | sort > want
	for round in 1 2 3; do
		(cd d && ls | xargs -n 300 -P 2 ../bin/md5sum) | sort > got
		same got want "round $round: two md5sum runs into one pipe"
		(cd d && ls | xargs -n 300 -P 2 "$MULTISUM" -a md5) | sort > got
		same got want "round $round: two multisum runs into one pipe"
	done
}

# The same for -c: two runs verifying into one pipe write whole lines.
test_parallel_checks_one_pipe() {
	many_files 6000
	(cd d && multisum -a md5 -- *) > all.md5
	split -l 1500 all.md5 part.
	sed 's/^[0-9a-f]*  //; s/$/: OK/' all.md5 | sort > want
	for round in 1 2 3; do
		(cd d && ls ../part.* | xargs -n 1 -P 2 "$MULTISUM" -c) | sort > got
		same got want "round $round: two multisum -c runs into one pipe"
	done
}

# --io=mmap on a file that cannot be mapped (sysfs) reads it instead.
test_unmappable_file_is_read() {
	f=/sys/kernel/btf/vmlinux
	[ -r "$f" ] || skip_test "no $f to try"
	sha256sum "$f" > want
	multisum -a sha256 --io=mmap "$f" > got 2> err
	same got want "--io=mmap $f: read instead"
	is "$(cat err)" "" "no message"
}

# progress_in_pty LAST MARK: multisum -j 1 --progress over a, a FIFO and
# LAST in a pseudo-terminal (script(1), writing ts; pid is its process),
# waited for until a's result and then MARK of the progress line show,
# while the FIFO waits for its writer.
progress_in_pty() {
	printf 'a\n' > a
	mkfifo fifo
	script -qfc "$MULTISUM -a sha256 -j 1 --progress a fifo $1" ts \
	    < /dev/null > /dev/null 2>&1 &
	pid=$!
	wait_for ts "$(sha256sum a)"
	wait_for ts "$2" || fail "no progress line drawn"
}

# The progress line is erased before other output to its terminal: a
# result line and a message each come after "\r\033[K", never glued to
# the progress text.
test_progress_erased() {
	have script || skip_test "no script(1)"
	# the line shows after a second, while the FIFO waits for its writer
	progress_in_pty nosuch ", "
	printf 'b\n' > fifo
	wait "$pid"
	esc=$(printf '\033')
	cr=$(printf '\r')
	d=$(printf 'b\n' | sha256sum | cut -c1-64)
	grep -a "$d  fifo" ts | sed "s/$d  fifo.*//" > before
	check "the result line follows an erase" grep -q "$cr$esc\\[K\$" before
	grep -a "nosuch: No such file" ts | sed 's/multisum: nosuch.*//' > before
	check "the message starts a line or follows an erase" \
	    grep -q "^\$\|$cr$esc\\[K\$" before
}

# A file the walk found regular but that is a FIFO by the time it is
# opened is refused at once, never waited on; --bench on a FIFO too.
test_walked_file_now_fifo() {
	helper=${MS_HELPERS:-}/shrink-helper
	[ -x "$helper" ] || skip_test "no shrink-helper (run through make check)"
	timeout 20 "$helper" victim fifo sha256 > out 2>&1
	has_line out "refused: no longer a regular file (replaced since the directory was read)" \
	    "refused without blocking, with the cause"
	mkfifo fifo
	timeout 20 "$MULTISUM" --bench --bench-time=0.1 fifo > out 2> err
	st=$?
	check "--bench FIFO does not hang" [ "$st" -ne 124 ]
	check "--bench FIFO is refused" [ "$st" -ne 0 ]
}

# --buffer-size is capped, and memory that runs out fails the file (exit
# 1, a message naming it), not the run (exit 2).
test_memory_bounds() {
	printf 'a\n' > a
	usage_error "--buffer-size=1G is refused" --buffer-size=1G a
	usage_error "--buffer-size=128M is refused" --buffer-size=128M a
	(ulimit -v 40000 && "$MULTISUM" -j1 a) > /dev/null 2>&1 ||
	    skip_test "cannot run under a 40 MB memory limit here (sanitizers?)"
	# The default --memory is a quarter of the limit: the buffer shrinks.
	(ulimit -v 40000 && "$MULTISUM" -a sha256 --buffer-size=64M -j1 a) > got 2> err
	check "64M buffers under a 40 MB limit: they shrink, exit 0" [ $? -eq 0 ]
	is "$(cat got)" "$("$MULTISUM" -a sha256 a)" "the digest"
	# A bound above the limit: the allocation fails, and so does the file.
	(ulimit -v 40000 && "$MULTISUM" -a sha256 --buffer-size=64M --memory=1G -j1 a) > got 2> err
	check "out of memory: exit 3" [ $? -eq 3 ]
	has_line err "multisum: a: Cannot allocate memory" "the file is named, with the cause"
	is "$(cat got)" "" "no digest"
}

# A tree deeper than PATH_MAX: the files below are hashed, and a long name
# in a message keeps its reason.
test_deep_tree() {
	deep_tree top
	want="$(printf 'deep\n' | sha256sum | cut -c1-64)"
	multisum -a sha256 -r top > got 2> err
	check "-r on a tree deeper than PATH_MAX: exit 0" [ $? -eq 0 ]
	is "$(cut -c1-64 got)" "$want" "the deep file is hashed"
	check "under its whole path" [ "$(cut -c67- got | wc -c)" -gt 4096 ]
	long=$(printf '%05000d' 0)
	multisum "$long" 2> err
	check "a 5000-byte name: the message ends with its reason" \
	    grep -q ": File name too long\$" err
}

# -c: an entry naming "-" while standard input is also a manifest is
# refused (two readers would split it, issue 10 B13); from a file it is
# read as before.
test_check_stdin_entry() {
	printf 'a\n' > a
	h=$(sha256sum < a | cut -c1-64)
	printf '%s  -\n%s  a\n' "$h" "$h" > M
	for j in 1 2; do
		multisum -j $j -c M - < M > got 2> err
		check "-j $j: fails" [ $? -eq 1 ]
		has_line got "-: FAILED open or read" "-j $j: the - entry is not read"
		has_line err "multisum: -: standard input is read as a manifest: not hashed" \
		    "-j $j: says why"
		is "$(grep -c '^a: OK$' got)" 2 "-j $j: both manifests' other lines verify"
	done
	multisum -c M < a > got 2> err
	has_line got "-: OK" "no stdin manifest: - is hashed"
}

# With -j 1 the progress total counts every queued file, not only those
# opened: while a FIFO waits, the file after it is already in the total.
test_progress_total_j1() {
	have script || skip_test "no script(1)"
	random_file c 1000
	progress_in_pty c " of "
	# drawn four times a second: a few lines to be sure of the total
	_n=0
	while [ "$(grep -ao ' of [^,]*' ts | wc -l)" -lt 3 ] && [ $_n -lt 200 ]; do
		sleep 0.05; _n=$((_n + 1))
	done
	printf 'b\n' > fifo
	wait "$pid"
	grep -ao ' of [^,]*' ts | sed -n 1p > total
	is "$(cat total)" " of 1.0 kB" "the total counts the file after the FIFO"
}

run stdin_twice
run output_not_self_listed
run output_refusals
run output_mode_and_link
run output_signal
run list_from_stdin_names_stdin
run closed_std_descriptors
run write_errors
run messages_quote_names
run sigbus_every_thread
run terminal_streams
run parallel_runs_one_pipe
run parallel_checks_one_pipe
run unmappable_file_is_read
run progress_erased
run walked_file_now_fifo
run memory_bounds
run deep_tree
run check_stdin_entry
run progress_total_j1
finish
