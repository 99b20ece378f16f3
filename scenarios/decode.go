package scenarios

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"hammersim/mechanics"
	"hammersim/mechanics/dice"
)

// Decoder turns a node tree into typed scenario values, collecting errors
// with their positions and registering every sweep it meets as an axis.
// One Decoder reads one scenario file; a ruleset's questions receive it and
// report every problem through it, so that a load lists them all.
type Decoder struct {
	// ctx stops the reading (Stopped); nil never does.
	ctx     context.Context
	stopped bool
	file    string
	errs    ErrorList
	seen    map[string]bool // errors already reported, by text
	axes    Axes
	path    []string
	// inSweep is set while decoding the items of a swept list of mappings,
	// where a further sweep would make the axes depend on each other.
	inSweep bool
	// ruleset is the scenario's; registry knows the others, to tell a rule
	// of another game from a misspelt one.
	ruleset  *Ruleset
	registry *Registry
	// catalogues are the unit catalogue files read, in order; places the
	// folders and name patterns they were found by.
	catalogues []Catalogue
	places     []CataloguePlace
	// named are the catalogue files the scenario's units key names
	// itself, not through a folder, each with the item that names it: one
	// of another ruleset is refused there, where a folder's is passed by.
	named map[string]*Node
	// refusedCards are the names of the catalogue cards refused as they
	// were read (a use in them): a use of one is not reported again as a
	// card that does not exist.
	refusedCards []string
	// cardNames are the names of the cards a use may name, sorted, each
	// once, worked out for the first use of a name no card has
	// (Decoder.useCard): of the cards in cardNamesOf, the same slice.
	cardNames   []string
	cardNamesOf []*UnitCard
	// read are the catalogue files read so far, shared by the decoders of
	// one listing (Registry.UserCards), so that a file found twice is read
	// once.
	read *fileSet
	// question is the question's mapping without its metrics key, which
	// Parse reads itself: an unknown key in it names metrics among the
	// keys allowed.
	question *Node
	// card is set while a catalogue's card is checked by itself, as a use
	// of it that changes nothing (Registry.checkCards): what only a
	// scenario's use of it settles is not judged then.
	card bool
	// dice are the dice of rules and options read so far, by their text,
	// and diceWork the steps their exact distributions take together
	// (ExactDice).
	dice     map[string]dice.Expr
	diceWork float64
}

// MaxDiceWork is the most work, in dice.Expr.ExactWork's steps, that the
// exact distributions of a scenario's dice (its rules', options', attacks'
// and shots' dice, each different text once) may take together: each may take
// dice.MaxExactWork, a fraction of a second, and a sweep of many would
// otherwise make reading the scenario take minutes, before any trial and
// out of reach of an interruption.
const MaxDiceWork = 4 * dice.MaxExactWork

// ExactDice admits dice written at n (a rule's or an option's, whose
// exact distribution the question works out), as what says ("Random
// Movement (14D100)"): refused when its exact distribution, or those of
// all the file's dice together, would take too long to work out. Dice of
// the same text are one: the expression returned is the first read of
// that text, whose distribution is worked out once for all its uses.
func (d *Decoder) ExactDice(n *Node, e dice.Expr, what string) (dice.Expr, bool) {
	text := e.String()
	if first, ok := d.dice[text]; ok {
		return first, true
	}
	work := e.ExactWork()
	if work > dice.MaxExactWork {
		d.Errorf(n, "%s %s", what, dice.TooMuchWork(work))
		return e, false
	}
	if d.diceWork+work > MaxDiceWork {
		d.Errorf(n, "%s: the exact distributions of the dice of this scenario (its catalogue cards included) would take about %.2g steps together, with this one; at most %.0g: use fewer or smaller dice", what, d.diceWork+work, MaxDiceWork)
		return e, false
	}
	if d.dice == nil {
		d.dice = map[string]dice.Expr{}
	}
	d.dice[text], d.diceWork = e, d.diceWork+work
	return e, true
}

// CheckingCard reports whether the decoder is checking a catalogue's card
// by itself, as a use of it that changes nothing, rather than reading a
// scenario: a ruleset then leaves alone what only a real use settles (the
// points of a card whose models are swept, which a use must give).
func (d *Decoder) CheckingCard() bool { return d.card }

