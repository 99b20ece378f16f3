package k8s

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// decodeStrict decodes a manifest into v, refusing any field the API type
// does not have (a misspelt or misplaced key would otherwise be dropped
// silently, by kubectl as well as here).
func decodeStrict(t *testing.T, file string, v any) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(src, v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}

type manifests struct {
	pvc           corev1.PersistentVolumeClaim
	shards, merge batchv1.Job
}

func load(t *testing.T) manifests {
	var m manifests
	decodeStrict(t, "pvc.yaml", &m.pvc)
	decodeStrict(t, "shards-job.yaml", &m.shards)
	decodeStrict(t, "merge-job.yaml", &m.merge)
	return m
}

// TestStrictDecodingCatchesMistakes: the strict decoder is what the other
// tests rely on; a misplaced key must fail it.
func TestStrictDecodingCatchesMistakes(t *testing.T) {
	var j batchv1.Job
	bad := []byte("apiVersion: batch/v1\nkind: Job\nspec:\n  completionMod: Indexed\n")
	if err := yaml.UnmarshalStrict(bad, &j); err == nil || !strings.Contains(err.Error(), "completionMod") {
		t.Errorf("a misspelt key decoded: %v", err)
	}
}

func TestManifests(t *testing.T) {
	m := load(t)
	if m.pvc.Kind != "PersistentVolumeClaim" || m.shards.Kind != "Job" || m.merge.Kind != "Job" {
		t.Fatalf("kinds %s, %s, %s", m.pvc.Kind, m.shards.Kind, m.merge.Kind)
	}
	if !slices.Contains(m.pvc.Spec.AccessModes, corev1.ReadWriteMany) {
		t.Error("the shared volume is not ReadWriteMany: shards on several nodes could not write to it")
	}
	s := m.shards.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion || s.Completions == nil || s.Parallelism == nil {
		t.Fatal("the shards Job is not an Indexed Job with completions and parallelism")
	}
	c := s.Template.Spec.Containers[0]
	n := shardCount(t, c.Args)
	if int(*s.Completions) != n || int(*s.Parallelism) > n {
		t.Errorf("completions %d, parallelism %d, --shard %d: they must agree", *s.Completions, *s.Parallelism, n)
	}
	if s.BackoffLimitPerIndex == nil {
		t.Error("no backoffLimitPerIndex: one failed index would fail the whole Job")
	}
	env := c.Env[slices.IndexFunc(c.Env, func(e corev1.EnvVar) bool { return e.Name == "JOB_COMPLETION_INDEX" })]
	if env.ValueFrom == nil || env.ValueFrom.FieldRef == nil ||
		env.ValueFrom.FieldRef.FieldPath != "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
		t.Errorf("JOB_COMPLETION_INDEX does not come from the completion index annotation: %+v", env)
	}
	for _, j := range []batchv1.Job{m.shards, m.merge} {
		ps := j.Spec.Template.Spec
		if ps.RestartPolicy != corev1.RestartPolicyNever {
			t.Errorf("%s: restartPolicy %q; a retry must be a new pod, counted by the Job", j.Name, ps.RestartPolicy)
		}
		if len(ps.Volumes) != 1 || ps.Volumes[0].PersistentVolumeClaim == nil || ps.Volumes[0].PersistentVolumeClaim.ClaimName != m.pvc.Name {
			t.Errorf("%s does not mount the claim %s", j.Name, m.pvc.Name)
		}
		if ps.Containers[0].Image != c.Image {
			t.Errorf("%s runs %s, the shards %s", j.Name, ps.Containers[0].Image, c.Image)
		}
	}
}

func shardCount(t *testing.T, args []string) int {
	t.Helper()
	i := slices.Index(args, "--shard")
	var n int
	if i < 0 || i+1 >= len(args) || slices.Index(args, "--shard-index-env") < 0 {
		t.Fatalf("the shards run no --shard-index-env JOB_COMPLETION_INDEX --shard N: %q", args)
	}
	if _, err := fmt.Sscan(args[i+1], &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestShardsAndMergeByHand runs what the pods would run: each shard's
// command with JOB_COMPLETION_INDEX set by hand and its $(VAR) references
// expanded as the kubelet does, then the merge's, with every volume mount
// mapped to a directory; the result must be the single run's bytes. The
// trial count is cut down to keep the test short.
func TestShardsAndMergeByHand(t *testing.T) {
	m := load(t)
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "simulate")
	build := exec.Command("go", "build", "-o", bin, "./cmd/simulate")
	build.Dir = "../.."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building simulate: %v\n%s", err, out)
	}
	const trials = "70000" // 5 chunks of 16,384, the last one short
	shard := m.shards.Spec.Template.Spec.Containers[0]
	n := int(*m.shards.Spec.Completions)
	merge := m.merge.Spec.Template.Spec.Containers[0]
	// The check docs/scale-out.md gives before the Jobs are applied: the
	// first pod's command, and the merge's without its parts (none exist
	// yet), each with --check, pass.
	env0 := []string{"JOB_COMPLETION_INDEX=0"}
	run(t, bin, append(podArgs(t, shard, env0, tmp), "--check"), env0)
	run(t, bin, append(withoutParts(podArgs(t, merge, nil, tmp), filepath.Join(tmp, "parts")), "--check"), nil)
	for i := range n {
		env := []string{fmt.Sprint("JOB_COMPLETION_INDEX=", i)}
		args := podArgs(t, shard, env, tmp)
		args[slices.Index(args, "--trials")+1] = trials
		run(t, bin, args, env)
	}
	run(t, bin, podArgs(t, merge, nil, tmp), nil)
	got, err := os.ReadFile(filepath.Join(tmp, "result", "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The single run: the shards' command without the shard and output
	// flags, and the merge's format.
	single := []string{"run", "charge-benchmark", "--trials", trials, "--seed", "1", "--format", "json"}
	if want := run(t, bin, single, nil); !bytes.Equal(got, want) {
		t.Errorf("the merged result differs from %v", single)
	}

	// A lost index: the merge names it.
	os.Remove(filepath.Join(tmp, "parts", "part-3"))
	cmd := exec.Command(bin, podArgs(t, merge, nil, tmp)...)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), fmt.Sprintf("shard 3 (rerun with --shard 3/%d)", n)) {
		t.Errorf("merge without part 3: %v\n%s", err, out)
	}
}

// withoutParts is a merge's command line without the argument naming the
// folder of parts.
func withoutParts(args []string, parts string) []string {
	return slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a == parts })
}

var varRef = regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`)

// podArgs is a container's command line as it would run: $(VAR) expanded
// from env (the kubelet expands variables the container declares), and
// paths under a volume mount mapped to the mount's subPath under root.
func podArgs(t *testing.T, c corev1.Container, env []string, root string) []string {
	t.Helper()
	vars := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	var args []string
	for _, a := range c.Args {
		a = varRef.ReplaceAllStringFunc(a, func(ref string) string {
			if v, ok := vars[ref[2:len(ref)-1]]; ok {
				return v
			}
			return ref
		})
		for _, vm := range c.VolumeMounts {
			if a == vm.MountPath || strings.HasPrefix(a, vm.MountPath+"/") {
				host := filepath.Join(root, vm.SubPath)
				os.MkdirAll(host, 0o755) // the kubelet makes a missing subPath
				a = host + strings.TrimPrefix(a, vm.MountPath)
			}
		}
		args = append(args, a)
	}
	return args
}

func run(t *testing.T, bin string, args, env []string) []byte {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("simulate %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}
