package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"hammersim"
	"hammersim/sim"
)

var outputFormats = []string{"table", "json", "csv", "markdown"}

// writeShards runs every shard of an n-way split of cmd into dir and
// returns the parts' paths.
func writeShards(t *testing.T, dir string, cmd []string, n int) []string {
	t.Helper()
	var paths []string
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("n%d-part%d", n, i))
		args := append(slices.Clone(cmd), "--shard", fmt.Sprintf("%d/%d", i, n), "-o", p)
		if out, _, err := runCLI(t, args...); err != nil || out != "" {
			t.Fatalf("%v: %v (stdout %q)", args, err, out)
		}
		paths = append(paths, p)
	}
	return paths
}

// shuffledWithDuplicates is the parts in a random order, two of them twice,
// as a retried task leaves them.
func shuffledWithDuplicates(rng *rand.Rand, paths []string) []string {
	out := append(slices.Clone(paths), paths[rng.IntN(len(paths))], paths[rng.IntN(len(paths))])
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// TestMergedShardsAreTheSingleRun: for built-ins of every kind (a charge
// sweep, a battle, a Heresy question, a comparison of attackers and one of
// scenario files), the shards of a split merge, in any order and with
// duplicates, to the very bytes of the run made on one machine, in every
// format, stamp and reproduce line included: every split from 1 to 16 for
// the charge sweep, and splits of 1, 2, 3, 7 and 16 (one shard, even and
// odd splits of the chunks, and empty shards) for the others.
func TestMergedShardsAreTheSingleRun(t *testing.T) {
	keySplits := []int{1, 2, 3, 7, 16}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml")
	os.WriteFile(a, []byte(swordsmen("swordsmen", 3)), 0o644)
	os.WriteFile(b, []byte(swordsmen("strong", 4)), 0o644)
	// Trial counts end in a short chunk, and are a few chunks long so
	// that larger splits have empty shards too.
	tests := []struct {
		cmd    []string
		splits []int
	}{
		{[]string{"run", "swiftstride-charge", "--trials", "65636", "--seed", "9"}, nil},
		{[]string{"run", "doomwheel-vs-clanrats", "--trials", "16484"}, keySplits},
		{[]string{"run", "firing-protocols", "--trials", "32868"}, keySplits},
		{[]string{"run", "firing-protocols", "--trials", "16484", "--metrics", "hits,casualties"}, []int{1, 3}},
		{[]string{"compare", "doomwheel-balance", "--by", "attacker", "--trials", "16484"}, keySplits},
		{[]string{"compare", a, b, "--trials", "20000"}, keySplits},
		{[]string{"compare", "doomwheel-balance", "--trials", "16484", "--metrics", "wounds,won"}, []int{1, 3}},
	}
	rng := rand.New(rand.NewPCG(12, 1))
	for _, tt := range tests {
		cmd := append(tt.cmd, "--workers", "2")
		want := map[string]string{}
		for _, format := range outputFormats {
			out, _, err := runCLI(t, append(slices.Clone(cmd), "--format", format)...)
			if err != nil {
				t.Fatalf("%v: %v", cmd, err)
			}
			want[format] = out
		}
		if i := slices.Index(cmd, "--metrics"); i >= 0 && !strings.Contains(want["json"], "--metrics "+cmd[i+1]) {
			t.Errorf("%v: the reproduce line leaves out --metrics:\n%s", cmd, want["json"])
		}
		splits := tt.splits
		if splits == nil {
			for n := 1; n <= 16; n++ {
				splits = append(splits, n)
			}
		}
		for _, n := range splits {
			parts := shuffledWithDuplicates(rng, writeShards(t, dir, cmd, n))
			// Every format renders the same merged tallies: all of them
			// for a few splits, JSON (every number) for the others.
			formats := outputFormats
			if !slices.Contains(keySplits, n) {
				formats = []string{"json"}
			}
			for _, format := range formats {
				got, _, err := runCLI(t, append([]string{"merge", "--format", format}, parts...)...)
				if err != nil {
					t.Fatalf("%v, %d shards, %s: %v", tt.cmd, n, format, err)
				}
				if got != want[format] {
					t.Errorf("%v, %d shards, %s: the merge differs from the single run\nmerged:\n%s\nsingle:\n%s", tt.cmd, n, format, got, want[format])
				}
			}
		}
	}
}

// TestMergedReportsAndPlots: report documents and plot files of a merge are
// the single run's, byte for byte, and a merge of merges is a merge.
func TestMergedReportsAndPlots(t *testing.T) {
	dir := t.TempDir()
	// Plots take most of the time: one case draws them (the Markdown
	// report writes its PNG files beside it), the other embeds its own.
	for _, tt := range []struct {
		cmd    []string
		report string
		plots  bool
	}{
		{[]string{"run", "firing-protocols", "--trials", "32868", "--workers", "2"}, "r.md", true},
		{[]string{"compare", "doomwheel-balance", "--trials", "16484", "--workers", "2"}, "r.html", false},
	} {
		single, merged := filepath.Join(dir, "single"), filepath.Join(dir, "merged")
		for _, d := range []string{single, merged} {
			os.RemoveAll(d)
			os.MkdirAll(d, 0o755)
		}
		outputs := func(d string) []string {
			o := []string{"--report", filepath.Join(d, tt.report), "-o", filepath.Join(d, "out.txt")}
			if tt.plots {
				o = append(o, "--plot", filepath.Join(d, "plots"))
			}
			return o
		}
		args := append(slices.Clone(tt.cmd), outputs(single)...)
		if _, _, err := runCLI(t, args...); err != nil {
			t.Fatal(err)
		}
		parts := writeShards(t, dir, tt.cmd, 4)
		// Halves merged first, each into a partial result.
		h1, h2 := filepath.Join(dir, "h1"), filepath.Join(dir, "h2")
		for h, ps := range map[string][]string{h1: {parts[0], parts[3]}, h2: {parts[1], parts[2], parts[1]}} {
			_, stderr, err := runCLI(t, append([]string{"merge", "--format", "partial", "-o", h}, ps...)...)
			if err != nil {
				t.Fatal(err)
			}
			// Each half says what the final merge will still need (which
			// shards, by how the run's chunks fall to them).
			if want := "simulate: note: this sum lacks "; !strings.Contains(stderr, want) || !strings.Contains(stderr, "which the final merge will need") {
				t.Errorf("merge %v --format partial: stderr %q, want a note beginning %q", ps, stderr, want)
			}
		}
		args = append([]string{"merge", h2, h1}, outputs(merged)...)
		if _, _, err := runCLI(t, args...); err != nil {
			t.Fatal(err)
		}
		sameTree(t, single, merged)
	}
}

// sameTree fails unless directories a and b hold the same files with the
// same bytes.
func sameTree(t *testing.T, a, b string) {
	t.Helper()
	files := func(root string) map[string][]byte {
		m := map[string][]byte{}
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(root, p)
				m[rel], _ = os.ReadFile(p)
			}
			return err
		})
		return m
	}
	fa, fb := files(a), files(b)
	if len(fa) < 2 || len(fa) != len(fb) {
		t.Fatalf("%s holds %d files, %s %d", a, len(fa), b, len(fb))
	}
	for name, data := range fa {
		if !bytes.Equal(data, fb[name]) {
			t.Errorf("%s differs between the single run and the merge", name)
		}
	}
}

