package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"hammersim/reports"
	"hammersim/scenarios"
)

// commandNames are the sub-commands, in the order simulate -h lists them
// (a test holds the two together): those a shell completes, and those
// help COMMAND takes.
var commandNames = []string{"run", "compare", "merge", "dice", "list", "show", "units", "completion", "serve", "version"}

// completionShells are the shells runCompletion writes a script for.
var completionShells = []string{"bash", "zsh", "fish"}

// How a shell completes the value of a flag that takes one: file flags
// offer files and folders, word flags the words the command accepts, and
// the rest (a count, an address, a metric's name) nothing. Every flag that
// takes a value is one of these (a test holds them to the flag sets).
var (
	fileFlags = []string{"o", "plot", "report", "units", "scenario"}
	freeFlags = []string{"trials", "seed", "workers", "precision", "max-trials", "metrics", "shard", "shard-index-env", "by",
		"addr", "host", "max-body", "max-connections", "max-points", "max-runs", "max-run-time"}
)

// flagWords are the words a word flag of a command accepts, taken from the
// tables the command checks them against; nil for any other flag.
func flagWords(cmd, name string) []string {
	switch {
	case name == "progress":
		return progressModes
	case name != "format":
		return nil
	}
	switch cmd {
	case "run":
		return slices.Sorted(maps.Keys(formats))
	case "compare":
		return slices.Sorted(maps.Keys(compareFormats))
	case "merge":
		return append(slices.Sorted(maps.Keys(formats)), "partial")
	case "dice":
		return reports.DiceFormats
	}
	return nil
}

// flagCollector is the standard output of a command asked for -h by
// commandFlags: newFlagSet hands it the command's flag set, so that
// completion reads the very flags the command parses.
type flagCollector struct {
	io.Writer
	sets []*flag.FlagSet
}

// commandFlags returns the flags of a command, in name order, from the
// flag set the command itself builds; none for a command without flags.
func commandFlags(cmd string) []*flag.Flag {
	c := &flagCollector{Writer: io.Discard}
	if err := run(context.Background(), []string{cmd, "-h"}, c, io.Discard); err != nil {
		return nil
	}
	var out []*flag.Flag
	for _, fs := range c.sets {
		fs.VisitAll(func(f *flag.Flag) { out = append(out, f) })
	}
	return out
}

// takesValue reports whether a flag is followed by a value.
func takesValue(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !b.IsBoolFlag()
}

