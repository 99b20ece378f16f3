#!/usr/bin/env bash
# selftest.sh: submit.sh on a real, one-node Slurm.
#
# Brings up munged, slurmctld and slurmd (Debian's munge and slurm-wlm)
# with a configuration of their own in a temporary directory, on ports of
# their own, as the current user (root, as slurmd needs), and then:
#   1. runs submit.sh for a built-in scenario in 4 shards and compares the
#      merged result with the single-machine run, byte for byte (cmp);
#   2. runs it again with a binary that fails in task 2, and checks that the
#      merge job fails and names shard 2 to rerun.
# The daemons are stopped by process id whatever happens.
#
# With --install, missing packages are installed with apt-get first (CI does
# this). Exit status: 0 passed, 1 failed, 77 skipped (no Slurm or munge and
# no way to install them, or not root).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)

skip() {
	echo "==================== SKIP: Slurm self-test not run: $* ====================" >&2
	exit 77
}
have_slurm() {
	local cmd
	for cmd in munged slurmctld slurmd sbatch scontrol sinfo; do
		command -v "$cmd" >/dev/null || return 1
	done
}
[[ $(id -u) -eq 0 ]] || skip "slurmd must run as root"
if ! have_slurm && [[ ${1-} == --install ]] && command -v apt-get >/dev/null; then
	echo "selftest: installing slurm-wlm and munge" >&2
	{ timeout 300 apt-get update -qq && DEBIAN_FRONTEND=noninteractive timeout 300 apt-get install -y -qq --no-install-recommends slurm-wlm munge; } >/dev/null 2>&1 || true
fi
have_slurm || skip "slurm-wlm and munge are not installed and could not be (apt-get install slurm-wlm munge)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hammersim-slurm.XXXXXX")
chmod 755 "$tmp"
pids=()
cleanup() {
	local status=$?
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for pid in "${pids[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	if [[ $status -ne 0 && $status -ne 77 ]]; then
		for log in "$tmp"/*.log "$tmp"/out*/*.log; do
			[[ -f $log ]] && { echo "--- $log" >&2; tail -n 20 "$log" >&2; }
		done
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 143' TERM INT
fail() {
	echo "FAIL: deploy/slurm/selftest.sh: $*" >&2
	exit 1
}

# free_port prints a TCP port on which nothing listens.
free_port() {
	local port
	for _ in $(seq 50); do
		port=$((20000 + RANDOM % 20000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			echo "$port"
			return
		fi
	done
	fail "no free TCP port found"
}

# wait_for TIMEOUT WHAT COMMAND...: runs COMMAND every half second until it
# succeeds, for at most TIMEOUT seconds.
wait_for() {
	local limit=$(($1 * 2)) what=$2
	shift 2
	for _ in $(seq "$limit"); do
		"$@" && return 0
		sleep 0.5
	done
	fail "timed out waiting for $what"
}

echo "selftest: building simulate" >&2
(cd "$root" && go build -o "$tmp/simulate" ./cmd/simulate)

mkdir -m 711 "$tmp/munge"
mkdir "$tmp/state" "$tmp/spool"
head -c 1024 /dev/urandom >"$tmp/munge/munge.key"
chmod 400 "$tmp/munge/munge.key"
munged --foreground --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/socket" \
	--pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munged.log" --seed-file="$tmp/munge/seed" >"$tmp/munged.out" 2>&1 &
pids+=($!)
wait_for 10 "munged" test -S "$tmp/munge/socket"

host=$(hostname -s)
cat >"$tmp/slurm.conf" <<EOF
ClusterName=hammersim-selftest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
PlugStackConfig=/dev/null
ProctrackType=proctrack/pgid
TaskPlugin=task/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=selftest Nodes=$host Default=YES MaxTime=10 State=UP
EOF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$tmp/slurmd.out" 2>&1 &
pids+=($!)
node_idle() { [[ $(sinfo -h -o %T 2>/dev/null) == idle ]]; }
wait_for 30 "the Slurm node to come up" node_idle
echo "selftest: one-node Slurm up (${SLURM_CONF})" >&2

# job_done ID: the job has left the queue.
job_done() {
	local state
	state=$(scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' || true)
	[[ $state == JobState=COMPLETED || $state == JobState=FAILED || $state == JobState=CANCELLED || $state == JobState=TIMEOUT ]]
}
job_state() { scontrol show job "$1" | grep -o 'JobState=[A-Z_]*'; }

args=(run charge-benchmark --trials 200000 --seed 3 --format json)

# 1. Four shards, merged, against the single run.
merge=$(SIMULATE=$tmp/simulate "$root/deploy/slurm/submit.sh" 4 "$tmp/out" "${args[@]}" | tail -n 1)
wait_for 120 "merge job $merge" job_done "$merge"
[[ $(job_state "$merge") == JobState=COMPLETED ]] || fail "merge job $merge: $(job_state "$merge")"
"$tmp/simulate" "${args[@]}" >"$tmp/single.json"
cmp "$tmp/single.json" "$tmp/out/result.json" || fail "the merged result differs from the single-machine run"
echo "selftest: 4 shards on Slurm merged byte-identical to the single run" >&2

# 2. Task 2 fails: the merge job fails and names shard 2.
touch "$tmp/fail-task-2"
cat >"$tmp/flaky" <<EOF
#!/usr/bin/env bash
[[ \${SLURM_ARRAY_TASK_ID-} == 2 && -e $tmp/fail-task-2 ]] && { echo "flaky: task 2 fails on purpose" >&2; exit 3; }
exec "$tmp/simulate" "\$@"
EOF
chmod +x "$tmp/flaky"
merge=$(SIMULATE=$tmp/flaky "$root/deploy/slurm/submit.sh" 4 "$tmp/out-failed" "${args[@]}" | tail -n 1)
wait_for 120 "merge job $merge" job_done "$merge"
[[ $(job_state "$merge") == JobState=FAILED ]] || fail "merge job after a failed task: $(job_state "$merge"), want FAILED"
grep -q 'shard 2 (rerun with --shard 2/4)' "$tmp/out-failed/merge.log" || fail "the merge log does not name shard 2: $(cat "$tmp/out-failed/merge.log")"
[[ ! -e $tmp/out-failed/result.json ]] || fail "a failed merge left a result"
echo "selftest: a failed task leaves a merge error naming it: $(cat "$tmp/out-failed/merge.log")" >&2

# 3. The rerun docs/scale-out.md gives: shard 2 alone from the job script
# submit.sh left, then the merge script after it; the result is the
# single run's.
rm "$tmp/fail-task-2"
rerun=$(sbatch --parsable --array=2 --output="$tmp/out-failed/shard-%a.log" "$tmp/out-failed/shard.sh")
merge=$(sbatch --parsable --dependency="afterany:${rerun%%;*}" --output="$tmp/out-failed/merge.log" "$tmp/out-failed/merge.sh")
merge=${merge%%;*}
wait_for 120 "merge job $merge" job_done "$merge"
[[ $(job_state "$merge") == JobState=COMPLETED ]] || fail "merge job after rerunning shard 2: $(job_state "$merge"): $(cat "$tmp/out-failed/merge.log")"
cmp "$tmp/single.json" "$tmp/out-failed/result.json" || fail "the merge after rerunning shard 2 differs from the single-machine run"
echo "selftest: shard 2 rerun with sbatch --array=2 OUTDIR/shard.sh, merged byte-identical to the single run" >&2
echo "PASS: deploy/slurm/selftest.sh" >&2
