package scenarios

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"hammersim/mechanics"
)

// Unit catalogues. A catalogue file holds unit cards of one ruleset:
//
//	ruleset: fantasy
//	units:
//	  - name: Clanrats
//	    troop: Infantry
//	    profile: M5 WS3 BS3 S3 T3 W1 I4 A1 Ld5
//	    ...
//
// Wherever a scenario's question expects a unit card, a mapping with a use
// key takes the named card and changes the keys written beside it:
// {use: Clanrats, models: 40}. Cards come from the files named by the
// scenario's units key (a file or a folder, relative to the scenario), then
// from the catalogue files in the scenario's own folder (units.yaml and
// *.units.yaml), then from the built-in catalogue; the first that has the
// name wins. Anywhere in a question, profile writes characteristics on one
// line as printed, each a name and its value: "profile: M5 WS3 S3 T3".

//go:embed units/*.yaml
var builtinUnitFiles embed.FS

// Catalogue is a unit catalogue file a scenario read: the path it was read
// at and its whole text. A run records every one its scenario read
// (Scenario.Catalogues), so that its parts can rebuild the scenario with
// no file but themselves (Registry.WithCatalogues).
type Catalogue struct {
	Path   string
	Source []byte
}

// catalogueFiles says where a Registry's scenarios read their own unit
// catalogues from.
type catalogueFiles struct {
	// sealed: from nowhere; a scenario may use the built-in cards only,
	// and a units key is an error (Registry.WithoutFiles).
	sealed bool
	// recorded: from catalogues, in order, instead of the file system
	// (Registry.WithCatalogues).
	recorded   bool
	catalogues []Catalogue
}

// UnitCard is one card of a catalogue.
type UnitCard struct {
	Name    string
	Ruleset string
	// File is where the card was read: a path, or "builtin:units/NAME.yaml".
	File string
	Node *Node
}

// maxCatalogueFile bounds a catalogue file's size, as scenario files are
// bounded: the YAML reader refuses more (MaxFileSize).
const maxCatalogueFile = MaxFileSize

// Bounds on the unit catalogues one scenario reads (its units key and its
// folder together), and on those one listing of cards reads (Registry.
// UserCards). A catalogue is a few dozen kilobytes; a file of 20,000
// values (MaxNodes) takes about 50 ms and 5 MB to read and check, so the
// bounds keep the worst a scenario can ask for to a second or two and a
// few hundred megabytes, however many folders or files it names.
const (
	// MaxCatalogueFiles is how many catalogue files may be read.
	MaxCatalogueFiles = 1000
	// MaxCatalogueBytes is how many bytes they may hold in all (4 MiB).
	MaxCatalogueBytes = 4 << 20
)

// parseCatalogue reads a catalogue file's cards. A card with a problem
// that hides what it is (no name, a use key, a name taken) is reported and
// left out; the others are returned even beside errors, so that their own
// problems can be found in the same pass (Registry.UserCards). With a
// registry, a ruleset it does not know is reported once, at the ruleset
// key, and no card is read; without one (the built-in catalogue, which
// tests check, and ScenarioUnits) any ruleset is taken.
func parseCatalogue(file string, src []byte, r *Registry) ([]*UnitCard, error) {
	cards, _, err := parseCatalogueRefused(file, src, r)
	return cards, err
}

// parseCatalogueRefused is parseCatalogue, which also names the cards it
// refused for a use in them.
func parseCatalogueRefused(file string, src []byte, r *Registry) (cards []*UnitCard, refused []string, err error) {
	root, err := parseYAML(file, src, catalogueYAML)
	if err != nil {
		return nil, nil, err
	}
	d := &Decoder{file: file}
	ruleset := ""
	var units *Node
	d.Object(root, "a unit catalogue", []Field{
		{Key: "ruleset", Required: true, Decode: func(n *Node) {
			v, ok := d.Scalar(n, "the catalogue's ruleset")
			if ok && r != nil {
				if _, known := r.rulesets[v]; !known {
					d.Expecting(n, "unknown ruleset "+Excerpt(v), "expected one of: "+strings.Join(r.Names(), ", "))
					return
				}
			}
			ruleset = v
		}},
		{Key: "description", Decode: func(n *Node) { d.Text(n, "a description") }},
		{Key: "units", Required: true, Decode: func(n *Node) { units = n }},
	})
	if units != nil && units.Kind != SeqNode {
		d.Errorf(units, "expected units as a list of unit cards, found %s", units.Describe())
		units = nil
	}
	if ruleset == "" {
		units = nil // the cards cannot be read without their ruleset, reported above
	}
	if units != nil {
		for _, item := range units.Items {
			name := cardName(d, item)
			if name == "" {
				if useKey(item, 0) != nil {
					refused = append(refused, mappingText(item, "name"))
				}
				continue
			}
			if i := slices.IndexFunc(cards, func(c *UnitCard) bool { return c.Name == name }); i >= 0 {
				d.Errorf(item, "two cards named %q in one catalogue (the first at line %d)", name, cards[i].Node.Line)
				continue
			}
			setFile(item, file)
			cards = append(cards, &UnitCard{Name: name, Ruleset: ruleset, File: file, Node: item})
		}
	}
	if len(d.errs) > 0 {
		return cards, refused, d.errs
	}
	return cards, refused, nil
}

// mappingText is the text of n's key, where n is a mapping that writes it
// as a plain value, or "".
func mappingText(n *Node, key string) string {
	for i, k := range n.Keys {
		if k.Text == key && n.Vals[i].Kind == ScalarNode {
			return n.Vals[i].Text
		}
	}
	return ""
}

