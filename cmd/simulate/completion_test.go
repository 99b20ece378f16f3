package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
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

// TestCompletionCommands: completion offers every command simulate -h
// names, and no other.
func TestCompletionCommands(t *testing.T) {
	_, want := usageCommands(t) // sorted
	got := slices.Sorted(slices.Values(commandNames))
	if !slices.Equal(got, want) {
		t.Errorf("completion offers %v; simulate -h names %v", got, want)
	}
}

// TestCompletionFlagSets: the flags completion reads from each command's
// flag set are those its -h prints (so neither can lose one), and every
// flag that takes a value is sorted into words, files or free values, the
// words being ones its usage names.
func TestCompletionFlagSets(t *testing.T) {
	flagLine := regexp.MustCompile(`(?m)^  -([a-z][a-z0-9-]*)`)
	for _, cmd := range commandNames {
		help, _, err := runCLI(t, cmd, "-h")
		if err != nil {
			t.Fatal(err)
		}
		var printed, read []string
		for _, m := range flagLine.FindAllStringSubmatch(help, -1) {
			printed = append(printed, m[1])
		}
		for _, f := range commandFlags(cmd) {
			read = append(read, f.Name)
			words := flagWords(cmd, f.Name)
			sorted := words != nil || slices.Contains(fileFlags, f.Name) || slices.Contains(freeFlags, f.Name) || !takesValue(f)
			if !sorted {
				t.Errorf("%s --%s: not in flagWords, fileFlags or freeFlags", cmd, f.Name)
			}
			for _, w := range words {
				if !strings.Contains(f.Usage, w) {
					t.Errorf("%s --%s offers %q, which its usage does not name: %s", cmd, f.Name, w, f.Usage)
				}
			}
		}
		if !slices.Equal(printed, read) {
			t.Errorf("%s: -h prints the flags %v, completion reads %v", cmd, printed, read)
		}
	}
	if n := len(commandFlags("serve")); n < 5 {
		t.Errorf("serve has %d flags, want --addr, --host, --max-body, --max-runs and --max-trials at least", n)
	}
}

// TestCompletionEveryFlag: each shell's script offers every flag of every
// command, under that command, and the words of --format that command
// takes (merge's partial among them).
func TestCompletionEveryFlag(t *testing.T) {
	for _, shell := range completionShells {
		out, _, err := runCLI(t, "completion", shell)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(out, "\n")
		for _, cmd := range commandNames {
			var bashFlags []string
			for _, l := range lines {
				// The flags' case comes first; the arguments' one after it.
				if rest, ok := strings.CutPrefix(strings.TrimSpace(l), cmd+") COMPREPLY=( $(compgen -W \""); ok && bashFlags == nil {
					bashFlags = strings.Fields(rest[:strings.Index(rest, "\"")])
				}
			}
			for _, f := range commandFlags(cmd) {
				switch shell {
				case "fish":
					opt := "-l " + f.Name
					if len(f.Name) == 1 {
						opt = "-s " + f.Name
					}
					not := "help"
					if cmd != "units" {
						not += " units" // the show of units show is not show
					}
					cond := "__fish_seen_subcommand_from " + cmd + "; and not __fish_seen_subcommand_from " + not
					if cmd == "run" { // run's flags also come before any command
						cond += "; or __simulate_flags_first; or __simulate_first"
					}
					if !strings.Contains(out, "'"+cond+"' "+opt) {
						t.Errorf("fish: %s lacks %s", cmd, opt)
					}
				default:
					if !slices.Contains(bashFlags, dashed(f.Name)) {
						t.Errorf("%s: %s offers %v, lacking %s", shell, cmd, bashFlags, dashed(f.Name))
					}
				}
			}
		}
		if !strings.Contains(out, "csv json markdown table partial") {
			t.Errorf("%s: merge --format does not offer partial", shell)
		}
	}
}

// TestBashCompletionBehaviour runs the bash script as bash completes a
// line, in a folder holding one file: serve's flags, merge's formats, show
// offering built-ins and never files, run offering both, and nothing after
// a flag that takes a number.
func TestBashCompletionBehaviour(t *testing.T) {
	dir := completionDir(t, "bash", "swift.yaml")
	for _, tc := range []struct {
		line string // the words typed, the last the one being completed
		want string // COMPREPLY, space-separated
	}{
		{"simulate serve --a", "--addr"},
		{"simulate serve --max-", "--max-body --max-connections --max-points --max-run-time --max-runs --max-trials"},
		{"simulate merge --format p", "partial"},
		{"simulate run --format m", "markdown"},
		{"simulate run --progress a", "auto always"},
		{"simulate show swift", "swiftstride-charge"},
		{"simulate run swift", "swiftstride-charge swift.yaml"},
		{"simulate run --trials ", ""},
		{"simulate completion z", "zsh"},
		{"simulate list -", "-h"},
		// help is offered beside the commands, and takes one of them.
		{"simulate he", "help"},
		// Flags given before any command are run's.
		{"simulate --format m", "markdown"},
		{"simulate --trials 1e5 --form", "--format"},
		{"simulate --trials 1e5 swift", "swiftstride-charge swift.yaml"},
		{"simulate help co", "compare completion"},
		{"simulate help run ", ""},
		{"simulate units show ", ""},
		// units takes show after its flags too.
		{"simulate units --units swift.yaml sh", "show"},
	} {
		words := strings.Split(tc.line, " ")
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = "'" + w + "'"
		}
		got, err := bashComplete(dir, strings.Join(quoted, " "), len(words)-1, `echo "${COMPREPLY[*]}"`)
		if err != nil || got != tc.want {
			t.Errorf("%q: %q (%v), want %q", tc.line, got, err, tc.want)
		}
	}
}

