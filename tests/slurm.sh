#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# slurm.sh - README's Slurm recipes run as written on a real, one-node
# Slurm that this file starts (munged, slurmctld and slurmd as root, on
# free local ports, every file in its temporary directory) and stops at
# the end, however it ends: sbatch --array over a tree, whose merge must
# equal one run; the same with one task's mount missing, which must fail
# that task and make the merge refuse the set; one task killed while it
# runs, the same; the --part job over one file, and with one task's file
# missing, whose merge must refuse the parts; and the Kubernetes Indexed
# Job's command line, for every index.
# Without root, slurm-wlm or munge every Slurm test is a SKIP with the
# reason (CI installs them).  No timed assertion: the waits are bounds.

. "$TESTS_SRCDIR/lib.sh"

SL=$ms_tmp/slurm		# everything Slurm writes

if [ "$(id -u)" != 0 ]; then
	engine_why="not root: slurmd runs jobs as their users only as root"
elif ! have slurmctld || ! have slurmd || ! have sbatch || ! have munged ||
    ! have squeue || ! have scontrol; then
	engine_why="slurm-wlm or munge is not installed"
elif ! have python3; then
	engine_why="python3 absent (free ports)"
fi

# The job scripts' multisum is this build's, by PATH (sbatch exports it).
multisum_on_path

