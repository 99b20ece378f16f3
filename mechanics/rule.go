package mechanics

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"hammersim/mechanics/dice"
)

// RuleText is a special rule as printed: a name and an optional argument in
// brackets, "Random Movement (3D6)" or "Fly (9)" or "Swiftstride".
type RuleText struct {
	Name string
	// Arg is the text inside the brackets, trimmed; empty when none.
	Arg string
	// ArgCol is the 1-based byte column of Arg in the original text.
	ArgCol int
}

// TextError reports rule text that could not be read; Col is the 1-based
// byte column of the problem.
type TextError struct {
	Col int
	Msg string
	// Expected, when set, says what the place takes ("expected one of:
	// ..."), in the rules' own words.
	Expected string
}

func (e *TextError) Error() string {
	if e.Expected != "" {
		return fmt.Sprintf("column %d: %s; %s", e.Col, e.Msg, e.Expected)
	}
	return fmt.Sprintf("column %d: %s", e.Col, e.Msg)
}

// ParseRuleText splits "Name (arg)" into its parts. Spaces inside the name
// are normalised to single spaces; the argument is kept as written.
func ParseRuleText(s string) (RuleText, error) {
	open := strings.IndexByte(s, '(')
	name := s
	var rt RuleText
	if open >= 0 {
		name = s[:open]
		rest := s[open+1:]
		end := strings.LastIndexByte(rest, ')')
		if end < 0 {
			return RuleText{}, &TextError{Col: len(s) + 1, Msg: "missing \")\" after the rule's value"}
		}
		closeAt := open + 1 + end // 0-based index of ")"
		if after := s[closeAt+1:]; strings.TrimSpace(after) != "" {
			lead := len(after) - len(strings.TrimLeft(after, " \t"))
			return RuleText{}, &TextError{Col: closeAt + 2 + lead, Msg: fmt.Sprintf("unexpected %q after \")\"", strings.TrimSpace(after))}
		}
		arg := rest[:end]
		lead := len(arg) - len(strings.TrimLeft(arg, " \t"))
		rt.Arg = strings.TrimSpace(arg)
		rt.ArgCol = open + 2 + lead
		if rt.Arg == "" {
			return RuleText{}, &TextError{Col: open + 1, Msg: "empty brackets; expected the rule's value, such as (3D6) or (9)"}
		}
	} else if strings.IndexByte(s, ')') >= 0 {
		return RuleText{}, &TextError{Col: strings.IndexByte(s, ')') + 1, Msg: "\")\" without \"(\""}
	}
	rt.Name = strings.Join(strings.Fields(name), " ")
	if rt.Name == "" {
		return RuleText{}, &TextError{Col: 1, Msg: "expected a rule name"}
	}
	return rt, nil
}

// Canonical reduces a rule name to the form names are matched in:
// lower case, single spaces, "-" read as a space.
func Canonical(name string) string {
	return strings.Join(strings.Fields(strings.ToLower(strings.ReplaceAll(name, "-", " "))), " ")
}

// ID turns a rule name into the identifier used for parameters and keys:
// lower case words joined by underscores ("Random Movement" -> "random_movement").
func ID(name string) string {
	return strings.ReplaceAll(Canonical(name), " ", "_")
}

// ArgKind says what goes in a rule's brackets.
type ArgKind uint8

const (
	// NoArg: the rule takes no brackets, "Swiftstride".
	NoArg ArgKind = iota
	// IntArg: a whole number, "Fly (9)".
	IntArg
	// DiceArg: a dice expression, "Random Movement (3D6)", or a number.
	DiceArg
	// WordsArg: free words checked by the ruleset, "Immunity (Psychology)".
	WordsArg
	// SaveArg: a score such as "5+" (a save, or the roll a rule needs), read
	// as 5.
	SaveArg
)

// Holder is what a rule is written on: a model, in its unit's rules list,
// or a weapon. A ruleset whose rules are all written on units leaves it
// AnyHolder.
type Holder uint8

const (
	// AnyHolder: the rule may be written wherever the ruleset reads rules.
	AnyHolder Holder = iota
	// OnModel: a model's rule, such as Fearless.
	OnModel
	// OnWeapon: a weapon's rule, such as Rending (6+).
	OnWeapon
)

// rule says whose rule a rule held by h is, for errors: "a model's rule"
// or "a weapon rule".
func (h Holder) rule() string {
	switch h {
	case OnModel:
		return "a model's rule"
	case OnWeapon:
		return "a weapon rule"
	}
	return "a rule"
}

