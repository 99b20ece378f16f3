#!/usr/bin/env bash
# selftest.sh: submit.sh with a stand-in sbatch, then on a real, one-node
# Slurm.
#
# First, with a stand-in for sbatch on PATH that records its calls and
# prints job ids (no Slurm, no root needed):
#   0. submit.sh refuses each mistake below before it calls sbatch, with
#      simulate's message (or its own) and exit status, and leaves no
#      OUTDIR behind; a run it accepts is submitted as two jobs, whose
#      scripts, run by hand, merge to the single-machine run's bytes.
# Then it brings up munged, slurmctld and slurmd (Debian's munge and
# slurm-wlm) with a configuration of their own in a temporary directory, on
# ports of their own, as the current user (root, as slurmd needs), and:
#   1. runs submit.sh for a built-in scenario in 4 shards and compares the
#      merged result with the single-machine run, byte for byte (cmp);
#   2. runs it again with a binary that fails in task 2, and checks that the
#      merge job fails and names shard 2 to rerun;
#   3. reruns shard 2 alone and merges again.
# The daemons are stopped by process id whatever happens.
#
# With --install, missing packages are installed with apt-get first (CI does
# this). Exit status: 0 passed, 1 failed, 77 skipped (no Slurm or munge and
# no way to install them, or not root; part 0 has then passed).
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

# 0. submit.sh's checks, against a stand-in sbatch.
mkdir "$tmp/bin"
# The stand-ins of sbatch, scontrol and scancel record their calls; sbatch
# answers job ids 101, 102, ..., and refuses its call number
# $SBATCH_REFUSE, when set, as Slurm refuses an unknown account.
cat >"$tmp/bin/sbatch" <<'EOF'
#!/usr/bin/env bash
printf 'sbatch %s\n' "$*" >>"$SBATCH_CALLS"
n=$(grep -c '^sbatch ' "$SBATCH_CALLS")
if [[ $n == "${SBATCH_REFUSE-}" ]]; then
	echo "sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified" >&2
	exit 1
fi
echo $((100 + n))
EOF
cat >"$tmp/bin/scancel" <<'EOF'
#!/usr/bin/env bash
printf 'scancel %s\n' "$*" >>"$SBATCH_CALLS"
EOF
# scontrol show config answers, unrecorded, with Slurm's default
# MaxArraySize or $MAX_ARRAY_SIZE, which submit.sh reads first.
cat >"$tmp/bin/scontrol" <<'EOF'
#!/usr/bin/env bash
if [[ $* == "show config" ]]; then
	echo "MaxArraySize            = ${MAX_ARRAY_SIZE:-1001}"
	exit 0
fi
printf 'scontrol %s\n' "$*" >>"$SBATCH_CALLS"
EOF
chmod +x "$tmp/bin/sbatch" "$tmp/bin/scontrol" "$tmp/bin/scancel"
# stand_in SUBMIT-ARGS...: submit.sh with the stand-in sbatch, its calls
# recorded in $tmp/calls, its standard error in $tmp/submit.err.
stand_in() {
	: >"$tmp/calls"
	PATH=$tmp/bin:$PATH SBATCH_CALLS=$tmp/calls SIMULATE=$tmp/simulate \
		"$root/deploy/slurm/submit.sh" "$@" 2>"$tmp/submit.err"
}
# refused STATUS MESSAGE SHARDS SIMULATE-ARGS...: submit.sh into a new
# OUTDIR exits with STATUS, says MESSAGE, calls no sbatch, and removes the
# folders it made for OUTDIR.
refused=0
refused() {
	local want=$1 msg=$2 shards=$3 status=0
	shift 3
	refused=$((refused + 1))
	local made=$tmp/refused-$refused
	stand_in "$shards" "$made/out" "$@" >/dev/null || status=$?
	local what="submit.sh $shards OUTDIR $*"
	[[ $status -eq $want ]] || fail "$what: exit $status, want $want: $(cat "$tmp/submit.err")"
	grep -qF -- "$msg" "$tmp/submit.err" || fail "$what: its error does not say: $msg: $(cat "$tmp/submit.err")"
	[[ ! -s $tmp/calls ]] || fail "$what: sbatch called after a refusal: $(cat "$tmp/calls")"
	[[ ! -e $made ]] || fail "$what: left $made behind"
}
"$tmp/simulate" show flee-pursuit >"$tmp/flee-pursuit.yaml"
refused 2 "SHARDS 1002 is more than this cluster's job arrays hold: its MaxArraySize is 1001" 1002 run flee-pursuit
MAX_ARRAY_SIZE=100000 refused 2 '--shard "0/70000" (the index from SLURM_ARRAY_TASK_ID): expected I/N, shard I of N with 0 <= I < N <= 65536' \
	70000 run flee-pursuit
