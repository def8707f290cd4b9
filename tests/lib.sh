# SPDX-License-Identifier: BSD-2-Clause
# lib.sh - the helper every shell test sources.
#
# A test file defines test_NAME functions, runs each with `run NAME`, and
# ends with `finish`.  This file gives them:
#   - TAP output: one "ok"/"not ok" line per test_ function, the plan at
#     the end, diagnostics as "# " lines;
#   - a private temporary directory, removed on exit; each test runs in a
#     subshell inside its own empty directory below it, so it may cd,
#     set variables and make files freely;
#   - checks that count themselves (check, check_not, is, same, has_line,
#     lacks, status_is, usage_error, signature_verified, signature_refused,
#     fail); a test fails if any check failed, and also
#     if it made no check at all, so that no test passes by doing nothing;
#   - `have TOOL`, `skip_case WHY` for a case that cannot run for want of
#     a reference tool, coreutils 9.1 or a CPU level (each a TAP "# SKIP
#     WHY" line after the test's own, so that the summary counts it; the
#     total again at the end as "# skipped: N"), `skip_test WHY` for a
#     test that cannot run at all, and `todo WHY` for a test that shows a
#     known, unfixed bug;
#   - runnable_levels and built_levels for the kernel levels that a CPU
#     or a build has (runnable_levels skips the others, with the reason);
#   - memory_limit, the ulimit -v of a test of bounded memory;
#   - small helpers to make test data (random_file, size_of,
#     numbered_files, deep_tree: a tree deeper than PATH_MAX), the name of
#     signify here ($SIGNIFY), and strace without LeakSanitizer (traced);
#   - for tests that start engines (Slurm, sshd): at_exit, free_port,
#     wait_until, engine_start, need_engine, multisum_on_path,
#     readme_block for README's recipes and job_command for a
#     Kubernetes job's.
# It uses nothing beyond POSIX sh and utilities (free_port: python3).

: "${MULTISUM:?MULTISUM must name the multisum binary}"
: "${TESTS_SRCDIR:=$(cd "$(dirname "$0")" && pwd)}"
export LC_ALL=C

if ! ms_tmp=$(mktemp -d "${TMPDIR:-/tmp}/multisum-test.XXXXXX"); then
	echo "Bail out! cannot make a temporary directory"
	exit 99
fi
# Tests chmod 000 files and directories; make them removable again.  What
# at_exit was given runs first: daemons a test file started stop with it.
ms_at_exit=
trap 'eval "$ms_at_exit"; chmod -R u+rwx "$ms_tmp" 2>/dev/null; rm -rf "$ms_tmp"' EXIT
trap 'exit 130' HUP INT TERM

ms_tests=0		# TAP lines written
ms_skipped=0		# cases skipped, over all tests

# multisum, as the tests call it.
multisum() {
	"$MULTISUM" "$@"
}

# Is TOOL on the PATH?
have() {
	command -v "$1" >/dev/null 2>&1
}

# built_with NAME: does config.h define NAME to 1?  The Linux extras
# (MS_XATTR_LINUX, MS_HAVE_PROC_SELF_FD, HAVE_POSIX_FADVISE...) that
# .ci/run's portable step leaves out; yes when config.h is not found.
built_with() {
	[ -r "${MS_HELPERS:-.}/../config.h" ] || return 0
	grep -q "^#define $1 1\$" "${MS_HELPERS:-.}/../config.h"
}

# OpenBSD's signify, as Debian names it (signify-openbsd) or as OpenBSD does.
SIGNIFY=signify-openbsd
have "$SIGNIFY" || SIGNIFY=signify

# strace CMD...: without LeakSanitizer, which cannot run under ptrace (the
# asan build of .ci/sanitizers).
traced() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace "$@"
}

# Print the arguments as TAP diagnostics, and standard input with -.
# They go to descriptor 3, the TAP stream, which stays put when a check
# is called with its output redirected (status_is 1 "..." cmd > got).
diag() {
	if [ "$1" = - ]; then
		sed 's/^/#   /' >&3
	else
		printf '# %s\n' "$*" >&3
	fi
}

# ------------------------------------------------------------- checks
# Each check counts one; the counts live in the test's subshell.

