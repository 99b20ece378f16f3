package k8s

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// A Job's status at each look, as the Job controller writes it: running,
// then Complete (the controller adds SuccessCriteriaMet first), or Failed
// with the indexes that ran out of retries (FailureTarget first).
var (
	running  = batchv1.JobStatus{Active: 8}
	complete = batchv1.JobStatus{Succeeded: 8, Conditions: []batchv1.JobCondition{
		{Type: batchv1.JobSuccessCriteriaMet, Status: corev1.ConditionTrue, Reason: "CompletionsReached"},
		{Type: batchv1.JobComplete, Status: corev1.ConditionTrue, Reason: "CompletionsReached"},
	}}
	failed = batchv1.JobStatus{Succeeded: 6, Failed: 6, FailedIndexes: ptr("3,5"), Conditions: []batchv1.JobCondition{
		{Type: batchv1.JobFailureTarget, Status: corev1.ConditionTrue, Reason: "FailedIndexes"},
		{Type: batchv1.JobFailed, Status: corev1.ConditionTrue, Reason: "FailedIndexes"},
	}}
)

func ptr[T any](v T) *T { return &v }

// answers is what the script's three kubectl queries give for a status:
// the types of the conditions that hold, each followed by a space; the
// failed indexes; the Failed condition's reason.
func answers(s batchv1.JobStatus) (conditions, failedIndexes, reason string) {
	for _, c := range s.Conditions {
		if c.Status == corev1.ConditionTrue {
			conditions += string(c.Type) + " "
		}
		if c.Type == batchv1.JobFailed {
			reason = c.Reason
		}
	}
	if s.FailedIndexes != nil {
		failedIndexes = *s.FailedIndexes
	}
	return conditions, failedIndexes, reason
}

// fakeKubectl answers `kubectl get job hammersim-shards -o jsonpath=...`
// from files: each look at the conditions moves to the next status, and
// the follow-up queries read the status of the last look. A look past the
// last status fails, as a script that waited on would.
const fakeKubectl = `#!/bin/sh
dir=$(dirname "$0")
[ "$1 $2 $3 $4" = "get job hammersim-shards -o" ] || { echo "kubectl: unexpected $*" >&2; exit 2; }
case "$5" in
*failedIndexes*) cat "$dir/look-$(cat "$dir/n")-failed" ;;
*'@.type=="Failed"'*) cat "$dir/look-$(cat "$dir/n")-reason" ;;
*)
	n=$(($(cat "$dir/n") + 1))
	echo "$n" >"$dir/n"
	[ -f "$dir/look-$n-conditions" ] || { echo "kubectl: looked $n times" >&2; exit 3; }
	cat "$dir/look-$n-conditions"
	;;
esac
`

// TestWaitShards: wait-shards.sh goes on while the Job runs and ends at
// Complete (exit 0) or at Failed (exit 1, naming the failed indexes):
// a Failed Job, which never becomes Complete, must not keep it waiting.
func TestWaitShards(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	script, err := filepath.Abs("wait-shards.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		looks  []batchv1.JobStatus
		code   int
		stdout string
		stderr string
	}{
		{"complete", []batchv1.JobStatus{running, running, complete}, 0, "job/hammersim-shards: Complete", ""},
		{"failed", []batchv1.JobStatus{running, failed}, 1, "", "job/hammersim-shards: Failed (FailedIndexes); failed indexes: 3,5."},
		{"failed at once", []batchv1.JobStatus{failed}, 1, "", "failed indexes: 3,5."},
	} {
		dir := t.TempDir()
		write := func(name, text string) {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		write("kubectl", fakeKubectl)
		write("n", "0")
		for i, s := range tc.looks {
			c, f, r := answers(s)
			write(fmt.Sprintf("look-%d-conditions", i+1), c)
			write(fmt.Sprintf("look-%d-failed", i+1), f)
			write(fmt.Sprintf("look-%d-reason", i+1), r)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, "sh", script, "hammersim-shards", "0")
		cmd.Env = append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"))
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		cancel()
		code := 0
		if exit, ok := errors.AsType[*exec.ExitError](err); ok {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		n, _ := os.ReadFile(filepath.Join(dir, "n"))
		if code != tc.code || !strings.Contains(stdout.String(), tc.stdout) || !strings.Contains(stderr.String(), tc.stderr) ||
			strings.TrimSpace(string(n)) != fmt.Sprint(len(tc.looks)) {
			t.Errorf("%s: exit %d after %s looks, stdout %q, stderr %q; want exit %d after %d looks, %q, %q",
				tc.name, code, bytes.TrimSpace(n), &stdout, &stderr, tc.code, len(tc.looks), tc.stdout, tc.stderr)
		}
	}
}

// TestWaitShardsQueries: the script's jsonpath queries give, on a real
// kubectl, the answers the fake above gives. kubectl evaluates jsonpath
// without a cluster when it prints an object it was given locally.
func TestWaitShardsQueries(t *testing.T) {
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("no kubectl: the queries are checked where it is installed")
	}
	src, err := os.ReadFile("wait-shards.sh")
	if err != nil {
		t.Fatal(err)
	}
	var queries []string
	for _, m := range regexp.MustCompile(`-o '(jsonpath=[^']*)'`).FindAllStringSubmatch(string(src), -1) {
		queries = append(queries, m[1])
	}
	if len(queries) != 3 {
		t.Fatalf("found %d queries in wait-shards.sh, want 3 (conditions, failed indexes, reason): %q", len(queries), queries)
	}
	for _, s := range []batchv1.JobStatus{running, complete, failed} {
		job := batchv1.Job{TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
			ObjectMeta: metav1.ObjectMeta{Name: "hammersim-shards"}, Status: s}
		b, err := yaml.Marshal(job)
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), "job.yaml")
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
		c, f, r := answers(s)
		for i, want := range []string{c, f, r} {
			out, err := exec.Command(kubectl, "label", "--local", "-f", file, "probe=1", "-o", queries[i]).CombinedOutput()
			if err != nil || string(out) != want {
				t.Errorf("%s on %+v: %q (%v), want %q", queries[i], s, out, err, want)
			}
		}
	}
}
