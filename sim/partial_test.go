package sim

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"hammersim/mechanics/dice"
)

func testHeader() PartHeader {
	return PartHeader{Program: "hammersim", Version: "test", Build: "commit 0123", Command: "run", Args: []string{"x"},
		Inputs: []Input{{Name: "x", File: "x.yaml", SHA256: strings.Repeat("0", 64), Source: "name: x\n"}}}
}

func testGroups() [][]Model {
	return [][]Model{{rollModel{dice.MustParse("2D6")}, rollModel{dice.MustParse("D6+D3")}}, {rollModel{dice.MustParse("3D6")}}}
}

// shardParts runs every shard of an n-way split and reads each back from
// its file bytes.
func shardParts(t testing.TB, cfg Config, n int) ([]NamedPart, [][]byte) {
	t.Helper()
	var parts []NamedPart
	var files [][]byte
	for i := range n {
		p, err := RunShard(context.Background(), testGroups(), cfg, Shard{i, n}, testHeader())
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WritePart(&b, p); err != nil {
			t.Fatal(err)
		}
		files = append(files, b.Bytes())
		name := fmt.Sprintf("part%d", i)
		back, err := ReadPart(name, bytes.NewReader(b.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, NamedPart{name, back})
	}
	return parts, files
}

// TestShardsMergeToTheWholeRun: for every split from 1 to 16 shards, the
// shards' parts, written, read back, shuffled and with duplicates, merge to
// the very tallies of one run on one machine, batches included; so do the
// merges of two halves of the shards, themselves written and read back.
func TestShardsMergeToTheWholeRun(t *testing.T) {
	// 5 chunks and a short one: fewer chunks than shards from N = 7 on, so
	// empty shards are covered too.
	cfg := Config{Trials: 5*ChunkSize + 1000, Seed: 42, Workers: 2, Aligned: true, Batches: 4}
	var whole []Run
	for _, g := range testGroups() {
		r, err := RunAll(context.Background(), g, cfg)
		if err != nil {
			t.Fatal(err)
		}
		whole = append(whole, r)
	}
	want := WholeRun(testHeader(), cfg, whole...)
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 16; n++ {
		parts, _ := shardParts(t, cfg, n)
		rng.Shuffle(n, func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
		// A merge of merges: the shards in two halves, each merged and
		// written first.
		if n >= 2 {
			h1, err1 := Merge(parts[:n/2])
			h2, err2 := Merge(parts[n/2:])
			if err1 != nil || err2 != nil {
				t.Fatalf("N=%d: halves: %v, %v", n, err1, err2)
			}
			again, err := Merge([]NamedPart{{"h1", roundTrip(t, h1)}, {"h2", roundTrip(t, h2)}})
			if err != nil {
				t.Fatalf("N=%d: merge of merges: %v", n, err)
			}
			if err := again.Complete(); err != nil || !sameTallies(again, want) {
				t.Errorf("N=%d: merge of merges differs from the whole run (%v)", n, err)
			}
		}
		parts = append(parts, parts[rng.IntN(n)], parts[rng.IntN(n)])
		rng.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
		got, err := Merge(parts)
		if err != nil {
			t.Fatalf("N=%d: %v", n, err)
		}
		if err := got.Complete(); err != nil {
			t.Fatalf("N=%d: %v", n, err)
		}
		if !sameTallies(got, want) || len(got.Chunks) != 1 || got.Chunks[0] != want.Chunks[0] {
			t.Errorf("N=%d: merged shards differ from the whole run", n)
		}
	}
}

// TestTallyDigestIsSameTallies: a merge tells a copy of a part from a
// part that claims its chunks by their digests, which must agree with
// sameTallies: equal for every pair that holds equal tallies (written and
// read back, whatever the worker count, empty histograms whatever their
// min), different for every pair that does not (other shards, other seeds,
// one count moved, an extra trial, an interrupted run).
func TestTallyDigestIsSameTallies(t *testing.T) {
	cfg := Config{Trials: 3 * ChunkSize, Seed: 5, Workers: 1, Aligned: true, Batches: 4}
	var all []*Part
	for _, seed := range []uint64{5, 6} {
		c := cfg
		c.Seed = seed
		parts, _ := shardParts(t, c, 3)
		for _, p := range parts {
			all = append(all, p.Part, roundTrip(t, p.Part))
		}
	}
	moreWorkers := cfg
	moreWorkers.Workers = 3
	again, _ := shardParts(t, moreWorkers, 3)
	all = append(all, again[0].Part)
	// One count moved from one value to the next: the same trials.
	moved := roundTrip(t, all[0])
	h := &moved.Runs[0].Tallies[0].H[0]
	h.counts = slices.Clone(h.counts)
	i := slices.IndexFunc(h.counts, func(c int64) bool { return c > 0 })
	h.counts[i]--
	h.counts[i+1]++
	interrupted := roundTrip(t, all[0])
	interrupted.Interrupted = true
	// An empty histogram keeps its min; Equal ignores it.
	emptyA, emptyB := roundTrip(t, all[0]), roundTrip(t, all[0])
	emptyA.Runs[0].Tallies = append(emptyA.Runs[0].Tallies, &Tally{H: []Histogram{{min: 3}}})
	emptyB.Runs[0].Tallies = append(emptyB.Runs[0].Tallies, &Tally{H: []Histogram{{min: -2, counts: []int64{0, 0}}}})
	extra := roundTrip(t, all[0])
	extra.Runs[0].Completed = slices.Clone(extra.Runs[0].Completed)
	extra.Runs[0].Completed[0]++
	all = append(all, moved, interrupted, emptyA, emptyB, extra)
	equal := 0
	for _, a := range all {
		for _, b := range all {
			same := sameTallies(a, b)
			if same != (tallyDigest(a) == tallyDigest(b)) {
				t.Errorf("sameTallies %v, but digests equal %v", same, !same)
			}
			if same && a != b {
				equal++
			}
		}
	}
	// Each of the 6 shards is equal to its read-back copy (12 ordered
	// pairs), shard 0 of seed 5 to the run with 3 workers (and its copy:
	// 4 more pairs), and the two parts with an empty histogram to each
	// other (2 pairs).
	if equal != 12+4+2 {
		t.Errorf("%d ordered pairs of distinct parts hold equal tallies, want 18", equal)
	}
}

func roundTrip(t *testing.T, p *Part) *Part {
	t.Helper()
	var b bytes.Buffer
	if err := WritePart(&b, p); err != nil {
		t.Fatal(err)
	}
	back, err := ReadPart("rt", &b)
	if err != nil {
		t.Fatal(err)
	}
	return back
}

func TestShardChunks(t *testing.T) {
	// 10 chunks in 4 shards: floor(10i/4) for i = 0..4 gives 0, 2, 5, 7, 10.
	trials := int64(10 * ChunkSize)
	want := []ChunkRange{{0, 2}, {2, 5}, {5, 7}, {7, 10}}
	for i, w := range want {
		if lo, hi := (Shard{i, 4}).Chunks(trials); lo != w.Lo || hi != w.Hi {
			t.Errorf("shard %d/4: %d-%d, want %d-%d", i, lo, hi, w.Lo, w.Hi)
		}
	}
	// The largest run and split must not overflow: the last shard ends at
	// the last chunk.
	big := int64(1<<63 - 1)
	if _, hi := (Shard{MaxShards - 1, MaxShards}).Chunks(big); hi != Chunks(big) {
		t.Errorf("last shard of the largest run ends at %d, want %d", hi, Chunks(big))
	}
}

func TestMergeErrors(t *testing.T) {
	cfg := Config{Trials: 4 * ChunkSize, Seed: 7, Workers: 1}
	parts, files := shardParts(t, cfg, 4)
	other := cfg
	other.Seed = 8
	foreign, _ := shardParts(t, other, 4)
	otherSplit, _ := shardParts(t, cfg, 2)
	first2, err := Merge(parts[:2])
	if err != nil {
		t.Fatal(err)
	}

	merged, err := Merge([]NamedPart{parts[0], parts[2], parts[2]})
	if err != nil {
		t.Fatal(err)
	}
	if err := merged.Complete(); err == nil || !strings.Contains(err.Error(), "shards 1, 3 (rerun with --shard 1/4, --shard 3/4)") {
		t.Errorf("missing shards: %v", err)
	}
	// Four chunks over six shards: shards 0 and 3 run none (chunks
	// floor(I*4/6) to floor((I+1)*4/6)-1), and their parts are not needed;
	// without shard 5's, it alone is missing, of all six.
	six, _ := shardParts(t, cfg, 6)
	if m, err := Merge([]NamedPart{six[1], six[2], six[4], six[5]}); err != nil || m.Complete() != nil {
		t.Errorf("the parts of the shards that hold chunks: %v, %v", err, m.Complete())
	}
	if m, err := Merge([]NamedPart{six[1], six[2], six[4]}); err != nil || m.Complete() == nil || m.Complete().Error() != "1 of 6 shards missing: shard 5 (rerun with --shard 5/6)" {
		t.Errorf("shard 5 left out: %v, %v", err, m.Complete())
	}
	for _, tt := range []struct {
		name  string
		parts []NamedPart
		want  string
	}{
		{"foreign seed", []NamedPart{parts[0], foreign[1]}, "part1 is not a part of the same run as part0: seed 8, not 7"},
		{"other split", []NamedPart{parts[0], otherSplit[1]}, "cut into 2 shards"},
		{"overlap", []NamedPart{{"first2", first2}, parts[1]}, "first2 and part1 both hold chunks 1"},
		{"same chunks, other tallies", []NamedPart{parts[1], {"fake", foreign[1].Part}}, ""},
		{"other build", []NamedPart{parts[0], {"rebuilt", parts[1].Part}}, ""},
		{"other flags", []NamedPart{parts[0], {"metrics", parts[1].Part}}, ""},
	} {
		if tt.name == "other flags" {
			// Flags are named as a command line gives them.
			flagged := *parts[1].Part
			flagged.Header.Flags = []Flag{{"metrics", "hits"}, {"by", "distance"}}
			tt.parts[1].Part = &flagged
			tt.want = "metrics is not a part of the same run as part0: flags --metrics hits --by distance, not none"
		}
		if tt.name == "other build" {
			// The same chunks of the same run, written by another binary
			// of the same version.
			rebuilt := *parts[1].Part
			rebuilt.Header.Build = "commit 1234"
			tt.parts[1].Part = &rebuilt
			tt.want = "rebuilt is not a part of the same run as part0: written by another build of hammersim test: commit 1234, not commit 0123"
		}
		if tt.name == "same chunks, other tallies" {
			// A part that claims the same chunks with other counts: give
			// the foreign part this run's header to get past the header
			// check.
			fake := *foreign[1].Part
			fake.Header = parts[1].Header
			tt.parts[1].Part, tt.want = &fake, "with different tallies"
		}
		if _, err := Merge(tt.parts); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error containing %q", tt.name, err, tt.want)
		}
	}

	good := files[1]
	flipped := bytes.Clone(good)
	flipped[len(partMagic)+20] ^= 1
	for _, tt := range []struct {
		name string
		file []byte
		want string
	}{
		{"truncated", good[:len(good)/2], "truncated"},
		{"no final newline", good[:len(good)-1], "truncated"},
		{"corrupted", flipped, "corrupted: its contents do not match its checksum"},
		// A copy made in text mode on Windows: CR LF line ends, which
		// are not another version's format.
		{"CR LF", bytes.ReplaceAll(good, []byte("\n"), []byte("\r\n")), "corrupted: its lines end in CR LF"},
		// Bytes added after a whole part are not a part cut short.
		{"bytes added", append(bytes.Clone(good), "extra\n"...), "corrupted: 6 bytes follow its checksum line"},
		{"bytes added, no newline", append(bytes.Clone(good), "x"...), "corrupted: 1 byte follows its checksum line"},
		// Two parts joined: the second's checksum does not cover the first.
		{"two parts joined", append(bytes.Clone(good), good...), "corrupted: its contents do not match its checksum"},
		{"not a part", []byte("name: x\nruleset: fantasy\n"), "not a hammersim partial result"},
		{"empty", nil, "empty, not a partial result: its shard wrote nothing"},
		{"future format", bytes.Replace(good, []byte("format 3"), []byte("format 4"), 1), `format "4"; this hammersim reads format 3`},
		{"format 2, whose headers named no build", bytes.Replace(good, []byte("format 3"), []byte("format 2"), 1), `format "2"; this hammersim reads format 3`},
		{"format 1, whose inputs had no catalogues", bytes.Replace(good, []byte("format 3"), []byte("format 1"), 1), `format "1"; this hammersim reads format 3`},
	} {
		if _, err := ReadPart(tt.name, bytes.NewReader(tt.file)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error containing %q", tt.name, err, tt.want)
		}
	}
}

// TestMissingShardsAsRanges: a merge that lacks many shards of a large
// split names them as ranges, in a line a person can read and a job
// array's index list can take, instead of one index and one flag each.
func TestMissingShardsAsRanges(t *testing.T) {
	// One chunk a shard: shard i holds chunk i.
	h := testHeader()
	h.Shards, h.Trials, h.ChunkSize = MaxShards, MaxShards*ChunkSize, ChunkSize
	p := &Part{Header: h, Chunks: []ChunkRange{{0, 2}, {3, 5}, {1005, 2000}, {2002, MaxShards}}}
	want := "1003 of 65536 shards missing: shards 2, 5-1004, 2000, 2001 (rerun each with --shard I/65536)"
	if err := p.Complete(); err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	// Up to four are named with their flags, a run of three as a range.
	p.Chunks = []ChunkRange{{0, 2}, {5, MaxShards}}
	want = "3 of 65536 shards missing: shards 2-4 (rerun with --shard 2/65536, --shard 3/65536, --shard 4/65536)"
	if err := p.Complete(); err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	// Every other shard: 32,768 ranges of one, of which the first 100 are
	// listed (0, 2, ..., 198) and the 32,668 after them counted.
	p.Chunks = nil
	for lo := int64(1); lo < MaxShards; lo += 2 {
		p.Chunks = append(p.Chunks, ChunkRange{lo, lo + 1})
	}
	err := p.Complete()
	if err == nil || !strings.HasPrefix(err.Error(), "32768 of 65536 shards missing: shards 0, 2, 4, ") ||
		!strings.HasSuffix(err.Error(), ", 196, 198 and 32668 more (rerun each with --shard I/65536)") {
		t.Errorf("got %.200v", err)
	}
}

// TestMissingShardsOfManyRanges: the missing shards of a part of a
// million ranges (a crafted part of 17 MB) are found in one pass over
// shards and ranges together, where testing each shard against every
// range took minutes. Every range is one chunk, and every shard of
// 10^12 trials (931 or 932 chunks) holds more than one, so all 65,536 are
// missing.
func TestMissingShardsOfManyRanges(t *testing.T) {
	h := testHeader()
	h.Shards, h.Trials, h.ChunkSize = MaxShards, MaxTrials, ChunkSize
	p := &Part{Header: h}
	for k := range int64(1_000_000) {
		p.Chunks = append(p.Chunks, ChunkRange{2 * k, 2*k + 1})
	}
	start := time.Now()
	miss := p.Missing()
	if len(miss) != MaxShards {
		t.Errorf("%d shards missing, want all %d", len(miss), MaxShards)
	}
	// The pass takes milliseconds; a second leaves room for a loaded
	// machine, and the quadratic walk took over a minute.
	if d := time.Since(start); d > time.Second {
		t.Errorf("finding the missing shards took %v", d)
	}
}

// TestReadPartChecksContents: a file with a valid checksum but contents
// that contradict themselves (hand-edited, then re-summed) is refused.
func TestReadPartChecksContents(t *testing.T) {
	cfg := Config{Trials: 4 * ChunkSize, Seed: 7, Workers: 1}
	_, files := shardParts(t, cfg, 4)
	resum := func(b []byte) []byte {
		body := b[:bytes.LastIndex(b[:len(b)-1], []byte("\n"))+1]
		return append(bytes.Clone(body), fmt.Sprintf("sha256 %x\n", sha256.Sum256(body))...)
	}
	for _, tt := range []struct {
		name, old, new, want string
	}{
		{"chunks beyond the run", `"chunks":[[1,2]]`, `"chunks":[[1,9]]`, "inside the run's 4 chunks"},
		{"trials off", `{"trials":16384,`, `{"trials":16383,`, "holds 16383 trials"},
		{"unknown field", `"workers":1`, `"workers":1,"extra":0`, "unknown field"},
		{"negative count", `"counts":[`, `"counts":[-1,`, "below 0"},
		{"count overflow", `"counts":[`, `"counts":[9223372036854775807,`, "beyond 64 bits"},
		{"negative workers", `"workers":1`, `"workers":-1`, "workers -1: expected 0 or more"},
		// Past the most a run may ask for (MaxTrials, 10^12): a merge
		// would report it, and print a reproduce line run refuses.
		{"trials past the bound", `"trials":65536`, `"trials":1000000000001`, "trials 1000000000001: expected 1 to 1000000000000"},
		// Counts that trials cannot have made: more observations in a
		// slot than trials (a trial makes at most one).
		{"counts past the trials", `"counts":[`, `"counts":[1000000000000000,`, "observations in 16384 trials; a trial makes at most one"},
		// encoding/json would read the last of a key given twice, in
		// any case, or spelt with escapes.
		// The data line opens {"chunks":[[1,2]],"workers":1, (30 bytes):
		// the second key begins at byte 30, counted from 0.
		{"key twice", `"workers":1`, `"workers":1,"workers":1`, `data: at byte 30 of the line: key "workers" given twice in one object`},
		{"key twice, other case", `"workers":1`, `"workers":1,"Workers":1`, `key "Workers" given twice in one object`},
		{"key twice, escaped", `"workers":1`, `"workers":1,"\u0077orkers":1`, `key "workers" given twice in one object`},
		{"header key twice", `"seed":`, `"seed":7,"seed":`, `header: at byte `},
		// A value of the wrong type is named by its key, not Go's names.
		{"wrong type", `"workers":1`, `"workers":"1"`, `"workers" is string, not a whole number in range`},
		// encoding/json drops the numbers past a Go array's length.
		{"chunk of three numbers", `"chunks":[[1,2]]`, `"chunks":[[1,2,3]]`, `chunk range [1 2 3]: expected a pair of numbers`},
		// A closing bracket after the value (json.Decoder.More says
		// there is no more).
		{"bracket after the data", "}\nsha256 ", "} }\nsha256 ", "data: unexpected data after the JSON value"},
		{"chunk of one number", `"chunks":[[1,2]]`, `"chunks":[[1]]`, `chunk range [1]: expected a pair of numbers`},
	} {
		b := bytes.Replace(files[1], []byte(tt.old), []byte(tt.new), 1)
		if bytes.Equal(b, files[1]) {
			t.Fatalf("%s: %q not found in the part", tt.name, tt.old)
		}
		if _, err := ReadPart(tt.name, bytes.NewReader(resum(b))); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error containing %q", tt.name, err, tt.want)
		}
	}
	// A histogram's first value at the top of an int: its last value,
	// Min + len(counts) - 1, must not wrap round to pass the bound (it
	// did, and merging then sliced out of range).
	for _, min := range []string{"9223372036854775807", "-9223372036854775808", "1048577"} {
		b := regexp.MustCompile(`"min":-?[0-9]+`).ReplaceAll(files[1], []byte(`"min":`+min))
		if _, err := ReadPart("min "+min, bytes.NewReader(resum(b))); err == nil || !strings.Contains(err.Error(), "values outside ±1048576") {
			t.Errorf("min %s: got %v, want the values refused", min, err)
		}
	}
}

