package scenarios

import (
	"fmt"
	"slices"
	"strings"

	"hammersim/sim"
)

// Choosing metrics: every question may carry a metrics key, a list of the
// metric names to print, plot and write (the command line's --metrics
// overrides it). Without one, every metric is kept but those the question
// says cannot be non-zero in this scenario (Compiled.Idle), such as wounds
// on a friendly unit when none stands near.

// splitMetrics returns the question's mapping without its metrics key, and
// that key's value (nil when there is none), so that each question decodes
// only its own keys.
func splitMetrics(n *Node) (question, metrics *Node) {
	if n.Kind != MapNode {
		return n, nil
	}
	i := slices.IndexFunc(n.Keys, func(k *Node) bool { return k.Text == "metrics" })
	if i < 0 {
		return n, nil
	}
	q := *n
	q.Keys = slices.Delete(slices.Clone(n.Keys), i, i+1)
	q.Vals = slices.Delete(slices.Clone(n.Vals), i, i+1)
	return &q, n.Vals[i]
}

// metricNames lists the metrics a scenario's question reports, in the
// order its reports give them (sim.MetricOrder over axes): the estimates
// read from an empty run of its models name them all.
func metricNames(c Compiled, axes Axes) []string {
	if c.Results == nil {
		return nil
	}
	// A run of no trials, each slot's histogram of one bin: the names need
	// no counts.
	run := sim.Run{}
	for _, m := range c.Models {
		run.Tallies = append(run.Tallies, sim.NewShapeTally(m.Slots()))
		run.Completed = append(run.Completed, 0)
	}
	names := make([]string, len(axes))
	for i, a := range axes {
		names[i] = a.Name
	}
	return sim.MetricOrder(c.Results(run), names)
}

// decodeMetrics reads a metrics key: a list of names, or one string of
// names separated by commas. Each must be one of have; one of absent's is
// told what it needs.
func (d *Decoder) decodeMetrics(n *Node, have []string, absent map[string]string) []string {
	var items []*Node
	switch n.Kind {
	case SeqNode:
		items = n.Items
	case ScalarNode:
		items = []*Node{n}
	default:
		d.Errorf(n, "expected metrics as a list of names, such as [hits, wounds], found %s", n.Describe())
		return nil
	}
	if len(items) == 0 {
		d.add(n, &Error{Msg: "an empty metrics list keeps nothing", Expected: "name some of: " + strings.Join(have, ", ")})
		return nil
	}
	var out []string
	for _, it := range items {
		text := d.Text(it, "a metric's name")
		col := 1
		for _, name := range strings.Split(text, ",") {
			trimmed := strings.TrimSpace(name)
			at := col + strings.Index(name, trimmed)
			col += len(name) + 1
			if trimmed == "" {
				d.ErrExpecting(it, at, "empty metric name", "expected one of: "+strings.Join(have, ", "))
				continue
			}
			if why, ok := absent[trimmed]; ok {
				d.ErrExpecting(it, at, fmt.Sprintf("metric %q is not reported here: it needs %s", trimmed, why), "this question has: "+strings.Join(have, ", "))
				continue
			}
			if !slices.Contains(have, trimmed) {
				d.ErrExpecting(it, at, "unknown metric "+Excerpt(trimmed)+DidYouMean(trimmed, have), "this question has: "+strings.Join(have, ", "))
				continue
			}
			if slices.Contains(out, trimmed) {
				d.ErrAt(it, at, fmt.Sprintf("metric %q is named twice", trimmed))
				continue
			}
			out = append(out, trimmed)
		}
	}
	return out
}

// Metrics lists every metric the scenario's question reports, in order.
func (s *Scenario) Metrics() []string { return slices.Clone(s.metrics) }

// where names the scenario in a message: its file, or a built-in's (or
// standard input's) name, so that two files of one name are told apart.
func (s *Scenario) where() string {
	if s.File == "" || strings.HasPrefix(s.File, "builtin:") || strings.HasPrefix(s.File, "<") {
		return s.Name
	}
	return s.File
}

// SelectMetrics keeps only the named metrics in the scenario's results,
// overriding its metrics key; an unknown name is an error that lists the
// metrics the question has, and so are an empty name and one named twice,
// which would otherwise be dropped unseen.
func (s *Scenario) SelectMetrics(names []string) error {
	var keep []string
	where := s.where()
	for i, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			return fmt.Errorf("name %d of %d is empty; %s has: %s", i+1, len(names), where, strings.Join(s.metrics, ", "))
		}
		if why, ok := s.absent[n]; ok {
			return fmt.Errorf("metric %q is not reported in %s: it needs %s; its question has: %s", n, where, why, strings.Join(s.metrics, ", "))
		}
		if !slices.Contains(s.metrics, n) {
			return fmt.Errorf("unknown metric %q in %s%s; its question has: %s", n, where, DidYouMean(n, s.metrics), strings.Join(s.metrics, ", "))
		}
		if slices.Contains(keep, n) {
			return fmt.Errorf("metric %q is named twice", n)
		}
		keep = append(keep, n)
	}
	if len(keep) == 0 {
		return fmt.Errorf("no metric named; %s has: %s", where, strings.Join(s.metrics, ", "))
	}
	s.selected = keep
	return nil
}

// kept filters estimates to the chosen metrics: those selected, or every
// one but the idle ones. es is the question's results, made for this call:
// it is filtered in place.
func (s *Scenario) kept(es []sim.Estimate) []sim.Estimate {
	if s.selected == nil && len(s.idle) == 0 {
		return es
	}
	out := es[:0]
	for _, e := range es {
		if s.selected != nil && slices.Contains(s.selected, e.Metric) ||
			s.selected == nil && !slices.Contains(s.idle, e.Metric) {
			out = append(out, e)
		}
	}
	return out
}