# Record a failed check with a message.
fail() {
	ms_checks=$((ms_checks + 1))
	ms_fails=$((ms_fails + 1))
	diag "$ms_name: $*"
	return 0
}

pass() {
	ms_checks=$((ms_checks + 1))
}

# check DESC CMD...: CMD must succeed.
check() {
	_what=$1
	shift
	if "$@"; then pass; else fail "$_what"; fi
}

# check_not DESC CMD...: CMD must fail.
check_not() {
	_what=$1
	shift
	if "$@"; then fail "$_what"; else pass; fi
}

# is GOT WANT DESC: two strings are equal.
is() {
	if [ "$1" = "$2" ]; then
		pass
	else
		fail "$3"
		diag "  got:  '$1'"
		diag "  want: '$2'"
	fi
}

# same GOT_FILE WANT_FILE DESC: two files hold the same bytes.
same() {
	if cmp -s "$1" "$2"; then
		pass
	else
		fail "$3"
		diff -a "$2" "$1" 2>&1 | head -n 12 | diag -
	fi
}

# has_line FILE LINE DESC: FILE holds LINE as a whole line.
has_line() {
	if grep -qxF -e "$2" "$1" 2>/dev/null; then
		pass
	else
		fail "$3"
		diag "  no line '$2' in:"
		head -n 8 "$1" | diag -
	fi
}

# lacks FILE TEXT DESC: no line of FILE contains TEXT.
lacks() {
	if grep -qF -e "$2" "$1" 2>/dev/null; then
		fail "$3"
		grep -F -e "$2" "$1" | head -n 4 | diag -
	else
		pass
	fi
}

# status_is WANT DESC CMD...: CMD exits with status WANT.
status_is() {
	_want=$1
	_what=$2
	shift 2
	"$@"
	_got=$?
	if [ "$_got" -eq "$_want" ]; then
		pass
	else
		fail "$_what (exit status $_got, want $_want)"
	fi
}

# usage_error DESC ARG...: `multisum ARG...` is refused as invalid usage:
# status 2, nothing on standard output, a reason and coreutils' "Try"
# line on standard error.
usage_error() {
	_what=$1
	shift
	"$MULTISUM" "$@" > .usage.out 2> .usage.err
	_st=$?
	if [ "$_st" -ne 2 ]; then
		fail "$_what: exit status $_st, want 2"
	elif [ -s .usage.out ]; then
		fail "$_what: something was written to standard output"
	elif ! tail -n 1 .usage.err | grep -qxF "Try 'multisum --help' for more information."; then
		fail "$_what: no \"Try 'multisum --help'\" line"
		diag - < .usage.err
	elif [ "$(wc -l < .usage.err)" -ne 2 ] || ! head -n 1 .usage.err | grep -q '^multisum: .'; then
		fail "$_what: want one 'multisum: reason' line before the Try line"
		diag - < .usage.err
	else
		pass
	fi
	rm -f .usage.out .usage.err
}

# signature_verified DESC NAMES SAYS CMD...: a signed list verified: exit
# 0, an "N: OK" line for each of NAMES, SAYS (a grep pattern: the good
# signature) on standard error.
signature_verified() {
	_what=$1 _names=$2 _says=$3
	shift 3
	"$@" > out 2> err
	_st=$?
	_all=true
	for _n in $_names; do
		grep -qx "$_n: OK" out || _all=false
	done
	if [ "$_st" = 0 ] && $_all && grep -q "$_says" err; then
		pass
	else
		fail "$_what (exit status $_st)"
		cat out err | head -n 6 | diag -
	fi
}

# signature_refused DESC CMD...: a signed list refused: exit 4, no OK line
# at all, one "signature not valid" line saying why, its reason then in
# $REASON.
signature_refused() {
	_what=$1
	shift
	"$@" > out 2> err
	_st=$?
	REASON=$(grep 'signature not valid' err | head -n 1 |
	    sed 's/.*signature not valid: //; s/; no file checked$//')
	if [ "$_st" = 4 ] && ! grep -q ': OK$' out && [ -n "$REASON" ] &&
	    [ "$(grep -c 'signature not valid' err)" = 1 ]; then
		pass
	else
		fail "$_what: want exit 4, no OK line and one reason (exit $_st)"
		cat out err | head -n 6 | diag -
	fi
}