// BenchmarkMerge reads and merges 16, 64 and 256 parts of one run, each
// holding the tallies of three models with 32 batches (as a comparison's
// parts do), all three in every iteration, and reports the time per part
// of each and their ratios: merging is linear in the parts' size when the
// time per part stays flat (ratios near 1).
func BenchmarkMerge(b *testing.B) {
	counts := []int{16, 64, 256}
	files := make([][][]byte, len(counts))
	size := 0
	for k, n := range counts {
		cfg := Config{Trials: int64(n) * ChunkSize, Seed: 1, Workers: 1, Batches: 32}
		_, files[k] = shardParts(b, cfg, n)
		size = len(files[k][n-1])
	}
	elapsed := make([]time.Duration, len(counts))
	for b.Loop() {
		for k := range counts {
			start := time.Now()
			var parts []NamedPart
			for i, f := range files[k] {
				p, err := ReadPart(fmt.Sprint(i), bytes.NewReader(f))
				if err != nil {
					b.Fatal(err)
				}
				parts = append(parts, NamedPart{fmt.Sprint(i), p})
			}
			if _, err := Merge(parts); err != nil {
				b.Fatal(err)
			}
			elapsed[k] += time.Since(start)
		}
	}
	perPart := func(k int) float64 { return float64(elapsed[k].Nanoseconds()) / float64(b.N*counts[k]) }
	for k, n := range counts {
		b.ReportMetric(perPart(k), fmt.Sprintf("ns/part@%d", n))
	}
	b.ReportMetric(perPart(1)/perPart(0), "per-part-64/16")
	b.ReportMetric(perPart(2)/perPart(0), "per-part-256/16")
	b.ReportMetric(float64(size), "bytes/part")
}

