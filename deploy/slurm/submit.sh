#!/usr/bin/env bash
# submit.sh SHARDS OUTDIR SIMULATE-ARGS...
#
# Runs `simulate SIMULATE-ARGS` as a Slurm job array of SHARDS tasks, task I
# running shard I and writing OUTDIR/parts/part-I, then a merge job that runs once
# every task has ended and writes OUTDIR/result.EXT: .txt, .json, .csv or
# .md for --format table, json, csv or markdown. --plot and --report in
# SIMULATE-ARGS go to the merge job. The last line on standard output is the
# merge job's id (wait on it with `scontrol show job ID` or a dependency).
#
# Before it submits anything, it checks here what the tasks and the merge
# would otherwise find wrong only on the cluster, after the whole array has
# run: it runs the command of task 0, the whole run as one machine would
# make it, and the merge, each with `simulate --check`, and stops at the
# first refusal with simulate's own message and exit status (2 for a bad
# command line, 1 for a scenario that does not load or a destination that
# cannot be written). It refuses itself `-` (standard input, which the tasks
# do not have) and an OUTDIR whose parts folder already holds files. On a refusal nothing
# is submitted, and the folders it made for OUTDIR are removed.
#
# The binary is $SIMULATE, else `simulate` on PATH, resolved to an absolute
# path here: OUTDIR and the binary must be on a file system every node sees.
# Relative paths in SIMULATE-ARGS are read from the directory submit.sh runs
# in, where Slurm starts the jobs (unless $SBATCH_OPTIONS says --chdir).
# Extra sbatch options (account, partition, time limit) go in
# $SBATCH_OPTIONS, split on spaces, given to both jobs.
#
# The array is submitted held and released once the merge is queued; if
# sbatch refuses the merge, the held array is cancelled and nothing runs.
#
# A failed task leaves the parts that finished; the merge job then fails
# and its log (OUTDIR/merge.log) names the shards to rerun. See
# docs/scale-out.md.
set -euo pipefail
# cd reads relative paths from the working directory alone.
unset CDPATH

usage() {
	echo "usage: submit.sh SHARDS OUTDIR run|compare SCENARIO... [simulate flags]" >&2
	exit 2
}
refuse() {
	echo "submit.sh: $*; nothing was submitted" >&2
	exit 2
}
[[ $# -ge 3 ]] || usage
shards=$1 outdir=$2
shift 2
[[ $shards =~ ^[1-9][0-9]*$ ]] || refuse "SHARDS must be a whole number from 1, not '$shards'"
# Slurm takes job arrays whose last index is below its MaxArraySize (1001
# unless the cluster sets it); sbatch would refuse a larger one only after
# the checks below.
max_array=$(scontrol show config 2>/dev/null | awk '$1 == "MaxArraySize" { print $3 }' || true)
if [[ $max_array =~ ^[0-9]+$ ]] && ((shards > max_array)); then
	refuse "SHARDS $shards is more than this cluster's job arrays hold: its MaxArraySize is $max_array (scontrol show config), so an array has at most $max_array tasks; use fewer shards, or ask its administrators to raise MaxArraySize"
fi
case $1 in run | compare) ;; *) refuse "SIMULATE-ARGS start with run or compare, not '$1'" ;; esac
command=$1
shift

simulate=${SIMULATE:-simulate}
if ! simulate=$(command -v -- "$simulate"); then
	refuse "no simulate binary: set SIMULATE or put simulate on PATH"
fi
[[ $simulate == /* ]] || simulate=$PWD/$simulate

# The output flags belong to the merge; every other argument to the shards.
# A flag given twice is kept twice, for the checks below to refuse.
format=table
shard_args=() merge_args=()
while [[ $# -gt 0 ]]; do
	arg=$1
	shift
	case $arg in
	-format | --format | -plot | --plot | -report | --report)
		[[ $# -gt 0 ]] || refuse "$arg needs a value"
		value=$1
		shift
		;;
	-format=* | --format=* | -plot=* | --plot=* | -report=* | --report=*)
		value=${arg#*=} arg=${arg%%=*}
		;;
	-o | --o | -o=* | --o=* | -shard* | --shard*)
		refuse "$arg: submit.sh chooses the outputs and the shards itself"
		;;
	-check | --check | -check=* | --check=*)
		refuse "$arg: submit.sh checks the command itself before it submits it"
		;;
	-h | --h | -help | --help | -h=* | --h=* | -help=* | --help=*)
		refuse "$arg: submit.sh has no help flag: 'simulate $command -h' lists the flags, docs/scale-out.md describes submit.sh"
		;;
	-)
		refuse "- (standard input) as a scenario: the tasks run on other nodes, with no standard input; save the scenario in a file every node sees and name that"
		;;
	--)
		# After --, every argument is a scenario.
		for arg in "$@"; do
			[[ $arg != - ]] || refuse "- (standard input) as a scenario: the tasks run on other nodes, with no standard input; save the scenario in a file every node sees and name that"
		done
		shard_args+=(-- "$@")
		break
		;;
	*)
		shard_args+=("$arg")
		continue
		;;
	esac
	name=${arg##*-}
	[[ $name != format ]] || format=$value
	merge_args+=("--$name" "$value")
done
case $format in
json | csv) ext=$format ;;
markdown) ext=md ;;
*) ext=txt ;; # table; any other format is refused by the checks below
esac

# The folders mkdir -p makes for OUTDIR and its parts folder, outermost
# first, are removed again when the run is refused.
made=()
dir=$outdir/parts
while [[ ! -e $dir && ! -L $dir ]]; do
	made=("$dir" "${made[@]}")
	dir=$(dirname -- "$dir")
done
unmake() {
	local i
	for ((i = ${#made[@]} - 1; i >= 0; i--)); do
		rmdir -- "${made[i]}" 2>/dev/null || return 0
	done
}
mkdir -p -- "$outdir/parts"
outdir=$(cd -- "$outdir" && pwd)
# sbatch reads its --output paths as patterns: % begins a placeholder
# (written %% for itself), and a backslash turns every placeholder off and
# is dropped, which no spelling undoes. Every task would then fail to
# open its log, and leave nothing to say why.
if [[ $outdir == *\\* ]]; then
	unmake
	refuse "OUTDIR $outdir holds a backslash, which sbatch drops from the log paths it is given (and then cannot open them); choose a folder without one"
fi
logdir=${outdir//%/%%}

# The merge reads every part in OUTDIR/parts: parts of an earlier run
# there would be merged with the new ones.
shopt -s nullglob
stale=("$outdir"/parts/*)
shopt -u nullglob
if [[ ${#stale[@]} -gt 0 ]]; then
	refuse "$outdir/parts already holds ${#stale[@]} file(s) (${stale[0]##*/}, ...), which the merge would read with the new parts; remove them or choose another OUTDIR"