// completionDir skips the test where shell is not installed, and
// returns a folder holding its completion script, c.SHELL, and an empty
// file of each name given.
func completionDir(t *testing.T, shell string, files ...string) string {
	t.Helper()
	if _, err := exec.LookPath(shell); err != nil {
		t.Skip("no " + shell)
	}
	script, _, err := runCLI(t, "completion", shell)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "c."+shell), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// bashComplete runs the bash script c.bash in dir on the quoted words,
// the one at cword being completed, and returns what show prints of the
// reply.
func bashComplete(dir, words string, cword int, show string) (string, error) {
	prog := fmt.Sprintf("source c.bash; COMP_WORDS=(%s); COMP_CWORD=%d; _simulate; %s", words, cword, show)
	cmd := exec.Command("bash", "--norc", "--noprofile", "-c", prog)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// TestBashCompletionSpaces: a file whose name holds a space is offered as
// one word, for a scenario argument and for a file flag, not cut in two.
func TestBashCompletionSpaces(t *testing.T) {
	dir := completionDir(t, "bash", "my scenario.yaml")
	for _, words := range []string{"'simulate' 'run' 'my'", "'simulate' 'run' '--plot' 'my'", "'simulate' 'merge' 'my'"} {
		n := strings.Count(words, " ")
		got, err := bashComplete(dir, words, n, `printf '[%s]' "${COMPREPLY[@]}"`)
		if err != nil || got != "[my scenario.yaml]" {
			t.Errorf("%s: %s (%v), want [my scenario.yaml]", words, got, err)
		}
	}
}

// TestFishCompletionBehaviour runs the fish script as fish completes a
// line, where fish is installed: help offers the commands, and nothing
// once it has one, where run's own completions (a built-in, a file) would
// otherwise match the word "run".
func TestFishCompletionBehaviour(t *testing.T) {
	dir := completionDir(t, "fish", "swift.yaml")
	for _, tc := range []struct{ line, want string }{
		{"simulate he", "help"},
		{"simulate help co", "compare completion"},
		{"simulate help run ", ""},
		{"simulate help run --t", ""},
		{"simulate run swift", "swift.yaml swiftstride-charge"},
		{"simulate units ", "show"},
		// units show takes a card's name, not a built-in scenario's.
		{"simulate units show ", ""},
		{"simulate units --units swift.yaml sh", "show"},
		// Flags given before any command are run's, and take no command
		// after them.
		{"simulate --form", "--format"},
		{"simulate --format m", "markdown"},
		{"simulate --trials ", ""},
		{"simulate -o sw", "swift.yaml"},
		{"simulate --trials 1e5 --form", "--format"},
		{"simulate --trials 1e5 swift", "swift.yaml swiftstride-charge"},
		{"simulate --trials 1e5 compa", ""},
	} {
		cmd := exec.Command("fish", "--no-config", "-c", "source c.fish; complete -C '"+tc.line+"'")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		var words []string
		for line := range strings.Lines(string(out)) {
			words = append(words, strings.Fields(line)[0])
		}
		slices.Sort(words)
		if got := strings.Join(words, " "); err != nil || got != tc.want {
			t.Errorf("%q: %q (%v), want %q", tc.line, got, err, tc.want)
		}
	}
}

// TestZshCompletionUnits runs the zsh script's completion function as
// zsh's bash emulation calls it, where zsh is installed: units offers show
// after its flags too, and nothing after show. zsh reads a slice length
// that starts with a name as a history modifier (${a[*]:2:N-2}), which
// broke the function there.
func TestZshCompletionUnits(t *testing.T) {
	dir := completionDir(t, "zsh")
	for _, tc := range []struct {
		words string
		cword int
		want  string
	}{
		{"simulate units sh", 2, "show"},
		{"simulate units --units x.yaml sh", 4, "show"},
		{"simulate units show ''", 3, ""},
	} {
		prog := fmt.Sprintf(`autoload -U +X compinit && compinit -u; source c.zsh; emulate -L sh; setopt kshglob noshglob braceexpand
COMP_WORDS=(%s); COMP_CWORD=%d; _simulate; echo "[${COMPREPLY[*]}]"`, tc.words, tc.cword)
		cmd := exec.Command("zsh", "-f", "-c", prog)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if got := strings.TrimSpace(string(out)); err != nil || got != "["+tc.want+"]" {
			t.Errorf("%s: %q (%v), want [%s]", tc.words, got, err, tc.want)
		}
	}
}