// Stopped reports whether the reading was stopped by its context, once it
// is done. A question's compile step asks it before each model it builds,
// so that a large sweep stops soon after Ctrl-C; Parse then returns
// ErrStopped.
func (d *Decoder) Stopped() bool {
	if !d.stopped && d.ctx != nil {
		select {
		case <-d.ctx.Done():
			d.stopped = true
		default:
		}
	}
	return d.stopped
}

// FailedWithin reports whether a problem has been reported inside n (nil:
// none): at n or a node below it, or within a scalar's text, in the node's
// own file (a catalogue card's nodes are in the catalogue's). A check that
// weighs values against each other (a charge's distance against the
// longest charge) waits for the values it reads to be read: one left out
// would make it report a problem that is not there.
func (d *Decoder) FailedWithin(n *Node) bool {
	if n == nil || len(d.errs) == 0 {
		return false
	}
	var within func(x *Node) bool
	within = func(x *Node) bool {
		file := d.file
		if x.File != "" {
			file = x.File
		}
		for _, e := range d.errs {
			if e.File == file && e.Line == x.Line && e.Col >= x.Col && e.Col <= x.Col+max(len(x.Text), 1) {
				return true
			}
		}
		return slices.ContainsFunc(slices.Concat(x.Items, x.Keys, x.Vals), within)
	}
	return within(n)
}

// Errorf reports a problem at n's position (the top of the file when n is
// nil). Repeats of one message at one place are reported once.
func (d *Decoder) Errorf(n *Node, format string, args ...any) {
	d.add(n, &Error{Msg: fmt.Sprintf(format, args...)})
}

// at is n's place as an Error with no message.
func (d *Decoder) at(n *Node) Error {
	e := Error{File: d.file, Line: n.Line, Col: n.Col}
	if n.File != "" {
		e.File = n.File
	}
	return e
}

// add records e at n's place (or the file's start), unless the same
// problem is already recorded. Every problem is kept, however many: an
// ErrorList prints the first maxErrors and counts the rest.
func (d *Decoder) add(n *Node, e *Error) {
	e.File, e.Line, e.Col = d.file, 1, 1
	switch {
	case n == nil || n.via == nil:
	case strings.HasPrefix(n.File, builtinPrefix):
		// In a built-in card's text, which the user has no file of: at
		// the use that made the problem, naming the card.
		e.Card, n = n.viaCard, n.via
	default:
		// In a card of the user's: there, naming the use.
		use := d.at(n.via)
		e.UsedAt = fmt.Sprintf("%s:%d:%d", use.File, use.Line, use.Col)
	}
	if n != nil {
		e.Line, e.Col = n.Line, n.Col
		if n.File != "" {
			e.File = n.File
		}
	}
	key := e.Error()
	if d.seen == nil {
		d.seen = map[string]bool{}
	}
	if d.seen[key] {
		return
	}
	d.seen[key] = true
	d.errs = append(d.errs, e)
}

// ErrAt reports an error inside a scalar, col bytes into its text (1-based).
// Where YAML has changed the text (a block scalar, an escape in quotes, a
// value folded over lines) it points at the start of the value instead.
func (d *Decoder) ErrAt(n *Node, col int, msg string) {
	at := n.at(col)
	d.Errorf(&at, "%s", msg)
}

// Expecting reports msg at n's position, as Errorf does, followed by
// expected: what the place takes, in the format's own words, printed whole
// however long it is (msg, which may quote the input, is cut short when
// long; quote the input with Excerpt).
func (d *Decoder) Expecting(n *Node, msg, expected string) {
	d.add(n, &Error{Msg: msg, Expected: expected})
}

// ErrExpecting reports msg at col of n's text, as ErrAt does, followed by
// expected: what the place takes, in the format's own words, which is
// printed whole however long it is (msg, which may quote the input, is cut
// short when long).
func (d *Decoder) ErrExpecting(n *Node, col int, msg, expected string) {
	at := n.at(col)
	d.add(&at, &Error{Msg: msg, Expected: expected})
}

// Field is one key a mapping may hold.
type Field struct {
	Key      string
	Required bool
	Decode   func(*Node)
}

