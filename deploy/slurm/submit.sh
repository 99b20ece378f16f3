#!/usr/bin/env bash
# submit.sh SHARDS OUTDIR SIMULATE-ARGS...
#
# Runs `simulate SIMULATE-ARGS` as a Slurm job array of SHARDS tasks, task I
# running shard I and writing OUTDIR/part-I, then a merge job that runs once
# every task has ended and writes OUTDIR/result.EXT: .txt, .json, .csv or
# .md for --format table, json, csv or markdown. --plot and --report in
# SIMULATE-ARGS go to the merge job. The last line on standard output is the
# merge job's id (wait on it with `scontrol show job ID` or a dependency).
#
# The binary is $SIMULATE, else `simulate` on PATH, resolved to an absolute
# path here: OUTDIR and the binary must be on a file system every node sees.
# Extra sbatch options (account, partition, time limit) go in
# $SBATCH_OPTIONS, split on spaces, given to both jobs.
#
# A failed task leaves the parts that finished; the merge job then fails
# and its log (OUTDIR/merge.log) names the shards to rerun. See
# docs/scale-out.md.
set -euo pipefail

usage() {
	echo "usage: submit.sh SHARDS OUTDIR run|compare SCENARIO... [simulate flags]" >&2
	exit 2
}
[[ $# -ge 3 ]] || usage
shards=$1 outdir=$2
shift 2
[[ $shards =~ ^[1-9][0-9]*$ ]] || { echo "submit.sh: SHARDS must be a whole number from 1, not '$shards'" >&2; exit 2; }
case ${1-} in run | compare) ;; *) echo "submit.sh: SIMULATE-ARGS start with run or compare, not '${1-}'" >&2; exit 2 ;; esac

simulate=${SIMULATE:-simulate}
if ! simulate=$(command -v -- "$simulate"); then
	echo "submit.sh: no simulate binary: set SIMULATE or put simulate on PATH" >&2
	exit 2
fi
[[ $simulate == /* ]] || simulate=$PWD/$simulate

# The output flags belong to the merge; every other argument to the shards.
format=table
shard_args=() merge_args=()
while [[ $# -gt 0 ]]; do
	arg=$1
	shift
	case $arg in
	-format | --format | -plot | --plot | -report | --report)
		[[ $# -gt 0 ]] || { echo "submit.sh: $arg needs a value" >&2; exit 2; }
		value=$1
		shift
		;;
	-format=* | --format=* | -plot=* | --plot=* | -report=* | --report=*)
		value=${arg#*=} arg=${arg%%=*}
		;;
	-o | --o | -o=* | --o=* | -shard* | --shard*)
		echo "submit.sh: $arg: submit.sh chooses the outputs and the shards itself" >&2
		exit 2
		;;
	*)
		shard_args+=("$arg")
		continue
		;;
	esac
	name=${arg##*-}
	if [[ $name == format ]]; then
		format=$value
	else
		merge_args+=("--$name" "$value")
	fi
done
case $format in
table) ext=txt ;;
json | csv) ext=$format ;;
markdown) ext=md ;;
*) echo "submit.sh: unknown --format '$format'; expected table, json, csv or markdown" >&2; exit 2 ;;
esac

mkdir -p -- "$outdir"
outdir=$(cd -- "$outdir" && pwd)
read -r -a sbatch_options <<<"${SBATCH_OPTIONS-}"

# Job scripts are written out rather than passed with --wrap, so that
# arguments with spaces or quotes survive intact.
{
	echo '#!/usr/bin/env bash'
	printf 'exec %q' "$simulate"
	printf ' %q' "${shard_args[@]}" --shard-index-env SLURM_ARRAY_TASK_ID --shard "$shards"
	printf ' -o %q/part-"$SLURM_ARRAY_TASK_ID"\n' "$outdir"
} >"$outdir/shard.sh"
{
	echo '#!/usr/bin/env bash'
	echo 'shopt -s nullglob'
	printf 'parts=(%q/part-*)\n' "$outdir"
	echo 'if [[ ${#parts[@]} -eq 0 ]]; then echo "merge: no parts: every shard failed; see shard-*.log" >&2; exit 1; fi'
	printf 'exec %q merge --format %q -o %q' "$simulate" "$format" "$outdir/result.$ext"
	[[ ${#merge_args[@]} -eq 0 ]] || printf ' %q' "${merge_args[@]}"
	echo ' "${parts[@]}"'
} >"$outdir/merge.sh"
chmod +x "$outdir/shard.sh" "$outdir/merge.sh"

array=$(sbatch --parsable "${sbatch_options[@]}" --job-name=hammersim-shard --array="0-$((shards - 1))" \
	--output="$outdir/shard-%a.log" "$outdir/shard.sh")
array=${array%%;*}
# afterany, not afterok: the merge runs even when a task failed, so that
# its error names the shards to rerun instead of waiting forever.
merge=$(sbatch --parsable "${sbatch_options[@]}" --job-name=hammersim-merge --dependency="afterany:$array" \
	--output="$outdir/merge.log" "$outdir/merge.sh")
echo "submitted shards as job array $array, merge as job ${merge%%;*}; results in $outdir/result.$ext" >&2
echo "${merge%%;*}"