// FuzzReadPart: no file may make reading, merging or rewriting a part
// panic; whatever reads back must merge with a genuine part of its run or
// be refused with an error, and what it writes must read back to the same
// tallies and write again to the same bytes.
func FuzzReadPart(f *testing.F) {
	cfg := Config{Trials: 3*ChunkSize + 10, Seed: 3, Workers: 1, Batches: 2}
	var genuine *Part
	for i := range 3 {
		p, err := RunShard(context.Background(), testGroups(), cfg, Shard{i, 3}, testHeader())
		if err != nil {
			f.Fatal(err)
		}
		var b bytes.Buffer
		if err := WritePart(&b, p); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
		genuine = p
	}
	f.Add([]byte(partMagic + "1\n{}\n{}\nsha256 00\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// Most inputs are also tried with a checksum that matches, so
		// that the fuzzer reaches the decoding behind it.
		if i := bytes.LastIndex(data, []byte("\nsha256 ")); i >= 0 && len(data)%4 != 0 {
			data = fmt.Appendf(bytes.Clone(data[:i+1]), "sha256 %x\n", sha256.Sum256(data[:i+1]))
		}
		p, err := ReadPart("fuzz", bytes.NewReader(data))
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := WritePart(&b, p); err != nil {
			t.Fatalf("a part read back does not write: %v", err)
		}
		back, err := ReadPart("rewritten", bytes.NewReader(b.Bytes()))
		if err != nil {
			t.Fatalf("a part as written does not read back: %v", err)
		}
		var again bytes.Buffer
		if err := WritePart(&again, back); err != nil || !bytes.Equal(again.Bytes(), b.Bytes()) || !sameTallies(back, p) {
			t.Fatalf("a part written, read back and written again changed (%v)", err)
		}
		if m, err := Merge([]NamedPart{{"fuzz", p}, {"genuine", genuine}}); err == nil {
			m.Missing()
			_ = m.Complete()
		}
	})
}

