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
# not cost a write each (counted by strace, never timed).
test_fast_results_are_gathered() {
	have strace || skip_test "no strace"
	strace -f -o /dev/null true 2> /dev/null || skip_test "strace cannot trace here"
	mkdir t
	i=0
	while [ $i -lt 3000 ]; do
		echo $i > t/f$i
		i=$((i + 1))
	done
	strace -f -s 8192 -e trace=write \
	    -e signal=none -o trace "$MULTISUM" -r -j1 t | cat > out
	is "$(wc -l < out | tr -d ' ')" 3000 "every line"
	grep 'write(1,' trace > writes
	n=$(wc -l < writes | tr -d ' ')
	check "3000 lines in $n writes (fewer than 1500)" [ "$n" -lt 1500 ]
	awk '{ sub(/.*= /, ""); if ($1 + 0 > 4096) print }' writes > big
	same big /dev/null "no write over PIPE_BUF"
	grep -Ev '\\n", [0-9]+\) = [0-9]+$' writes > cut
	same cut /dev/null "each write ends at a line end"
}

run first_line_before_the_fifo_is_written
run kill_loses_no_finished_line
run fast_results_are_gathered
finish
