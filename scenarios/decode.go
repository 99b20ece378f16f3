package scenarios

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// decoder turns a node tree into typed scenario values, collecting errors
// with their positions and registering every sweep it meets as an axis.
type decoder struct {
	file string
	errs ErrorList
	seen map[string]bool // errors already reported, by text
	axes []*axis
	path []string
	// inSweep is set while decoding the items of a swept list of mappings,
	// where a further sweep would make the axes depend on each other.
	inSweep bool
}

// axis is one swept parameter: a list or range written where one value
// was expected.
type axis struct {
	name   string   // short name: the key, or a rule's id
	path   []string // keys from the root down to it, naming it when short names collide
	values []any    // the values as parameters (int, bool or string)
	node   *node
	// readout marks a parameter that does not change what a trial does,
	// only how its observations are read (a charge's distance): the engine
	// runs one model for every value of a readout axis.
	readout bool
}

func (d *decoder) errorf(n *node, format string, args ...any) {
	e := &Error{File: d.file, Line: 1, Col: 1, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Col = n.line, n.col
	}
	key := e.Error()
	if d.seen == nil {
		d.seen = map[string]bool{}
	}
	if d.seen[key] || len(d.errs) >= maxErrors {
		return
	}
	d.seen[key] = true
	d.errs = append(d.errs, e)
}

// errAt reports an error inside a scalar, col bytes into its text (1-based).
// Positions inside quoted or folded scalars are approximate: YAML may have
// moved the text.
func (d *decoder) errAt(n *node, col int, msg string) {
	at := *n
	at.col += col - 1
	d.errorf(&at, "%s", msg)
}

// field is one key a mapping may hold.
type field struct {
	key      string
	required bool
	decode   func(*node)
}

// object decodes the mapping n with the given fields. Unknown and missing
// keys are errors naming the keys that are allowed.
func (d *decoder) object(n *node, what string, fields []field) bool {
	if n.kind != mapNode {
		d.errorf(n, "expected %s as a mapping of keys, found %s", what, describe(n))
		return false
	}
	found := make([]bool, len(fields))
	for i, k := range n.keys {
		j := slices.IndexFunc(fields, func(f field) bool { return f.key == k.text })
		if j < 0 {
			d.unknownKey(k, what, fields)
			continue
		}
		found[j] = true
		d.path = append(d.path, k.text)
		fields[j].decode(n.vals[i])
		d.path = d.path[:len(d.path)-1]
	}
	for j, f := range fields {
		if f.required && !found[j] {
			d.errorf(n, "%s is missing the key %q", what, f.key)
		}
	}
	return true
}

func (d *decoder) unknownKey(k *node, what string, fields []field) {
	keys := make([]string, len(fields))
	for i, f := range fields {
		keys[i] = f.key
		if strings.EqualFold(f.key, k.text) {
			d.errorf(k, "unknown key %q in %s; did you mean %q?", k.text, what, f.key)
			return
		}
	}
	d.errorf(k, "unknown key %q in %s; expected one of: %s", k.text, what, strings.Join(keys, ", "))
}

func describe(n *node) string {
	if n.kind == scalarNode {
		return fmt.Sprintf("%q", n.text)
	}
	return n.kind.String()
}

func (d *decoder) scalar(n *node, what string) (string, bool) {
	if n.kind != scalarNode {
		d.errorf(n, "expected %s, found %s", what, describe(n))
		return "", false
	}
	return n.text, true
}

func (d *decoder) text(n *node, what string) string {
	s, _ := d.scalar(n, what)
	return s
}

func (d *decoder) intIn(n *node, what string, lo, hi int) (int, bool) {
	s, ok := d.scalar(n, what+" (a whole number)")
	if !ok {
		return 0, false
	}
	v, err := strconv.Atoi(strings.TrimPrefix(s, "+"))
	if err != nil {
		d.errorf(n, "expected %s as a whole number from %d to %d, found %q", what, lo, hi, s)
		return 0, false
	}
	if v < lo || v > hi {
		d.errorf(n, "%s %d is out of range; expected %d to %d", what, v, lo, hi)
		return 0, false
	}
	return v, true
}

