#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# pipes.sh - results reach a pipe or a file as they are made: each line
# is written once it and every earlier one are done, so `| tee log` shows
# progress and a run killed loses no finished line.  The proof needs no
# clock: the second operand is a FIFO nobody writes until the first
# file's line has been read; had that line been held back, the reader
# would wait for ever (the failure path is a generous timeout).
. "$TESTS_SRCDIR/lib.sh"

# LeakSanitizer refuses to run under ptrace (the asan build).
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS

# first_line_then_fifo OUTPUT-KIND ARGS...: multisum ARGS... (their last
# operand the FIFO fifo) into a pipe ("pipe") or a regular file ("file").
# Its first line must show while fifo has no writer; then fifo is written
# and the run ends.  Leaves the first line in first, all in out.
first_line_then_fifo() {
	_kind=$1
	shift
	rm -f first out outp
	if [ "$_kind" = pipe ]; then
		mkfifo outp
		"$MULTISUM" "$@" > outp 2> err &
		_pid=$!
		# one reader keeps the pipe open: the first line, then the rest
		{ timeout 60 head -n 1 > first; cat > /dev/null; } < outp &
		_reader=$!
		_show=first
	else
		"$MULTISUM" "$@" > out 2> err &
		_pid=$!
		_reader=
		_show=out
	fi
	# Poll for the first line (the limit is only the failure path).
	_i=0
	while ! grep -q . "$_show" 2> /dev/null && [ $_i -lt 1200 ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
	head -n 1 "$_show" > first.line 2> /dev/null
	mv first.line first
	# Now, and only now, the FIFO gets its writer.
	echo fifo-data > fifo
	wait "$_pid"
	_st=$?
	[ -z "$_reader" ] || wait "$_reader"
}

test_first_line_before_the_fifo_is_written() {
	have timeout || skip_test "no timeout(1)"
	echo a > a
	mkfifo fifo
	want=$(multisum a)
	for kind in pipe file; do
		for j in 1 2; do
			first_line_then_fifo $kind -j$j a fifo
			is "$(cat first)" "$want" "$kind, -j$j: a's line while the FIFO waits"
			is "$_st" 0 "$kind, -j$j: exit 0"
			if [ $kind = file ]; then
				has_line out "$(echo fifo-data | multisum | sed 's/-$/fifo/')" \
				    "$kind, -j$j: then the FIFO's"
			fi
		done
	done
	first_line_then_fifo pipe --format=ndjson -j2 a fifo
	check "NDJSON: a's object while the FIFO waits" grep -q '^{"path":"a"' first
	multisum a > sums
	echo fifo-data | multisum | sed 's/-$/fifo/' >> sums
	for kind in pipe file; do
		first_line_then_fifo $kind -c -j2 sums
		is "$(cat first)" "a: OK" "-c, $kind: a's verdict while the FIFO waits"
		is "$_st" 0 "-c, $kind: exit 0"
	done
}

# kill -9 after two lines were read: both are in the file, whole; the
# FIFO's line was never made.
test_kill_loses_no_finished_line() {
	echo a > a
	echo b > b
	mkfifo fifo
	multisum a b > want
	: > out		# there before the run's own redirection
	"$MULTISUM" -j2 a b fifo > out 2> err &
	pid=$!
	i=0
	while [ "$(wc -l < out)" -lt 2 ] && [ $i -lt 1200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	kill -9 "$pid"
	wait "$pid" 2> /dev/null
	same out want "both finished lines, whole, after kill -9"
}

# Fast results are still gathered: into a pipe every write ends at a line
# end and holds at most PIPE_BUF (4096) bytes, and 3000 small files do
# not cost a write each (counted by strace, never timed).  Two workers
# and the writer thread: at -j 1 each line now goes out as its file ends
# (j1_line_before_a_slow_open), and how many share a write there depends
# on how fast strace lets the files go (686 to 1613 writes seen).
test_fast_results_are_gathered() {
	have strace || skip_test "no strace"
	strace -f -o /dev/null true 2> /dev/null || skip_test "strace cannot trace here"
	numbered_files t 3000
	# one trace a thread (-ff): no write split across two lines of it
	strace -ff -s 8192 -e trace=write \
	    -e signal=none -o trace "$MULTISUM" -r -j2 t | cat > out
	is "$(wc -l < out | tr -d ' ')" 3000 "every line"
	cat trace.* | grep 'write(1,' > writes
	n=$(wc -l < writes | tr -d ' ')
	check "3000 lines in $n writes (fewer than 1500)" [ "$n" -lt 1500 ]
	awk '{ sub(/.*= /, ""); if ($1 + 0 > 4096) print }' writes > big
	same big /dev/null "no write over PIPE_BUF"
	grep -Ev '\\n", [0-9]+\) = [0-9]+$' writes > cut
	same cut /dev/null "each write ends at a line end"
}

# Into a file too: the writer thread writes what is gathered once its
# deadline comes, a millisecond after the first line of it, and the mode
# writes at once only after a pause; so lines share writes, many to one.
# Counted by the kernel (syscw of /proc/PID/io, which takes in the reaped
# child's) against the run's time, three runs: never a time limit.  A
# deadline read from the coarse clock, up to a tick (4 ms) behind, was
# mostly past at once: 6000 files of one line made 45-625 writes in
# 27-40 ms (with the engine's groups, many more without; 209-556 in
# 37-51 ms on a machine busy with CI), now 18-30.  A busy machine also
# makes the right code write more often (a mode thread preempted for a
# tick sees a pause; CI's make check -j2 saw 84 in 24 ms, and 206 in
# 38 ms while a write that ended late was still followed at once by one
# of the lines that came meanwhile), so the bound is two writes a
# millisecond or 150 writes (40 lines a write), whichever is more.  Not
# in a sanitized build, whose writes are slower still.
test_fast_results_into_a_file() {
	[ -r /proc/self/io ] || skip_test "no /proc/PID/io"
	! grep -aq '__[at]san_init' "$MULTISUM" ||
	    skip_test "a sanitized build's writes are slower"
	numbered_files t 6000
	for run in 1 2 3; do
		sh -c 's=$(date +%s%N); "$1" -r -j2 t > out; e=$(date +%s%N)
		    echo $(( (e - s) / 1000000 )) $(sed -n "s/^syscw: //p" /proc/$$/io)' \
		    sh "$MULTISUM" > counts
		read -r ms n < counts
		is "$(wc -l < out | tr -d ' ')" 6000 "run $run: every line"
		most=$((2 * ms + 16))
		[ "$most" -ge 150 ] || most=150
		check "run $run: 6000 lines in $n writes (and the date calls') over $ms ms, $most at most" \
		    [ "$n" -le "$most" ]
	done
}

# The submitter (the thread that walks and writes the lines) waits for
# the workers' results in groups of EMIT_GROUP, a millisecond at most,
# not once a worker's batch of 16 files: each such wake cost a context
# switch or two and preempted the worker that woke it.  Counted by the
# kernel (the run's voluntary context switches, from wait4's rusage)
# against its own time, never a time limit: 6000 files made 214-1965
# waits in 20-120 ms before, 62-87 in 20 ms now.  Not under ThreadSanitizer,
# whose runtime waits on locks of its own (1895 in 112 ms).
test_results_wake_the_submitter_in_groups() {
	have python3 || skip_test "no python3"
	! grep -aq __tsan_init "$MULTISUM" ||
	    skip_test "a ThreadSanitizer build counts its runtime's waits"
	numbered_files t 6000
	python3 - "$MULTISUM" > counts <<-'EOF'
	import os, sys, time
	start = time.monotonic()
	pid = os.fork()
	if pid == 0:
	    os.dup2(os.open("out", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 1)
	    os.execv(sys.argv[1], [sys.argv[1], "-r", "-j2", "t"])
	_, status, ru = os.wait4(pid, 0)
	print(int((time.monotonic() - start) * 1000), ru.ru_nvcsw,
	      os.waitstatus_to_exitcode(status))
	EOF
	read -r ms n rc < counts
	is "$rc" 0 "the run's exit status"
	is "$(wc -l < out | tr -d ' ')" 6000 "every line"
	check "$n voluntary context switches over $ms ms (4 a ms and 60 at most)" \
	    [ "$n" -le $((4 * ms + 60)) ]
}

# slow_open SECONDS PATH... -- CMD...: CMD under strace, each PATH's open
# held SECONDS before it runs (strace's delay injection): a regular file
# that blocks like one on a slow disk or server.  $_tracer is strace's
# pid, $_traced CMD's.
slow_open() {
	_delay=$1
	shift
	_paths=
	while [ "$1" != -- ]; do
		_paths="$_paths -P $1"
		shift
	done
	shift
	# strace itself, not a subshell: its child is CMD (ASAN_OPTIONS
	# above keeps LeakSanitizer away from ptrace)
	# shellcheck disable=SC2086
	strace -f -o /dev/null $_paths -e trace=openat \
	    -e inject=openat:delay_enter=$((_delay * 1000000)) "$@" &
	_tracer=$!
	_traced=
	# CMD once it runs: strace forks short-lived children of its own
	# first (its probes of what ptrace can do), and CMD's pid is strace
	# until CMD's exec: taking one of those made "the run still waits"
	# fail now and then on a busy machine
	wait_for "the traced run" eval '_traced=$(ps -o pid= -o comm= \
	    --ppid $_tracer | awk '\''$2 != "strace" { print $1 }'\'') &&
	    [ -n "$_traced" ]'
}

can_delay() {
	have strace && have ps || skip_test "no strace or ps"
	strace -f -o /dev/null -e inject=openat:delay_enter=1 true 2> /dev/null ||
	    skip_test "strace cannot inject delays here"
}

# -j 1 too writes each line while a later file is still being opened: not
# in batches of files (the whole run, for a few large files).  x's open
# waits 60 s, a's and b's lines must show long before (a stream, as the
# FIFO above, is run alone at every -j; a regular file is not).
test_j1_line_before_a_slow_open() {
	can_delay
	random_file a 100000
	random_file b 100000
	random_file x 100000
	multisum a b > want
	for kind in file pipe; do
		rm -f out
		if [ $kind = file ]; then
			slow_open 60 x -- "$MULTISUM" -j1 a b x > out 2> err
		else
			slow_open 60 x -- sh -c '"$1" -j1 a b x | cat > out' \
			    sh "$MULTISUM" 2> err
		fi
		wait_for "$kind: two lines while x opens" \
		    eval '[ "$(cat out 2> /dev/null | wc -l)" -ge 2 ]'
		status_is 0 "$kind: the run still waits for x" \
		    kill -0 "$_traced"
		kill -9 "$_tracer"	# x opens now
		wait "$_tracer" 2> /dev/null
		wait_for "$kind: x's line" eval '[ "$(wc -l < out)" -ge 3 ]'
		same out - "$kind: the lines in order" <<-EOF
		$(cat want; multisum x)
		EOF
	done
}

# A checkpoint at -j 1 holds every file finished before it: the run is
# killed while a file opens, and the ledger keeps what it had read (each
# x's open waits 4 s, the walk's look at it too, so that each finished
# file's result comes after a checkpoint is due; 2 s lost the race once
# on a busy machine).
test_j1_checkpoint_keeps_finished_lines() {
	can_delay
	for f in a x1 x2 x3; do
		random_file $f 50000
	done
	multisum a x1 > want
	slow_open 4 x1 x2 x3 -- \
	    "$MULTISUM" -j1 --update=L --checkpoint=1 a x1 x2 x3 \
	    > /dev/null 2> err
	wait_for "a checkpoint with two files" \
	    eval '[ "$(cat L 2> /dev/null | grep -c "  [ax]")" -ge 2 ]'
	kill -9 "$_traced"
	wait "$_tracer" 2> /dev/null
	n=$(grep -c '  [ax]' L)
	check "killed before its end: $n of 4 files" [ "$n" -lt 4 ]
	grep '  [ax]' L | head -n 2 > got
	same got want "a's and x1's lines, whole"
	status_is 0 "the checkpoint verifies" multisum -c L > /dev/null
}

run first_line_before_the_fifo_is_written
run j1_line_before_a_slow_open
run j1_checkpoint_keeps_finished_lines
run kill_loses_no_finished_line
run fast_results_are_gathered
run fast_results_into_a_file
run results_wake_the_submitter_in_groups
finish
