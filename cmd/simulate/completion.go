package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"hammersim/scenarios"
)

// completionCommands are the sub-commands a shell completes, with the ones
// that take a scenario name or file.
var completionCommands = []string{"run", "compare", "merge", "dice", "list", "show", "units", "serve", "version", "completion"}

var scenarioCommands = []string{"run", "compare", "show"}

// flaggedCommands are the sub-commands whose flags a shell completes.
var flaggedCommands = []string{"run", "compare", "merge", "dice", "units"}

// flagLine matches a flag in a command's -h output: "  -trials N".
var flagLine = regexp.MustCompile(`(?m)^  -([a-z][a-z0-9-]*)`)

// commandFlags lists a command's flags as its own -h prints them, so that
// completion never drifts from the flags themselves.
func commandFlags(cmd string) []string {
	var help bytes.Buffer
	if err := run(context.Background(), []string{cmd, "-h"}, &help, io.Discard); err != nil {
		return nil
	}
	var out []string
	for _, m := range flagLine.FindAllStringSubmatch(help.String(), -1) {
		switch {
		case m[1] == "h":
		case len(m[1]) == 1:
			out = append(out, "-"+m[1])
		default:
			out = append(out, "--"+m[1])
		}
	}
	return out
}

// runCompletion prints a completion script for a shell.
func runCompletion(args []string, stdout io.Writer) error {
	if len(args) != 1 || !slices.Contains([]string{"bash", "zsh", "fish"}, args[0]) {
		return usagef("completion takes one shell: bash, zsh or fish (such as: source <(simulate completion bash))")
	}
	flags := map[string][]string{}
	for _, c := range flaggedCommands {
		flags[c] = commandFlags(c)
	}
	names := scenarios.BuiltinNames()
	var script string
	switch args[0] {
	case "fish":
		script = fishCompletion(flags, names)
	default:
		script = bashCompletion(flags, names)
		if args[0] == "zsh" {
			script = "# zsh: load bash completion support, then the bash completion.\nautoload -U +X bashcompinit && bashcompinit\n" + script
		}
	}
	_, err := io.WriteString(stdout, script)
	return err
}

func bashCompletion(flags map[string][]string, names []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `# simulate completion for bash. Load it with:
#   source <(simulate completion bash)
_simulate() {
  local cur prev cmd
  cur="${COMP_WORDS[COMP_CWORD]}"
  prev="${COMP_WORDS[COMP_CWORD-1]}"
  cmd="${COMP_WORDS[1]}"
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=( $(compgen -W "%s" -- "$cur") )
    return
  fi
  case "$prev" in
    --format|-format) COMPREPLY=( $(compgen -W "table json csv markdown" -- "$cur") ); return ;;
    --progress|-progress) COMPREPLY=( $(compgen -W "auto always never" -- "$cur") ); return ;;
    -o|--plot|-plot|--report|-report|--units|-units|--scenario|-scenario) COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
  esac
  if [[ "$cur" == -* ]]; then
    case "$cmd" in
`, strings.Join(completionCommands, " "))
	for _, c := range flaggedCommands {
		fmt.Fprintf(&b, "      %s) COMPREPLY=( $(compgen -W \"%s\" -- \"$cur\") ) ;;\n", c, strings.Join(flags[c], " "))
	}
	fmt.Fprintf(&b, `    esac
    return
  fi
  case "$cmd" in
    %s) COMPREPLY=( $(compgen -W "%s" -- "$cur") $(compgen -f -- "$cur") ) ;;
    completion) COMPREPLY=( $(compgen -W "bash zsh fish" -- "$cur") ) ;;
    units) COMPREPLY=( $(compgen -W "show" -- "$cur") ) ;;
    *) COMPREPLY=( $(compgen -f -- "$cur") ) ;;
  esac
}
complete -F _simulate simulate
`, strings.Join(scenarioCommands, "|"), strings.Join(names, " "))
	return b.String()
}

func fishCompletion(flags map[string][]string, names []string) string {
	var b strings.Builder
	b.WriteString("# simulate completion for fish. Load it with:\n#   simulate completion fish | source\n")
	b.WriteString("complete -c simulate -f\n")
	fmt.Fprintf(&b, "complete -c simulate -n __fish_use_subcommand -a '%s'\n", strings.Join(completionCommands, " "))
	fmt.Fprintf(&b, "complete -c simulate -n '__fish_seen_subcommand_from %s' -a '%s'\n", strings.Join(scenarioCommands, " "), strings.Join(names, " "))
	b.WriteString("complete -c simulate -n '__fish_seen_subcommand_from run compare merge' -F\n")
	b.WriteString("complete -c simulate -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'\n")
	b.WriteString("complete -c simulate -n '__fish_seen_subcommand_from units' -a 'show'\n")
	for _, c := range flaggedCommands {
		for _, f := range flags[c] {
			name := strings.TrimLeft(f, "-")
			opt := "-l " + name
			if len(name) == 1 {
				opt = "-s " + name
			}
			if c == "units" { // its flags name files and folders
				opt += " -F"
			}
			fmt.Fprintf(&b, "complete -c simulate -n '__fish_seen_subcommand_from %s' %s -r\n", c, opt)
		}
	}
	return b.String()
}
