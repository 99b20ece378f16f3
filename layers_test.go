package hammersim

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// shared are the packages under mechanics/ and scenarios/ that are not a
// ruleset: every other package directly below those two is one.
var shared = map[string]bool{"mechanics/dice": true, "scenarios/scenariotest": true}

// forbidden returns why package pkg may not import imp (both relative to
// the module: "." is the module root as a package, "" as an import), or ""
// when it may. These are the arrows docs/architecture.md forbids.
func forbidden(pkg, imp string) string {
	switch {
	case pkg == ".":
		return "the module root imports nothing of the project"
	case imp == "" && pkg != "bench" && !strings.HasPrefix(pkg, "cmd/") || imp == "" && pkg == "cmd/simulate/internal/web":
		return "of the module root (the version) only the command line and the benchmarks may import"
	}
	layer, rs := split(pkg)
	impLayer, impRS := split(imp)
	upward := map[string][]string{
		"mechanics": {"sim", "scenarios", "reports", "cmd", "bench"},
		"sim":       {"scenarios", "reports", "cmd", "bench"},
		"scenarios": {"reports", "cmd", "bench"},
		"reports":   {"scenarios", "cmd", "bench"},
	}
	for _, up := range upward[layer] {
		if impLayer == up {
			return layer + " must not import " + up
		}
	}
	switch {
	case layer == "sim" && impLayer == "mechanics" && imp != "mechanics/dice":
		return "sim knows no game: of mechanics it may import only mechanics/dice, for the generator"
	case layer == "reports" && impLayer == "mechanics" && imp != "mechanics/dice":
		return "reports renders results and knows no game: of mechanics it may import only mechanics/dice"
	case pkg == "internal/goldenfile":
		return "internal/goldenfile serves every package's tests and imports nothing of the project"
	case pkg == "cmd/simulate/internal/web" && imp != "scenarios":
		return "the web server adds no game logic and no statistics: of the project it imports only scenarios (the registry type, the built-ins); its runs come from the command line"
	case (layer == "mechanics" || layer == "scenarios") && impRS != "" && impRS != rs:
		if rs == "" {
			return pkg + " is shared by every ruleset and must not import one"
		}
		return "ruleset " + rs + " must not import ruleset " + impRS
	}
	return ""
}

// split returns a package's layer (its top folder) and, for a ruleset's
// package under mechanics/ or scenarios/, the ruleset's name.
func split(pkg string) (layer, ruleset string) {
	parts := strings.Split(pkg, "/")
	layer = parts[0]
	if len(parts) > 1 && (layer == "mechanics" || layer == "scenarios") && !shared[layer+"/"+parts[1]] {
		ruleset = parts[1]
	}
	return layer, ruleset
}

// TestLayers checks every import of every non-test file against the
// forbidden arrows, so that the layers stay as documented.
func TestLayers(t *testing.T) {
	const module = "hammersim/"
	checked := 0
	err := filepath.WalkDir(".", func(path string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := e.Name()
		if e.IsDir() && path != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
		for _, spec := range f.Imports {
			imp, _ := strconv.Unquote(spec.Path.Value)
			rel, ok := strings.CutPrefix(imp+"/", module)
			if !ok {
				continue
			}
			checked++
			if why := forbidden(pkg, strings.TrimSuffix(rel, "/")); why != "" {
				t.Errorf("%s imports %s: %s (docs/architecture.md)", path, imp, why)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Errorf("checked %d project imports; the walk missed the packages", checked)
	}
}

// TestForbidden pins the rules themselves, so that TestLayers cannot pass
// by permitting everything.
func TestForbidden(t *testing.T) {
	tests := []struct {
		pkg, imp string
		ok       bool
	}{
		{"mechanics/fantasy", "mechanics/dice", true},
		{"mechanics/fantasy", "mechanics", true},
		{"mechanics/fantasy", "mechanics/heresy", false},
		{"mechanics", "mechanics/fantasy", false},
		{"mechanics/dice", "sim", false},
		{"sim", "mechanics/dice", true},
		{"sim", "mechanics/fantasy", false},
		{"sim", "scenarios", false},
		{"scenarios", "mechanics", true},
		{"scenarios", "mechanics/fantasy", false},
		{"scenarios", "scenarios/heresy", false},
		{"scenarios", "reports", false},
		{"scenarios/fantasy", "scenarios", true},
		{"scenarios/fantasy", "mechanics/fantasy", true},
		{"scenarios/fantasy", "mechanics/heresy", false},
		{"scenarios/heresy", "scenarios/fantasy", false},
		{"scenarios/scenariotest", "scenarios", true},
		{"scenarios/scenariotest", "scenarios/fantasy", false},
		{"reports", "sim", true},
		{"reports", "scenarios", false},
		{"reports", "mechanics/heresy", false},
		{"reports", "mechanics/dice", true},
		{"cmd/simulate", "scenarios/fantasy", true},
		{"cmd/simulate/internal/web", "scenarios", true},
		{"cmd/simulate/internal/web", "sim", false},
		{"cmd/simulate/internal/web", "reports", false},
		{"cmd/simulate/internal/web", "scenarios/heresy", false},
		{"cmd/simulate", "", true},
		{"bench", "", true},
		{"sim", "", false},
		{"reports", "", false},
		{"mechanics/dice", "", false},
		{"scenarios", "", false},
		{"cmd/simulate/internal/web", "", false},
		{"internal/goldenfile", "sim", false},
		{".", "sim", false},
	}
	for _, tt := range tests {
		if why := forbidden(tt.pkg, tt.imp); (why == "") != tt.ok {
			t.Errorf("%s -> %s: allowed %v, want %v (%s)", tt.pkg, tt.imp, why == "", tt.ok, why)
		}
	}
}
