package sim

import "slices"

// Histogram counts integer observations. The zero Histogram is empty and
// ready to use; NewHistogram presizes one for an expected range so that
// adding values inside it never allocates.
type Histogram struct {
	min    int
	counts []int64
}

// NewHistogram returns an empty histogram presized for values lo..hi, or
// for the first maxPresize of them when the range is wider.
func NewHistogram(lo, hi int) Histogram {
	hi = min(max(hi, lo), lo+maxPresize-1)
	return Histogram{min: lo, counts: make([]int64, hi-lo+1)}
}

// maxPresize is the most values NewHistogram presizes a histogram for. A
// slot's range is what a metric could take, which a run seldom comes near:
// the hits of a hundred models firing a hundred shots each range over
// 10,001 values, a run meets a few hundred of them, and a sweep of a
// thousand such points held 620 MB of zeros in its tallies, one for each
// worker and each point. Past this a histogram grows as values arrive,
// at least doubling each time, so that a trial allocates only at a new
// extreme, a few times a run.
const maxPresize = 1024

// Add counts one observation of v.
func (h *Histogram) Add(v int) {
	i := v - h.min
	if uint(i) < uint(len(h.counts)) {
		h.counts[i]++
		return
	}
	h.addSlow(v, 1)
}

// AddN counts n observations of v.
func (h *Histogram) AddN(v int, n int64) {
	i := v - h.min
	if uint(i) < uint(len(h.counts)) {
		h.counts[i] += n
		return
	}
	h.addSlow(v, n)
}

// addSlow grows the histogram to cover v, at least doubling it so that a
// stream of new extremes costs amortised constant time.
func (h *Histogram) addSlow(v int, n int64) {
	if len(h.counts) == 0 {
		h.min = v
		h.counts = make([]int64, 1, 8)
		h.counts[0] = n
		return
	}
	lo, hi := min(h.min, v), max(h.min+len(h.counts)-1, v)
	grow := max(hi-lo+1, 2*len(h.counts))
	if v < h.min {
		lo = hi - grow + 1
	} else {
		hi = lo + grow - 1
	}
	counts := make([]int64, hi-lo+1)
	copy(counts[h.min-lo:], h.counts)
	h.min, h.counts = lo, counts
	h.counts[v-lo] += n
}

// Span makes h cover lo..hi and returns the counts of those values:
// span[v-lo] is the count of v. It lets a model that knows its range count
// without Add's range check; the slice is valid until h next grows.
func (h *Histogram) Span(lo, hi int) []int64 {
	if hi < lo {
		panic("sim: Span with hi < lo")
	}
	h.AddN(lo, 0)
	h.AddN(hi, 0)
	return h.counts[lo-h.min : hi-h.min+1]
}

// Merge adds o's counts to h.
func (h *Histogram) Merge(o *Histogram) {
	for i, c := range o.counts {
		if c != 0 {
			h.AddN(o.min+i, c)
		}
	}
}

// N returns the number of observations.
func (h *Histogram) N() int64 {
	var n int64
	for _, c := range h.counts {
		n += c
	}
	return n
}

// Count returns how many observations equal v.
func (h *Histogram) Count(v int) int64 {
	i := v - h.min
	if i < 0 || i >= len(h.counts) {
		return 0
	}
	return h.counts[i]
}

// CountAtLeast returns how many observations are v or more.
func (h *Histogram) CountAtLeast(v int) int64 {
	var n int64
	for i := max(v-h.min, 0); i < len(h.counts); i++ {
		n += h.counts[i]
	}
	return n
}

// CountAtMost returns how many observations are v or less.
func (h *Histogram) CountAtMost(v int) int64 {
	var n int64
	for i := 0; i < len(h.counts) && h.min+i <= v; i++ {
		n += h.counts[i]
	}
	return n
}

// Range returns the smallest and largest values observed; ok is false when
// the histogram is empty.
func (h *Histogram) Range() (lo, hi int, ok bool) {
	first, last := -1, -1
	for i, c := range h.counts {
		if c != 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return 0, 0, false
	}
	return h.min + first, h.min + last, true
}

// Values returns the observed values in increasing order and their counts.
func (h *Histogram) Values() (values []float64, counts []float64) {
	for i, c := range h.counts {
		if c != 0 {
			values = append(values, float64(h.min+i))
			counts = append(counts, float64(c))
		}
	}
	return values, counts
}

// Equal reports whether h and o hold the same counts.
func (h *Histogram) Equal(o *Histogram) bool {
	a, b := h.trimmed(), o.trimmed()
	if len(a.counts) == 0 || len(b.counts) == 0 {
		return len(a.counts) == len(b.counts)
	}
	return a.min == b.min && slices.Equal(a.counts, b.counts)
}

func (h *Histogram) trimmed() Histogram {
	lo, hi, ok := h.Range()
	if !ok {
		return Histogram{}
	}
	return Histogram{min: lo, counts: h.counts[lo-h.min : hi-h.min+1]}
}

// Clone returns a copy of h that shares nothing with it.
func (h *Histogram) Clone() Histogram {
	return Histogram{min: h.min, counts: slices.Clone(h.counts)}
}

// Tally is the set of histograms one model observes into, one per slot of
// its Layout. A trial writes only to the Tally it was handed.
type Tally struct {
	H []Histogram
}

// Slot describes one observation slot of a model: its name (for
// diagnostics) and the range of values expected, which presizes the
// histogram. Values outside the range are still counted.
type Slot struct {
	Name   string
	Lo, Hi int
}

// NewShapeTally returns empty histograms of one bin each for the given
// slots: what a run of no trials needs, whose results are read for their
// shape alone (which metrics, at which points), never for their counts. A
// large sweep's full histograms would cost gigabytes to copy into them.
func NewShapeTally(slots []Slot) *Tally {
	t := &Tally{H: make([]Histogram, len(slots))}
	for i, s := range slots {
		t.H[i] = NewHistogram(s.Lo, s.Lo)
	}
	return t
}

// NewTally returns empty histograms for the given slots.
func NewTally(slots []Slot) *Tally {
	t := &Tally{H: make([]Histogram, len(slots))}
	for i, s := range slots {
		t.H[i] = NewHistogram(s.Lo, s.Hi)
	}
	return t
}

// Merge adds o's counts to t slot by slot. Both must come from the same
// layout.
func (t *Tally) Merge(o *Tally) {
	if len(t.H) != len(o.H) {
		panic("sim: merging tallies of different layouts")
	}
	for i := range t.H {
		t.H[i].Merge(&o.H[i])
	}
}

// reset empties t, keeping its histograms' memory.
func (t *Tally) reset() {
	for i := range t.H {
		clear(t.H[i].counts)
	}
}

// Equal reports whether t and o hold the same counts in every slot.
func (t *Tally) Equal(o *Tally) bool {
	if len(t.H) != len(o.H) {
		return false
	}
	for i := range t.H {
		if !t.H[i].Equal(&o.H[i]) {
			return false
		}
	}
	return true
}