start_slurm() {
	_host=$(hostname -s)
	_port=$(free_port)
	mkdir -p "$SL/munge" "$SL/state" "$SL/spool" "$SL/log"
	chmod 700 "$SL/munge"
	head -c 1024 /dev/urandom > "$SL/munge/munge.key"
	chmod 400 "$SL/munge/munge.key"
	munged -f -S "$SL/munge/sock" --key-file="$SL/munge/munge.key" \
	    --log-file="$SL/log/munged.log" --pid-file="$SL/munged.pid" \
	    --seed-file="$SL/munge/seed" || return 1
	cat > "$SL/slurm.conf" <<EOF
ClusterName=multisum$_port
SlurmctldHost=$_host(127.0.0.1)
SlurmctldPort=$_port
SlurmdPort=$((_port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$SL/munge/sock
CredType=cred/munge
StateSaveLocation=$SL/state
SlurmdSpoolDir=$SL/spool
SlurmctldPidFile=$SL/slurmctld.pid
SlurmdPidFile=$SL/slurmd.pid
SlurmctldLogFile=$SL/log/slurmctld.log
SlurmdLogFile=$SL/log/slurmd.log
PlugStackConfig=$SL/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
ReturnToService=2
MinJobAge=3600
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$_host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
	: > "$SL/plugstack.conf"
	SLURM_CONF=$SL/slurm.conf
	export SLURM_CONF
	slurmctld -f "$SL/slurm.conf" || return 1
	slurmd -f "$SL/slurm.conf" || return 1
	wait_until 120 node_idle
}

node_idle() {
	[ "$(sinfo -h -o %T 2>/dev/null)" = idle ]
}

# Stop what start_slurm started, by its pid files: jobs first.
stop_slurm() {
	scancel --partition=test 2>/dev/null
	for _d in slurmd slurmctld munged; do
		[ -f "$SL/$_d.pid" ] && kill "$(cat "$SL/$_d.pid")" 2>/dev/null
	done
	for _d in slurmd slurmctld munged; do
		[ -f "$SL/$_d.pid" ] || continue
		_p=$(cat "$SL/$_d.pid")
		wait_until 30 sh -c "! kill -0 $_p 2>/dev/null" ||
		    kill -9 "$_p" 2>/dev/null
	done
}

engine_start start_slurm stop_slurm

# The test needs Slurm: skip without it, fail (with its logs) if it is
# installed but did not start.
need_slurm() {
	need_engine Slurm "$SL"/log/*
}

# run_job SCRIPT: sbatch SCRIPT from here, wait for all its tasks, and
# print "TASK STATE EXITCODE" for each in the file states.
run_job() {
	_id=$(sbatch --parsable "$1") || return 1
	wait_job "$_id"
}

# wait_job ID: wait for every task of job ID to end; their states.
wait_job() {
	if ! wait_until 900 sh -c "[ -z \"\$(squeue -h -j $1 2>/dev/null)\" ]"; then
		fail "job $1 still queued or running after 15 minutes"
		squeue | diag -
		return 1
	fi
	scontrol -o show job "$1" | tr ' ' '\n' |
	    awk -F= '$1 == "ArrayTaskId" { t = $2 }
		$1 == "JobState" { s = $2 }
		$1 == "ExitCode" { print t, s, $2 }' | sort -n > states
}

# task_running ID K: task K of job ID is running now.
task_running() {
	[ "$(squeue -h -j "$1_$2" -t RUNNING -o %T 2>/dev/null)" = RUNNING ]
}

# tasks_ended K STATE N: task K of the job ended in STATE (a FAILED one
# with exit status 3: its input could not be read, as a missing mount
# makes it, which a retry may mend), and the N others completed.
tasks_ended() {
	check "task $1 ended $2" grep -q "^$1 $2" states
	[ "$2" != FAILED ] || check "with status 3" grep -q "^$1 FAILED 3:0$" states
	is "$(awk '$2 == "COMPLETED"' states | wc -l)" "$3" "the others completed"
}

# merge_refused SCRIPT TEXT OUT: the merge SCRIPT fails with a message
# that holds TEXT (what is missing), and OUT is not written.
merge_refused() {
	status_is 1 "the merge refuses the set" sh "$1" 2> err
	check "it names what is missing" grep -q "$2" err
	check "it writes nothing" test ! -e "$3"
}

# A tree that nodes see at mnt/K, as README's /data: K's own view of one
# shared directory (data: the tree, the manifests the tasks write).
tree_views() {
	mkdir -p data/tree/a/b data/tree/c data/manifests
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		random_file "data/tree/a/f$i" $((i * 301))
		random_file "data/tree/a/b/g$i" "$i"
		echo "$i" > "data/tree/c/h$i"
	done
	for k in $(seq 1 16); do
		mkdir -p "mnt/$k"
		ln -s ../../data/tree "mnt/$k/tree"
		ln -s ../../data/manifests "mnt/$k/manifests"
	done
}

# The recipe's lines of README, /data where this test keeps it: the job
# script (the task's own view) and the merge line (the shared directory).
job_script() {
	readme_block '#SBATCH --array=1-16' |
	    sed "s|/data|$PWD/mnt/\$SLURM_ARRAY_TASK_ID|" > shards.sh
	check "README has the Slurm recipe" grep -q 'multisum -r --shard' shards.sh
	readme_block 'manifests/shard*.sha256' | sed "s|/data|$PWD/data|" \
	    > merge.sh
	check "README has its merge" grep -q 'multisum --merge' merge.sh
}

# A ledger's entries and their bookkeeping, not its header's stamp.
entries() {
	grep -v '^#multisum-' "$1"
}

test_sbatch_recipe() {
	need_slurm || return
	tree_views
	job_script
	run_job shards.sh || return
	is "$(awk '$2 == "COMPLETED" && $3 == "0:0"' states | wc -l)" 16 \
	    "all 16 tasks completed"
	status_is 0 "the merge" sh merge.sh
	(cd data && multisum -r -u one.sha256 tree 2> /dev/null)
	entries data/tree.sha256 > merged
	entries data/one.sha256 > one
	same merged one "the merge of the 16 shards is one run's manifest"
	check "it lists every file" test "$(grep -c ' tree/' merged)" -eq 60
}

test_failed_task_refused() {
	need_slurm || return
	tree_views
	rm "mnt/3/tree"		# task 3's mount is missing
	job_script
	run_job shards.sh || return
	tasks_ended 3 FAILED 15
	merge_refused merge.sh 'missing shard: 3/16' data/tree.sha256
}

# A task killed while it runs (scancel, as a node lost or a time limit
# reached) leaves no manifest: the merge refuses the set.  Task 3 sees a
# tree whose shard 3 holds a 1 TiB sparse file, so it is still reading
# when it is cancelled (it would need hours; the wait is for it to start).
test_killed_task_refused() {
	need_slurm || return
	tree_views
	mkdir slow
	cp -R data/tree slow/tree
	for i in $(seq 1 64); do : > "slow/tree/huge$i"; done
	huge=$(multisum -r --shard=3/16 -a crc32 slow/tree |
	    sed -n 's|.* slow/tree/\(huge[0-9]*\)$|\1|p' | head -n 1)
	check "a name of shard 3" test -n "$huge"
	rm slow/tree/huge*
	truncate -s 1T "slow/tree/$huge"
	rm mnt/3/tree
	ln -s ../../slow/tree mnt/3/tree
	job_script
	id=$(sbatch --parsable shards.sh) || { fail "sbatch"; return; }
	if ! wait_until 600 task_running "$id" 3; then
		fail "task 3 did not start"
		scancel "$id"
	fi
	scancel "${id}_3"
	wait_job "$id" || return
	tasks_ended 3 CANCELLED 15
	check "it left no manifest" test ! -e data/manifests/shard3.sha256
	merge_refused merge.sh 'missing shard: 3/16' data/tree.sha256
}

test_part_recipe() {
	need_slurm || return
	mkdir -p data/parts
	random_file data/big.img 9000011
	readme_block '#SBATCH --array=1-4' | sed "s|/data|$PWD/data|" > parts.sh
	check "README has the --part recipe" grep -q -- '--part=' parts.sh
	readme_block 'parts/big.part*' | sed "s|/data|$PWD/data|" > merge.sh
	run_job parts.sh || return
	is "$(awk '$2 == "COMPLETED" && $3 == "0:0"' states | wc -l)" 4 \
	    "all 4 tasks completed"
	status_is 0 "the merge" sh merge.sh
	(cd data && multisum -a crc32c,blake3 big.img) > one
	same data/big.sums one "the merge of the 4 parts is one run's lines"
}

# The --part job with task 2's view of /data without the file: that
# task fails, and the merge refuses the records, naming the part missing.
test_failed_part_refused() {
	need_slurm || return
	mkdir -p data/parts
	random_file data/big.img 5000000
	for k in 1 2 3 4; do
		mkdir -p "mnt/$k"
		ln -s ../../data/parts "mnt/$k/parts"
		[ "$k" = 2 ] || ln -s ../../data/big.img "mnt/$k/big.img"
	done
	readme_block '#SBATCH --array=1-4' |
	    sed "s|/data|$PWD/mnt/\$SLURM_ARRAY_TASK_ID|" > parts.sh
	readme_block 'parts/big.part*' | sed "s|/data|$PWD/data|" > merge.sh
	run_job parts.sh || return
	tasks_ended 2 FAILED 3
	merge_refused merge.sh 'part 2 of 4 missing' data/big.sums
}

# The Kubernetes Indexed Job: the Slurm recipe's command line, which it
# runs for every completion index (no Kubernetes here: its scheduling and
# volumes are not tested).
test_kubernetes_job() {
	yaml=$TESTS_SRCDIR/../contrib/kubernetes/shards-job.yaml
	have python3 || skip_test "python3 absent (reading the job's command)"
	job_command "$yaml" > command
	check "the job has a command" test -s command
	check "it is an Indexed Job of 16" grep -q '^  completions: 16$' "$yaml"
	readme_block '#SBATCH --array=1-16' | sed -n '/^cd /,$p' |
	    sed 's/ \\$//' | tr -s '\n ' '  ' | sed 's/ *$//' > slurm
	sed 's/\$((JOB_COMPLETION_INDEX + 1))/$SLURM_ARRAY_TASK_ID/g' command \
	    > as-slurm
	is "$(cat as-slurm)" "$(cat slurm)" "the same command line as Slurm's"
	tree_views
	for i in $(seq 0 15); do
		sed "s|/data|$PWD/mnt/$((i + 1))|" command > pod.sh
		JOB_COMPLETION_INDEX=$i sh pod.sh 2> /dev/null ||
		    fail "index $i failed"
	done
	(cd data && multisum --merge -o tree.sha256 manifests/shard*.sha256 &&
	    multisum -r -u one.sha256 tree 2> /dev/null)
	entries data/tree.sha256 > merged
	entries data/one.sha256 > one
	same merged one "its 16 pods' shards merge to one run's manifest"
}

run sbatch_recipe
run failed_task_refused
run killed_task_refused
run part_recipe
run failed_part_refused
run kubernetes_job
finish