func TestShardAndMergeErrors(t *testing.T) {
	dir := t.TempDir()
	cmd := []string{"run", "swiftstride-charge", "--trials", "65536"}
	parts := writeShards(t, dir, cmd, 4)
	foreign := writeShards(t, t.TempDir(), []string{"run", "swiftstride-charge", "--trials", "65536", "--seed", "2"}, 1)
	otherScenario := filepath.Join(dir, "other")
	if _, _, err := runCLI(t, "run", "charge-benchmark", "--trials", "65536", "--shard", "1/4", "-o", otherScenario); err != nil {
		t.Fatal(err)
	}
	otherTrials := writeShards(t, t.TempDir(), []string{"run", "swiftstride-charge", "--trials", "65537"}, 1)
	// Parts of another version of hammersim, and of another build of this
	// version (a binary rebuilt while tasks queued): a genuine part with
	// its version or build changed, written back with a checksum that
	// matches.
	otherVersion := filepath.Join(dir, "other-version")
	allOtherVersion := filepath.Join(dir, "all-other-version")
	otherBuild := filepath.Join(dir, "other-build")
	allOtherBuild := filepath.Join(dir, "all-other-build")
	// editedPart writes the merge of parts to path with its header
	// changed by edit, under a checksum that matches: a genuine part as
	// another build, version or flags would have written it.
	editedPart := func(path string, parts []string, edit func(*sim.PartHeader)) {
		var ps []sim.NamedPart
		for _, p := range parts {
			part, err := readPart(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			ps = append(ps, sim.NamedPart{Name: p, Part: part})
		}
		m, err := sim.Merge(ps)
		if err != nil {
			t.Fatal(err)
		}
		edit(&m.Header)
		var b bytes.Buffer
		if err := sim.WritePart(&b, m); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(path, b.Bytes(), 0o644)
	}
	otherVersionOf := func(h *sim.PartHeader) { h.Version = "0.0.9" }
	otherBuildOf := func(h *sim.PartHeader) { h.Build = "commit 0123abc" }
	editedPart(otherVersion, parts[1:2], otherVersionOf)
	editedPart(allOtherVersion, parts, otherVersionOf)
	editedPart(otherBuild, parts[1:2], otherBuildOf)
	editedPart(allOtherBuild, parts, otherBuildOf)
	// Parts whose recorded --metrics this hammersim does not have: bad
	// input (exit 1), not a bad command line.
	badMetrics := filepath.Join(dir, "bad-metrics")
	editedPart(badMetrics, parts, func(h *sim.PartHeader) { h.Flags = []sim.Flag{{Name: "metrics", Value: "no_such_metric"}} })
	// A part whose scenario text was changed with its SHA-256 kept and
	// its checksum line recomputed: named as changed, where the message
	// gave the two equal SHA-256s as different.
	editedSource := filepath.Join(dir, "edited-source")
	editSource := func(h *sim.PartHeader) {
		h.Inputs[0].Source = strings.Replace(h.Inputs[0].Source, "distance:", "distance: ", 1)
	}
	editedPart(editedSource, parts[1:2], editSource)
	// The same text changed alike in every part: the parts agree, and
	// the merge names them when it checks the text before rendering.
	editedHalves := []string{filepath.Join(dir, "edited-a"), filepath.Join(dir, "edited-b")}
	editedPart(editedHalves[0], parts[:2], editSource)
	editedPart(editedHalves[1], parts[2:], editSource)
	// The built-in's text changed in every part with its SHA-256 made
	// again to match: the parts agree with themselves, but the text is
	// not this build's, which the merge would reproduce as the built-in.
	forged := []string{filepath.Join(dir, "forged-a"), filepath.Join(dir, "forged-b")}
	forge := func(h *sim.PartHeader) {
		editSource(h)
		h.Inputs[0].SHA256 = fmt.Sprintf("%x", sha256.Sum256([]byte(h.Inputs[0].Source)))
	}
	editedPart(forged[0], parts[:2], forge)
	editedPart(forged[1], parts[2:], forge)
	good, _ := os.ReadFile(parts[1])
	truncated, corrupted := filepath.Join(dir, "truncated"), filepath.Join(dir, "corrupted")
	os.WriteFile(truncated, good[:len(good)-30], 0o644)
	bad := bytes.Clone(good)
	bad[200] ^= 0x20
	os.WriteFile(corrupted, bad, 0o644)

	t.Setenv("TASK_INDEX", "2")
	t.Setenv("BAD_INDEX", "x")
	tests := []struct {
		args  []string
		usage bool
		msg   string
	}{
		{[]string{"merge", parts[0], parts[3], parts[0]}, false, "2 of 4 shards missing: shards 1, 2 (rerun with --shard 1/4, --shard 2/4)"},
		{[]string{"merge", parts[0], parts[1], parts[2], foreign[0]}, false, foreign[0] + " is not a part of the same run as " + parts[0] + ": seed 2, not 1"},
		{[]string{"merge", parts[0], otherScenario}, false, otherScenario + " is not a part of the same run as " + parts[0] + ": command run charge-benchmark, not run swiftstride-charge"},
		{[]string{"merge", parts[0], otherTrials[0]}, false, otherTrials[0] + " is not a part of the same run as " + parts[0] + ": trials 65537, not 65536"},
		{[]string{"merge", parts[0], otherVersion}, false, "written by hammersim 0.0.9, not hammersim " + hammersim.Version},
		{[]string{"merge", allOtherVersion}, false, "the parts were written by hammersim 0.0.9, this is " + hammersim.Version},
		{[]string{"merge", parts[0], otherBuild}, false, otherBuild + " is not a part of the same run as " + parts[0] + ": written by another build of hammersim " + hammersim.Version + ": commit 0123abc, not " + buildID()},
		{[]string{"merge", allOtherBuild}, false, "the parts were written by another build of hammersim " + hammersim.Version + " (commit 0123abc), this is " + buildID() + ": merge with the binary that ran the shards"},
		// A partial merge, a stage of a larger one, too: the final merge
		// would refuse it.
		{[]string{"merge", "--format", "partial", "-o", filepath.Join(t.TempDir(), "p"), allOtherVersion}, false, "the parts were written by hammersim 0.0.9, this is " + hammersim.Version},
		{[]string{"merge", "--format", "partial", "--check", allOtherBuild}, false, "the parts were written by another build of hammersim " + hammersim.Version},
		{[]string{"merge", parts[0], editedSource}, false, editedSource + ": the scenario swiftstride-charge it carries does not match its SHA-256; the part was changed after it was written"},
		{[]string{"merge", editedSource, parts[0]}, false, editedSource + ": the scenario swiftstride-charge it carries does not match its SHA-256"},
		{[]string{"merge", forged[0], forged[1]}, false, forged[0] + " and the other part: the text they carry for the built-in scenario swiftstride-charge is not this build's; they were changed after they were written"},
		{[]string{"merge", editedHalves[0], editedHalves[1]}, false, editedHalves[0] + " and the other part: the scenario swiftstride-charge they carry does not match its SHA-256; they were changed after they were written"},
		{[]string{"merge", parts[0], truncated}, false, truncated + ": truncated"},
		{[]string{"merge", badMetrics}, false, "the parts' metrics: "},
		{[]string{"merge", parts[0], corrupted}, false, corrupted + ": corrupted"},
		{[]string{"merge", parts[0], filepath.Join(dir, "nope")}, false, "no such file"},
		{[]string{"merge"}, true, "merge needs the partial results"},
		{[]string{"merge", parts[0], "-"}, true, "merge reads partial results from files and folders, not standard input (-)"},
		{[]string{"merge", t.TempDir()}, false, "holds no partial results"},
		{[]string{"merge", "--format", "partial", "--plot", dir, parts[0]}, true, "--format partial writes a partial result"},
		// A comparison a merge could not render is refused before a
		// shard runs.
		{[]string{"compare", "charge-benchmark", "--shard", "0/4", "-o", filepath.Join(dir, "c0")}, true, `charge-benchmark has no swept parameter "unit"; it sweeps M, swiftstride, distance, table: name one with --by`},
		{[]string{"run", "--shard", "4/4"}, true, `--shard "4/4": expected I/N`},
		{[]string{"run", "--shard", "-1/4"}, true, `expected I/N`},
		{[]string{"run", "--shard", "3"}, true, `expected I/N`},
		{[]string{"run", "--shard", "0/4", "--precision", "0.01"}, true, "run once with --precision on one machine"},
		{[]string{"run", "--shard", "0/4", "--format", "json"}, true, "give --format to simulate merge"},
		{[]string{"compare", "doomwheel-balance", "--shard", "0/4", "--report", "x.html"}, true, "give --report to simulate merge"},
		{[]string{"run", "--shard-index-env", "TASK_INDEX"}, true, "needs --shard N"},
		{[]string{"run", "--shard-index-env", "TASK_INDEX", "--shard", "1/4"}, true, "takes the number of shards alone"},
		{[]string{"run", "--shard-index-env", "NO_SUCH_VARIABLE_SET", "--shard", "4"}, true, "NO_SUCH_VARIABLE_SET is not set"},
		{[]string{"run", "--shard-index-env", "BAD_INDEX", "--shard", "4"}, true, `BAD_INDEX is "x", not a shard index`},
	}
	for _, tt := range tests {
		_, _, err := runCLI(t, tt.args...)
		var u *usageError
		if err == nil || !strings.Contains(err.Error(), tt.msg) || errors.As(err, &u) != tt.usage {
			t.Errorf("%v: got %v (usage %v), want an error containing %q (usage %v)", tt.args, err, errors.As(err, &u), tt.msg, tt.usage)
		}
	}

	// A directory stands for the parts in it; a file being written (a
	// dot file) is left out.
	partsDir := filepath.Join(dir, "parts")
	os.Mkdir(partsDir, 0o755)
	for i, p := range parts {
		data, _ := os.ReadFile(p)
		os.WriteFile(filepath.Join(partsDir, fmt.Sprint("part-", i)), data, 0o644)
	}
	os.WriteFile(filepath.Join(partsDir, ".part-9.123.tmp"), []byte("half a part"), 0o644)
	fromDir, _, err := runCLI(t, "merge", "--format", "json", partsDir)
	single, _, err2 := runCLI(t, append(slices.Clone(cmd), "--format", "json")...)
	if err != nil || err2 != nil || fromDir != single {
		t.Errorf("merge DIR: %v, %v, same bytes as the single run: %v", err, err2, fromDir == single)
	}
	// A merge's own outputs written beside the parts are left out of the
	// next merge of the folder, and named on stderr; a merged partial
	// result is refused there, since the next merge would find it holding
	// the parts' chunks, and refuse them.
	if _, _, err := runCLI(t, "merge", partsDir, "-o", filepath.Join(partsDir, "result.txt"), "--report", filepath.Join(partsDir, "report.html")); err != nil {
		t.Fatal(err)
	}
	again, stderr, err := runCLI(t, "merge", "--format", "json", partsDir)
	if err != nil || again != single {
		t.Errorf("merge DIR after writing into it: %v, same bytes as the single run: %v", err, again == single)
	}
	if want := "left out of the merge, as not partial results: report.html, result.txt in " + partsDir; !strings.Contains(stderr, want) {
		t.Errorf("merge DIR with other files: stderr %q, want %q", stderr, want)
	}
	if _, _, err := runCLI(t, "merge", "--format", "partial", partsDir, "-o", filepath.Join(partsDir, "all")); err == nil || !strings.Contains(err.Error(), "would find it holding their chunks, and refuse them") {
		t.Errorf("merge DIR --format partial -o DIR/all: %v, want a refusal", err)
	}
	// Named on the command line, a file that is not a part is an error.
	if _, _, err := runCLI(t, "merge", parts[0], filepath.Join(partsDir, "result.txt")); err == nil || !strings.Contains(err.Error(), "not a hammersim partial result") {
		t.Errorf("merge PART result.txt: %v, want it refused as not a part", err)
	}
	// Entries that cannot be read as files are left out and named: a FIFO
	// (opening it would block the merge for ever) and a dangling link.
	fifo, stale := filepath.Join(partsDir, "zz-fifo"), filepath.Join(partsDir, "stale")
	if err := mkfifo(fifo); err == nil {
		os.Symlink(filepath.Join(dir, "no-such-file"), stale)
		done := make(chan struct{})
		var again, stderr string
		var err error
		go func() {
			defer close(done)
			again, stderr, err = runCLI(t, "merge", "--format", "json", partsDir)
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("merge DIR with a FIFO in it has not ended after 20 s")
		}
		if err != nil || again != single {
			t.Errorf("merge DIR with a FIFO and a dangling link: %v, same bytes as the single run: %v", err, again == single)
		}
		if want := "left out of the merge, as not readable files: stale (no such file or directory), zz-fifo (not a regular file) in " + partsDir; !strings.Contains(stderr, want) {
			t.Errorf("stderr %q, want %q", stderr, want)
		}
		os.Remove(fifo)
		os.Remove(stale)
	}
	// A folder in the folder is not read, and named: parts one level
	// down would otherwise be reported missing with no word of where.
	rack := filepath.Join(partsDir, "rack-2")
	os.Mkdir(rack, 0o755)
	if again, stderr, err := runCLI(t, "merge", "--format", "json", partsDir); err != nil || again != single ||
		!strings.Contains(stderr, "left out of the merge, as folders, which are not read (give each as an argument): rack-2 in "+partsDir) {
		t.Errorf("merge DIR with a folder in it: %v, same bytes as the single run %v, stderr %q", err, again == single, stderr)
	}
	os.Remove(rack)
	// An empty file in the folder is a shard stopped while its output was
	// redirected: an error, not a file to leave out.
	os.WriteFile(filepath.Join(partsDir, "part-9"), nil, 0o644)
	if _, _, err := runCLI(t, "merge", partsDir); err == nil || !strings.Contains(err.Error(), "empty, not a partial result") {
		t.Errorf("merge DIR with an empty part: %v, want it refused", err)
	}
	os.Remove(filepath.Join(partsDir, "part-9"))

	// The index from the environment: shard 2 of 4, the same bytes as
	// --shard 2/4.
	byEnv := filepath.Join(dir, "by-env")
	if _, _, err := runCLI(t, append(slices.Clone(cmd), "--shard-index-env", "TASK_INDEX", "--shard", "4", "-o", byEnv)...); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(byEnv)
	want, _ := os.ReadFile(parts[2])
	if !bytes.Equal(got, want) {
		t.Error("--shard-index-env TASK_INDEX=2 --shard 4 wrote another part than --shard 2/4")
	}
	// {shard} in -o names the file after the index, without a shell.
	if _, _, err := runCLI(t, append(slices.Clone(cmd), "--shard-index-env", "TASK_INDEX", "--shard", "4", "-o", filepath.Join(dir, "env-part-{shard}"))...); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "env-part-2")); !bytes.Equal(got, want) {
		t.Error("-o env-part-{shard} did not write env-part-2")
	}
	// A refusal of -o names the file the shard would write.
	missing := filepath.Join(dir, "no-such-dir", "part-{shard}")
	_, _, err = runCLI(t, append(slices.Clone(cmd), "--shard-index-env", "TASK_INDEX", "--shard", "4", "-o", missing)...)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "no-such-dir", "part-2")) {
		t.Errorf("-o in a missing folder: %v, want it named part-2", err)
	}
}