// cardName returns a card's name, reporting a card without one.
func cardName(d *Decoder, card *Node) string {
	if card.Kind != MapNode {
		d.Errorf(card, "expected a unit card as a mapping of keys, found %s", card.Describe())
		return ""
	}
	// Anywhere in it, a crew's or a champion's profile too: a card that
	// used cards would be expanded again at each use, as often as its
	// uses multiply.
	if k := useKey(card, 0); k != nil {
		d.Errorf(k, "a catalogue's card is written out in full; use belongs in scenarios")
		return ""
	}
	for i, k := range card.Keys {
		if k.Text == "name" {
			return d.Text(card.Vals[i], "the unit's name")
		}
	}
	d.Errorf(card, "a unit card needs a name")
	return ""
}

// CardNotes is what card c has without writing it, as its ruleset says
// (Ruleset.CardNotes); none for a ruleset that says nothing.
func (r *Registry) CardNotes(c *UnitCard) []string {
	if rs, ok := r.rulesets[c.Ruleset]; ok && rs.CardNotes != nil {
		return rs.CardNotes(c.Node)
	}
	return nil
}

// CheckCards decodes every card read from a file (the built-in ones are
// checked by tests) as a scenario's {use: NAME} would take it, so that a
// misspelt key or a bad value in a catalogue is found before a scenario
// uses the card. Problems come back as an ErrorList, each at its file,
// line and column; a card of an unknown ruleset is one of them.
func (r *Registry) CheckCards(cards []*UnitCard) error {
	if errs := r.checkCards(cards); len(errs) > 0 {
		return errs
	}
	return nil
}

// checkCards is CheckCards, its problems as a list.
func (r *Registry) checkCards(cards []*UnitCard) ErrorList {
	var errs ErrorList
	builtins := BuiltinUnits()
	for _, c := range cards {
		if strings.HasPrefix(c.File, "builtin:") {
			continue
		}
		d := &Decoder{file: c.File, registry: r, card: true}
		rs, ok := r.rulesets[c.Ruleset]
		switch {
		case !ok:
			d.Expecting(c.Node, fmt.Sprintf("card %s is of the unknown ruleset %s", Excerpt(c.Name), Excerpt(c.Ruleset)), "expected one of: "+strings.Join(r.Names(), ", "))
		case rs.Card != nil:
			d.ruleset = rs
			// The card first, so that its own name finds it.
			pool := slices.DeleteFunc(append([]*UnitCard{c}, builtins...), func(o *UnitCard) bool { return o.Ruleset != rs.Name })
			use := &Node{Kind: MapNode, Line: c.Node.Line, Col: c.Node.Col, File: c.File,
				Keys: []*Node{{Kind: ScalarNode, Text: "use", Line: c.Node.Line, Col: c.Node.Col, File: c.File}},
				Vals: []*Node{{Kind: ScalarNode, Text: c.Name, Line: c.Node.Line, Col: c.Node.Col, File: c.File}}}
			rs.Card(d, d.expand(use, pool, rs, 0, true, true))
		}
		errs = append(errs, d.errs...)
	}
	return errs
}

// setFile marks every node of n as read from file, so that errors inside a
// card name the catalogue, not the scenario that uses it.
func setFile(n *Node, file string) {
	n.File = file
	for _, k := range n.Keys {
		k.File = file
	}
	for _, v := range n.Vals {
		setFile(v, file)
	}
	for _, it := range n.Items {
		setFile(it, file)
	}
}

// BuiltinUnits returns the cards of the built-in catalogue, by ruleset and
// then in file order.
func BuiltinUnits() []*UnitCard {
	entries, _ := builtinUnitFiles.ReadDir("units")
	var out []*UnitCard
	for _, e := range entries {
		src, _ := builtinUnitFiles.ReadFile("units/" + e.Name())
		cards, err := parseCatalogue("builtin:units/"+e.Name(), src, nil)
		if err != nil {
			panic("scenarios: the built-in unit catalogue is broken: " + err.Error())
		}
		out = append(out, cards...)
	}
	return out
}

// catalogueFor gathers the cards a scenario may use, first found first:
// its units key, its folder, the built-ins. Problems are reported through d.
//
// A file the units key names itself must hold cards of the scenario's
// ruleset: one of another is refused at its name, where a folder may hold
// catalogues of several rulesets, each scenario taking its own.
func catalogueFor(d *Decoder, root *Node, ruleset string) []*UnitCard {
	cards := append(d.ownCards(root), BuiltinUnits()...)
	refused := map[string]bool{}
	for _, c := range cards {
		if at, named := d.named[c.File]; named && c.Ruleset != ruleset && !refused[c.File] {
			refused[c.File] = true
			d.Errorf(at, "unit catalogue %s holds %s cards, and this scenario is %s: name a %s catalogue here, or remove it", c.File, c.Ruleset, ruleset, ruleset)
		}
	}
	return slices.DeleteFunc(cards, func(c *UnitCard) bool { return c.Ruleset != ruleset })
}