# memory_limit: the ulimit -v (KiB) a test of bounded memory runs
# multisum under: 2000000, or "unlimited" where the build cannot run
# under one (a sanitizer's, which reserves its shadow first: there only
# the verdicts are checked).
memory_limit() {
	if (ulimit -v 2000000 && "$MULTISUM" --version) > /dev/null 2>&1; then
		echo 2000000
	else
		echo unlimited
	fi
}

# ------------------------------------------------------------ skipping

# A case that cannot run here (a reference tool, coreutils 9.1 or a CPU
# level is absent), said once per test however often it is met.  Kept in
# a file, so that a subshell ($(...), a pipeline) may call it too.
skip_case() {
	printf '%s\n' "$*" >> "$ms_tmp/.skips"
}

# The whole test cannot run here: report it as skipped and leave.
skip_test() {
	ms_why="SKIP $*"
	ms_report
	exit 0
}

# Skip the test unless every TOOL named is GNU coreutils 9.1's.
need_coreutils_91() {
	for _tool in "$@"; do
		if ! have "$_tool" || ! "$_tool" --version 2>/dev/null |
		    head -n 1 | grep -q 'GNU coreutils) 9\.1$'; then
			skip_test "$_tool of GNU coreutils 9.1 absent"
		fi
	done
}

# shrunk_fails HELPER WHEN ALGOS: a file truncated under the mapping
# (tests/shrink-helper) is reported as changed, never a signal.
shrunk_fails() {
	"$1" victim "$2" "$3" > out 2>&1
	_st=$?
	if [ "$_st" -gt 128 ]; then
		fail "$2, $3: killed by signal $((_st - 128))"
	else
		has_line out "read error: file changed as we read it" \
		    "$2, $3: reported as changed"
	fi
}

# truncated_while_hashed LABEL PAUSE OPTION...: multisum --io=mmap
# OPTION... victim while victim is emptied PAUSE seconds after the start
# (a race on purpose: shrink-helper times it exactly).  Either the run
# finished first (exit 0) or the file changed as it was read (exit 3),
# never a signal or a digest of bytes that are gone.
truncated_while_hashed() {
	_label=$1 _pause=$2
	shift 2
	"$MULTISUM" --io=mmap "$@" victim > out 2> err &
	_pid=$!
	[ "$_pause" = 0 ] || sleep "$_pause" 2>/dev/null
	: > victim
	wait "$_pid"
	_st=$?
	case $_st in
	0) pass ;;
	3) has_line err "multisum: victim: file changed as we read it" \
	    "$_label: a shrunk file changed as it was read" ;;
	*) fail "$_label ($*): exit status $_st"
	   diag - < err ;;
	esac
}

# without_dac CMD...: CMD unable to read what file modes forbid, even as
# root (setpriv drops the capabilities that bypass them).  can_deny_read
# tells whether that works here: if not, a test of unreadable files skips.
without_dac() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --bounding-set=-dac_override,-dac_read_search "$@"
	else
		"$@"
	fi
}

can_deny_read() {
	echo x > "$ms_tmp/.deny"
	chmod 000 "$ms_tmp/.deny"
	! without_dac cat "$ms_tmp/.deny" > /dev/null 2>&1
	_st=$?
	rm -f "$ms_tmp/.deny"
	return $_st
}

# wait_for DESC CMD...: poll until CMD succeeds (a file written by a
# process in the background, say); fail DESC if it never does within a
# generous bound.  A wait, not a timed assertion: a slow machine only
# waits longer.
wait_for() {
	_what=$1
	shift
	_n=0
	until "$@"; do
		_n=$((_n + 1))
		if [ "$_n" -gt 1200 ]; then
			fail "$_what: never happened"
			return 1
		fi
		sleep 0.1
	done
	return 0
}

# The test shows a known bug that is not fixed yet: a failure is expected.
todo() {
	ms_why="TODO $*"
}

# -------------------------------------------------------- engines, recipes

# at_exit CMD: run CMD when the test file ends, however it ends (the last
# given first), before its temporary directory goes.  For the top level
# of a test file, never inside a test's subshell.
at_exit() {
	ms_at_exit="$1${ms_at_exit:+; $ms_at_exit}"
}

