package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestMergeHoldsInputsOnce: every part of a run carries the run's scenario
// text whole, and a merge of many parts holds that text once, not once a
// part. Here a scenario of about 512 KiB (a long comment) is merged from
// 32 copies of its one part (copies count once); holding a copy a part
// would take 32 × 512 KiB = 16 MiB, holding one takes 512 KiB plus the
// small tallies, and the bound, 8 copies' worth (4 MiB), lies between.
func TestMergeHoldsInputsOnce(t *testing.T) {
	dir := t.TempDir()
	const commentBytes = 512 << 10
	scen := filepath.Join(dir, "big.yaml")
	src := swordsmen("big", 3) + strings.Repeat("# "+strings.Repeat("x", 98)+"\n", commentBytes/101)
	if err := os.WriteFile(scen, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	parts := writeShards(t, dir, []string{"run", scen, "--trials", "100"}, 1)
	part, err := os.ReadFile(parts[0])
	if err != nil {
		t.Fatal(err)
	}
	copies := filepath.Join(dir, "copies")
	os.Mkdir(copies, 0o755)
	for i := range 32 {
		if err := os.WriteFile(filepath.Join(copies, strings.Repeat("p", i+1)), part, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	paths, err := partPaths([]string{copies})
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	read, err := readParts(paths)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(read)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 8*int64(len(src)) {
		t.Errorf("reading 32 parts of a %d KiB scenario holds %d KiB: more than 8 copies of its text", len(src)>>10, grew>>10)
	}
}
