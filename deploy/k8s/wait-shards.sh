#!/bin/sh
# wait-shards.sh [JOB [SECONDS]]
#
# Waits until the shards Job (JOB, default hammersim-shards) has ended,
# looking at its conditions every SECONDS (default 30), and says how it
# ended: exit 0 when it is Complete (run the merge next); exit 1 when it is
# Failed, naming the indexes that failed (rerun those shards alone, then
# the merge: docs/scale-out.md); kubectl's own status when kubectl fails.
# Bound the wait with timeout(1) if wanted: `timeout 24h wait-shards.sh`.
#
# `kubectl wait --for=condition=complete` cannot do this alone: an index
# that fails past backoffLimitPerIndex makes the Job Failed, never
# Complete, and kubectl wait waits for one condition only, so it would sit
# out its whole timeout. This needs nothing but `kubectl get`.
set -eu
job=${1:-hammersim-shards}
every=${2:-30}
while :; do
	ended=$(kubectl get job "$job" -o 'jsonpath={range .status.conditions[?(@.status=="True")]}{.type}{" "}{end}')
	case " $ended" in
	*" Complete "*)
		echo "job/$job: Complete; run the merge (merge-job.yaml)"
		exit 0
		;;
	*" Failed "*)
		failed=$(kubectl get job "$job" -o 'jsonpath={.status.failedIndexes}')
		reason=$(kubectl get job "$job" -o 'jsonpath={.status.conditions[?(@.type=="Failed")].reason}')
		echo "job/$job: Failed ($reason); failed indexes: ${failed:-none listed}. Rerun those shards alone, then the merge (docs/scale-out.md)" >&2
		exit 1
		;;
	esac
	sleep "$every"
done
