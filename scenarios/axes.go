package scenarios

import (
	"fmt"
	"slices"
	"strings"

	"hammersim/sim"
)

// Axis is one swept parameter: a list or range written where one value
// was expected.
type Axis struct {
	// Name is the short name: the key, or a rule's id, made longer by the
	// keys above it only where two axes would share it ("fleeing.M").
	Name string
	// Values are the values as results show them (int, bool or string).
	Values []any
	// Readout marks a parameter that does not change what a trial does,
	// only how its observations are read (a charge's distance): the engine
	// runs one model for every value of a readout axis.
	Readout bool

	names bool     // its values are units' names (SweepUnits)
	path  []string // keys from the root down to it, naming it when short names collide
	node  *Node
	// stop, set on the first axis while the scenario is read, ends Each
	// early once the reading is stopped (Decoder.Stopped): a question's
	// compile step walks every point, a large sweep's for seconds.
	stop func() bool
}

// Axes are a scenario's swept parameters, outermost first. A question's
// compile step receives them once every axis has its final name.
type Axes []*Axis

// Each calls f with every point of the axes, the last axis varying
// fastest. f may keep the point.
func (axes Axes) Each(f func(Point)) {
	pt := make(Point, len(axes))
	for {
		if len(axes) > 0 && axes[0].stop != nil && axes[0].stop() {
			return
		}
		f(slices.Clone(pt))
		i := len(axes) - 1
		for ; i >= 0; i-- {
			pt[i]++
			if pt[i] < len(axes[i].Values) {
				break
			}
			pt[i] = 0
		}
		if i < 0 {
			return
		}
	}
}

// Len is the number of points of the axes (1 for none).
func (axes Axes) Len() int {
	n := 1
	for _, a := range axes {
		n *= len(a.Values)
	}
	return n
}

// groupKey identifies the trial model for a point: the indices of the axes
// that are not readouts.
func (axes Axes) groupKey(pt Point) string {
	var b strings.Builder
	for i, a := range axes {
		if !a.Readout {
			fmt.Fprintf(&b, "%d,", pt[i])
		}
	}
	return b.String()
}

// Groups builds one model per combination of the non-readout axes, by
// calling build at the first point of each, and returns the models with a
// lookup from any point to its model's index. ok is false when any build
// failed (and reported why).
func (axes Axes) Groups(build func(pt Point) (sim.Model, bool)) (models []sim.Model, groupOf func(Point) int, ok bool) {
	index := map[string]int{}
	ok = true
	axes.Each(func(pt Point) {
		key := axes.groupKey(pt)
		if _, seen := index[key]; seen {
			return
		}
		m, good := build(pt)
		ok = ok && good
		index[key] = len(models)
		models = append(models, m)
	})
	return models, func(pt Point) int { return index[axes.groupKey(pt)] }, ok
}

// Params lists the values of every axis at a point, as results show them.
func (axes Axes) Params(pt Point) []sim.Param {
	out := make([]sim.Param, len(axes))
	for i, a := range axes {
		out[i] = sim.Param{Name: a.Name, Value: a.Values[pt[i]]}
	}
	return out
}

// TrialParams lists the values of the axes that are not readouts: the
// parameters of the model that runs the point.
func (axes Axes) TrialParams(pt Point) []sim.Param {
	var out []sim.Param
	for i, a := range axes {
		if !a.Readout {
			out = append(out, sim.Param{Name: a.Name, Value: a.Values[pt[i]]})
		}
	}
	return out
}

// Describe names a point for an error message, " (at M 5, fly 9)", or ""
// when nothing is swept.
func (axes Axes) Describe(pt Point) string {
	if len(axes) == 0 {
		return ""
	}
	ps := make([]string, len(axes))
	for i, a := range axes {
		ps[i] = fmt.Sprintf("%s %v", a.Name, a.Values[pt[i]])
	}
	return " (at " + strings.Join(ps, ", ") + ")"
}