fi

# check WHAT ARGS...: runs simulate ARGS --check; on a refusal, shows
# simulate's message and exits with its status.
check() {
	local what=$1 out status=0
	shift
	out=$("$simulate" "$@" 2>&1 </dev/null) || status=$?
	if [[ $status -ne 0 ]]; then
		printf '%s\n' "$out" >&2
		echo "submit.sh: simulate --check refused $what; nothing was submitted" >&2
		unmake
		exit "$status"
	fi
}
# Task 0's command as shard.sh runs it, the whole run as one machine would
# make it (the output flags with the rest, as the user gave them), and the
# merge as merge.sh runs it, but with no parts yet.
shard_cmd=("$command" --shard-index-env SLURM_ARRAY_TASK_ID --shard "$shards")
SLURM_ARRAY_TASK_ID=0 check "the shards' command" "${shard_cmd[@]}" --check -o "$outdir/parts/part-0" "${shard_args[@]}"
check "the command" "$command" --check -o "$outdir/result.$ext" "${merge_args[@]}" "${shard_args[@]}"
merge_cmd=(merge -o "$outdir/result.$ext" "${merge_args[@]}")
check "the merge" "${merge_cmd[@]}" --check

read -r -a sbatch_options <<<"${SBATCH_OPTIONS-}"

# Job scripts are written out rather than passed with --wrap, so that
# arguments with spaces or quotes survive intact. The flags submit.sh adds
# come before the user's, which may end with -- and scenario names. What
# is in single quotes is for the job scripts to expand, not submit.sh.
# shellcheck disable=SC2016
{
	echo '#!/usr/bin/env bash'
	printf 'exec %q' "$simulate"
	printf ' %q' "${shard_cmd[@]}"
	printf ' -o %q/parts/part-"$SLURM_ARRAY_TASK_ID"' "$outdir"
	[[ ${#shard_args[@]} -eq 0 ]] || printf ' %q' "${shard_args[@]}"
	echo
} >"$outdir/shard.sh"
# shellcheck disable=SC2016
{
	echo '#!/usr/bin/env bash'
	echo 'shopt -s nullglob'
	printf 'parts=(%q/parts/part-*)\n' "$outdir"
	echo 'if [[ ${#parts[@]} -eq 0 ]]; then echo "merge: no parts: every shard failed; see shard-*.log" >&2; exit 1; fi'
	# The folder, not the parts: tens of thousands of paths would pass the
	# kernel's limit on a command line's length.
	printf 'exec %q' "$simulate"
	printf ' %q' "${merge_cmd[@]}" "$outdir/parts"
	echo
} >"$outdir/merge.sh"
chmod +x "$outdir/shard.sh" "$outdir/merge.sh"

# unsubmitted MESSAGE: says what sbatch refused, removes the job scripts
# and the folders made for OUTDIR, and exits.
unsubmitted() {
	echo "submit.sh: $1" >&2
	rm -f -- "$outdir/shard.sh" "$outdir/merge.sh"
	unmake
	exit 1
}
# The array is submitted held and released only once the merge is queued
# behind it, so that a merge sbatch refuses (an account, a partition, a
# full queue) leaves no array running for nothing: it is cancelled.
array=$(sbatch --parsable --hold "${sbatch_options[@]}" --job-name=hammersim-shard --array="0-$((shards - 1))" \
	--output="$logdir/shard-%a.log" "$outdir/shard.sh") ||
	unsubmitted "sbatch refused the job array (above); nothing was submitted"
array=${array%%;*}
# afterany, not afterok: the merge runs even when a task failed, so that
# its error names the shards to rerun instead of waiting forever.
if ! merge=$(sbatch --parsable "${sbatch_options[@]}" --job-name=hammersim-merge --dependency="afterany:$array" \
	--output="$logdir/merge.log" "$outdir/merge.sh"); then
	scancel "$array" ||
		echo "submit.sh: scancel $array failed: cancel the held job array $array by hand" >&2
	unsubmitted "sbatch refused the merge job (above); the held job array $array was cancelled, nothing runs"
fi
if ! scontrol release "$array"; then
	echo "submit.sh: the job array $array and the merge ${merge%%;*} are queued, but the array is still held:" \
		"release it with scontrol release $array" >&2
	exit 1
fi
echo "submitted shards as job array $array, merge as job ${merge%%;*}; results in $outdir/result.$ext" >&2
echo "${merge%%;*}"