// TestMergeBoundsTheSum: two parts that each list one cell a slot, one
// at the least value a part may hold (-2^20) and one at the greatest
// (2^20), would make a sum of 2^21 + 1 cells a slot: 1,000 slots, 16 GB.
// The merge refuses them before adding them, having allocated little.
// Parts whose values lie near each other, as every run's do, merge.
func TestMergeBoundsTheSum(t *testing.T) {
	const slots = 1000
	part := func(lo int64, v int) *Part {
		tally := &Tally{H: make([]Histogram, slots)}
		for i := range tally.H {
			tally.H[i] = Histogram{min: v, counts: []int64{1}}
		}
		run := Run{Tallies: []*Tally{tally}, Completed: []int64{1}}
		return &Part{Header: PartHeader{Trials: 2 * ChunkSize, Shards: 2}, Chunks: []ChunkRange{{lo, lo + 1}}, Runs: []Run{run}}
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Merge([]NamedPart{{"low", part(0, -MaxTallyValue)}, {"high", part(1, MaxTallyValue)}})
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "high: its values lie so far from the other parts'") {
		t.Errorf("got %v", err)
	}
	if a := after.TotalAlloc - before.TotalAlloc; a > 16<<20 {
		t.Errorf("the refused merge allocated %d MB", a>>20)
	}
	// Values 100 apart in every slot: 101 cells a slot, within twice the
	// 2 listed and the million to spare.
	m, err := Merge([]NamedPart{{"low", part(0, 0)}, {"high", part(1, 100)}})
	if err != nil {
		t.Fatal(err)
	}
	if h := m.Runs[0].Tallies[0].H[slots-1]; h.Count(0) != 1 || h.Count(100) != 1 || h.N() != 2 {
		t.Errorf("the sum counts %d at 0, %d at 100, %d in all", h.Count(0), h.Count(100), h.N())
	}
}

