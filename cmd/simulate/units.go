package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"hammersim/mechanics"
	"hammersim/scenarios"
)

const unitsSynopsis = "units [--units PATH]... [--scenario FILE] [show NAME]"

// runUnits lists the unit cards, or prints one to copy: the built-in ones,
// after those of the catalogues named with --units and those a scenario
// file may use (--scenario), first found first, as a scenario finds them.
func runUnits(args []string, stdout io.Writer) error {
	fs := newFlagSet("units", unitsSynopsis, stdout)
	var paths []string
	fs.Func("units", "read the unit catalogue at `PATH` too: a file, or a folder of them (may be repeated)", func(p string) error {
		paths = append(paths, p)
		return nil
	})
	scenario := fs.String("scenario", "", "read the catalogues the scenario `FILE` may use too: those its units key names and those in its folder")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagError(fs, err)
	}
	if err := onceEach(paths); err != nil {
		return flagUsagef("units", "%v", err)
	}
	if len(pos) > 0 && (pos[0] != "show" || len(pos) < 2) {
		return flagUsagef("units", "units takes no arguments, or show and a unit's name (simulate units show Clanrats)")
	}
	cards, err := unitCards(paths, *scenario)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return listUnits(stdout, cards)
	}
	return showUnit(stdout, cards, strings.Join(pos[1:], " "))
}

// onceEach refuses a catalogue given twice to --units, under one path or
// two (./units.yaml and units.yaml, a link to it), as a scenario's units
// key refuses one named twice: the second reads nothing new, and is a slip
// for another catalogue.
func onceEach(paths []string) error {
	infos, clean := make([]os.FileInfo, len(paths)), make([]string, len(paths))
	for i, p := range paths {
		infos[i], _ = os.Stat(p) // one that is not there is reported as it is read
		clean[i] = filepath.Clean(p)
		for j := range i {
			if clean[i] == clean[j] || infos[i] != nil && infos[j] != nil && os.SameFile(infos[i], infos[j]) {
				return fmt.Errorf("--units %s names the catalogue that --units %s names (values %d and %d); give each once", shellQuote(p), shellQuote(paths[j]), j+1, i+1)
			}
			if inFolder(infos[i], paths[j], infos[j]) {
				return fmt.Errorf("--units %s is a catalogue of the folder --units %s reads (values %d and %d); give each once", shellQuote(p), shellQuote(paths[j]), j+1, i+1)
			}
			if inFolder(infos[j], p, infos[i]) {
				return fmt.Errorf("--units %s holds the catalogue --units %s names (values %d and %d); give each once", shellQuote(p), shellQuote(paths[j]), j+1, i+1)
			}
		}
	}
	return nil
}

// inFolder reports whether file, a named catalogue file, is one that the
// folder at dir (with folder its FileInfo) reads: one of its *.yaml
// files, by itself or through a link, told apart as the operating system
// does (os.SameFile). Either FileInfo may be nil (a path that is not
// there), and folder need not be a folder.
func inFolder(file os.FileInfo, dir string, folder os.FileInfo) bool {
	if file == nil || file.IsDir() || folder == nil || !folder.IsDir() {
		return false
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false // reading the folder reports it
	}
	for _, e := range entries {
		if ok, _ := filepath.Match("*.yaml", e.Name()); !ok {
			continue
		}
		if info, err := os.Stat(filepath.Join(dir, e.Name())); err == nil && os.SameFile(info, file) {
			return true
		}
	}
	return false
}

// unitCards gathers the cards of the catalogues at paths, then those the
// scenario file may use (when named), then the built-in ones.
func unitCards(paths []string, scenario string) ([]*scenarios.UnitCard, error) {
	// A card is checked as a scenario using it would read it, so that the
	// listing never shows a card no scenario could use; every problem of
	// every file is reported at once.
	cards, err := registry.UserCards(paths, scenario)
	if err != nil {
		return nil, err
	}
	return append(cards, scenarios.BuiltinUnits()...), nil
}

// builtin reports whether a card comes from the built-in catalogue.
func builtin(c *scenarios.UnitCard) bool { return strings.HasPrefix(c.File, "builtin:") }

// listUnits writes a line per card. The built-in catalogue alone is listed
// as it is; with cards from files, each file's cards follow a line naming
// it, and a card that one found earlier (same ruleset and name) replaces
// says so.
func listUnits(w io.Writer, cards []*scenarios.UnitCard) error {
	var ew strings.Builder
	titled := len(cards) > 0 && !builtin(cards[0])
	// Two cards answer to the same use when they share a ruleset and a
	// name; a map finds the first, where comparing each card with those
	// before it took 10 s for a listing of 51,000 cards.
	type key struct{ ruleset, name string }
	listed := map[key]bool{}
	for i, c := range cards {
		if titled && (i == 0 || cards[i-1].File != c.File && !(builtin(c) && builtin(cards[i-1]))) {
			if i > 0 {
				fmt.Fprintln(&ew)
			}
			if builtin(c) {
				fmt.Fprintln(&ew, "Built-in cards:")
			} else {
				fmt.Fprintf(&ew, "Cards of %s:\n", c.File)
			}
		}
		line := fmt.Sprintf("%-8s %-24s %s", c.Ruleset, c.Name, cardSummary(c))
		if k := (key{c.Ruleset, c.Name}); listed[k] {
			line += " (replaced by the card of that name above)"
		} else {
			listed[k] = true
		}
		fmt.Fprintln(&ew, line)
	}
	_, err := io.WriteString(w, ew.String())
	return err
}