func (d *decoder) boolean(n *node, what string) (bool, bool) {
	s, ok := d.scalar(n, what+" (true or false)")
	if !ok {
		return false, false
	}
	switch s {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	d.errorf(n, "expected %s as true or false, found %q", what, s)
	return false, false
}

// Param is a value that a scenario may sweep: one value, or one per point
// of its axis.
//
// The zero Param is unset: the key was absent or its value was wrong.
type Param[T any] struct {
	vals []T
	axis int // 1 + index into the decoder's axes; 0 when not swept
}

func fixed[T any](v T) Param[T] { return Param[T]{vals: []T{v}} }

// At returns the value at a point of the sweep.
func (p Param[T]) At(pt point) T {
	if p.axis == 0 {
		return p.vals[0]
	}
	return p.vals[pt[p.axis-1]]
}

// axisIndex returns the index of the parameter's axis, if it is swept.
func (p Param[T]) axisIndex() (int, bool) { return p.axis - 1, p.axis > 0 }

// Values returns every value the parameter takes.
func (p Param[T]) Values() []T { return p.vals }

// Set reports whether the parameter was given at all.
func (p Param[T]) Set() bool { return len(p.vals) > 0 }

// point picks one value of every axis: point[i] indexes axis i's values.
type point []int

// maxSweepValues bounds one axis; maxPoints bounds a whole sweep.
const (
	maxSweepValues = 10_000
	maxPoints      = 100_000
)

var rangeRE = regexp.MustCompile(`^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$`)

// sweep decodes n as one value or a sweep of values. A list is a sweep; so
// is "a..b" when ranges is set (integers a to b). name is the parameter's
// name; toParam turns a value into what results show for it.
func sweep[T any](d *decoder, n *node, name string, ranges bool, one func(*node) (T, bool), toParam func(T) any) Param[T] {
	var vals []T
	switch {
	case n.kind == seqNode:
		if len(n.items) == 0 {
			d.errorf(n, "empty list for %s; give one value or a list of values to sweep", name)
			return Param[T]{}
		}
		for _, item := range n.items {
			if v, ok := one(item); ok {
				vals = append(vals, v)
			}
		}
	case ranges && n.kind == scalarNode && rangeRE.MatchString(n.text):
		m := rangeRE.FindStringSubmatch(n.text)
		a, errA := strconv.Atoi(m[1])
		b, errB := strconv.Atoi(m[2])
		if errA != nil || errB != nil || b < a || b-a >= maxSweepValues {
			d.errorf(n, "range %q for %s: expected low..high with low <= high and at most %d values", n.text, name, maxSweepValues)
			return Param[T]{}
		}
		for v := a; v <= b; v++ {
			item := *n
			item.kind, item.text = scalarNode, strconv.Itoa(v)
			if x, ok := one(&item); ok {
				vals = append(vals, x)
			}
		}
	default:
		v, ok := one(n)
		if !ok {
			return Param[T]{}
		}
		return fixed(v)
	}
	if len(vals) == 0 {
		return Param[T]{}
	}
	if d.inSweep {
		d.errorf(n, "%s sweeps inside a swept list; sweep one or the other", name)
		return Param[T]{}
	}
	if len(vals) > maxSweepValues {
		d.errorf(n, "%s sweeps %d values; at most %d", name, len(vals), maxSweepValues)
		return Param[T]{}
	}
	path := slices.Clone(d.path)
	if len(path) == 0 || path[len(path)-1] != name {
		path = append(path, name)
	}
	a := &axis{name: name, path: path, node: n}
	for i, v := range vals {
		pv := toParam(v)
		if slices.Contains(a.values, pv) {
			d.errorf(n.items[min(i, len(n.items)-1)], "%s lists %v twice", name, pv)
			return Param[T]{}
		}
		a.values = append(a.values, pv)
	}
	d.axes = append(d.axes, a)
	return Param[T]{vals: vals, axis: len(d.axes)}
}

func identity[T any](v T) any { return v }

// finishAxes names the axes and checks the size of the sweep. Axes that
// share a short name are named by the shortest tails of their key paths
// that tell them apart: "fleeing.M" and "pursuing.M".
func (d *decoder) finishAxes(root *node) {
	for k := 2; ; k++ {
		count := map[string]int{}
		for _, a := range d.axes {
			count[a.name]++
		}
		clash := false
		for _, a := range d.axes {
			if count[a.name] > 1 {
				clash = true
				a.name = strings.Join(a.path[max(0, len(a.path)-k):], ".")
			}
		}
		if !clash || k > maxDepth {
			break
		}
	}
	points := 1.0
	for _, a := range d.axes {
		points *= float64(len(a.values))
	}
	if points > maxPoints {
		d.errorf(root, "the sweeps make %.0f points; at most %d", math.Min(points, 1e18), maxPoints)
	}
}

// eachPoint calls f with every point of the axes, the last axis varying
// fastest.
func eachPoint(axes []*axis, f func(point)) {
	pt := make(point, len(axes))
	for {
		f(slices.Clone(pt))
		i := len(axes) - 1
		for ; i >= 0; i-- {
			pt[i]++
			if pt[i] < len(axes[i].values) {
				break
			}
			pt[i] = 0
		}
		if i < 0 {
			return
		}
	}
}

// groupKey identifies the trial model for a point: the indices of the axes
// that are not readouts.
func groupKey(axes []*axis, pt point) string {
	var b strings.Builder
	for i, a := range axes {
		if !a.readout {
			fmt.Fprintf(&b, "%d,", pt[i])
		}
	}
	return b.String()
}
