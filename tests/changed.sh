#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# changed.sh - a file that changes while it is read is an error ("file
# changed as we read it", exit 3, no digest), in every I/O mode: read,
# mmap, and a big file split over workers, read or mapped.  No race: the
# run is stopped by strace at the Nth read or mmap of the file (a
# SIGSTOP injected into that system call), the file is changed while
# the run stands still, and the run goes on.
. "$TESTS_SRCDIR/lib.sh"

# LeakSanitizer refuses to run under ptrace (the asan build).
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS

need_strace() {
	have strace || skip_test "no strace"
	have pgrep || skip_test "no pgrep"
	[ -d /proc/self/task ] || skip_test "no /proc/PID/task"
	strace -f -o /dev/null true 2> /dev/null ||
	    skip_test "strace cannot trace here"
}

# all_stopped PID: every thread of PID is stopped (state t or T).
all_stopped() {
	for _t in /proc/"$1"/task/*/stat; do
		# the state follows the command name's closing parenthesis
		case $(sed 's/.*) //' "$_t" 2> /dev/null | cut -c1) in
		t|T) ;;
		*) return 1 ;;
		esac
	done
}

# stopped CALL N CHANGE ARGS...: multisum ARGS... (their last is the file
# victim) stopped at its Nth CALL (read or mmap) of victim (or of
# $VICTIM, a path under the working directory); CHANGE is run while it
# stands still, then it goes on.  Leaves out, err and $st.
stopped() {
	_call=$1 _n=$2 _change=$3
	shift 3
	rm -f trace
	strace -f -o trace -P "$PWD/${VICTIM:-victim}" -e trace="$_call" \
	    -e inject="$_call:signal=SIGSTOP:when=$_n" \
	    "$MULTISUM" "$@" > out 2> err &
	_tracer=$!
	_i=0
	# Poll, with a generous limit as the failure path: never a timing.
	while ! grep -q 'stopped by SIGSTOP' trace 2> /dev/null; do
		if [ $_i -ge 600 ] || ! kill -0 "$_tracer" 2> /dev/null; then
			fail "$*: the run never stopped at $_call $_n"
			wait "$_tracer"
			st=$?
			return
		fi
		sleep 0.05
		_i=$((_i + 1))
	done
	# Every thread in its stop, then the change, then on.
	_pid=$(pgrep -P "$_tracer")
	while ! all_stopped "$_pid"; do
		sleep 0.05
	done
	eval "$_change"
	# strace 6.1 sometimes misses a SIGCONT to a stopped multi-threaded
	# tracee: say it until the run is over (a second one is harmless).
	_i=0
	while kill -CONT "$_pid" 2> /dev/null && [ $_i -lt 600 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	wait "$_tracer"
	st=$?
}

# The ways a run reads one file of 20 MB, and where to stop it: past its
# first chunk (read) or window (mmap), with chunks still to come.
modes='read 3 --io=read -j1 -a sha256
read 3 --io=read -j2 -a sha256,md5
mmap 2 --io=mmap -j1 -a sha256
mmap 2 --io=mmap -j2 -a sha256,md5
mmap 2 -j2 -a blake3
read 3 --io=read -j2 -a blake3'

# The changes: shorter, longer, rewritten in place at the same size (a
# new modification time), and a chmod (a new status change time only).
changes='truncate -s 1000000 victim
echo more >> victim
dd if=/dev/zero of=victim bs=4096 count=1 seek=100 conv=notrunc 2> /dev/null
chmod 600 victim'

test_change_is_an_error_in_every_mode() {
	need_strace
	random_file orig 20000000
	while read -r call n args; do
		while IFS= read -r change; do
			cp orig victim
			chmod 644 victim
			# shellcheck disable=SC2086
			stopped "$call" "$n" "$change" $args victim < /dev/null
			is "$st" 3 "$args, $change: exit status"
			has_line err "multisum: victim: file changed as we read it" \
			    "$args, $change: the message"
			same out /dev/null "$args, $change: no digest"
		done <<-EOF
		$changes
		EOF
	done <<-EOF
	$modes
	EOF
}

# late_grown DIR CALL N WHAT ARGS...: DIR/victim, grown at its Nth CALL
# of a -r run with ARGS, is an error with no digest.
late_grown() {
	_dir=$1 _c=$2 _n=$3 _what=$4
	shift 4
	VICTIM=$_dir/victim stopped "$_c" "$_n" "echo more >> $_dir/victim" \
	    -r "$@" "$_dir" < /dev/null
	is "$st" 3 "$_what: exit 3"
	has_line err "multisum: $_dir/victim: file changed as we read it" \
	    "$_what: the message"
	same out /dev/null "$_what: no digest"
}

# A small file -r finds that has not changed for a while is fstat'ed
# once, after its read (source.c's late watch).  A change between the
# open and that fstat is seen by its status change time, and the file is
# read again from the start, watched as any other: the digest is of the
# new content, never of the old one nor a mix.  A change after it, in a
# file longer than one read, is an error as ever.  Stopped as its first
# (or second) pread returns, changed, resumed: no race.
test_late_watch_sees_changes() {
	need_strace
	built_with HAVE_FSTATFS ||
	    skip_test "built without fstatfs: no late watch (io/source_late.c)"
	mkdir rewrite cut long swap mapped
	random_file mapped/victim 20000000
	random_file rewrite/victim 1000
	random_file cut/victim 1000
	random_file long/victim 100000
	echo a > swap/a
	echo x > swap/x
	sleep 3		# older than the late watch's margin
	# Made a FIFO once the directory was read: its pread says ESPIPE,
	# and the fstat after it what the file has become.
	VICTIM=swap stopped getdents64 2 'rm swap/x && mkfifo swap/x' \
	    -r -j1 -a sha256 swap < /dev/null
	is "$st" 3 "made a FIFO: exit 3"
	has_line err "multisum: swap/x: no longer a regular file (replaced since the directory was read)" \
	    "made a FIFO: the message"
	multisum -a sha256 swap/a > want
	same out want "made a FIFO: the other file hashed"

	VICTIM=rewrite/victim stopped pread64 1 \
	    'printf XYZ | dd of=rewrite/victim bs=1 seek=10 conv=notrunc 2> /dev/null' \
	    -r -j1 -a sha256 rewrite < /dev/null
	is "$st" 0 "rewritten in place: exit 0"
	multisum -a sha256 rewrite/victim > want
	same out want "rewritten in place: the new content's digest"
	VICTIM=cut/victim stopped pread64 1 'truncate -s 100 cut/victim' \
	    -r -j1 -a sha256 cut < /dev/null
	is "$st" 0 "truncated: exit 0"
	multisum -a sha256 cut/victim > want
	same out want "truncated: the digest of what is left"
	late_grown long pread64 2 "grown after the fstat" -a sha256 -j1
	# BLAKE3 alone: probed, fstat'ed, then mapped from the start
	late_grown mapped mmap 1 "grown once mapped" -a blake3 -j2
}

# The exact message, once, and the other operands still hashed.
test_one_line_and_the_rest_hashed() {
	need_strace
	random_file victim 20000000
	echo a > a
	echo b > b
	multisum a b > want
	stopped read 3 'echo more >> victim' -j1 a victim b
	is "$st" 3 "exit status 3"
	has_line err "multisum: victim: file changed as we read it" "the message"
	is "$(wc -l < err | tr -d ' ')" 1 "one line on standard error"
	same out want "a and b hashed, no line for the changed file"
}

# Stopped and resumed with no change, the run is fine: the stop is not
# what fails the others (the control for the tests above).
test_unchanged_file_passes() {
	need_strace
	random_file victim 20000000
	while read -r call n args; do
		# shellcheck disable=SC2086
		multisum $args victim > want
		# shellcheck disable=SC2086
		stopped "$call" "$n" ':' $args victim < /dev/null
		is "$st" 0 "$args: unchanged, exit 0"
		same out want "$args: unchanged, its digest"
	done <<-EOF
	$modes
	EOF
}

# -c: the changed file is a FAILED open or read, and the run fails.
test_check_mode() {
	need_strace
	random_file victim 20000000
	multisum victim > sums
	stopped read 3 'echo more >> victim' -c -j1 sums
	is "$st" 3 "exit status 3"
	has_line out "victim: FAILED open or read" "FAILED open or read"
	has_line err "multisum: victim: file changed as we read it" "the reason"
}

# Files whose size is not their length (procfs says 0, sysfs a page) are
# read to their end and compared by fstat alone.
test_kernel_files_are_read() {
	if [ -r /proc/self/status ]; then
		status_is 0 "/proc/self/status is hashed" \
		    multisum /proc/self/status > out 2> err
		same err /dev/null "no message"
		check "a digest" grep -q '^[0-9a-f]\{64\}  /proc/self/status$' out
	else
		skip_case "no /proc/self/status"
	fi
	f=
	for c in /sys/kernel/mm/transparent_hugepage/enabled /sys/power/state \
	    /sys/kernel/profiling; do
		[ -r "$c" ] && f=$c && break
	done
	if [ -n "$f" ]; then
		status_is 0 "$f is hashed" multisum "$f" > out 2> err
		same err /dev/null "$f: no message"
	else
		skip_case "no readable sysfs file"
	fi
}

# --update of a tree: a file that changed while it was read keeps the
# digest the ledger had (never one of neither content), the run fails,
# and the rest of the tree is still brought up to date.  (A file named
# on the command line fails the whole update instead, as a missing one.)
test_update_keeps_the_recorded_digest() {
	need_strace
	mkdir t
	random_file t/victim 20000000
	echo a > t/a
	status_is 0 "the first --update" multisum -u L -r t
	old=$(multisum t/victim | cut -d' ' -f1)
	echo b > t/a
	new_a=$(multisum t/a | cut -d' ' -f1)
	touch -d '2020-01-01' t/victim	# re-read, same content
	VICTIM=t/victim stopped read 3 'echo more >> t/victim' -u L -r -j1 t
	is "$st" 3 "exit status 3"
	has_line err "multisum: t/victim: file changed as we read it" \
	    "the reason"
	has_line L "$old  t/victim" "the ledger keeps victim's recorded digest"
	is "$(grep -c '  t/victim$' L)" 1 "and no second digest of victim"
	has_line L "$new_a  t/a" "a is brought up to date"
}

run change_is_an_error_in_every_mode
run late_watch_sees_changes
run one_line_and_the_rest_hashed
run unchanged_file_passes
run check_mode
run kernel_files_are_read
run update_keeps_the_recorded_digest
finish