// dashed writes a flag as users type it: -o, --trials.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// runCompletion prints a completion script for a shell.
func runCompletion(args []string, stdout io.Writer) error {
	if len(args) != 1 || !slices.Contains(completionShells, args[0]) {
		return usagef("completion takes one shell: bash, zsh or fish (such as: source <(simulate completion bash))")
	}
	flags := map[string][]*flag.Flag{}
	for _, c := range commandNames {
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

// bashCompletion writes the bash script (zsh loads it too): the value of
// the flag before the cursor, else the flags of the command, else its
// arguments.
func bashCompletion(flags map[string][]*flag.Flag, names []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `# simulate completion for bash. Load it with:
#   source <(simulate completion bash)
# _simulate_files adds the files matching $cur, one word each even where a
# name holds spaces, and has bash quote them as it inserts one.
_simulate_files() {
  local IFS=$'\n'
  COMPREPLY+=( $(compgen -f -- "$cur") )
  type compopt &>/dev/null && compopt -o filenames 2>/dev/null
}
_simulate() {
  local cur prev cmd
  cur="${COMP_WORDS[COMP_CWORD]}"
  prev="${COMP_WORDS[COMP_CWORD-1]}"
  cmd="${COMP_WORDS[1]}"
  COMPREPLY=()
  if [[ $COMP_CWORD -eq 1 && "$cur" != -* ]]; then
    COMPREPLY=( $(compgen -W "%s" -- "$cur") )
    return
  fi
  # Flags given before any command are run's (simulate --trials 1e5 x.yaml).
  [[ $COMP_CWORD -eq 1 || "$cmd" == -* ]] && cmd=run
  case "$cmd:$prev" in
`, strings.Join(append(slices.Clone(commandNames), "help"), " "))
	for _, c := range commandNames {
		var files, free []string
		for _, f := range flags[c] {
			if !takesValue(f) {
				continue
			}
			forms := "-" + f.Name + "|--" + f.Name
			switch words := flagWords(c, f.Name); {
			case words != nil:
				fmt.Fprintf(&b, "    %s:-%s|%s:--%s) COMPREPLY=( $(compgen -W \"%s\" -- \"$cur\") ); return ;;\n", c, f.Name, c, f.Name, strings.Join(words, " "))
			case slices.Contains(freeFlags, f.Name):
				free = append(free, forms)
			default: // a file flag, or one not yet sorted: what a shell offers by default
				files = append(files, forms)
			}
		}
		if len(files) > 0 {
			fmt.Fprintf(&b, "    %s) _simulate_files; return ;;\n", contextAlternatives(c, files))
		}
		if len(free) > 0 {
			fmt.Fprintf(&b, "    %s) return ;; # a number, an address or a name: nothing to offer\n", contextAlternatives(c, free))
		}
	}
	b.WriteString(`  esac
  if [[ "$cur" == -* ]]; then
    case "$cmd" in
`)
	for _, c := range commandNames {
		var words []string
		for _, f := range flags[c] {
			words = append(words, dashed(f.Name))
		}
		words = append(words, "-h")
		fmt.Fprintf(&b, "      %s) COMPREPLY=( $(compgen -W \"%s\" -- \"$cur\") ) ;;\n", c, strings.Join(words, " "))
	}
	fmt.Fprintf(&b, `    esac
    return
  fi
  case "$cmd" in
    run|compare) COMPREPLY=( $(compgen -W "%[1]s" -- "$cur") ); _simulate_files ;;
    show) COMPREPLY=( $(compgen -W "%[1]s" -- "$cur") ) ;;
    merge) _simulate_files ;;
    completion) COMPREPLY=( $(compgen -W "%[2]s" -- "$cur") ) ;;
    units) [[ " ${COMP_WORDS[*]:2:$((COMP_CWORD-2))} " != *" show "* ]] && COMPREPLY=( $(compgen -W "show" -- "$cur") ) ;;
    help) [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=( $(compgen -W "%[3]s" -- "$cur") ) ;;
  esac
}
complete -F _simulate simulate
`, strings.Join(names, " "), strings.Join(completionShells, " "), strings.Join(commandNames, " "))
	return b.String()
}

// contextAlternatives writes a bash case pattern matching "cmd:flag" for
// each form of each flag: "run:-o|run:--o|run:-plot|run:--plot".
func contextAlternatives(cmd string, forms []string) string {
	var alts []string
	for _, f := range forms {
		for form := range strings.SplitSeq(f, "|") {
			alts = append(alts, cmd+":"+form)
		}
	}
	return strings.Join(alts, "|")
}

// fishCompletion writes the fish script: commands, each command's
// arguments, and each command's flags with what their values are.
func fishCompletion(flags map[string][]*flag.Flag, names []string) string {
	var b strings.Builder
	b.WriteString("# simulate completion for fish. Load it with:\n#   simulate completion fish | source\n")
	b.WriteString(`complete -c simulate -f
# __simulate_first: the word being completed is the first after simulate.
function __simulate_first
    test (count (commandline -opc)) -eq 1
end
# __simulate_flags_first: the line began with a flag, so what follows is
# run's, as simulate reads it (simulate --trials 1e5 x.yaml).
function __simulate_flags_first
    set -l words (commandline -opc)
    set -q words[2]; and string match -q -- '-*' $words[2]
end
`)
	commands := strings.Join(commandNames, " ")
	// after is the condition, quoted, that the words so far are command's:
	// help COMMAND takes nothing more, and the show of units show is not
	// the command show. run's also follow flags given before any command,
	// and its flags are offered for the first word (or, more).
	after := func(command string, or ...string) string {
		not := "help"
		if command != "units" {
			not += " units"
		}
		cond := fmt.Sprintf("__fish_seen_subcommand_from %s; and not __fish_seen_subcommand_from %s", command, not)
		if strings.Fields(command)[0] == "run" {
			or = append([]string{"__simulate_flags_first"}, or...)
		}
		for _, alt := range or {
			cond += "; or " + alt
		}
		return "'" + cond + "'"
	}
	fmt.Fprintf(&b, "complete -c simulate -n __simulate_first -a '%s help'\n", commands)
	fmt.Fprintf(&b, "complete -c simulate -n '__fish_seen_subcommand_from help; and not __fish_seen_subcommand_from %s' -a '%s'\n", commands, commands)
	fmt.Fprintf(&b, "complete -c simulate -n %s -a '%s'\n", after("run compare show"), strings.Join(names, " "))
	fmt.Fprintf(&b, "complete -c simulate -n %s -F\n", after("run compare merge"))
	fmt.Fprintf(&b, "complete -c simulate -n %s -a '%s'\n", after("completion"), strings.Join(completionShells, " "))
	b.WriteString("complete -c simulate -n '__fish_seen_subcommand_from units; and not __fish_seen_subcommand_from help show' -a 'show'\n")
	for _, c := range commandNames {
		for _, f := range flags[c] {
			opt := "-l " + f.Name
			if len(f.Name) == 1 {
				opt = "-s " + f.Name
			}
			switch words := flagWords(c, f.Name); {
			case !takesValue(f):
			case words != nil:
				opt += " -x -a '" + strings.Join(words, " ") + "'"
			case slices.Contains(freeFlags, f.Name):
				opt += " -x"
			default: // a file flag, or one not yet sorted
				opt += " -r -F"
			}
			cond := after(c)
			if c == "run" {
				cond = after(c, "__simulate_first")
			}
			fmt.Fprintf(&b, "complete -c simulate -n %s %s\n", cond, opt)
		}
	}
	return b.String()
}
