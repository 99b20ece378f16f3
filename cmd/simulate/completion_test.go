package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish"} {
		out, _, err := runCLI(t, "completion", shell)
		if err != nil {
			t.Fatalf("%s: %v", shell, err)
		}
		// Flags come from each command's own help, built-ins from the library.
		for _, want := range []string{"trials", "metrics", "swiftstride-charge", "completion"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s completion lacks %q", shell, want)
			}
		}
		// The shell itself checks the syntax, where it is installed.
		check := map[string][]string{"bash": {"bash", "-n"}, "zsh": {"zsh", "-n"}, "fish": {"fish", "--no-execute"}}[shell]
		if _, err := exec.LookPath(check[0]); err != nil {
			continue
		}
		path := filepath.Join(t.TempDir(), "c."+shell)
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		if msg, err := exec.Command(check[0], append(check[1:], path)...).CombinedOutput(); err != nil {
			t.Errorf("%s rejects its completion script: %v\n%s", shell, err, msg)
		}
	}
	if _, _, err := runCLI(t, "completion", "powershell"); err == nil || !strings.Contains(err.Error(), "bash, zsh or fish") {
		t.Errorf("unknown shell: %v", err)
	}
}