// TestPartFileNamesItsRun: the header of a part carries what the format
// documentation promises, in a form a person can read with head -2.
func TestPartFileNamesItsRun(t *testing.T) {
	out, _, err := runCLI(t, "compare", "doomwheel-balance", "--by", "attacker", "--trials", "20000", "--seed", "5", "--shard", "1/3")
	if err != nil {
		t.Fatal(err)
	}
	p, err := sim.ReadPart("stdout", strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	h := p.Header
	// 20,000 trials are 2 chunks of 16,384; shard 1 of 3 takes chunks
	// floor(2*1/3)=0 to floor(2*2/3)=1, the first.
	if h.Command != "compare" || !slices.Equal(h.Args, []string{"doomwheel-balance"}) || h.Seed != 5 || h.Trials != 20000 ||
		h.Shards != 3 || !h.Aligned || h.Batches != compareBatches || len(h.Inputs) != 1 || len(h.Inputs[0].SHA256) != 64 ||
		!slices.Equal(h.Flags, []sim.Flag{{Name: "by", Value: "attacker"}}) || !slices.Equal(p.Chunks, []sim.ChunkRange{{Lo: 0, Hi: 1}}) {
		t.Errorf("header %+v, chunks %v", h, p.Chunks)
	}
	// A test binary records no commit: its build is its executable's
	// SHA-256 (64 hex digits).
	if !regexp.MustCompile(`^sha256 [0-9a-f]{64}$`).MatchString(h.Build) {
		t.Errorf("build %q, want the test binary's SHA-256", h.Build)
	}
	if !strings.HasPrefix(out, "hammersim partial result, format 3\n{") {
		t.Errorf("part begins %q", out[:min(len(out), 60)])
	}
}

// TestInterruptedShardWritesNothing: a shard stopped by a signal leaves no
// part behind (a part must hold every chunk it names) and exits as an
// interruption does.
func TestInterruptedShardWritesNothing(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	path := filepath.Join(t.TempDir(), "part")
	var out, errb bytes.Buffer
	err := run(ctx, []string{"run", "swiftstride-charge", "--trials", "1000000000", "--shard", "0/2", "-o", path}, &out, &errb)
	if !errors.Is(err, errInterrupted) || !strings.Contains(err.Error(), "shard 0/2 wrote nothing") {
		t.Errorf("err = %v, want an interruption that names the shard", err)
	}
	if _, statErr := os.Stat(path); !errors.Is(statErr, os.ErrNotExist) {
		t.Errorf("an interrupted shard left %s (%v)", path, statErr)
	}
}

// TestShardsCarryTheirCatalogues: the unit catalogues a scenario read go
// into its parts, and the merge reads its cards from them: editing the
// catalogue after the shards ran changes nothing, a shard run against the
// edited catalogue is not a part of the same run, and the catalogue read
// is an input no output may overwrite.
func TestShardsCarryTheirCatalogues(t *testing.T) {
	dir := t.TempDir()
	units := filepath.Join(dir, "units.yaml")
	card := "ruleset: fantasy\nunits:\n  - {name: My Rats, troop: Infantry, profile: M5 WS3 S3 T3 W1 I4 A1 Ld5}\n"
	if err := os.WriteFile(units, []byte(card), 0o644); err != nil {
		t.Fatal(err)
	}
	scen := filepath.Join(dir, "rc.yaml")
	if err := os.WriteFile(scen, []byte("name: rc\nruleset: fantasy\ncharge: {unit: {use: My Rats}, distance: [8, 9]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := []string{"run", scen, "--trials", "40000", "--format", "json"}
	want, _, err := runCLI(t, cmd...)
	if err != nil {
		t.Fatal(err)
	}
	parts := writeShards(t, dir, cmd[:4], 2)
	// Another M: a shard run now reads another scenario.
	if err := os.WriteFile(units, []byte(strings.Replace(card, "M5", "M7", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	got, _, err := runCLI(t, append([]string{"merge", "--format", "json"}, parts...)...)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("merged after the catalogue changed:\n%s\nwant the run's:\n%s", got, want)
	}
	late := filepath.Join(dir, "late")
	if _, _, err := runCLI(t, append(slices.Clone(cmd[:4]), "--shard", "1/2", "-o", late)...); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCLI(t, "merge", parts[0], late); err == nil || !strings.Contains(err.Error(), "is not a part of the same run") {
		t.Errorf("shards of two catalogues merged: %v", err)
	}
	// The catalogue is an input: -o may not name it, in run or compare.
	before, _ := os.ReadFile(units)
	for _, args := range [][]string{{"run", scen}, {"compare", scen, "--by", "distance"}} {
		if _, _, err := runCLI(t, append(args, "--trials", "2000", "-o", units)...); err == nil || !strings.Contains(err.Error(), "names the input "+units) {
			t.Errorf("%v -o %s: %v", args, units, err)
		}
	}
	if after, _ := os.ReadFile(units); !bytes.Equal(after, before) {
		t.Error("the catalogue was overwritten")
	}
	// Nor in merge, which knows them from the parts: the scenario (the
	// merged output's reproduce line reads it), the catalogue, and a file
	// the scenario would read as a catalogue next time; nor with --check.
	// Each is refused before anything is written.
	scenBefore, _ := os.ReadFile(scen)
	for _, tt := range []struct{ out, want string }{
		{scen, "names " + scen + ", the scenario the parts were run from"},
		{units, "names " + units + ", a unit catalogue the parts' scenario read"},
		{filepath.Join(dir, "rc.units.yaml"), "would be read as a unit catalogue by " + scen + " next time"},
	} {
		for _, extra := range [][]string{nil, {"--check"}, {"--format", "partial"}, {"--format", "partial", "--check"}} {
			args := append(append([]string{"merge", "-o", tt.out}, parts...), extra...)
			if _, _, err := runCLI(t, args...); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%v: %v, want %q", args, err, tt.want)
			}
		}
	}
	if after, _ := os.ReadFile(units); !bytes.Equal(after, before) {
		t.Error("merge overwrote the catalogue")
	}
	if after, _ := os.ReadFile(scen); !bytes.Equal(after, scenBefore) {
		t.Error("merge overwrote the scenario")
	}
	if _, err := os.Stat(filepath.Join(dir, "rc.units.yaml")); err == nil {
		t.Error("merge wrote a file the scenario would read as a catalogue")
	}
}

// TestShardRefusesOversizedInputs: a shard whose scenario texts alone
// would fill more than half of what a merge reads (MaxPartBytes/2 + 1
// bytes here) is refused before it runs a trial. The texts are measured
// as the part writes them: a quote is two bytes there (\"), so 8 MiB of
// quotes in a scenario and 8 MiB in its catalogue fill 32 MiB, the most
// that passes, and one quote more does not.
func TestShardRefusesOversizedInputs(t *testing.T) {
	h := sim.PartHeader{Inputs: []sim.Input{{Source: strings.Repeat("x", sim.MaxPartBytes/2+1)}}}
	err := runShard(context.Background(), io.Discard, io.Discard, runFlags{}, nil, sim.Config{}, sim.Shard{Count: 1}, h)
	if err == nil || !strings.Contains(err.Error(), "come to 32 MiB as a part writes them (JSON text); a shard's part carries them whole") {
		t.Errorf("got %v", err)
	}
	quotes := strings.Repeat(`"`, 8<<20)
	h = sim.PartHeader{Inputs: []sim.Input{{Source: quotes, Catalogues: []sim.InputFile{{Source: quotes}}}}}
	if err := checkPartInputs(h); err != nil {
		t.Errorf("32 MiB as written: %v", err)
	}
	h.Inputs[0].Source += `"`
	if err := checkPartInputs(h); err == nil || !strings.Contains(err.Error(), "come to 32 MiB as a part writes them") {
		t.Errorf("32 MiB and 2 bytes as written, 16 MiB and 1 byte as read: %v", err)
	}
}

// TestShardRefusesOversizedSweeps: every part holds every point's tallies,
// a comparison's whole and in each of its 32 batches, so a comparison of a
// large sweep cannot be sharded however many shards there are. It is
// refused before it runs, --check included: 7,200 points (10 x 10 models,
// 36 distances, two candidates), each keeping the shooting question's 16
// slots whichever metrics it prints, take about 7,200 x 33 x (24 + 16 x
// 22) bytes, 85 MiB, before a single count (sim.PartSizeAtLeast counts
// them to the byte). The sweep without its firer's models swept, 720
// points and 8.5 MiB, passes.
func TestShardRefusesOversizedSweeps(t *testing.T) {
	dir := t.TempDir()
	ten := "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]"
	const marine = "WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Sv: 3+"
	src := `name: big
ruleset: heresy
shooting:
  firer: {name: Plasma, models: ` + ten + `, ` + marine + `,
          weapons: [{name: plasma gun, type: "Rapid Fire, Gets Hot", range: 36, S: 7, AP: 4, rules: [{Twin-linked: [false, true]}]}]}
  target: {name: Tactical, models: ` + ten + `, ` + marine + `}
  distance: 1..36
  metrics: [hits, casualties, gets_hot, morale_failed]
`
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := runCLI(t, "compare", big, "--by", "twin_linked", "--trials", "960", "--shard", "0/4", "-o", filepath.Join(dir, "p{shard}"), "--check")
	if err == nil || !strings.Contains(err.Error(), "the tallies of 7200 points, kept whole and in 32 batches for the comparison), and a merge reads parts of at most 64 MiB; every shard's part holds every point") {
		t.Errorf("a comparison of 7,200 points sharded: %v; want it refused before it runs", err)
	}
	small := filepath.Join(dir, "small.yaml")
	if err := os.WriteFile(small, []byte(strings.Replace(src, "models: "+ten+", "+marine+",\n          weapons", "models: 5, "+marine+",\n          weapons", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCLI(t, "compare", small, "--by", "twin_linked", "--trials", "960", "--shard", "0/4", "-o", filepath.Join(dir, "p{shard}"), "--check"); err != nil {
		t.Errorf("a comparison of 720 points sharded: %v", err)
	}
}

// TestEmptyShardIsNamed: a shard past the run's chunks still writes its
// part, which the merge needs, and says on stderr that it had nothing to
// run. 20,000 trials make two chunks of 16,384, so of three shards the
// first is empty (shard I takes chunks floor(2I/3) to floor(2(I+1)/3)).
func TestEmptyShardIsNamed(t *testing.T) {
	dir := t.TempDir()
	for i, empty := range []bool{true, false, false} {
		_, stderr, err := runCLI(t, "run", "charge-benchmark", "--trials", "20000", "--shard", fmt.Sprintf("%d/3", i), "-o", filepath.Join(dir, fmt.Sprint("part-", i)))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(stderr, fmt.Sprintf("shard %d/3 has no trials to run: 20000 trials make 2 chunk(s) of 16384", i)); got != empty {
			t.Errorf("shard %d/3: stderr %q; a note of an empty shard: %v, want %v", i, stderr, got, empty)
		}
	}
	if _, _, err := runCLI(t, "merge", dir); err != nil {
		t.Errorf("merge of the three parts: %v", err)
	}
}

// TestMergeComparisonReportIsHTML: compare writes its report as HTML and
// refuses --report FILE.md; a merge of a comparison's parts refuses it
// too (with and without --check), rather than write HTML into a .md file.
func TestMergeComparisonReportIsHTML(t *testing.T) {
	dir := t.TempDir()
	parts := writeShards(t, dir, []string{"compare", "doomwheel-balance", "--trials", "2000"}, 2)
	for _, extra := range [][]string{nil, {"--check"}} {
		args := append(append([]string{"merge"}, parts...), append([]string{"--report", filepath.Join(dir, "r.md")}, extra...)...)
		_, stderr, err := runCLI(t, args...)
		var u *usageError
		if !errors.As(err, &u) || !strings.Contains(stderr+err.Error(), "whose report is HTML") {
			t.Errorf("%v: %v (stderr %q); want a usage error", extra, err, stderr)
		}
		if _, statErr := os.Stat(filepath.Join(dir, "r.md")); statErr == nil {
			t.Fatalf("%v: r.md was written", extra)
		}
	}
}