// Object decodes the mapping n with the given fields. Unknown and missing
// keys are errors naming the keys that are allowed.
func (d *Decoder) Object(n *Node, what string, fields []Field) bool {
	if n.Kind != MapNode {
		d.Errorf(n, "expected %s as a mapping of keys, found %s", what, n.Describe())
		return false
	}
	found := make([]bool, len(fields))
	for i, k := range n.Keys {
		j := slices.IndexFunc(fields, func(f Field) bool { return f.Key == k.Text })
		if j < 0 {
			allowed := fields
			if n == d.question {
				allowed = append(slices.Clip(fields), Field{Key: "metrics"})
			}
			d.unknownKey(k, what, allowed)
			continue
		}
		found[j] = true
		d.path = append(d.path, k.Text)
		fields[j].Decode(n.Vals[i])
		d.path = d.path[:len(d.path)-1]
	}
	for j, f := range fields {
		if f.Required && !found[j] && !n.cardless && !(n.noMissing && characteristic(f.Key)) {
			d.Errorf(n, "%s is missing the key %q", what, f.Key)
		}
	}
	return true
}

// UnitKeys are the keys of a unit that the reader resolves before a
// ruleset reads the unit: use, which takes a unit card (not in a card
// itself), and profile, a line of characteristics spread into their keys.
// A ruleset lists them among a unit's fields, so that an unknown key's
// message names every key a unit takes; they never reach Object
// themselves.
func (d *Decoder) UnitKeys() []Field {
	resolved := func(n *Node) { d.Errorf(n, "this key is read before the unit, where it is written") }
	if d.card {
		return []Field{{Key: "profile", Decode: resolved}}
	}
	return []Field{{Key: "use", Decode: resolved}, {Key: "profile", Decode: resolved}}
}

// characteristic reports whether key is one a profile line may give: a
// characteristic's name starts with a capital (M, WS, Ld, Sv), where other
// keys (name, models) are lower case.
func characteristic(key string) bool { return key != "" && unicode.IsUpper(rune(key[0])) }

func (d *Decoder) unknownKey(k *Node, what string, fields []Field) {
	if k.File != "" {
		// A key written in a catalogue's card: a card takes no use.
		fields = slices.DeleteFunc(slices.Clone(fields), func(f Field) bool { return f.Key == "use" })
	}
	keys := make([]string, len(fields))
	for i, f := range fields {
		keys[i] = f.Key
		if strings.EqualFold(f.Key, k.Text) {
			d.Errorf(k, "unknown key %s in %s; did you mean %q?", Excerpt(k.Text), what, f.Key)
			return
		}
	}
	msg := fmt.Sprintf("unknown key %s in %s", Excerpt(k.Text), what) + DidYouMean(k.Text, keys)
	d.add(k, &Error{Msg: msg, Expected: "expected one of: " + strings.Join(keys, ", ")})
}

// DidYouMean is ` (did you mean "NAME"?)` for the name of names a
// misspelt one was likely meant to be (NearName), "" when none is: it
// goes before the list of every name, which it would be lost behind.
func DidYouMean(name string, names []string) string {
	if near := NearName(name, names); near != "" {
		return fmt.Sprintf(" (did you mean %q?)", near)
	}
	return ""
}

// NearName is the one of names a misspelt name was likely meant to be,
// "" when none is: within an edit for every three letters (modls is
// models, chrage charge; kills is not hits, three edits in five letters),
// and none for a name of fewer than four, which one edit turns into
// another (A into M).
func NearName(name string, names []string) string {
	n := utf8.RuneCountInString(name)
	if n < 4 {
		return ""
	}
	near := mechanics.NearestWithin(name, names, min(n/3, 3))
	if utf8.RuneCountInString(near) < 4 {
		return ""
	}
	return near
}

// Scalar returns n's text, or reports that what was expected is missing.
// A value that may be swept is read by Sweep, which takes a list apart
// before it reads each value: a list found here is one where one value
// is expected, and the error says so.
func (d *Decoder) Scalar(n *Node, what string) (string, bool) {
	if n.Kind != ScalarNode {
		hint := ""
		if n.Kind == SeqNode {
			hint = " (this value takes one: it cannot be swept)"
		}
		d.Errorf(n, "expected %s, found %s%s", what, n.Describe(), hint)
		return "", false
	}
	return n.Text, true
}

// Name reads an identifier, such as a scenario's or a unit's name: text
// that is not empty nor only spaces.
func (d *Decoder) Name(n *Node, what string) string {
	s, ok := d.Scalar(n, what)
	switch {
	case !ok:
	case strings.TrimFunc(s, blankRune) == "":
		d.Errorf(n, "%s is empty; give it a name", what)
	case strings.TrimFunc(s, blankRune) != s:
		// Tables and plots show no such space: two names alike but for
		// it would read as one.
		d.Errorf(n, "%s %s begins or ends with a space or an invisible character; remove it", what, Excerpt(s))
	case strings.ContainsFunc(s, invisible):
		d.Errorf(n, "%s %s holds the invisible character %U; remove it", what, Excerpt(s), []rune(s[strings.IndexFunc(s, invisible):])[0])
	case utf8.RuneCountInString(s) > maxNameLen:
		d.Errorf(n, "%s %s is %d characters long; at most %d", what, Excerpt(s), utf8.RuneCountInString(s), maxNameLen)
	}
	if ok {
		d.printable(n, what, s)
	}
	return s
}

