#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# completions-tty.sh - the completions as a user meets them: keys typed
# into a real interactive shell in a terminal (tmux), the result read off
# the screen.  bash with bash-completion loaded (what a distribution's
# bash has; its _init_completion splits --opt=VALUE and readline quotes
# what it thinks are file names), zsh with compinit, fish.  The cases are
# the ones a user types first: an option name that ends in '=' (--form,
# --algo, --shard, --key-f), its values, and file operands.
#
# Nothing here is timed: after the keys, a marker is typed, and the
# screen is read once the shell has echoed it (a shell reads keys in
# order, so the completion is done by then); waiting is bounded only to
# end a hung shell.  completions.sh calls the functions directly and
# checks every case of every option; this one checks the terminal.

. "$TESTS_SRCDIR/lib.sh"

comps=$(cd "$TESTS_SRCDIR/../completions" && pwd)
MARK=@@

# tm ARGS...: tmux on this test's own server (its socket in the test's
# directory), never the user's.
tm() {
	tmux -S "$PWD/tmux.sock" "$@"
}

# start CMD: CMD in a 200x50 terminal of a new tmux server.
start() {
	tm -f /dev/null new-session -d -s t -x 200 -y 50 "$1" ||
	    skip_test "tmux cannot start a session here"
}

stop() {
	tm kill-server 2> /dev/null
}