// showUnit prints, for each ruleset, the card a scenario's {use: name}
// reads: the first card of exactly that name. Where a ruleset has none, it
// prints the first whose name differs in case alone, which the header then
// names as it must be written.
func showUnit(w io.Writer, cards []*scenarios.UnitCard, name string) error {
	pick := map[string]int{} // ruleset: index in cards of its card
	for i, c := range cards {
		exact := c.Name == name
		if !exact && !strings.EqualFold(c.Name, name) {
			continue
		}
		if j, seen := pick[c.Ruleset]; !seen || exact && cards[j].Name != name {
			pick[c.Ruleset] = i
		}
	}
	var found []*scenarios.UnitCard
	for i, c := range cards {
		if j, ok := pick[c.Ruleset]; ok && j == i {
			found = append(found, c)
		}
	}
	if len(found) == 0 {
		var names []string
		for _, c := range cards {
			if !slices.Contains(names, c.Name) {
				names = append(names, c.Name)
			}
		}
		slices.Sort(names)
		if near := mechanics.Nearest(name, names); near != "" {
			return fmt.Errorf("no unit card named %q; did you mean %q? (simulate units lists them)", name, near)
		}
		return fmt.Errorf("no unit card named %q; the catalogues have: %s (simulate units lists them)", name, strings.Join(names, ", "))
	}
	var ew strings.Builder
	for i, c := range found {
		if i > 0 {
			fmt.Fprintln(&ew)
		}
		if builtin(c) {
			fmt.Fprintf(&ew, "# The built-in %s unit card %q. In a %s scenario, write {use: %s}\n", c.Ruleset, c.Name, c.Ruleset, scenarios.QuoteScalar(c.Name))
		} else {
			fmt.Fprintf(&ew, "# The %s unit card %q of %s. In a %s scenario that reads it\n# (its units key, or a catalogue in its folder), write {use: %s}\n", c.Ruleset, c.Name, c.File, c.Ruleset, scenarios.QuoteScalar(c.Name))
		}
		fmt.Fprintf(&ew, "# and change what differs, or copy it and edit it.\n")
		for _, note := range registry.CardNotes(c) {
			fmt.Fprintf(&ew, "# %s\n", note)
		}
		ew.WriteString(c.YAML())
	}
	_, err := io.WriteString(w, ew.String())
	return err
}

// cardSummary is what a list builder tells cards apart by: the troop
// or unit type, the models and points and the weapons' names, in that order
// whatever the card's, then the profile line (or the characteristics
// written one by one): "Chariot, 150 points: S6 T6 W5 Ld7", "5 models,
// plasma gun: WS4 BS4 ...".
func cardSummary(c *scenarios.UnitCard) string {
	var troop, models, points, weapons, profile []string
	for i, k := range c.Node.Keys {
		v := c.Node.Vals[i]
		switch {
		case k.Text == "weapons" || k.Text == "melee":
			weapons = append(weapons, weaponNames(v)...)
		case k.Text == "models" && v.Kind == scenarios.SeqNode:
			// A card of several sizes, as its models sweep them.
			var sizes []string
			for _, it := range v.Items {
				sizes = append(sizes, it.Text)
			}
			models = []string{strings.Join(sizes, " or ") + " models"}
		case v.Kind != scenarios.ScalarNode:
		case k.Text == "profile":
			profile = append([]string{v.Text}, profile...)
		case k.Text == "troop" || k.Text == "type":
			// Fantasy's troop type, Heresy's unit type.
			troop = []string{v.Text}
		case k.Text == "models":
			s := "s"
			if v.Text == "1" {
				s = ""
			}
			models = []string{v.Text + " model" + s}
		case k.Text == "points":
			points = []string{v.Text + " points"}
		case characteristic(k.Text):
			profile = append(profile, k.Text+v.Text) // M5, as printed
		}
	}
	about := slices.Concat(troop, models, points, weapons)
	switch {
	case len(about) == 0:
		return strings.Join(profile, " ")
	case len(profile) == 0:
		return strings.Join(about, ", ")
	}
	return strings.Join(about, ", ") + ": " + strings.Join(profile, " ")
}

// weaponNames are the names of a card's weapons: a list of them, or one.
func weaponNames(n *scenarios.Node) []string {
	items := []*scenarios.Node{n}
	if n.Kind == scenarios.SeqNode {
		items = n.Items
	}
	var names []string
	for _, w := range items {
		if w.Kind != scenarios.MapNode {
			continue
		}
		for i, k := range w.Keys {
			if k.Text == "name" && w.Vals[i].Kind == scenarios.ScalarNode && !slices.Contains(names, w.Vals[i].Text) {
				names = append(names, w.Vals[i].Text)
			}
		}
	}
	return names
}

// characteristic reports whether key is a profile characteristic, which a
// profile line writes joined to its value (M5, WS3, Sv3+). Cards of every
// ruleset capitalise the characteristics printed on a profile and no other
// key (models, troop, weapons), so no ruleset's list is needed here.
func characteristic(key string) bool {
	r, _ := utf8.DecodeRuneInString(key)
	return unicode.IsUpper(r)
}