// ownCards gathers the cards of a scenario's own catalogues, of every
// ruleset, first found first: its units key, then its folder; or, for a
// registry that reads no files, none, and for one given the catalogues a
// run recorded, theirs.
func (d *Decoder) ownCards(root *Node) []*UnitCard {
	var files catalogueFiles
	if d.registry != nil {
		files = d.registry.files
	}
	switch {
	case files.sealed:
		return nil
	case files.recorded:
		d.recordedPlaces(root)
		// A part's catalogues were read within the bounds when it was
		// run; one that carries more was not made by a run.
		var cards []*UnitCard
		for _, c := range files.catalogues {
			if !d.withinBounds(nil, c.Path, 1, len(c.Source)) {
				break
			}
			cards = append(cards, d.catalogueText(nil, c.Path, c.Source)...)
		}
		return cards
	}
	var cards []*UnitCard
	dir := d.scenarioDir()
	if root.Kind == MapNode {
		for i, k := range root.Keys {
			if k.Text == "units" {
				cards = append(cards, d.unitsKey(root.Vals[i], dir)...)
			}
		}
	}
	if dir != "" {
		d.places = append(d.places, besideScenario(dir)...)
		paths, err := filesIn(dir, "*.units.yaml")
		if err != nil {
			d.Errorf(nil, "the scenario's folder %s cannot be listed for its unit catalogues (*.units.yaml): %v", dir, pathProblem(err))
		}
		if _, err := os.Stat(filepath.Join(dir, "units.yaml")); err == nil {
			paths = append([]string{filepath.Join(dir, "units.yaml")}, paths...)
		}
		for _, p := range paths {
			if d.listedRegular(nil, p) {
				cards = append(cards, d.catalogueFile(nil, p)...)
			}
		}
	}
	return cards
}

// scenarioDir is the folder of the scenario's file, "" for a built-in or
// standard input: where its units key's paths start, and where its own
// catalogues lie.
func (d *Decoder) scenarioDir() string {
	if d.file == "" || strings.HasPrefix(d.file, "builtin:") || strings.HasPrefix(d.file, "<") {
		return ""
	}
	return filepath.Dir(d.file)
}

// readUnits reads the unit cards at path: a catalogue file, or a folder
// whose *.yaml files are catalogues, as a scenario's units key reads one.
// It keeps the cards that could be read beside the problems found, each
// at its file, line and column; err is a path that cannot be read.
func (r *Registry) readUnits(path string, read *fileSet) ([]*UnitCard, ErrorList, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, nil, fmt.Errorf("unit catalogue %s: %s", path, pathProblem(err))
	}
	d := &Decoder{file: path, registry: r, read: read}
	cards := d.unitsKey(&Node{Kind: ScalarNode, Text: path, Line: 1, Col: 1, File: path}, "")
	return cards, d.errs, nil
}

// ScenarioUnits reads the unit cards the scenario file at path may use
// besides the built-in ones: those of the catalogues its units key names,
// then those of the catalogue files in its folder (units.yaml and
// *.units.yaml), first found first, of every ruleset. A scenario that
// cannot be read is an error naming it; problems inside the files come
// back as an ErrorList, each at its file, line and column.
func ScenarioUnits(path string) ([]*UnitCard, error) {
	cards, errs, err := scenarioUnits(nil, path, nil)
	switch {
	case err != nil:
		return nil, err
	case len(errs) > 0:
		return nil, errs
	}
	return cards, nil
}

// scenarioUnits is ScenarioUnits keeping the cards that could be read
// beside the problems found; err is a scenario that cannot be read. With
// a registry, a catalogue of a ruleset it does not know is a problem.
// Files in read (nil: none) were read already and are passed over.
func scenarioUnits(r *Registry, path string, read *fileSet) ([]*UnitCard, ErrorList, error) {
	src, err := readLimited(path)
	var positioned *Error
	switch {
	case errors.As(err, &positioned):
		return nil, nil, err
	case err != nil:
		return nil, nil, fmt.Errorf("scenario %s: %s", path, pathProblem(err))
	}
	root, err := parseYAML(path, src, scenarioYAML)
	if err != nil {
		return nil, nil, err
	}
	d := &Decoder{file: path, registry: r, read: read}
	return d.ownCards(root), d.errs, nil
}

// UserCards reads the cards of the catalogues at paths, then
// those the scenario file may use when it is named (ScenarioUnits), first
// found first, and checks each as a scenario using it would read it
// (CheckCards). Every problem of every file comes back at once, as one
// ErrorList in file order: a card that could be read is checked even when
// others beside it could not. A path or scenario that cannot be read at
// all is an error naming it.
func (r *Registry) UserCards(paths []string, scenario string) ([]*UnitCard, error) {
	var cards []*UnitCard
	var errs ErrorList
	read := func(cs []*UnitCard, es ErrorList, err error) error {
		cards, errs = append(cards, cs...), append(errs, es...)
		return err
	}
	files := &fileSet{} // a file named twice is listed once, where first named
	for _, p := range paths {
		if err := read(r.readUnits(p, files)); err != nil {
			return nil, err
		}
	}
	if scenario != "" {
		if err := read(scenarioUnits(r, scenario, files)); err != nil {
			return nil, err
		}
	}
	if checked := r.checkCards(cards); len(errs)+len(checked) > 0 {
		return nil, inFileOrder(files.paths, errs, checked)
	}
	return cards, nil
}

// unitsKey reads the units key: a path, or a list of paths, each a
// catalogue file or a folder of them.
func (d *Decoder) unitsKey(n *Node, dir string) []*UnitCard {
	var cards []*UnitCard
	for _, f := range d.unitsFiles(n, dir) {
		cards = append(cards, d.catalogueFile(f.at, f.path)...)
	}
	return cards
}

// unitsFile is a catalogue file the units key names, and the item of the
// key that names it.
type unitsFile struct {
	at   *Node
	path string
}

// besideScenario are the places in a scenario's folder, dir, where it
// looks for unit catalogues: units.yaml and *.units.yaml.
func besideScenario(dir string) []CataloguePlace {
	return []CataloguePlace{{dir, "units.yaml"}, {dir, "*.units.yaml"}}
}

