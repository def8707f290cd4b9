#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# completions.sh - the bash, zsh and fish completions complete: option
# values after --opt= and after a separate word (--format, --io, -a and
# --algorithm with comma lists, --bench-baseline), files after -c,
# --files-from, -o, --update and --audit, and algorithm lists that are
# exactly what the program's --list-algorithms says (so a new algorithm
# cannot be missing), and in bash and fish exactly the long options that
# --help names (so a new option cannot be missing either).
#
# Each shell is driven non-interactively: bash by calling the function
# that `complete -p multisum` names with COMP_WORDS/COMP_CWORD set as
# bash sets them; zsh through a pseudo-terminal (zsh/zpty) typing the line
# and TAB, with compadd wrapped to print the candidates; fish with
# `complete -C LINE`.  A shell that is not installed is skipped, saying so.
# completions-tty.sh types the common cases into the real shells instead.

. "$TESTS_SRCDIR/lib.sh"

comps=$(cd "$TESTS_SRCDIR/../completions" && pwd)

# The cases: "LINE|EXPECTED" where EXPECTED is the sorted candidates once
# each is cut to the part after the last '=', ',' or '/'; @ALGS-xx@ means
# every algorithm of --list-algorithms starting with xx (@ALGS-@: all)
# that this build has.
cases() {
	cat <<-'END'
	multisum --format=|bsd csv gnu hashdeep json magnet ndjson sfv table
	multisum --xattr=|audit update
	multisum --format n|ndjson
	multisum --io=|auto mmap read
	multisum --io m|mmap
	multisum -a sha256,bl|@ALGS-bl@
	multisum --algorithm=sha1,xx|@ALGS-xx@
	multisum -a |@ALGS-@
	multisum --bench-baseline=sha51|@ALGS-sha51@
	multisum --files-from=d/m|man1 man2
	multisum -c d/m|man1 man2
	multisum -o d/m|man1 man2
	multisum --update=d/m|man1 man2
	multisum --audit d/m|man1 man2
	END
}

# setup: a PATH whose multisum is the one under test, the files, and the
# expected lists.
setup() {
	mkdir bin d
	ln -s "$MULTISUM" bin/multisum
	PATH=$PWD/bin:$PATH
	export PATH
	: > d/man1
	: > d/man2
	: > d/other
	# a build's missing algorithms ("(no LIB)") are not offered
	multisum --list-algorithms |
	    awk 'NR > 1 && $1 !~ /-N$/ && !/\(no / { print $1 } END { print "all" }' > algs
	cases | while IFS='|' read -r line want; do
		case $want in
		@ALGS-*@)
			p=${want#@ALGS-}
			p=${p%@}
			want=$(grep "^$p" algs | sort | tr '\n' ' ')
			want=${want% } ;;
		esac
		printf '%s|%s\n' "$line" "$want"
	done > expected
}

# normalize: candidates on standard input, one a line, to the sorted
# space-separated list of their last parts.
normalize() {
	sed 's/\t.*//; s/.*[=,/]//' | grep -v '^$' | sort -u | tr '\n' ' ' | sed 's/ $//'
}

# compare SHELL FILE: FILE holds, per case in order, its candidates then a
# line "--END--"; each is checked against the expected list.
compare() {
	i=0
	while IFS='|' read -r line want; do
		i=$((i + 1))
		got=$(awk -v n="$i" '/^--END--$/ { k++; next } k == n - 1' "$2" | normalize)
		is "$got" "$want" "'$line'"
	done < expected
}