// blankRune reports a space or an invisible character, which a name may not
// begin or end with.
func blankRune(r rune) bool { return unicode.IsSpace(r) || invisible(r) }

// invisible reports the characters that show nothing and join nothing: a
// zero-width space (U+200B), a word joiner (U+2060), a byte order mark
// (U+FEFF) and a soft hyphen (U+00AD). Two names alike but for one print
// alike. The joiners some scripts write words with (U+200C, U+200D) are
// allowed inside a name.
func invisible(r rune) bool {
	return r == '\u200B' || r == '\u2060' || r == '\uFEFF' || r == '\u00AD'
}

// printable reports text that holds a control character (a newline, a
// tab, an escape), a line or paragraph separator, or a bidirectional
// embedding, override or isolate: names and descriptions are printed in
// tables and to terminals, where such characters would break the table's
// lines, be read by the terminal as commands, or reorder the text around
// them. The marks that only set a direction (U+200E, U+200F, U+061C),
// ordinary in right-to-left names, are allowed.
func (d *Decoder) printable(n *Node, what, s string) {
	i := strings.IndexFunc(s, func(r rune) bool { return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || reorders(r) })
	if i < 0 {
		return
	}
	r := []rune(s[i:])[0]
	if reorders(r) {
		d.Errorf(n, "%s %s holds the bidirectional control %U, which reorders the text around it; remove it", what, Excerpt(s), r)
		return
	}
	d.Errorf(n, "%s %s holds the control character %U; write it on one line, without tabs or escape codes", what, Excerpt(s), r)
}

// reorders reports the bidirectional embeddings, overrides and isolates
// (U+202A to U+202E, U+2066 to U+2069).
func reorders(r rune) bool {
	return r >= '\u202A' && r <= '\u202E' || r >= '\u2066' && r <= '\u2069'
}

// Text is Scalar without the flag: "" after an error.
func (d *Decoder) Text(n *Node, what string) string {
	s, _ := d.Scalar(n, what)
	return s
}

// IntIn reads a whole number from lo to hi.
func (d *Decoder) IntIn(n *Node, what string, lo, hi int) (int, bool) {
	v, ok := d.Int64In(n, what, int64(lo), int64(hi))
	return int(v), ok
}

// Int64In reads a whole number from lo to hi, for counts that may pass
// what an int holds on every platform, such as trials.
func (d *Decoder) Int64In(n *Node, what string, lo, hi int64) (int64, bool) {
	s, ok := d.Scalar(n, what+" (a whole number)")
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.TrimPrefix(s, "+"), 10, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		d.Errorf(n, "expected %s as a whole number from %d to %d, found %s", what, lo, hi, Excerpt(s))
		return 0, false
	}
	if err != nil { // past an int64
		d.Errorf(n, "%s %s is out of range; expected %d to %d", what, Excerpt(s), lo, hi)
		return 0, false
	}
	if v < lo || v > hi {
		d.Errorf(n, "%s %d is out of range; expected %d to %d", what, v, lo, hi)
		return 0, false
	}
	return v, true
}

