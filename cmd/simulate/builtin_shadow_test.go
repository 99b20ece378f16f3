package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuiltinShadowedByAFile: a scenario argument is read as a file or
// folder of its name in the working folder before a built-in's name
// (scenarios.Registry.Load). So an output named after the built-in being
// run is refused, since the same command would read it next time; a file
// that has a built-in's name is named ./NAME in the reproduce line, which
// then reads the file again; and a folder of that name is refused with an
// error that says it hides the built-in.
func TestBuiltinShadowedByAFile(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, out := range [][]string{
		{"-o", "flee-pursuit"},
		{"--plot", "flee-pursuit"},
		{"--plot", "./flee-pursuit/"},
		{"--check", "-o", "flee-pursuit"},
	} {
		_, _, err := runCLI(t, append([]string{"run", "flee-pursuit", "--trials", "1000"}, out...)...)
		if err == nil || !strings.Contains(err.Error(), "would hide the built-in scenario flee-pursuit") {
			t.Errorf("run flee-pursuit %s: %v; want it refused as hiding the built-in", strings.Join(out, " "), err)
		}
		if _, err := os.Lstat("flee-pursuit"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("run flee-pursuit %s left flee-pursuit behind (%v)", strings.Join(out, " "), err)
		}
	}
	// A path that resolves to the working folder's flee-pursuit, and a
	// merge of the built-in's shards, are refused alike.
	wd, _ := os.Getwd()
	if _, _, err := runCLI(t, "run", "flee-pursuit", "--trials", "1000", "-o", filepath.Join(wd, "flee-pursuit")); err == nil || !strings.Contains(err.Error(), "would hide the built-in scenario flee-pursuit") {
		t.Errorf("-o $PWD/flee-pursuit: %v; want it refused as hiding the built-in", err)
	}
	for i := range 2 {
		if _, _, err := runCLI(t, "run", "flee-pursuit", "--trials", "20000", "--shard", fmt.Sprintf("%d/2", i), "-o", fmt.Sprintf("b-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := runCLI(t, "merge", "b-0", "b-1", "-o", "flee-pursuit"); err == nil || !strings.Contains(err.Error(), "-o flee-pursuit would hide the built-in scenario flee-pursuit") {
		t.Errorf("merge -o flee-pursuit: %v; want it refused as hiding the built-in", err)
	}
	if _, err := os.Lstat("flee-pursuit"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the refused outputs left flee-pursuit behind (%v)", err)
	}
	for _, p := range []string{"b-0", "b-1"} {
		os.Remove(p)
	}
	// Other names, and outputs of another scenario, are written.
	if _, _, err := runCLI(t, "run", "flee-pursuit", "--trials", "1000", "-o", "flee-pursuit.txt"); err != nil {
		t.Errorf("-o flee-pursuit.txt: %v", err)
	}

	if err := os.WriteFile("flee-pursuit", []byte(tinyScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	first, _, err := runCLI(t, "run", "flee-pursuit", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Scenario string `json:"scenario"`
		Stamp    struct {
			Command string `json:"command"`
		} `json:"stamp"`
	}
	if err := json.Unmarshal([]byte(first), &doc); err != nil {
		t.Fatal(err)
	}
	if want := "simulate run ./flee-pursuit --seed 1 --trials 2000"; doc.Stamp.Command != want || doc.Scenario != "tiny" {
		t.Errorf("the file flee-pursuit ran scenario %q, reproduced by %q; want tiny, by %q", doc.Scenario, doc.Stamp.Command, want)
	}
	again, _, err := runCLI(t, append(strings.Fields(strings.TrimPrefix(doc.Stamp.Command, "simulate ")), "--format", "json")...)
	if err != nil || again != first {
		t.Errorf("the reproduce line gave other results (%v)", err)
	}

	// Its shards' parts name it so too, and merge to the same bytes.
	for i := range 2 {
		if _, _, err := runCLI(t, "run", "flee-pursuit", "--shard", fmt.Sprintf("%d/2", i), "-o", fmt.Sprintf("part-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if merged, _, err := runCLI(t, "merge", "--format", "json", "part-0", "part-1"); err != nil || merged != first {
		t.Errorf("the merged shards of the file flee-pursuit differ from its run (%v)", err)
	}

	if err := os.Remove("flee-pursuit"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir("flee-pursuit", 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCLI(t, "run", "flee-pursuit"); err == nil || !strings.Contains(err.Error(), "flee-pursuit is a folder here, which hides the built-in scenario of that name") {
		t.Errorf("a folder named flee-pursuit: %v; want an error saying it hides the built-in", err)
	}
}
