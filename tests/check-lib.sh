# check-lib.sh - TAP helpers shared by check.sh, interop.sh and
# personality.sh: numbering, skips, a scratch directory removed on exit.
# Source it; $MULTISUM names the program under test.

: "${MULTISUM:?MULTISUM must name the multisum binary}"
case $MULTISUM in /*) ;; *) MULTISUM=$(pwd)/$MULTISUM ;; esac

tap_n=0
tap_failed=0

tap_ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $*"
}

tap_not_ok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $*"
}

tap_skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP $*"
}

# tap_assert DESC COMMAND...: one test point from a command's status.
tap_assert() {
	_desc=$1
	shift
	if "$@"; then tap_ok "$_desc"; else tap_not_ok "$_desc"; fi
}

# Indent stdin as TAP diagnostics.
tap_diag() {
	sed 's/^/# /'
}

tap_done() {
	echo "1..$tap_n"
	exit 0
}

have() {
	command -v "$1" >/dev/null 2>&1
}

T=$(mktemp -d "${TMPDIR:-/tmp}/ms-test.XXXXXX") || exit 99
trap 'rm -rf "$T"' EXIT