// Boolean reads true or false.
func (d *Decoder) Boolean(n *Node, what string) (bool, bool) {
	s, ok := d.Scalar(n, what+" (true or false)")
	if !ok {
		return false, false
	}
	switch s {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	d.Errorf(n, "expected %s as true or false, found %s", what, Excerpt(s))
	return false, false
}

// Param is a value that a scenario may sweep: one value, or one per Point
// of its axis.
//
// The zero Param is unset: the key was absent or its value was wrong.
type Param[T any] struct {
	vals []T
	axis int // 1 + index into the decoder's axes; 0 when not swept
}

// Fixed is a parameter with one value that no sweep changes: the default
// of a key that was not written.
func Fixed[T any](v T) Param[T] { return Param[T]{vals: []T{v}} }

// At returns the value at a Point of the sweep.
func (p Param[T]) At(pt Point) T {
	if p.axis == 0 {
		return p.vals[0]
	}
	return p.vals[pt[p.axis-1]]
}

// Readout marks p's axis, if it is swept, as a readout: its values do not
// change what a trial does, only how its observations are read (a charge's
// distance), so every value of it shares one model.
func Readout[T any](d *Decoder, p Param[T]) {
	if p.axis > 0 {
		d.axes[p.axis-1].Readout = true
	}
}

// Values returns every value the parameter takes.
func (p Param[T]) Values() []T { return p.vals }

// Set reports whether the parameter was given at all.
func (p Param[T]) Set() bool { return len(p.vals) > 0 }

// Point picks one value of every axis: Point[i] indexes axis i's values.
type Point []int

// maxSweepValues bounds one axis.
const maxSweepValues = 10_000

// MaxPoints bounds a whole sweep: the points of all axes together, and so
// the models a scenario may compile into.
const MaxPoints = 100_000

var rangeRE = regexp.MustCompile(`^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$`)

// Sweep decodes n as one value or a sweep of values. A list is a sweep; so
// is "a..b" when ranges is set (integers a to b). name is the parameter's
// name; toParam turns a value into what results show for it.
func Sweep[T any](d *Decoder, n *Node, name string, ranges bool, one func(*Node) (T, bool), toParam func(T) any) Param[T] {
	var vals []T
	var at []*Node // where each of vals is written, for a list
	switch {
	case n.Kind == SeqNode:
		if len(n.Items) == 0 {
			d.Errorf(n, "empty list for %s; give one value or a list of values to sweep", name)
			return Param[T]{}
		}
		for _, item := range n.Items {
			if v, ok := one(item); ok {
				vals, at = append(vals, v), append(at, item)
			}
		}
	case ranges && n.Kind == ScalarNode && rangeRE.MatchString(n.Text):
		m := rangeRE.FindStringSubmatch(n.Text)
		a, errA := strconv.Atoi(m[1])
		b, errB := strconv.Atoi(m[2])
		// The count b-a+1 in unsigned arithmetic, which cannot overflow
		// when b >= a; the loop counts values rather than running v up to
		// b, which could wrap at the largest int.
		if errA != nil || errB != nil {
			// An end past any int is out of range as such a value is
			// alone: one says so, with what it expects.
			item := *n
			item.Text = m[1]
			if errA == nil {
				item.Text = m[2]
			}
			if _, ok := one(&item); ok {
				d.Errorf(n, "range %s for %s: %s is too large", Excerpt(n.Text), name, item.Text)
			}
			return Param[T]{}
		}
		if b < a || uint64(b)-uint64(a) >= maxSweepValues {
			d.Errorf(n, "range %s for %s: expected low..high with low <= high and at most %d values", Excerpt(n.Text), name, maxSweepValues)
			return Param[T]{}
		}
		before, bad := len(d.errs), 0
		for i := range int(uint64(b)-uint64(a)) + 1 {
			item := *n
			item.Kind, item.Text = ScalarNode, strconv.Itoa(a+i)
			if x, ok := one(&item); ok {
				vals = append(vals, x)
			} else {
				bad++
			}
		}
		// The values of a range share its place: the first one's error
		// says how many more are wrong, rather than one line each.
		if bad > 1 && len(d.errs) > before {
			more := "as is 1 more value"
			if bad > 2 {
				more = fmt.Sprintf("as are %d more values", bad-1)
			}
			d.errs[before].Msg += fmt.Sprintf(" (%s of %s)", more, strings.TrimSpace(n.Text))
			d.errs = d.errs[:before+1]
		}
	default:
		v, ok := one(n)
		if !ok {
			return Param[T]{}
		}
		return Fixed(v)
	}
	if len(vals) == 0 {
		return Param[T]{}
	}
	if d.inSweep {
		d.Errorf(n, "%s sweeps inside a swept list; sweep one or the other", name)
		return Param[T]{}
	}
	if len(vals) > maxSweepValues {
		d.Errorf(n, "%s sweeps %d values; at most %d", name, len(vals), maxSweepValues)
		return Param[T]{}
	}
	path := slices.Clone(d.path)
	if len(path) == 0 || path[len(path)-1] != name {
		path = append(path, name)
	}
	a := &Axis{Name: name, path: path, node: n}
	for i, v := range vals {
		pv := toParam(v)
		if slices.Contains(a.Values, pv) {
			where := n // a range names no value twice; a list does, at its item
			if i < len(at) {
				where = at[i]
			}
			d.Errorf(where, "%s lists %v twice", name, pv)
			return Param[T]{}
		}
		a.Values = append(a.Values, pv)
	}
	d.axes = append(d.axes, a)
	return Param[T]{vals: vals, axis: len(d.axes)}
}

// Identity shows a value in results as it is: for Sweep's toParam when the
// value is already an int, bool or string.
func Identity[T any](v T) any { return v }

// finishAxes names the axes and checks the size of the sweep. Axes that
// share a short name are named by the shortest tails of their key paths
// that tell them apart: "fleeing.M" and "pursuing.M".
func (d *Decoder) finishAxes(root *Node) {
	for k := 2; ; k++ {
		count := map[string]int{}
		for _, a := range d.axes {
			count[a.Name]++
		}
		clash := false
		for _, a := range d.axes {
			if count[a.Name] > 1 {
				clash = true
				a.Name = strings.Join(a.path[max(0, len(a.path)-k):], ".")
			}
		}
		if !clash || k > maxDepth {
			break
		}
	}
	// Axes at one key path (two unnamed units of a list sweeping one key)
	// are told apart by their order: "Ld", "Ld#2".
	seen := map[string]int{}
	for _, a := range d.axes {
		seen[a.Name]++
		if n := seen[a.Name]; n > 1 {
			a.Name = fmt.Sprintf("%s#%d", a.Name, n)
		}
	}
	// The count in whole numbers, stopped just past 10^18.
	const huge = 1_000_000_000_000_000_000
	points := uint64(1)
	for _, a := range d.axes {
		if n := uint64(len(a.Values)); n > 0 && points > huge/n {
			points = huge + 1
		} else {
			points *= n
		}
	}
	most, why := MaxPoints, ""
	if r := d.registry; r != nil && r.maxPoints > 0 && r.maxPoints < MaxPoints {
		most, why = r.maxPoints, " ("+r.pointsWhy+")"
	}
	if points > uint64(most) {
		count := digits(points)
		if points > huge {
			count = "more than " + digits(huge)
		}
		d.Errorf(root, "the sweeps make %s points (%s); at most %s%s", count, sweepSizes(d.axes), digits(uint64(most)), why)
	}
}

// sweepSizes names the axes of a sweep with their sizes, "distance 100 ×
// Ld 4", so that a sweep over the bound says which axes to shorten; past
// eight axes the rest are counted.
func sweepSizes(axes Axes) string {
	const most = 8
	parts := make([]string, 0, min(len(axes), most)+1)
	for i, a := range axes {
		if i == most {
			more := "axes"
			if len(axes)-most == 1 {
				more = "axis"
			}
			parts = append(parts, fmt.Sprintf("and %d more %s", len(axes)-most, more))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %d", a.Name, len(a.Values)))
	}
	return strings.Join(parts, " × ")
}

// digits writes a whole number with its thousands grouped: 1,000,000.
func digits(x uint64) string {
	s := strconv.FormatUint(x, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Within decodes under an extra key path element, so that the sweeps f
// meets are named after it when short names collide: a weapon's "shots"
// becomes "bolter.shots".
func (d *Decoder) Within(name string, f func()) {
	d.path = append(d.path, name)
	defer func() { d.path = d.path[:len(d.path)-1] }()
	f()
}

// SweepUnits reads one unit mapping, or a list of them to sweep, under the
// key name; decode reads one mapping and nameOf gives its name. The units
// of a swept list may not sweep values of their own (the points of such a
// sweep would differ from unit to unit), and their names must differ:
// results tell the points apart by name.
func SweepUnits[T any](d *Decoder, n *Node, name string, decode func(*Node) T, nameOf func(T) string) Param[T] {
	swept := n.Kind == SeqNode
	names := map[string]*Node{}
	p := Sweep(d, n, name, false, func(item *Node) (T, bool) {
		if swept {
			outer := d.inSweep
			d.inSweep = true
			defer func() { d.inSweep = outer }()
		}
		u := decode(item)
		un := nameOf(u)
		if prev, dup := names[un]; dup && un != "" {
			d.Errorf(item, "two units named %q in one list (the other at line %d); names tell the points apart", un, prev.Line)
			var none T
			return none, false
		}
		names[un] = item
		return u, un != ""
	}, func(u T) any { return nameOf(u) })
	if p.axis > 0 {
		d.axes[p.axis-1].names = true
	}
	return p
}