# screen: the terminal as it shows now, trailing blanks and lines cut.
screen() {
	tm capture-pane -p -t t | sed 's/ *$//' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

# wait_for TEXT: until the screen shows TEXT (at most about a minute:
# a shell that never answers fails the test, a slow one does not).
wait_for() {
	_n=0
	while ! screen | grep -qF -e "$1"; do
		_n=$((_n + 1))
		if [ "$_n" -gt 600 ]; then
			diag "the screen never showed '$1':"
			screen | diag -
			return 1
		fi
		sleep 0.1
	done
	return 0
}

# type_line TEXT KEY...: TEXT typed, then the keys (Tab), then the mark;
# once the mark shows, the line the mark ends (prompt included) is in
# $line and the whole screen in the file screen.out.
type_line() {
	_text=$1
	shift
	tm send-keys -t t -l "$_text"
	for _k in "$@"; do
		tm send-keys -t t "$_k"
	done
	tm send-keys -t t -l "$MARK"
	wait_for "$MARK" || return 1
	screen > screen.out
	line=$(grep -F -e "$MARK" screen.out | tail -n 1)
}

# clear_line: the line emptied and the screen cleared for the next case,
# until only the prompt shows ($CLOSE first: fish's Escape closes its
# list of candidates).
clear_line() {
	# shellcheck disable=SC2086
	[ -z "$CLOSE" ] || tm send-keys -t t $CLOSE
	tm send-keys -t t C-e C-u C-l
	_n=0
	while [ "$(screen)" != '$' ]; do
		_n=$((_n + 1))
		[ "$_n" -gt 600 ] && return 1
		sleep 0.1
	done
}

# completes_to TEXT WANT DESC [KEY...]: TEXT and Tab (or the keys) make
# the line WANT (before the mark, prompt "$ " included).
completes_to() {
	_text=$1 _want=$2 _what=$3
	shift 3
	[ $# -gt 0 ] || set -- Tab
	if type_line "$_text" "$@"; then
		is "$line" "\$ $_want$MARK" "$_what"
	else
		fail "$_what: no answer"
	fi
	clear_line
}

# lists TEXT WORD... DESC: TEXT and the keys that list the candidates
# ($LIST: Tab Tab in bash and zsh, Tab in fish) show every WORD.  No
# mark is typed (fish would close its list for it): the screen is read
# once the first WORD shows.
lists() {
	_text=$1
	shift
	tm send-keys -t t -l "$_text"
	# shellcheck disable=SC2086
	tm send-keys -t t $LIST
	if ! wait_for "$1"; then
		fail "listing after '$_text': no answer"
		clear_line
		return
	fi
	screen > screen.out
	_what=
	for _w in "$@"; do
		_what=$_w
	done
	while [ $# -gt 1 ]; do
		# a candidate shows as itself or as DIR/itself (fish)
		if tr -s ' ' '\n' < screen.out | sed 's|.*[/=,]||' |
		    grep -qxF -e "$1"; then
			pass
		else
			fail "$_what: '$1' not listed after '$_text'"
			diag - < screen.out
		fi
		shift
	done
	clear_line
}

# open_shell CMD SOURCE: CMD in the terminal, SOURCE typed into it (its
# rc file, which ends by echoing ready-42), the screen cleared.
open_shell() {
	start "$1"
	tm send-keys -t t -l "$2" && tm send-keys -t t Enter
	wait_for ready-42 || fail "$1 did not start"
	clear_line
}

# The files and the PATH the shells complete in.
setup() {
	have tmux || skip_test "tmux is not installed"
	mkdir bin sub
	ln -s "$MULTISUM" bin/multisum
	: > 'my file.txt'
	: > sub/man1
	: > sub/man2
	: > key.bin
}

# The common cases, for a shell whose prompt is "$ ".  An option name
# completes to NAME$OPT (bash and zsh "--format=", fish "--format "); the
# lists are asked for where the typed text is the candidates' common
# prefix (else bash's first Tab inserts it and only a third one lists).
common_cases() {
	completes_to 'multisum --form' "multisum --format$OPT" \
	    "--form: --format$OPT, with no backslash"
	completes_to 'multisum --format=nd' 'multisum --format=ndjson ' \
	    "--format=nd: its value"
	lists 'multisum --format=' gnu bsd sfv ndjson "--format=: the formats"
	completes_to 'multisum --algo' "multisum --algorithm$OPT" \
	    "--algo: --algorithm$OPT"
	completes_to 'multisum --algorithm=sha51' 'multisum --algorithm=sha512' \
	    "--algorithm=sha51: a name, the list open for a comma"
	lists 'multisum --algorithm=md5,blake' blake2b blake3 \
	    "--algorithm=md5,blake: the last name of a list"
	completes_to 'multisum --shar' "multisum --shard$OPT" "--shar: --shard$OPT"
	completes_to 'multisum --key-f' "multisum --key-file$OPT" \
	    "--key-f: --key-file$OPT"
	completes_to 'multisum --key-file=ke' 'multisum --key-file=key.bin ' \
	    "--key-file=ke: a file name"
	lists 'multisum -c sub/man' man1 man2 "-c sub/man: the files"
	completes_to 'multisum my' 'multisum my\ file.txt ' \
	    "a file operand with a blank is escaped"
}

# shell_cases CMD SOURCE: the common cases in CMD, set up by SOURCE.
shell_cases() {
	open_shell "$1" "$2"
	common_cases
}

# bash_cases [FILE]: bash with FILE (bash-completion) sourced first.
bash_cases() {
	setup
	cat > rc.bash <<-END
	PS1='\$ '
	PATH=$PWD/bin:\$PATH
	${1:+. '$1'}
	. '$comps/multisum'
	echo ready-\$((6 * 7))
	END
	OPT='=' LIST='Tab Tab' CLOSE=
	shell_cases "bash --norc --noprofile -i" ". ./rc.bash"
	# a user's COMP_WORDBREAKS without '=': the word is "--format=nd"
	tm send-keys -t t -l 'COMP_WORDBREAKS=${COMP_WORDBREAKS//=}' &&
	    tm send-keys -t t Enter
	clear_line
	completes_to 'multisum --format=nd' 'multisum --format=ndjson ' \
	    "without '=' in COMP_WORDBREAKS too"
	stop
}

test_bash() {
	have bash || skip_test "bash is not installed"
	bc=
	for f in /usr/share/bash-completion/bash_completion \
	    /etc/bash_completion /usr/local/share/bash-completion/bash_completion; do
		[ -r "$f" ] && { bc=$f; break; }
	done
	[ -n "$bc" ] || skip_test "bash-completion is not installed"
	bash_cases "$bc"
}

# Without bash-completion, the file's own splitting of --opt=VALUE.
test_bash_plain() {
	have bash || skip_test "bash is not installed"
	bash_cases
}

test_zsh() {
	have zsh || skip_test "zsh is not installed"
	setup
	cat > rc.zsh <<-END
	PS1='\$ ' RPS1=
	path=($PWD/bin \$path)
	fpath=($comps \$fpath)
	autoload -Uz compinit && compinit -u -D
	zstyle ':completion:*' menu no
	echo ready-\$((6 * 7))
	END
	OPT='=' LIST='Tab Tab' CLOSE=
	shell_cases "zsh -f -i" ". ./rc.zsh"
	stop
}

test_fish() {
	have fish || skip_test "fish is not installed"
	setup
	cat > rc.fish <<-END
	function fish_prompt; echo -n '\$ '; end
	function fish_right_prompt; end
	set -g fish_greeting ''
	set -g fish_autosuggestion_enabled 0
	set -gx PATH $PWD/bin \$PATH
	source $comps/multisum.fish
	echo ready-(math 6 \* 7)
	END
	OPT=' ' LIST=Tab CLOSE=Escape
	shell_cases "fish --no-config -i" "source rc.fish"
	stop
}

run bash
run bash_plain
run zsh
run fish
finish