// RuleSpec describes one special rule a ruleset implements.
type RuleSpec struct {
	Name string
	// On is what the rule is written on. A misspelt name is offered the
	// names its list may hold first (Catalogue.ParseOn).
	On Holder
	// Aliases are other spellings accepted for Name.
	Aliases []string
	Arg     ArgKind
	// Min and Max bound an IntArg; Min is also the least a DiceArg may
	// roll (0 unless set: no rule rolls below zero).
	Min, Max int
	// Words lists the accepted values of a WordsArg, in canonical form.
	Words []string
	// Bare is the value a rule printed without brackets takes, as it would
	// be written in them ("4+" for a bare Poisoned); empty when the value
	// must be written.
	Bare string
	// Summary paraphrases what the rule does, with its source.
	Summary string
}

// Rule is a special rule read from its text and checked against a RuleSpec.
type Rule struct {
	Spec *RuleSpec
	// Int is the value of an IntArg.
	Int int
	// Dice is the value of a DiceArg.
	Dice dice.Expr
	// Words is the canonical value of a WordsArg.
	Words string
	// Text is the rule as written.
	Text string
}

// Catalogue is the list of rules one ruleset implements.
type Catalogue []RuleSpec

// Lookup finds a rule by name, ignoring case, repeated spaces and hyphens.
func (c Catalogue) Lookup(name string) (*RuleSpec, bool) {
	want := Canonical(name)
	for i := range c {
		if Canonical(c[i].Name) == want {
			return &c[i], true
		}
		for _, a := range c[i].Aliases {
			if Canonical(a) == want {
				return &c[i], true
			}
		}
	}
	return nil, false
}

// Names returns the rule names in the catalogue's order.
func (c Catalogue) Names() []string {
	out := make([]string, len(c))
	for i, r := range c {
		out[i] = r.Name
	}
	return out
}

// Parse reads one rule as printed and checks its name and argument against
// the catalogue. Errors are *TextError with the column of the problem.
func (c Catalogue) Parse(s string) (Rule, error) {
	return c.ParseOn(s, AnyHolder)
}