// CatalogueName reports whether a file named base would be read as a unit
// catalogue by a scenario in its folder that uses a card (units.yaml,
// *.units.yaml), and returns the pattern it matches.
func CatalogueName(base string) (string, bool) {
	for _, pl := range besideScenario("") {
		if ok, _ := filepath.Match(pl.Pattern, base); ok {
			return pl.Pattern, true
		}
	}
	return "", false
}

// recordedPlaces notes, for a scenario read with the catalogues a run
// recorded, where it would look for catalogues were it read from its file
// here and now, as the places of a scenario read so are noted: its folder,
// and each folder its units key names that is one here. An output put
// there (a merge's) would be read as a catalogue by the run its reproduce
// line gives.
func (d *Decoder) recordedPlaces(root *Node) {
	dir := d.scenarioDir()
	if dir == "" {
		return
	}
	d.places = append(d.places, besideScenario(dir)...)
	if root.Kind != MapNode {
		return
	}
	for i, k := range root.Keys {
		if k.Text != "units" {
			continue
		}
		items := []*Node{root.Vals[i]}
		if root.Vals[i].Kind == SeqNode {
			items = root.Vals[i].Items
		}
		for _, it := range items {
			if it.Kind != ScalarNode || it.Text == "" {
				continue
			}
			p := it.Text
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			if info, err := os.Stat(p); err == nil && info.IsDir() {
				d.places = append(d.places, CataloguePlace{p, "*.yaml"})
			}
		}
	}
}

// unitsFiles resolves the units key without reading a catalogue: each
// path, relative to dir, is a catalogue file or a folder whose *.yaml
// files are; a missing path, or a folder with none, is reported. A scenario
// reads its catalogues only when it uses a card, but checks the key
// always, so that a wrong path is never passed over in silence.
func (d *Decoder) unitsFiles(n *Node, dir string) []unitsFile {
	items := []*Node{n}
	if n.Kind == SeqNode {
		items = n.Items
		if len(items) == 0 {
			// As an empty path: a list that names nothing would hide the
			// catalogue the writer meant to give.
			d.Errorf(n, "an empty list names no unit catalogue; give a file or folder, or a list of them, or leave the key out")
		}
	}
	var files []unitsFile
	seen := unitsSeen{d: d}
	own := d.ownFile(dir)
	for _, it := range items {
		p, ok := d.Scalar(it, "a unit catalogue's path")
		if !ok {
			continue
		}
		if p == "" {
			d.Errorf(it, "an empty path; expected a unit catalogue file or folder")
			continue
		}
		if !filepath.IsAbs(p) && dir != "" {
			p = filepath.Join(dir, p)
		}
		info, err := os.Stat(p)
		if err != nil {
			d.Errorf(it, "unit catalogue %s: %v", p, pathProblem(err))
			continue
		}
		if seen.namedBefore(it, p, info) {
			continue
		}
		if !info.IsDir() {
			if own != nil && os.SameFile(own, info) {
				d.Errorf(it, "unit catalogue %s is this scenario's own file; a catalogue is a file of unit cards (ruleset: and units: [...])", p)
				continue
			}
			if !seen.readBefore(it, p, false) {
				files = append(files, unitsFile{it, p})
				if d.named == nil {
					d.named = map[string]*Node{}
				}
				d.named[p] = it
			}
			continue
		}
		d.places = append(d.places, CataloguePlace{p, "*.yaml"})
		paths, err := filesIn(p, "*.yaml")
		if err != nil {
			d.Errorf(it, "unit catalogue folder %s: %v", p, pathProblem(err))
			continue
		}
		if len(paths) == 0 {
			d.Errorf(it, "unit catalogue folder %s holds no catalogue file (*.yaml)", p)
		}
		for _, f := range paths {
			if len(files) > MaxCatalogueFiles {
				break // more than may be read, which reading reports
			}
			if own != nil && sameFileAs(own, f) {
				d.Errorf(it, "unit catalogue folder %s holds this scenario, %s, and every *.yaml file of a folder named here is read as a catalogue; keep catalogues in a folder of their own (units.yaml and *.units.yaml beside the scenario are read without naming them)", p, filepath.Base(f))
				files = nil
				break
			}
			if d.listedRegular(it, f) && !seen.readBefore(it, f, true) {
				files = append(files, unitsFile{it, f})
			}
		}
	}
	return files
}

// sameFileAs reports whether path is the file info describes.
func sameFileAs(info os.FileInfo, path string) bool {
	fi, err := os.Stat(path)
	return err == nil && os.SameFile(info, fi)
}

// ownFile is the scenario file whose units key is read with paths from
// dir, where it lies; nil when dir is "" (a built-in, standard input, or
// a catalogue named to simulate units, read from the working folder).
func (d *Decoder) ownFile(dir string) os.FileInfo {
	if dir == "" || d.scenarioDir() == "" {
		return nil
	}
	fi, err := os.Stat(d.file)
	if err != nil {
		return nil
	}
	return fi
}

// unitsSeen is what the entries of one units key have named and read so
// far, to refuse a catalogue named twice. As a list of metrics or hosts
// refuses a name given twice: a second mention reads nothing new, and is
// a slip for another catalogue, or one named under two paths.
type unitsSeen struct {
	d *Decoder
	// named are the entries, by clean path and by file.
	named []unitsEntry
	// read are the catalogue files the entries read, each with the entry
	// that reads it (folder: a folder that lists it).
	read []unitsEntry
}

type unitsEntry struct {
	at     *Node
	path   string
	info   os.FileInfo
	folder bool
}

