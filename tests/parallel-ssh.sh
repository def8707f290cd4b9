#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# parallel-ssh.sh - README's GNU parallel recipe run as written over ssh:
# two "hosts", host1 and host2, each an sshd this file starts on a free
# local port with a host key and a user key made for it (and stops at the
# end, however it ends), reached through an ssh configuration of this
# test's own (PARALLEL_SSH), so that the recipe's text is the README's
# but for /data.  The four shards, run on both hosts and brought back by
# --return, must merge to one run's manifest; a job killed on its host,
# and a host that is down, must make the recipe's merge refuse the set.  Without root, sshd, ssh,
# GNU parallel or rsync (--return's) it is a SKIP with the reason (CI
# installs them).  No timed assertion.

. "$TESTS_SRCDIR/lib.sh"

SS=$ms_tmp/ssh

if [ "$(id -u)" != 0 ]; then
	engine_why="not root: the test logs in as root"
elif [ ! -x /usr/sbin/sshd ] || ! have ssh || ! have ssh-keygen; then
	engine_why="openssh-server or openssh-client is not installed"
elif ! have parallel || ! have rsync; then
	engine_why="GNU parallel or rsync (its --return) is not installed"
elif ! have python3; then
	engine_why="python3 absent (free ports)"
fi

# multisum is this build's, here by PATH, on the hosts by the PATH sshd
# sets.
multisum_on_path

# sshd NAME: one "host", listening on its own port.
start_sshd() {
	_port=$(free_port)
	cat > "$SS/$1.conf" <<EOF
Port $_port
ListenAddress 127.0.0.1
HostKey $SS/host_key
PidFile none
AuthorizedKeysFile $SS/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
SetEnv PATH=$ms_tmp/bin:/usr/local/bin:/usr/bin:/bin
LogLevel INFO
EOF
	cat >> "$SS/ssh_config" <<EOF
Host $1
	HostName 127.0.0.1
	Port $_port
	User root
	IdentityFile $SS/user_key
	IdentitiesOnly yes
	UserKnownHostsFile $SS/known_hosts
	StrictHostKeyChecking yes
	BatchMode yes
	LogLevel ERROR
EOF
	echo "[127.0.0.1]:$_port $(cut -d' ' -f1,2 "$SS/host_key.pub")" \
	    >> "$SS/known_hosts"
	# in the foreground of a background job: its pid is ours to stop
	/usr/sbin/sshd -D -f "$SS/$1.conf" -E "$SS/$1.log" &
	echo $! > "$SS/$1.pid"
	wait_until 60 ssh -F "$SS/ssh_config" "$1" true
}

start_hosts() {
	mkdir -p "$SS"
	ssh-keygen -q -t ed25519 -N '' -f "$SS/host_key" || return 1
	ssh-keygen -q -t ed25519 -N '' -f "$SS/user_key" || return 1
	cp "$SS/user_key.pub" "$SS/authorized_keys"
	# sshd's privilege separation directory (Debian's tmpfiles make it
	# at boot, not in a container)
	if [ ! -d /run/sshd ]; then
		mkdir -p /run/sshd && made_run_sshd=1
	fi
	start_sshd host1 && start_sshd host2
}

stop_hosts() {
	for _h in host1 host2; do
		[ -f "$SS/$_h.pid" ] || continue
		kill "$(cat "$SS/$_h.pid")" 2>/dev/null
		wait "$(cat "$SS/$_h.pid")" 2>/dev/null
	done
	[ -z "${made_run_sshd:-}" ] || rmdir /run/sshd 2>/dev/null
}

engine_start start_hosts stop_hosts