refused 2 'flag provided but not defined: -trails' 2 run nosuch.yaml --trails 5
refused 1 'no scenario file or built-in scenario named "nosuch.yaml"' 2 run nosuch.yaml
refused 2 '- (standard input) as a scenario: the tasks run on other nodes' 2 run - <"$tmp/flee-pursuit.yaml"
refused 2 '- (standard input) as a scenario' 2 run --trials 20000 -- - <"$tmp/flee-pursuit.yaml"
refused 2 '-plot "b": given twice' 3 run flee-pursuit --plot a --plot b --report /nonexistent/dir/r.html
refused 1 'cannot write /nonexistent/dir/r.html: the directory /nonexistent/dir does not exist' \
	3 run flee-pursuit --report /nonexistent/dir/r.html
refused 1 "cannot write into $tmp/flee-pursuit.yaml/plots" 2 run flee-pursuit --plot "$tmp/flee-pursuit.yaml/plots"
refused 2 '-format "csv": given twice' 2 run flee-pursuit --format json --format=csv
refused 2 'unknown format "partial"' 2 run flee-pursuit --format partial
refused 2 '--shard runs a fixed number of trials' 2 run flee-pursuit --precision 0.01
refused 2 'compare writes its report as HTML' 2 compare doomwheel-balance --report r.md
refused 2 'submit.sh has no help flag' 2 run flee-pursuit -h
refused 2 'submit.sh checks the command itself' 2 run flee-pursuit --check
refused 2 'submit.sh chooses the outputs and the shards itself' 2 run flee-pursuit -o r.txt
# Parts of an earlier run in OUTDIR, which the merge would read too.
mkdir -p "$tmp/stale/parts"
touch "$tmp/stale/parts/part-0" "$tmp/stale/parts/part-1"
status=0
stand_in 2 "$tmp/stale" run flee-pursuit >/dev/null || status=$?
[[ $status -eq 2 && ! -s $tmp/calls ]] || fail "submit.sh into a folder of parts: exit $status, sbatch calls: $(cat "$tmp/calls")"
grep -qF "$tmp/stale/parts already holds 2 file(s) (part-0, ...)" "$tmp/submit.err" || fail "submit.sh into a folder of parts: $(cat "$tmp/submit.err")"
[[ -e $tmp/stale/parts/part-0 ]] || fail "submit.sh removed the parts it refused to merge with"
# sbatch reads its --output paths as patterns: a backslash in OUTDIR,
# which no spelling gets through, is refused; a % is written %%, so that
# the tasks' logs land in OUTDIR itself.
status=0
stand_in 2 "$tmp/back\\slash/out" run flee-pursuit >/dev/null || status=$?
[[ $status -eq 2 && ! -s $tmp/calls ]] || fail "submit.sh into a folder with a backslash: exit $status, sbatch calls: $(cat "$tmp/calls")"
grep -qF "holds a backslash, which sbatch drops" "$tmp/submit.err" || fail "submit.sh into a folder with a backslash: $(cat "$tmp/submit.err")"
[[ ! -e "$tmp/back\\slash" ]] || fail "submit.sh into a folder with a backslash left it behind"
stand_in 2 "$tmp/100%x" run flee-pursuit >/dev/null || fail "submit.sh into a folder with a %: $(cat "$tmp/submit.err")"
grep -qF -- "--output=$tmp/100%%x/shard-%a.log $tmp/100%x/shard.sh" "$tmp/calls" &&
	grep -qF -- "--output=$tmp/100%%x/merge.log $tmp/100%x/merge.sh" "$tmp/calls" ||
	fail "a % in OUTDIR was not written %% in the log paths: $(cat "$tmp/calls")"
echo "selftest: submit.sh refused $((refused + 2)) mistakes before calling sbatch, each with its message, and wrote a % in OUTDIR as %% for sbatch" >&2