# free_port: a TCP port of 127.0.0.1 that nothing listens on now.
free_port() {
	python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

# wait_until SECONDS CMD...: wait_for with a bound of its own (a Slurm
# job's minutes): poll CMD once a second until it succeeds; false, with
# nothing said, if it has not after SECONDS (the failure path, never a
# timed assertion).
wait_until() {
	_left=$1
	shift
	until "$@"; do
		[ "$_left" -gt 0 ] || return 1
		_left=$((_left - 1))
		sleep 1
	done
}

# The engine a test file starts (Slurm, sshd): engine_why says why it
# cannot run here (set by the file before engine_start), engine_down that
# it is installed but did not start.
engine_why=
engine_down=

# engine_start START STOP: unless engine_why, START it now (its failure
# is remembered) and STOP it when the file ends.
engine_start() {
	[ -z "$engine_why" ] || return 0
	at_exit "$2"
	"$1" || engine_down=1
}

# need_engine NAME LOG...: first in a test: a SKIP with engine_why, or a
# failure with the end of its LOGs if NAME did not start.
need_engine() {
	[ -z "$engine_why" ] || skip_test "$engine_why"
	[ -z "$engine_down" ] && return 0
	_name=$1
	shift
	fail "$_name did not start"
	tail -n 5 "$@" 2>/dev/null | diag -
	return 1
}

# multisum_on_path: this build's multisum as "multisum" first in PATH
# (exported), for recipes run as written: by job scripts, over ssh.
multisum_on_path() {
	mkdir -p "$ms_tmp/bin"
	ln -sf "$MULTISUM" "$ms_tmp/bin/multisum"
	PATH=$ms_tmp/bin:$PATH
	export PATH
}

# readme_block TEXT: README.md's code block (its lines indented by four
# spaces) that holds TEXT, without the indent: a recipe to run as written.
readme_block() {
	awk -v want="$1" '
	/^    / { b = b substr($0, 5) "\n"; next }
	{ if (index(b, want)) { printf "%s", b; found = 1; exit } b = "" }
	END { if (!found && index(b, want)) printf "%s", b }
	' "$TESTS_SRCDIR/../README.md"
}

# readme_recipes SECTION [SUBSECTION]: the recipes README.md's "## SECTION"
# gives (only those under its "### SUBSECTION" if named), one a line: each
# indented "    multisum ..." line, with the indented lines continuing one
# that ends in "&&" joined to it.
readme_recipes() {
	sed -n "/^## $1\$/,/^## [^#]/p" "$TESTS_SRCDIR/../README.md" |
	    awk -v sub_="${2:-}" '
	    /^### / { in_ = (sub_ == "" || $0 == "### " sub_); c = 0; next }
	    sub_ != "" && !in_ { next }
	    /^    / && (c || /^    multisum /) {
		l = $0; sub(/^ +/, "", l); r = c ? r " " l : l
		if (r ~ /&&$/) { c = 1; next }
		c = 0; print r; next
	    }
	    { c = 0 }'
}

# job_command YAML: the shell command of the Kubernetes job in YAML (its
# command: line, a JSON list ["sh", "-c", COMMAND]); the caller checks
# that python3 is there.
job_command() {
	python3 -c 'import json, sys
for line in open(sys.argv[1]):
    if line.strip().startswith("command:"):
        print(json.loads(line.split(":", 1)[1])[2])' "$1"
}

# ------------------------------------------------------------- test data

# random_file NAME SIZE: SIZE random bytes.
random_file() {
	head -c "$2" /dev/urandom > "$1"
}

# random_files SIZE...: a file fSIZE of SIZE random bytes for each.
random_files() {
	for _n in "$@"; do
		random_file "f$_n" "$_n"
	done
}

# numbered_files DIR N: a new folder DIR holding N small files, f0 to
# f<N-1>, each its number on a line.
numbered_files() {
	mkdir "$1" || return 1
	_i=0
	while [ $_i -lt "$2" ]; do
		echo $_i > "$1/f$_i"
		_i=$((_i + 1))
	done
}

# deep_tree DIR: a new folder DIR holding 24 nested folders of 200-byte
# names ($deep_name, set here), deeper than PATH_MAX, and in the last one
# a file deep holding "deep\n".
deep_tree() {
	deep_name=$(printf '%0200d' 0)
	mkdir "$1" || return 1
	(
		cd "$1" || exit 1
		_i=0
		while [ $_i -lt 24 ]; do
			mkdir "$deep_name" && cd "$deep_name" || exit 1
			_i=$((_i + 1))
		done
		printf 'deep\n' > deep
	)
}

# runnable_levels VAR ALGO LEVEL...: the LEVELs that VAR (MULTISUM_CRC_LEVEL,
# MULTISUM_WHIRLPOOL_LEVEL, ...) may force here.  multisum -a ALGO
# refuses the others (this CPU lacks what they need, or this build left
# them out), each then a skipped case with multisum's reason.
runnable_levels() {
	_var=$1 _algo=$2
	shift 2
	for _l in "$@"; do
		if env "$_var=$_l" "$MULTISUM" -a "$_algo" /dev/null \
		    > /dev/null 2> "$ms_tmp/.level.err"; then
			echo "$_l"
		else
			skip_case "$_algo at $_l:" \
			    "$(sed -n '1s/^multisum: //p' "$ms_tmp/.level.err")"
		fi
	done
}

# built_levels VAR ALGO LEVEL...: the LEVELs this build has, as multisum
# lists them in a refusal ("a, b, c"): configure --disable-avx512 leaves
# the AVX-512 ones out.
built_levels() {
	_var=$1 _algo=$2 _list=
	shift 2
	for _l in "$@"; do
		case $(env "$_var=$_l" "$MULTISUM" -a "$_algo" /dev/null 2>&1 \
		    > /dev/null) in
		*"not in this build"*) ;;
		*) _list="${_list:+$_list, }$_l" ;;
		esac
	done
	echo "$_list"
}