# The test needs both hosts: skip without the tools, fail (with sshd's
# logs) if they are installed but did not start.
need_hosts() {
	need_engine sshd "$SS"/*.log
}

# The tree both hosts see at data, and README's recipe with it for /data.
make_tree() {
	mkdir -p data/tree/a data/tree/b here
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		random_file "data/tree/a/f$i" $((i * 97))
		random_file "data/tree/b/g$i" "$i"
	done
	readme_block 'parallel --sshlogin' | sed "s|/data|$PWD/data|" > recipe.sh
	check "README has the recipe" grep -q -- '--return' recipe.sh
}

# The recipe as the user runs it, from here (the hosts' multisum writes
# in data; --return brings each shard here).
recipe() {
	(cd here && PARALLEL_SSH="ssh -F $SS/ssh_config" sh ../recipe.sh)
}

test_parallel_recipe() {
	need_hosts || return
	make_tree
	recipe > out 2>&1
	st=$?
	is "$st" 0 "the recipe's parallel and merge succeed"
	[ "$st" = 0 ] || diag - < out
	for k in 1 2 3 4; do
		check "shard $k was brought back" test -s "here/shard$k.sha256"
	done
	for h in host1 host2; do
		check "$h ran jobs" grep -q 'Accepted publickey' "$SS/$h.log"
	done
	(cd data && multisum -r -o one.sha256 tree)
	same here/tree.sha256 data/one.sha256 \
	    "the merge of the shards from both hosts is one run's manifest"
}

# descendants PID: every process below PID.
descendants() {
	for _c in $(ps -o pid= --ppid "$1"); do
		echo "$_c"
		descendants "$_c"
	done
}

# shard_pid K: the pid of the multisum that hashes shard K on a host
# (below one of this test's sshd), if one does now.
shard_pid() {
	for _h in host1 host2; do
		for _p in $(descendants "$(cat "$SS/$_h.pid")"); do
			[ "$(cat "/proc/$_p/comm" 2>/dev/null)" = multisum ] &&
			    tr '\0' ' ' < "/proc/$_p/cmdline" 2>/dev/null |
			    grep -q -- "--shard=$1/4 " && echo "$_p"
		done
	done
}

shard_running() {
	[ -n "$(shard_pid "$1")" ]
}

# A job killed on its host (the OOM killer, an admin): parallel says it
# failed, its shard is not brought back, and the recipe's merge refuses
# the set.  Shard K holds a 1 TiB sparse file, so that its job is still
# reading when it is killed (it would need hours; the wait is for it to
# start).
test_killed_job_refused() {
	need_hosts || return
	make_tree
	for i in $(seq 1 16); do : > "data/tree/huge$i"; done
	for k in 1 2 3 4; do
		huge=$(multisum -r --shard=$k/4 -a crc32 data/tree |
		    sed -n 's|.*/tree/\(huge[0-9]*\)$|\1|p' | head -n 1)
		[ -n "$huge" ] && break
	done
	check "a name of one shard" test -n "$huge"
	rm data/tree/huge*
	truncate -s 1T "data/tree/$huge"
	recipe > out 2>&1 &
	bg=$!
	wait_until 300 shard_running "$k" ||
	    fail "the job of shard $k did not start"
	for p in $(shard_pid "$k"); do
		kill "$p"
	done
	wait "$bg"
	st=$?
	is "$st" 1 "the recipe fails (its merge's status)"
	check "parallel says a job failed" test -n "$(grep -v '^multisum' out)" ||
	    diag - < out
	check "shard $k was not brought back" test ! -e "here/shard$k.sha256"
	check "the merge names it missing" grep -q "missing shard: $k/4" out
	check "the merge writes nothing" test ! -e here/tree.sha256
}

# A host that is down: its jobs fail, and the merge refuses the set.
test_host_down_refused() {
	need_hosts || return
	make_tree
	kill "$(cat "$SS/host2.pid")"
	wait "$(cat "$SS/host2.pid")" 2>/dev/null
	rm "$SS/host2.pid"
	recipe > out 2>&1
	is "$?" 1 "the recipe fails (its merge's status)"
	check "the merge names a shard missing" grep -q 'missing shards*: [1-4]' out
	check "the merge writes nothing" test ! -e here/tree.sha256
}

run parallel_recipe
run killed_job_refused
run host_down_refused
finish