// TestMergeRefusesOverflow: counts that would add up past 64 bits are an
// error, not a wrapped, negative count.
func TestMergeRefusesOverflow(t *testing.T) {
	part := func(lo int64) *Part {
		h := NewHistogram(0, 0)
		h.AddN(0, 1<<62)
		run := Run{Tallies: []*Tally{{H: []Histogram{h}}}, Completed: []int64{0}}
		return &Part{Header: PartHeader{Trials: 2 * ChunkSize, Shards: 2}, Chunks: []ChunkRange{{lo, lo + 1}}, Runs: []Run{run}}
	}
	// 2^62 twice is 2^63, one past the largest int64.
	if _, err := Merge([]NamedPart{{"a", part(0)}, {"b", part(1)}}); err == nil || !strings.Contains(err.Error(), "beyond 64 bits") {
		t.Errorf("got %v", err)
	}
}

// TestWritePartBounded: a part is written only if a merge can read it
// back: past MaxPartBytes (here a scenario text of MaxPartBytes bytes
// alone) WritePart refuses and writes nothing. InputBytes counts every
// text a header carries: 3 + 2 + 1 bytes below.
func TestWritePartBounded(t *testing.T) {
	h := PartHeader{Inputs: []Input{{Source: "abc", Catalogues: []InputFile{{Source: "de"}, {Source: "f"}}}}}
	if n := h.InputBytes(); n != 6 {
		t.Errorf("InputBytes %d, want 6", n)
	}
	h.Inputs[0].Source = strings.Repeat("x", MaxPartBytes)
	var b bytes.Buffer
	err := WritePart(&b, &Part{Header: h})
	if err == nil || !strings.Contains(err.Error(), "more than the 64 MiB a merge reads") || b.Len() != 0 {
		t.Errorf("got %v and %d bytes written", err, b.Len())
	}
}