// namedBefore reports, and refuses at it, an entry that names the file or
// folder at path (info) that an earlier entry named: by the same path, or
// by another that leads to it (./units.yaml and units.yaml, a link).
func (s *unitsSeen) namedBefore(it *Node, path string, info os.FileInfo) bool {
	clean := filepath.Clean(path)
	i := slices.IndexFunc(s.named, func(e unitsEntry) bool { return e.path == clean || os.SameFile(e.info, info) })
	if i < 0 {
		s.named = append(s.named, unitsEntry{it, clean, info, info.IsDir()})
		return false
	}
	first, kind := s.named[i].at, "file"
	if info.IsDir() {
		kind = "folder"
	}
	if it.Text == first.Text {
		s.d.Errorf(it, "%s is named twice, here and at line %d, column %d; name each unit catalogue once",
			Excerpt(it.Text), first.Line, first.Col)
	} else {
		s.d.Errorf(it, "%s names the same unit catalogue %s as %s at line %d, column %d; name each catalogue once",
			Excerpt(it.Text), kind, Excerpt(first.Text), first.Line, first.Col)
	}
	return true
}

// readBefore reports whether the catalogue file at path, which entry it
// names (folder false) or lists (a folder), was read by an earlier entry,
// and refuses it at it when so: a file one entry names and a folder
// another names holds is one catalogue named twice. Two links to one
// file in one folder are read once, without a word.
func (s *unitsSeen) readBefore(it *Node, path string, folder bool) bool {
	info, err := os.Stat(path)
	if err != nil {
		return false // its reader says why it cannot be read
	}
	i := slices.IndexFunc(s.read, func(r unitsEntry) bool { return os.SameFile(r.info, info) })
	if i < 0 {
		s.read = append(s.read, unitsEntry{it, path, info, folder})
		return false
	}
	first := s.read[i]
	held := Excerpt(filepath.Join(it.Text, filepath.Base(path))) // as the user would write it
	switch {
	case first.at == it:
		return true
	case !folder:
		s.d.Errorf(it, "%s is a catalogue of the folder %s at line %d, column %d, which reads it already; name each catalogue once",
			Excerpt(it.Text), Excerpt(first.at.Text), first.at.Line, first.at.Col)
	case first.folder:
		s.d.Errorf(it, "the folder %s holds %s, which the folder %s at line %d, column %d reads already; name each catalogue once",
			Excerpt(it.Text), held, Excerpt(first.at.Text), first.at.Line, first.at.Col)
	default:
		s.d.Errorf(it, "the folder %s holds %s, which %s at line %d, column %d names already; name each catalogue once",
			Excerpt(it.Text), held, Excerpt(first.at.Text), first.at.Line, first.at.Col)
	}
	return true
}

// CataloguePlace is a folder a scenario lists for unit catalogues, and the
// pattern their names match there: units.yaml and *.units.yaml beside the
// scenario, *.yaml in a folder its units key names.
type CataloguePlace struct {
	Dir, Pattern string
}

// CataloguePlaces are the folders, and name patterns there, the scenario
// looked in for unit catalogues when it was read: a file written at one
// would be read as a catalogue the next time, and could break that run.
func (s *Scenario) CataloguePlaces() []CataloguePlace { return slices.Clone(s.places) }

// filesIn lists the files of folder dir whose names match pattern, in
// name order, as paths. The folder's name is taken as written: joined into
// a filepath.Glob pattern, the brackets, stars, question marks and
// backslashes a folder may be named with would be read as a pattern too,
// and a scenario in g[1] would read the catalogues of g1. The folder is
// listed and each name matched, rather than dir escaped, because Glob has
// no escape character on Windows.
func filesIn(dir, pattern string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, e := range entries {
		if ok, _ := filepath.Match(pattern, e.Name()); ok {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	return paths, nil
}

// listedRegular reports whether path, a catalogue file found by listing a
// folder, is a regular file (or a link to one), and reports it, at at,
// when it is not: opening a FIFO waits for a writer that may never come,
// and a device, a socket or a folder holds no catalogue. A path the user
// names is read whatever it is, as a scenario's path is, so that a FIFO
// or /dev/stdin can be named on purpose (a reader stuck on one is ended
// by a second Ctrl-C).
func (d *Decoder) listedRegular(at *Node, path string) bool {
	info, err := os.Stat(path)
	if err != nil {
		d.Errorf(at, "unit catalogue %s: %v", path, pathProblem(err))
		return false
	}
	var kind string
	switch m := info.Mode(); {
	case m.IsRegular():
		return true
	case m.IsDir():
		kind = "a folder"
	case m&os.ModeNamedPipe != 0:
		kind = "a FIFO"
	case m&os.ModeDevice != 0:
		kind = "a device"
	case m&os.ModeSocket != 0:
		kind = "a socket"
	default:
		kind = "a special file"
	}
	d.Errorf(at, "unit catalogue %s is not a regular file (%s); a unit catalogue is a YAML file", path, kind)
	return false
}

// fileSet is the unit catalogue files one scenario, or one listing of
// cards, has read: a set of files told apart as the operating system does
// (os.SameFile), not by path (units.yaml, ./units.yaml, an absolute path
// and a link to it are one file), and their bytes in all, which
// MaxCatalogueFiles and MaxCatalogueBytes bound.
type fileSet struct {
	files []os.FileInfo
	// paths are the files added, in the order they were, as named.
	paths []string
	// n and bytes count the files read and their bytes.
	n, bytes int
	// full is set once a bound was passed and reported: nothing more is
	// read.
	full bool
}

// add adds the file at path and reports whether it was not in the set. A
// path that cannot be examined is reported as new, and its reader then
// says why it cannot be read.
func (s *fileSet) add(path string) bool {
	info, err := os.Stat(path)
	if err != nil {
		s.paths = append(s.paths, path)
		return true
	}
	for _, f := range s.files {
		if os.SameFile(f, info) {
			return false
		}
	}
	s.files, s.paths = append(s.files, info), append(s.paths, path)
	return true
}

// readCatalogue reads at most a byte more than a catalogue may hold.
func readCatalogue(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxCatalogueFile+1))
}