test_bash() {
	have bash || skip_test "bash is not installed"
	setup
	cat > drive.bash <<-'END'
	. "$1/multisum"
	spec=$(complete -p multisum) || { echo "no complete spec" >&2; exit 1; }
	fn=${spec#*-F }
	fn=${fn%% *}
	while IFS='|' read -r line want; do
		# words as bash splits them: at blanks, and '=' is a word of its own
		COMP_WORDS=()
		for w in $line; do
			case $w in
			--*=*) COMP_WORDS+=("${w%%=*}" "=")
			       [ -n "${w#*=}" ] && COMP_WORDS+=("${w#*=}") ;;
			*) COMP_WORDS+=("$w") ;;
			esac
		done
		case $line in *' ') COMP_WORDS+=("") ;; esac
		COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
		COMP_LINE=$line COMP_POINT=${#line}
		COMPREPLY=()
		"$fn" multisum "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf '%s\n' "${COMPREPLY[@]}" --END--
	done < expected
	END
	check "bash: complete -p names a function for multisum" \
	    bash --norc --noprofile -c ". '$comps/multisum' && complete -p multisum | grep -q -- '-F _'"
	bash --norc --noprofile drive.bash "$comps" > got 2> err
	same err /dev/null "bash: no error"
	compare bash got
}

test_zsh() {
	have zsh || skip_test "zsh is not installed"
	zsh -fc 'zmodload zsh/zpty' 2>/dev/null || skip_test "zsh lacks zsh/zpty"
	setup
	# The markers are split in the code so that the terminal's echo of
	# what is typed never matches them.
	cat > drive.zsh <<-'END'
	zmodload zsh/zpty
	zpty z zsh -f -i
	zpty -w z "PS1= RPS1=; fpath=(${(q)1} \$fpath); autoload -Uz compinit; compinit -u -D"
	zpty -w z 'compadd() {
	  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
	  local -a hits; builtin compadd -A hits "$@"; local r=$?
	  local h; for h in $hits; do print -r -- "<ca""nd>$h</cand>"; done
	  builtin compadd "$@"; return r }'
	zpty -w z 'zstyle ":completion:*" menu no; LISTMAX=100000'
	zpty -w z 'bindkey "^I" complete-word; mark() { print -r -- "<en""d/>" }; zle -N mark; bindkey "^X" mark'
	while IFS='|' read -r line want; do
		zpty -n -w z "$line"$'\t\x18'
		out=
		while zpty -r z chunk; do
			out+=$chunk
			[[ $out == *'<end/>'* ]] && break
		done
		print -r -- $out | grep -o '<cand>[^<]*</cand>' | sed 's/<cand>//; s/<\/cand>//'
		print -r -- --END--
		zpty -n -w z $'\x15'
	done < expected
	zpty -d z
	END
	if command -v timeout >/dev/null 2>&1; then
		timeout 60 zsh -f drive.zsh "$comps" > got 2> err
	else
		zsh -f drive.zsh "$comps" > got 2> err
	fi
	same err /dev/null "zsh: no error"
	compare zsh got
}

test_fish() {
	have fish || skip_test "fish is not installed"
	setup
	cat > drive.fish <<-'END'
	source $argv[1]/multisum.fish
	while read -l line
		set -l l (string split -m1 '|' -- $line)[1]
		complete -C "$l"
		echo --END--
	end < expected
	END
	fish --no-config drive.fish "$comps" > got 2> err
	same err /dev/null "fish: no error"
	compare fish got
}

# Every long option that --help names is offered after "--", and no other:
# bash through its completion function, fish through complete -C.
test_long_options() {
	multisum --help | grep -oE -- '--[a-z0-9][a-z0-9-]*' | sort -u > want
	check "--help names long options" test -s want
	if have bash; then
		bash --norc --noprofile -c '. "$1/multisum"
		    fn=$(complete -p multisum); fn=${fn#*-F }; fn=${fn%% *}
		    COMP_WORDS=(multisum --); COMP_CWORD=1; COMPREPLY=()
		    "$fn" multisum -- multisum
		    printf "%s\n" "${COMPREPLY[@]}"' sh "$comps" |
		    sed 's/=$//' | sort -u > got
		same got want "bash: the long options of --help"
	else
		skip_case "bash is not installed"
	fi
	if have fish; then
		fish --no-config -c "source '$comps/multisum.fish'; complete -C 'multisum --'" |
		    sed 's/\t.*//; s/=$//' | sort -u > got
		same got want "fish: the long options of --help"
	else
		skip_case "fish is not installed"
	fi
}

run bash
run zsh
run fish
run long_options
finish