# size_of FILE: its size in bytes.
size_of() {
	wc -c < "$1" | tr -d ' '
}

# --------------------------------------------------------------- running

ms_report() {
	echo "$ms_checks $ms_fails $ms_why" > "$ms_tmp/.result"
}

# The cases test ms_name skipped, each once, as TAP skips after its line.
ms_report_skips() {
	[ -f "$ms_tmp/.skips" ] || return 0
	awk '!seen[$0]++' "$ms_tmp/.skips" > "$ms_tmp/.skips.once"
	while IFS= read -r _why; do
		ms_tests=$((ms_tests + 1))
		ms_skipped=$((ms_skipped + 1))
		echo "ok $ms_tests - $ms_name # SKIP $_why"
	done < "$ms_tmp/.skips.once"
	rm -f "$ms_tmp/.skips" "$ms_tmp/.skips.once"
}

# run NAME: run test_NAME in a subshell, in an empty directory of its own.
run() {
	ms_name=$1
	ms_tests=$((ms_tests + 1))
	rm -f "$ms_tmp/.result" "$ms_tmp/.skips"
	mkdir "$ms_tmp/$ms_name" || exit 99
	(
		cd "$ms_tmp/$ms_name" || exit 1
		ms_checks=0 ms_fails=0 ms_why=
		"test_$ms_name"
		ms_report
	) 3>&1
	if ! read -r _checks _fails _why < "$ms_tmp/.result" 2>/dev/null; then
		echo "not ok $ms_tests - $ms_name (the test ended early)"
		ms_report_skips
		return
	fi
	case $_why in
	SKIP*)
		echo "ok $ms_tests - $ms_name # $_why" ;;
	TODO*)
		if [ "$_fails" -gt 0 ]; then
			echo "not ok $ms_tests - $ms_name # $_why"
		else
			echo "ok $ms_tests - $ms_name # $_why (it passes now)"
		fi ;;
	*)
		if [ "$_fails" -gt 0 ]; then
			echo "not ok $ms_tests - $ms_name ($_fails of $_checks checks failed)"
		elif [ "$_checks" -eq 0 ]; then
			echo "not ok $ms_tests - $ms_name (it made no check)"
		else
			echo "ok $ms_tests - $ms_name ($_checks checks)"
		fi ;;
	esac
	ms_report_skips
}

# The end of a test file: the count of skipped cases, then the plan.
finish() {
	echo "# skipped: $ms_skipped"
	echo "1..$ms_tests"
	exit 0
}