func pathProblem(err error) string {
	if os.IsNotExist(err) {
		return "no such file or folder"
	}
	return err.Error()
}

// catalogueFile reads one catalogue file, reporting its errors as the
// scenario's (at, when set, is the units key that named it).
func (d *Decoder) catalogueFile(at *Node, path string) []*UnitCard {
	// A file found twice (named by the units key and lying beside the
	// scenario as units.yaml, or named twice under other paths) is one
	// catalogue: read, listed and hashed once, where first found.
	if d.read == nil {
		d.read = &fileSet{}
	}
	if d.read.full || !d.read.add(path) {
		return nil
	}
	if !d.withinBounds(at, path, 1, 0) {
		return nil
	}
	// Reading stops a byte past the limit: a file's size says nothing of
	// /dev/zero or a FIFO, which would otherwise be read without end.
	src, err := readCatalogue(path)
	if err != nil {
		d.Errorf(at, "unit catalogue %s: %v", path, pathProblem(err))
		return nil
	}
	if len(src) > maxCatalogueFile {
		d.Errorf(at, "unit catalogue %s is larger than %d bytes (1 MiB), the most a catalogue may be", path, maxCatalogueFile)
		return nil
	}
	if !d.withinBounds(at, path, 0, len(src)) {
		return nil
	}
	return d.catalogueText(at, path, src)
}

// withinBounds counts files more catalogue files read and size more
// bytes, those of the file at path, and reports whether the catalogues
// read are still within MaxCatalogueFiles and MaxCatalogueBytes. Past
// either, it reports the problem once, at at, and nothing more is read:
// a scenario reads the first catalogues it names, and a list of folders
// or a few large files must not make it read without end.
func (d *Decoder) withinBounds(at *Node, path string, files, size int) bool {
	if d.read == nil {
		d.read = &fileSet{}
	}
	r := d.read
	r.n, r.bytes = r.n+files, r.bytes+size
	switch {
	case r.full:
		return false
	case r.n > MaxCatalogueFiles:
		d.Errorf(at, "unit catalogue %s is one more than the %d catalogue files one scenario, or one simulate units, may read; name fewer", path, MaxCatalogueFiles)
	case r.bytes > MaxCatalogueBytes:
		d.Errorf(at, "unit catalogue %s brings the catalogues read to more than %d bytes (%d MiB), the most one scenario, or one simulate units, may read; name fewer or smaller catalogues", path, MaxCatalogueBytes, MaxCatalogueBytes>>20)
	default:
		return true
	}
	r.full = true
	return false
}

// catalogueText reads the cards of the catalogue text src, read at path,
// and records the file among those the scenario read.
func (d *Decoder) catalogueText(at *Node, path string, src []byte) []*UnitCard {
	d.catalogues = append(d.catalogues, Catalogue{Path: path, Source: src})
	cards, refused, err := parseCatalogueRefused(path, src, d.registry)
	d.refusedCards = append(d.refusedCards, refused...)
	if err != nil {
		var list ErrorList
		var one *Error
		switch {
		case errors.As(err, &list):
			d.errs = append(d.errs, list...)
		case errors.As(err, &one):
			d.errs = append(d.errs, one)
		default:
			d.Errorf(at, "unit catalogue %s: %v", path, err)
		}
	}
	return cards
}

// expandUnits resolves, in every question of root, the mappings that use a
// catalogue card, and spreads every profile line into its keys.
// It returns the names of the question's unit cards: the named mappings
// its keys hold, directly or in a list.
func expandUnits(d *Decoder, root *Node, rs *Ruleset) (units []string) {
	if rs == nil || root.Kind != MapNode {
		return nil
	}
	var cards []*UnitCard
	loaded := false
	for i, k := range root.Keys {
		if _, ok := rs.Questions[k.Text]; !ok {
			continue
		}
		if !loaded && usesCards(root.Vals[i], 0) {
			cards, loaded = catalogueFor(d, root, rs.Name), true
		}
		names := cardNames(root.Vals[i])
		root.Vals[i] = d.expandQuestion(root.Vals[i], cards, rs, rs.UnitPlaces[k.Text])
		units = append(units, names...)
	}
	return units
}