// TestPartSizeAtLeast: the size a shard checks before it runs is never
// more than a part takes, and is all of it but the part's fixed fields
// when the tallies hold nothing. Parts of testGroups' three models (two
// slots each) at 0, 1 and 5 chunks and a short one of trials, and of a
// group of 2,000 such models at none, kept whole and in 0, 4 and 32 batches: each
// written part is at least the bound, and at 0 trials (every histogram
// empty) it is the bound plus the same few hundred bytes whatever the
// models and batches (the header's fields beside the inputs, the chunk
// list, the checksum line: 451 bytes when this test was written, and a
// digit or two more for more batches), so every model, slot, list and
// comma is counted, none twice.
func TestPartSizeAtLeast(t *testing.T) {
	many := [][]Model{slices.Repeat([]Model{rollModel{dice.MustParse("2D6")}}, 2000)}
	fixed := int64(-1)
	for _, groups := range [][][]Model{testGroups(), many} {
		for _, batches := range []int{0, 4, 32} {
			for _, trials := range []int{0, ChunkSize, 5*ChunkSize + 1000} {
				if len(groups) == 1 && trials > 0 {
					continue // 2,000 models: no trials is the case that counts
				}
				cfg := Config{Trials: int64(trials), Seed: 7, Workers: 2, Aligned: true, Batches: batches}
				h := testHeader()
				p, err := RunShard(context.Background(), groups, cfg, Shard{0, 1}, h)
				if err != nil {
					t.Fatal(err)
				}
				var b bytes.Buffer
				if err := WritePart(&b, p); err != nil {
					t.Fatal(err)
				}
				n, least := int64(b.Len()), PartSizeAtLeast(&h, groups, batches)
				if fixed < 0 {
					fixed = n - least
				}
				// The header's batch count may take a digit or two more.
				if n < least || trials == 0 && (n-least < fixed || n-least > fixed+2) {
					t.Errorf("%d groups, batches %d, trials %d: a part of %d bytes, at least %d by PartSizeAtLeast (%d bytes besides, where the first part had %d)",
						len(groups), batches, trials, n, least, n-least, fixed)
				}
			}
		}
	}
	if fixed <= 0 || fixed > 600 {
		t.Errorf("a part of no trials holds %d bytes beside what PartSizeAtLeast counts; want a few hundred", fixed)
	}
}

// sameTallies reports whether two parts hold equal counts, compared
// directly: the oracle tallyDigest's merge is checked against.
func sameTallies(a, b *Part) bool {
	if len(a.Runs) != len(b.Runs) || a.Interrupted != b.Interrupted {
		return false
	}
	for i := range a.Runs {
		if !sameRunTallies(a.Runs[i], b.Runs[i]) {
			return false
		}
	}
	return true
}

func sameRunTallies(a, b Run) bool {
	if !slices.Equal(a.Completed, b.Completed) || len(a.Tallies) != len(b.Tallies) || len(a.Batches) != len(b.Batches) {
		return false
	}
	for m := range a.Tallies {
		if !a.Tallies[m].Equal(b.Tallies[m]) {
			return false
		}
	}
	for k := range a.Batches {
		if !sameRunTallies(a.Batches[k], b.Batches[k]) {
			return false
		}
	}
	return true
}