// ParseOn is Parse for a rule written on h: a misspelt name is offered
// the nearest name of a rule h may hold (AnyHolder: any), or when none is
// near, the nearest of another holder's, saying whose it is. A known rule
// is read whatever it is written on; the ruleset, which applies it, says
// when it does not belong there.
func (c Catalogue) ParseOn(s string, h Holder) (Rule, error) {
	rt, err := ParseRuleText(s)
	if err != nil {
		return Rule{}, err
	}
	spec, ok := c.Lookup(rt.Name)
	if !ok {
		msg := fmt.Sprintf("unknown rule %q", rt.Name)
		if near := c.nearest(rt.Name, h); near != "" {
			msg += fmt.Sprintf("; did you mean %q?", near)
		} else if near := c.nearest(rt.Name, AnyHolder); near != "" {
			// The name of a rule this list may not hold: offered, saying
			// where it goes, as a known rule written here would be refused.
			spec, _ := c.Lookup(near)
			msg += fmt.Sprintf("; did you mean %q? (%s)", near, spec.On.rule())
		}
		return Rule{}, &TextError{Col: 1, Msg: msg}
	}
	r := Rule{Spec: spec, Text: s}
	switch spec.Arg {
	case NoArg:
		if rt.Arg != "" {
			return Rule{}, &TextError{Col: rt.ArgCol, Msg: fmt.Sprintf("%s takes no value in brackets", spec.Name)}
		}
		return r, nil
	}
	bare := false
	if rt.Arg == "" && spec.Bare != "" {
		rt.Arg, rt.ArgCol, bare = spec.Bare, len(s)+1, true
	}
	if rt.Arg == "" {
		return Rule{}, &TextError{Col: len(s) + 1, Msg: fmt.Sprintf("%s needs a value in brackets, such as %s", spec.Name, Example(spec))}
	}
	switch spec.Arg {
	case IntArg:
		v, err := strconv.Atoi(strings.TrimPrefix(rt.Arg, "+"))
		if errors.Is(err, strconv.ErrRange) { // a whole number past an int
			return Rule{}, &TextError{Col: rt.ArgCol, Msg: fmt.Sprintf("%s (%s) is out of range; expected %d to %d", spec.Name, rt.Arg, spec.Min, spec.Max)}
		}
		if err != nil {
			return Rule{}, &TextError{Col: rt.ArgCol, Msg: fmt.Sprintf("%s needs a whole number in brackets, found %q", spec.Name, rt.Arg)}
		}
		if v < spec.Min || v > spec.Max {
			return Rule{}, &TextError{Col: rt.ArgCol, Msg: fmt.Sprintf("%s (%d) is out of range; expected %d to %d", spec.Name, v, spec.Min, spec.Max)}
		}
		r.Int = v
	case DiceArg:
		e, err := dice.ParseSum(rt.Arg)
		if err != nil {
			var se *dice.SyntaxError
			if errors.As(err, &se) {
				return Rule{}, &TextError{Col: rt.ArgCol + se.Col - 1, Msg: fmt.Sprintf("%s: %s", spec.Name, se.Msg)}
			}
			return Rule{}, &TextError{Col: rt.ArgCol, Msg: err.Error()}
		}
		if e.Min() < 0 && spec.Min <= 0 {
			return Rule{}, &TextError{Col: rt.ArgCol, Msg: fmt.Sprintf("%s (%s) can roll below zero", spec.Name, e)}
		}
		if e.Min() < spec.Min {
			return Rule{}, &TextError{Col: rt.ArgCol, Msg: fmt.Sprintf("%s (%s) can roll %d; it must roll at least %d", spec.Name, e, e.Min(), spec.Min)}
		}
		if e.ExactWork() > dice.MaxExactWork {
			// Scenarios show the exact value of what they roll.
			return Rule{}, &TextError{Col: rt.ArgCol, Msg: fmt.Sprintf("%s (%s) %s", spec.Name, e, dice.TooMuchWork(e.ExactWork()))}
		}
		r.Dice = e
	case SaveArg:
		v, err := strconv.Atoi(strings.TrimSuffix(rt.Arg, "+"))
		if err == nil && !strings.HasSuffix(rt.Arg, "+") && v >= 1 && v <= 6 {
			// A bare number reads as a modifier elsewhere; say how a
			// score is written rather than guess.
			return Rule{}, &TextError{Col: rt.ArgCol, Msg: fmt.Sprintf("%s needs a score from 1+ to 6+ in brackets, found %q; write %d+", spec.Name, rt.Arg, v)}
		}
		if err != nil || !strings.HasSuffix(rt.Arg, "+") || v < 1 || v > 6 {
			return Rule{}, &TextError{Col: rt.ArgCol, Msg: fmt.Sprintf("%s needs a score from 1+ to 6+ in brackets, found %q", spec.Name, rt.Arg)}
		}
		r.Int = v
	case WordsArg:
		w := Canonical(rt.Arg)
		// The bare value of a WordsArg stands for the rule written without
		// brackets (Armourbane's "any"), not a value to write in them.
		written := slices.DeleteFunc(slices.Clone(spec.Words), func(x string) bool { return x == spec.Bare })
		if !slices.Contains(written, w) && !bare {
			return Rule{}, &TextError{Col: rt.ArgCol, Msg: fmt.Sprintf("%s (%s) is not known", spec.Name, rt.Arg), Expected: "expected one of: " + strings.Join(written, ", ")}
		}
		r.Words = w
	}
	return r, nil
}

// Example is a value in brackets the rule takes, as messages show it:
// "(5+)" for a score, "(D6)" for dice.
func Example(s *RuleSpec) string {
	switch s.Arg {
	case IntArg:
		return fmt.Sprintf("(%d)", s.Min)
	case DiceArg:
		return "(D6)"
	case WordsArg:
		return "(" + s.Words[0] + ")"
	case SaveArg:
		return "(5+)"
	}
	return ""
}

// nearest returns the name of a rule h may hold closest to name by edit
// distance, if it is close enough to be a likely typo.
func (c Catalogue) nearest(name string, h Holder) string {
	var names []string
	for _, r := range c {
		if h == AnyHolder || r.On == AnyHolder || r.On == h {
			names = append(names, r.Name)
		}
	}
	return Nearest(name, names)
}

// Nearest returns the one of names closest to name by edit distance,
// ignoring case, hyphens and repeated spaces (Canonical), when it is close
// enough (three edits or fewer) to be a likely typo; "" otherwise. Of names
// equally close, the first wins.
func Nearest(name string, names []string) string {
	return NearestWithin(name, names, 3)
}

// NearestWithin is Nearest with at most edits edits.
func NearestWithin(name string, names []string, edits int) string {
	best, bestD := "", edits+1
	want := Canonical(name)
	for _, n := range names {
		c := Canonical(n)
		if d := len(want) - len(c); d >= bestD || -d >= bestD {
			continue // at least that many edits: the lengths differ so
		}
		if d := editDistance(want, c); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