// cardNames lists the cards a question's keys hold, directly or in a list,
// each once: the card a mapping uses (its use key, whatever name it is
// then given), or the one it writes out (its name).
func cardNames(q *Node) []string {
	var out []string
	add := func(m *Node) {
		name := ""
		for i, k := range m.Keys {
			if m.Vals[i].Kind != ScalarNode {
				continue
			}
			if k.Text == "use" {
				name = m.Vals[i].Text
				break
			}
			if k.Text == "name" {
				name = m.Vals[i].Text
			}
		}
		if name != "" && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	for _, v := range q.Vals {
		add(v)
		for _, it := range v.Items {
			add(it)
		}
	}
	return out
}

// useKey returns the first use key of a mapping in n, n itself included,
// or nil.
func useKey(n *Node, depth int) *Node {
	if depth > maxDepth {
		return nil
	}
	for i, k := range n.Keys {
		if k.Text == "use" {
			return k
		}
		if u := useKey(n.Vals[i], depth+1); u != nil {
			return u
		}
	}
	for _, it := range n.Items {
		if u := useKey(it, depth+1); u != nil {
			return u
		}
	}
	return nil
}

// usesCards reports whether any mapping under n has a use key.
func usesCards(n *Node, depth int) bool { return useKey(n, depth) != nil }

// expandQuestion is expand for a question's mapping: a use takes a card
// at the keys places names (each a unit or a list of them) alone, or, where
// places is nil, wherever it is written.
func (d *Decoder) expandQuestion(q *Node, cards []*UnitCard, rs *Ruleset, places []string) *Node {
	if places == nil || q.Kind != MapNode {
		return d.expand(q, cards, rs, 0, true, true)
	}
	out := *q
	out.Vals = make([]*Node, len(q.Vals))
	for i, v := range q.Vals {
		out.Vals[i] = d.expand(v, cards, rs, 1, slices.Contains(places, q.Keys[i].Text), false)
	}
	return &out
}

// expand returns n with its uses resolved and its profiles spread, sharing
// nothing it changes with n. A use takes a card in n (or in the items of
// n, a list of units) when use is set, and in what n holds when anywhere
// is.
func (d *Decoder) expand(n *Node, cards []*UnitCard, rs *Ruleset, depth int, use, anywhere bool) *Node {
	if depth > maxDepth || d.Stopped() {
		return n
	}
	switch n.Kind {
	case SeqNode:
		out := *n
		out.Items = make([]*Node, len(n.Items))
		for i, it := range n.Items {
			out.Items[i] = d.expand(it, cards, rs, depth+1, use, anywhere)
		}
		return &out
	case MapNode:
		// The profile is spread before a card is used, so that a profile
		// beside use changes the card's characteristics one by one.
		m := d.spreadProfile(n)
		if i := slices.IndexFunc(m.Keys, func(k *Node) bool { return k.Text == "use" }); i >= 0 && use {
			m = d.useCard(m, i, cards, rs)
		}
		out := *m
		out.Vals = make([]*Node, len(m.Vals))
		for i, v := range m.Vals {
			out.Vals[i] = d.expand(v, cards, rs, depth+1, anywhere, anywhere)
		}
		return &out
	}
	return n
}

// withoutUse is n without its use key (at), marked as a unit whose card
// could not be had: its other keys are still read and checked, and none is
// reported missing.
func withoutUse(n *Node, at int) *Node {
	out := *n
	out.Keys = slices.Delete(slices.Clone(n.Keys), at, at+1)
	out.Vals = slices.Delete(slices.Clone(n.Vals), at, at+1)
	out.cardless = true
	return &out
}

// useCard returns the card n's use key names with n's other keys written
// over it: a key n shares with the card replaces the card's, in place; a
// key the card lacks is added after the card's.
func (d *Decoder) useCard(n *Node, at int, cards []*UnitCard, rs *Ruleset) *Node {
	name, ok := d.Scalar(n.Vals[at], "a unit card's name")
	if !ok {
		return withoutUse(n, at) // said above: no card is named
	}
	i := slices.IndexFunc(cards, func(c *UnitCard) bool { return c.Name == name })
	if i < 0 && slices.Contains(d.refusedCards, name) {
		return withoutUse(n, at) // the card's own error says what is wrong with it
	}
	if i < 0 {
		names := d.namesOf(cards)
		if len(d.errs) >= maxErrors {
			// Past what a report shows, the nearest name (a search of
			// every card) would be worked out for nothing.
			d.Errorf(n.Vals[at], "no %s unit card named %q (simulate units lists them)", rs.Name, name)
		} else if near := mechanics.Nearest(name, names); near != "" {
			d.Errorf(n.Vals[at], "no %s unit card named %q; did you mean %q? (simulate units lists them)", rs.Name, name, near)
		} else {
			listed := strings.Join(names[:min(len(names), maxListedCards)], ", ")
			if more := len(names) - maxListedCards; more > 0 {
				listed += fmt.Sprintf(" and %d more", more)
			}
			d.Errorf(n.Vals[at], "no %s unit card named %q; the catalogue has: %s (simulate units lists them)", rs.Name, name, listed)
		}
		return withoutUse(n, at)
	}
	card := d.spreadProfile(cards[i].Node)
	if !strings.HasPrefix(n.File, builtinPrefix) && n.File != card.File {
		card = copiedVia(card, n, name) // used from elsewhere than its catalogue
	}
	out := &Node{Kind: MapNode, Line: n.Line, Col: n.Col, File: n.File, Keys: slices.Clone(card.Keys), Vals: slices.Clone(card.Vals), card: card,
		noMissing: card.noMissing || n.noMissing}
	for j, k := range n.Keys {
		if j == at {
			continue
		}
		out.changed = append(out.changed, k.Text)
		if c := slices.IndexFunc(out.Keys, func(ck *Node) bool { return ck.Text == k.Text }); c >= 0 {
			out.Keys[c], out.Vals[c] = k, n.Vals[j]
			continue
		}
		out.Keys = append(out.Keys, k)
		out.Vals = append(out.Vals, n.Vals[j])
	}
	return out
}

// namesOf returns the names of cards, sorted, each once, worked out once
// for the cards of a scenario (tens of thousands in a catalogue folder,
// and a misspelt name in every point of a sweep).
func (d *Decoder) namesOf(cards []*UnitCard) []string {
	if len(cards) == 0 {
		return nil
	}
	if len(d.cardNamesOf) == len(cards) && &d.cardNamesOf[0] == &cards[0] {
		return d.cardNames // the same slice of cards
	}
	seen := make(map[string]bool, len(cards))
	var names []string
	for _, c := range cards {
		if !seen[c.Name] {
			seen[c.Name] = true
			names = append(names, c.Name)
		}
	}
	slices.Sort(names)
	d.cardNames, d.cardNamesOf = names, cards
	return names
}

// maxListedCards is how many card names the error for a use of a name no
// card has, and none comes near, lists.
const maxListedCards = 20

// builtinPrefix begins the file name of every built-in unit catalogue.
const builtinPrefix = "builtin:"

// copiedVia returns a deep copy of n, a card's text, whose every node
// names use, the mapping that uses the card named name (Node.via): a
// problem in a built-in card's text is placed at the use, one in a card of
// the user's names it (Decoder.add).
func copiedVia(n, use *Node, name string) *Node {
	out := *n
	out.via, out.viaCard = use, name
	copyAll := func(ns []*Node) []*Node {
		if ns == nil {
			return nil
		}
		c := make([]*Node, len(ns))
		for i, x := range ns {
			c[i] = copiedVia(x, use, name)
		}
		return c
	}
	out.Items, out.Keys, out.Vals = copyAll(n.Items), copyAll(n.Keys), copyAll(n.Vals)
	return &out
}

// CardKey tells how a mapping that uses a unit card came by key: the
// value the card itself writes for it (nil where the card writes none),
// and whether the use writes key beside the card, changing it. used is
// false for a mapping that uses no card. A ruleset reads it where a key's
// meaning hangs on another's (a card's points are for its models).
func (n *Node) CardKey(key string) (card *Node, changed, used bool) {
	if n.card == nil {
		return nil, false, false
	}
	if i := slices.IndexFunc(n.card.Keys, func(k *Node) bool { return k.Text == key }); i >= 0 {
		card = n.card.Vals[i]
	}
	return card, slices.Contains(n.changed, key), true
}

// spreadProfile returns m with a "profile: M5 WS3 ..." line replaced by its
// keys, each positioned where it is written in the line.
func (d *Decoder) spreadProfile(m *Node) *Node {
	i := slices.IndexFunc(m.Keys, func(k *Node) bool { return k.Text == "profile" })
	if i < 0 {
		return m
	}
	line := m.Vals[i]
	tokens := profileTokens(line.Text)
	if line.Kind != ScalarNode || len(tokens) == 0 {
		found := line.Describe()
		if line.Kind == ScalarNode {
			found = "a blank line"
		}
		d.Errorf(line, "expected profile as one line of characteristics, such as %q, found %s", d.profileExample(), found)
		// The key is known: without it the unit's other keys are read
		// and checked, and none is reported for it twice, nor the keys it
		// would have given as missing.
		out := *m
		out.Keys = slices.Delete(slices.Clone(m.Keys), i, i+1)
		out.Vals = slices.Delete(slices.Clone(m.Vals), i, i+1)
		out.noMissing = true
		return &out
	}
	var keys, vals []*Node
	for _, tok := range tokens {
		name, value := splitCharacteristic(tok.text)
		at := func(off int) *Node {
			n := line.at(tok.col + off + 1)
			return &Node{Kind: ScalarNode, Line: n.Line, Col: n.Col, File: line.File}
		}
		if name == "" || value == "" {
			d.ErrAt(line, tok.col+1, fmt.Sprintf("expected a characteristic and its value, such as WS3 or Sv3+, found %q", tok.text))
			continue
		}
		if slices.ContainsFunc(m.Keys, func(k *Node) bool { return k.Text == name }) || slices.ContainsFunc(keys, func(k *Node) bool { return k.Text == name }) {
			d.ErrAt(line, tok.col+1, fmt.Sprintf("%s is given twice: in the profile and elsewhere in the card", name))
			continue
		}
		k, v := at(0), at(len(name))
		k.Text, v.Text = name, value
		keys, vals = append(keys, k), append(vals, v)
	}
	out := *m
	out.Keys = slices.Concat(m.Keys[:i:i], keys, m.Keys[i+1:])
	out.Vals = slices.Concat(m.Vals[:i:i], vals, m.Vals[i+1:])
	return &out
}

// profileExample is a profile line of the ruleset being read.
func (d *Decoder) profileExample() string {
	if d.ruleset != nil && d.ruleset.ProfileExample != "" {
		return d.ruleset.ProfileExample
	}
	return "M5 WS3 S3 T3 W1 I4 A1 Ld5"
}

type profileToken struct {
	text string
	col  int // 0-based offset in the line
}

// profileTokens splits a profile line at spaces.
func profileTokens(s string) []profileToken {
	var out []profileToken
	start := -1
	for i, r := range s + " " {
		switch {
		case unicode.IsSpace(r) && start >= 0:
			out = append(out, profileToken{text: s[start:i], col: start})
			start = -1
		case !unicode.IsSpace(r) && start < 0:
			start = i
		}
	}
	return out
}

// splitCharacteristic splits "WS3" into "WS" and "3", "Sv3+" into "Sv" and
// "3+": the name is the leading letters, the value the rest.
func splitCharacteristic(tok string) (name, value string) {
	i := strings.IndexFunc(tok, func(r rune) bool { return !unicode.IsLetter(r) })
	if i <= 0 {
		return "", ""
	}
	return tok[:i], tok[i:]
}

// UnitNames lists the names of the unit cards a scenario's question wrote
// out or used, in order, each once: what its units are called.
func UnitNames(s *Scenario) []string { return slices.Clone(s.units) }