// TestMergeSaysWhichInputDiffers: parts whose inputs differ are told
// apart by what differs. A part whose scenario text, or a catalogue's,
// was changed with its SHA-256 kept (and its file's checksum line
// recomputed) is named as changed, where the message gave the two equal
// SHA-256s as different; a scenario of other texts gives its other
// SHA-256; the same texts under another file name give the names.
func TestMergeSaysWhichInputDiffers(t *testing.T) {
	src, cat := "name: x\n", "ruleset: fantasy\nunits: []\n"
	catSum := sha256.Sum256([]byte(cat))
	in := Input{Name: "x", File: "x.yaml", Source: src,
		Catalogues: []InputFile{{File: "units.yaml", SHA256: fmt.Sprintf("%x", catSum), Source: cat}}}
	in.SHA256 = InputsSHA256([]byte(src), []byte(cat))
	// The documented sum: sha256sum x.yaml units.yaml | cut -c1-64 | sha256sum.
	if want := fmt.Sprintf("%x", sha256.Sum256(fmt.Appendf(nil, "%x\n%x\n", sha256.Sum256([]byte(src)), catSum))); in.SHA256 != want {
		t.Fatalf("InputsSHA256 %s, want %s", in.SHA256, want)
	}
	part := func(name string, change func(*Input)) NamedPart {
		h := testHeader()
		i := in
		i.Catalogues = slices.Clone(in.Catalogues)
		change(&i)
		h.Inputs = []Input{i}
		return NamedPart{name, &Part{Header: h}}
	}
	good := part("good", func(*Input) {})
	other := InputsSHA256([]byte("name: y\n"), []byte(cat))
	for _, tt := range []struct {
		name   string
		change func(*Input)
		want   string
	}{
		{"scenario text changed", func(i *Input) { i.Source = "name: y\n" },
			"changed: the scenario x it carries does not match its SHA-256; the part was changed after it was written"},
		{"catalogue text changed", func(i *Input) { i.Catalogues[0].Source = "ruleset: heresy\nunits: []\n" },
			"changed: the unit catalogue units.yaml it carries does not match its SHA-256; the part was changed after it was written"},
		{"another scenario", func(i *Input) { i.Source, i.SHA256 = "name: y\n", other },
			"changed is not a part of the same run as good: scenario sha256 " + other + ", not " + in.SHA256},
		{"another file name", func(i *Input) { i.File = "y.yaml" },
			"changed is not a part of the same run as good: scenario file y.yaml, not x.yaml"},
		{"another catalogue name", func(i *Input) { i.Catalogues[0].File = "cards.yaml" },
			"changed is not a part of the same run as good: unit catalogue file cards.yaml, not units.yaml"},
	} {
		changed := part("changed", tt.change)
		if err := sameRun(good, changed); err == nil || err.Error() != tt.want {
			t.Errorf("%s:\n got: %v\nwant: %s", tt.name, err, tt.want)
		}
		// Either way round, the changed part is the one named.
		if err := sameRun(changed, good); strings.Contains(tt.want, "changed: ") && (err == nil || !strings.HasPrefix(err.Error(), "changed: ")) {
			t.Errorf("%s, the changed part first: %v", tt.name, err)
		}
	}
}