# A run it accepts: two sbatch calls, and job scripts that, run by hand
# for each task and then for the merge, give the single run's bytes. The
# scenario comes after --, where no flag may follow it. OUTDIR is given
# relative to the directory submit.sh runs in, with a CDPATH naming
# another folder of the same name, which cd must not take.
args=(run --trials 40000 --seed 3 --format json -- charge-benchmark)
mkdir -p "$tmp/decoy/by-hand"
merge=$(cd "$tmp" && CDPATH=$tmp/decoy stand_in 3 by-hand "${args[@]}" | tail -n 1) || fail "submit.sh ${args[*]}: $(cat "$tmp/submit.err")"
[[ $merge == 102 && $(wc -l <"$tmp/calls") -eq 3 ]] || fail "submit.sh printed '$merge' after these calls: $(cat "$tmp/calls")"
grep -qF -- "--hold --job-name=hammersim-shard --array=0-2 --output=$tmp/by-hand/shard-%a.log $tmp/by-hand/shard.sh" "$tmp/calls" ||
	fail "the array was not submitted held as 3 tasks: $(cat "$tmp/calls")"
grep -qF -- "--dependency=afterany:101 --output=$tmp/by-hand/merge.log $tmp/by-hand/merge.sh" "$tmp/calls" ||
	fail "the merge was not submitted after the array: $(cat "$tmp/calls")"
[[ $(tail -n 1 "$tmp/calls") == "scontrol release 101" ]] ||
	fail "the array was not released once the merge was queued: $(cat "$tmp/calls")"
for task in 0 1 2; do
	SLURM_ARRAY_TASK_ID=$task "$tmp/by-hand/shard.sh" 2>/dev/null || fail "shard.sh for task $task failed"
done
"$tmp/by-hand/merge.sh" 2>/dev/null || fail "merge.sh failed"
"$tmp/simulate" run charge-benchmark --trials 40000 --seed 3 --format json >"$tmp/single-by-hand.json"
cmp "$tmp/single-by-hand.json" "$tmp/by-hand/result.json" || fail "the job scripts, run by hand, differ from the single-machine run"
echo "selftest: a run submitted to the stand-in sbatch, its job scripts run by hand, merged byte-identical to the single run" >&2

# sbatch refuses the merge (call 2): the held array is cancelled and never
# released. sbatch refuses the array (call 1): nothing is submitted. Both
# show sbatch's own error and remove the job scripts and the folders made.
for refuse in 2 1; do
	status=0
	SBATCH_REFUSE=$refuse stand_in 2 "$tmp/refused-sbatch-$refuse/out" run flee-pursuit >/dev/null || status=$?
	what="submit.sh with sbatch refusing its call $refuse"
	[[ $status -eq 1 ]] || fail "$what: exit $status, want 1: $(cat "$tmp/submit.err")"
	grep -qF "Invalid account" "$tmp/submit.err" || fail "$what: sbatch's own error not shown: $(cat "$tmp/submit.err")"
	[[ ! -e $tmp/refused-sbatch-$refuse ]] || fail "$what: left $tmp/refused-sbatch-$refuse behind"
	! grep -q '^scontrol release' "$tmp/calls" || fail "$what: the array was released: $(cat "$tmp/calls")"
	if [[ $refuse -eq 2 ]]; then
		grep -qx 'scancel 101' "$tmp/calls" || fail "$what: the held array was not cancelled: $(cat "$tmp/calls")"
		grep -qF 'the held job array 101 was cancelled, nothing runs' "$tmp/submit.err" || fail "$what: $(cat "$tmp/submit.err")"
	else
		[[ $(wc -l <"$tmp/calls") -eq 1 ]] || fail "$what: more than the refused call: $(cat "$tmp/calls")"
	fi
done
echo "selftest: sbatch refusing the merge cancels the held array; refusing the array submits nothing" >&2

[[ $(id -u) -eq 0 ]] || skip "slurmd must run as root"
if ! have_slurm && [[ ${1-} == --install ]] && command -v apt-get >/dev/null; then
	echo "selftest: installing slurm-wlm and munge" >&2
	{ timeout 300 apt-get update -qq && DEBIAN_FRONTEND=noninteractive timeout 300 apt-get install -y -qq --no-install-recommends slurm-wlm munge; } >/dev/null 2>&1 || true
fi
have_slurm || skip "slurm-wlm and munge are not installed and could not be (apt-get install slurm-wlm munge)"

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
