package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestMergeHoldsOnePartAtATime: a merge reads its parts one at a time
// and keeps their sum, not the parts. Every part of a comparison carries
// the scenarios' texts whole and tallies for each of its 32 batches; here
// one scenario is about 512 KiB (a long comment), and 16 shards (each a
// chunk), each given twice, are read. Holding them would take 32 parts'
// worth; holding the sum, the first header and a digest a part takes about
// two. The bound, 4 parts' worth (the size of the largest file, which is
// smaller than a part decoded), lies between.
func TestMergeHoldsOnePartAtATime(t *testing.T) {
	dir := t.TempDir()
	big, small := filepath.Join(dir, "big.yaml"), filepath.Join(dir, "small.yaml")
	src := swordsmen("big", 3) + strings.Repeat("# "+strings.Repeat("x", 98)+"\n", (512<<10)/101)
	if err := os.WriteFile(big, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(small, []byte(swordsmen("small", 4)), 0o644); err != nil {
		t.Fatal(err)
	}
	parts := writeShards(t, dir, []string{"compare", big, small, "--trials", fmt.Sprint(16 * 16384)}, 16)
	var largest int64
	for _, p := range parts {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		largest = max(largest, fi.Size())
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	merger, err := readParts(context.Background(), append(parts, parts...))
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(merger)
	grew := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("32 parts of up to %d KiB: %d KiB held", largest>>10, grew>>10)
	if grew > 4*largest {
		t.Errorf("reading 32 parts of up to %d KiB holds %d KiB: more than 4 parts' worth", largest>>10, grew>>10)
	}
	if _, err := merger.Result(); err != nil {
		t.Error(err)
	}
}
