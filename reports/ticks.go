package reports

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// numberTicks labels an axis of numbers (averages, counts) at gonum's
// default tick places, each label the tick's value written out in full
// (tickLabels): gonum's own labels round to too few digits on a narrow
// axis, so that ticks at 15.40, 15.42 and 15.44 read 15, 15, 15, and at
// 15.4475, 15.4575 and 15.4675 read 15.4, 15.5, 15.5.
type numberTicks struct{}

func (numberTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	if lo < 0 && hi > 0 || labelled(ticks) < 3 {
		ticks = stepTicks(lo, hi)
	}
	tickLabels(ticks, 1, "")
	return ticks
}

// labelled counts the ticks with a label.
func labelled(ticks []plot.Tick) int {
	n := 0
	for _, t := range ticks {
		if t.Label != "" {
			n++
		}
	}
	return n
}

// stepTicks places an axis' ticks at the multiples of one step, where
// gonum's default places fall short: on an axis from below 0 to above it
// (a combat result), so that 0, where the sign of the answer turns, is
// always labelled (gonum's may read -1, 2, 5); and where gonum's would
// label fewer than three values (a comparison's axis fitted to close
// intervals: 0 and 25 only), which leave the values between them
// unreadable. The step is 1, 2 or 5 times a power of ten, the least that
// makes at most seven labelled ticks; a minor tick halves each step.
func stepTicks(lo, hi float64) []plot.Tick {
	const most = 7
	mag := math.Pow(10, math.Floor(math.Log10((hi-lo)/most)))
	step := 10 * mag
	for _, f := range []float64{1, 2, 5} {
		if math.Floor(hi/(f*mag))-math.Ceil(lo/(f*mag))+1 <= most {
			step = f * mag
			break
		}
	}
	var ticks []plot.Tick
	// Within float noise of an end, a multiple is on the axis (-0.3 /
	// 0.1 is -2.9999999999999996).
	const noise = 1e-9
	for k := math.Ceil(lo/step*2 - noise); k <= math.Floor(hi/step*2+noise); k++ {
		v := k * step / 2
		t := plot.Tick{Value: v}
		if int(k)%2 == 0 {
			t.Label = "major" // written by tickLabels
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// percentTicks labels an axis of probabilities in percent.
type percentTicks struct{}

func (percentTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	if labelled(ticks) < 3 {
		ticks = stepTicks(lo, hi)
	}
	tickLabels(ticks, 100, "%")
	return ticks
}

// tickLabels writes each labelled tick's value times scale, followed by
// suffix, all with the same number of decimals: the fewest with which
// every label is its tick's value, so that labels are distinct and none
// is rounded (15.40, 15.45, 15.50; 20%, 60%, 100%). Minor ticks stay
// unlabelled.
func tickLabels(ticks []plot.Tick, scale float64, suffix string) {
	var vals []float64
	for _, t := range ticks {
		if t.Label != "" {
			vals = append(vals, t.Value*scale)
		}
	}
	format := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for d := 0; d <= maxTickDecimals; d++ {
		if exactAt(vals, d) {
			format = func(v float64) string { return strconv.FormatFloat(v, 'f', d, 64) }
			break
		}
	}
	for i := range ticks {
		if ticks[i].Label != "" {
			v := ticks[i].Value * scale
			if v == 0 {
				v = 0 // not -0
			}
			ticks[i].Label = format(v) + suffix
		}
	}
}

// maxTickDecimals bounds the decimals tickLabels tries; values that need
// more are written in the shortest form that reads back exactly.
const maxTickDecimals = 12

// exactAt says whether every value, written with d decimals, reads back
// as itself and no two read alike. Tick values are sums of float steps
// (15.450000000000001 for 15.45), so "itself" is within a billionth of
// the largest value's size and a millionth of the smallest gap between
// ticks: far below any difference a label shows, far above float noise
// (about 1e-16 of the value).
func exactAt(vals []float64, d int) bool {
	tol := 0.0
	for _, v := range vals {
		tol = max(tol, 1e-9*math.Abs(v))
	}
	for i := 1; i < len(vals); i++ {
		tol = min(tol, 1e-6*math.Abs(vals[i]-vals[i-1]))
	}
	seen := map[string]bool{}
	for _, v := range vals {
		s := strconv.FormatFloat(v, 'f', d, 64)
		r, err := strconv.ParseFloat(s, 64)
		if err != nil || math.Abs(r-v) > tol || seen[s] {
			return false
		}
		seen[s] = true
	}
	return true
}