// TestJSONTextLen: the size InputBytes counts for a text is the size
// encoding/json writes it in, HTML escaping off. Each expected length is
// counted by hand from the rules in jsonTextLen's comment; every byte
// alone and a few mixed texts are also checked against the encoder itself.
func TestJSONTextLen(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"", 0},
		{"name: x", 7},           // 7 plain bytes
		{"<>&", 3},               // as they are: no HTML escaping
		{`"\`, 4},                // \" and \\, two bytes each
		{"\b\f\n\r\t", 10},       // five two-byte escapes
		{"\x00\x1f", 12},         // \u0000 and \u001f, six bytes each
		{"\x7f", 1},              // DEL is written as it is
		{"é", 2},                 // U+00E9, two bytes of UTF-8
		{"\u2028\u2029", 12},     // \u2028 and \u2029, six bytes each
		{"\xff", 6},              // not UTF-8: \ufffd
		{"a\"b\n\x01<é\xe2", 21}, // 1+2+1+2+6+1+2+6
	} {
		if got := jsonTextLen(tc.text); got != tc.want {
			t.Errorf("jsonTextLen(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
	encoded := func(s string) int {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		return b.Len() - len(`""`+"\n")
	}
	texts := []string{"name: x\n# <b> & \"c\" \\ \u2028\n", "\xe2\x80", "\xe2\x80\xa8x", "日本\t"}
	for c := range 256 {
		texts = append(texts, string([]byte{byte(c)}))
	}
	for _, s := range texts {
		if got, want := jsonTextLen(s), encoded(s); got != want {
			t.Errorf("jsonTextLen(%q) = %d; encoding/json writes %d bytes", s, got, want)
		}
	}
}

// TestWritePartTextsAsTheyAre: a part holds its texts as InputBytes
// counts them. A scenario of 16 MiB of "<" fits a part (16 MiB of text in
// it, under the 64 MiB a merge reads), where with HTML escaping (\u003c,
// six bytes each) it would be 96 MiB and refused; and the header line of
// a part is that of the same header with empty texts, plus InputBytes.
func TestWritePartTextsAsTheyAre(t *testing.T) {
	h := testHeader()
	h.Inputs[0].Source = strings.Repeat("<", 16<<20)
	h.Trials, h.ChunkSize, h.Shards = ChunkSize, ChunkSize, 1 // an empty shard: no chunks, no trials
	run := Run{Tallies: []*Tally{{H: []Histogram{NewHistogram(0, 0)}}}, Completed: []int64{0}}
	p := &Part{Header: h, Runs: []Run{run}}
	var b bytes.Buffer
	if err := WritePart(&b, p); err != nil {
		t.Fatalf("a part of 16 MiB of text: %v", err)
	}
	back, err := ReadPart("p", bytes.NewReader(b.Bytes()))
	if err != nil || back.Header.Inputs[0].Source != h.Inputs[0].Source {
		t.Fatalf("read back: %v", err)
	}
	headerLine := func(h PartHeader) int {
		var b bytes.Buffer
		if err := WritePart(&b, &Part{Header: h, Runs: []Run{run}}); err != nil {
			t.Fatal(err)
		}
		return len(strings.Split(b.String(), "\n")[1])
	}
	h.Inputs[0].Source = "name: x\n# <b> & \"c\" \\ \u2028 \x01\t\xff"
	h.Inputs[0].Catalogues = []InputFile{{File: "u.yaml", Source: "units: [] # \"<>\""}}
	empty := h
	empty.Inputs = []Input{h.Inputs[0]}
	empty.Inputs[0].Source = ""
	empty.Inputs[0].Catalogues = []InputFile{{File: "u.yaml"}}
	if got, want := headerLine(h), headerLine(empty)+h.InputBytes(); got != want {
		t.Errorf("header line of %d bytes; InputBytes says %d", got, want)
	}
}

// TestOldPartsMerge: testdata/part-html-escaped is shard 0 of 2 as
// hammersim wrote parts before it stopped escaping <, > and & for HTML
// (\u003c, \u0026); a part written now of the same run, shard 1, merges
// with it to the whole run: their texts are the same once read.
func TestOldPartsMerge(t *testing.T) {
	old, err := os.ReadFile("testdata/part-html-escaped")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(old, []byte(`\u003cb\u003e \u0026`)) {
		t.Fatal("the fixture does not hold HTML-escaped text")
	}
	src := "name: x\n# <b> & \"c\" \\ \u2028\n"
	h := testHeader()
	h.Inputs[0].Source, h.Inputs[0].SHA256 = src, InputsSHA256([]byte(src))
	cfg := Config{Trials: 2 * ChunkSize, Seed: 7, Workers: 1, Aligned: true, Batches: 2}
	p1, err := RunShard(context.Background(), testGroups(), cfg, Shard{1, 2}, h)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WritePart(&b, p1); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b.Bytes(), []byte(`# <b> & \"c\"`)) {
		t.Errorf("a part written now escapes its text: %.300s", b.String())
	}
	var m Merger
	for _, f := range []struct {
		name string
		data []byte
	}{{"old", old}, {"new", b.Bytes()}} {
		p, err := ReadPart(f.name, bytes.NewReader(f.data))
		if err != nil {
			t.Fatal(err)
		}
		if p.Header.Inputs[0].Source != src {
			t.Errorf("%s part: text %q, want %q", f.name, p.Header.Inputs[0].Source, src)
		}
		if err := m.Add(NamedPart{f.name, p}); err != nil {
			t.Fatal(err)
		}
	}
	merged, err := m.Result()
	if err != nil {
		t.Fatal(err)
	}
	if err := merged.Complete(); err != nil {
		t.Errorf("old and new parts: %v", err)
	}
}

// TestStrictJSONNamesTheLine: a line that is not the object it should be
// is named as a whole, where the key a type error names is "".
func TestStrictJSONNamesTheLine(t *testing.T) {
	var h PartHeader
	if err := strictJSON([]byte(`[1]`), &h); err == nil || err.Error() != "the line is a JSON array, not an object" {
		t.Errorf("strictJSON([1]): %v", err)
	}
}

// TestPartCutWithinItsFormatLine: a part cut within the opening of its
// format line is still told from other files as a part, and reported as
// truncated, not left out of a merge as something else.
func TestPartCutWithinItsFormatLine(t *testing.T) {
	cut := []byte(partMagic[:20])
	// Cut at the end of the opening, before the version: truncated too.
	if _, err := ReadPart("q", strings.NewReader(partMagic)); err == nil || !strings.Contains(err.Error(), "q: truncated: it ends within its format line") {
		t.Errorf("ReadPart of the opening alone: %v, want it truncated", err)
	}
	if ok, err := IsPart(bytes.NewReader(cut)); !ok || err != nil {
		t.Errorf("IsPart(%q) = %v, %v; want a part", cut, ok, err)
	}
	if ok, _ := IsPart(strings.NewReader("hammersim log")); ok {
		t.Error("a short file that is no prefix of the format line read as a part")
	}
	_, err := ReadPart("p", bytes.NewReader(cut))
	if err == nil || !strings.Contains(err.Error(), "p: truncated: it ends within its format line") {
		t.Errorf("ReadPart: %v, want it truncated", err)
	}
}
