package reports

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"strings"

	"hammersim/sim"
)

// WriteJSON writes the report as one JSON object. The layout is a contract
// other tools rely on:
//
//	{
//	  "scenario": "swiftstride-charge", "description": "...",
//	  "version": "0.1.0", "seed": 1, "trials": 1000000, "partial": false,
//	  "results": [
//	    {"metric": "charge_success", "params": {"M": 7, "swiftstride": true, "distance": 12},
//	     "kind": "probability", "trials": 1000000, "estimate": 0.97, "se": 0.0002,
//	     "ci95": [0.9697, 0.9703], "exact": 0.9700, "z": 0.3, "successes": 970000},
//	    {"metric": "charge_reach", "params": {...}, "kind": "mean", ...,
//	     "exact": null, "z": null, "sd": 2.1, "median": 15, "p05": 11, "p95": 18,
//	     "histogram": {"9": 4630, "10": 23148, ...}}
//	  ]
//	}
//
// A stamped report (one that says what produced it) has, after "partial",
//
//	"stamp": {"version": "0.1.0", "scenario": "swiftstride-charge",
//	  "scenario_sha256": "1a2b...", "seed": 1, "trials": 1000000,
//	  "command": "simulate run ...", "precision": 0.005,
//	  "precision_met": true, "max_trials": 4000000}
//
// where the last three are there only when the run had a precision target;
// a report with no stamp has no "stamp" key.
//
// "trials" is the trials per point the results rest on. An interrupted run
// completed fewer than it asked for: its "trials" is the most any point
// completed (on one machine every point completes the same whole chunks,
// the count its reproduce line names), while the stamp's "trials" keeps
// the count asked for, as a comparison's JSON does.
//
// Keys keep this order; params keep the sweep's order; histogram keys are
// the values in increasing order. "exact" is null where no closed form is
// known, and so is "z", the estimate's distance from it in standard errors
// (sim.Estimate.Z; for a probability, the standard error under the exact
// value, not "se"). Any other number that is not finite is null; an
// infinite z, which JSON cannot hold as a number, is the string "inf" or
// "-inf" (see zJSON). The worker count is left
// out on purpose: the output is byte-identical whatever it was.
func WriteJSON(w io.Writer, r *sim.Report) error {
	var b bytes.Buffer
	b.WriteString("{\n")
	field(&b, "  ", "scenario", str(r.Scenario), true)
	field(&b, "  ", "description", str(r.Description), true)
	field(&b, "  ", "version", str(r.Version), true)
	field(&b, "  ", "seed", strconv.FormatUint(r.Seed, 10), true)
	field(&b, "  ", "trials", strconv.FormatInt(restsOn(r), 10), true)
	field(&b, "  ", "partial", strconv.FormatBool(r.Partial), true)
	if stamped(r.Stamp) {
		field(&b, "  ", "stamp", stampJSON(r.Stamp), true)
	}
	b.WriteString("  \"results\": [")
	for i, e := range r.Results {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    {")
		writeEstimate(&b, e)
		b.WriteString("}")
		if err := spill(w, &b); err != nil {
			return err
		}
	}
	if len(r.Results) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]\n}\n")
	_, err := w.Write(b.Bytes())
	return err
}

// restsOn is the trials per point a report's results rest on: those asked
// for, or for an interrupted run the most any point completed, 0 when it
// was stopped before any had (never the count asked for, which it did not
// run).
func restsOn(r *sim.Report) int64 {
	if !r.Partial {
		return r.Trials
	}
	_, hi := trialRange(r)
	return hi
}

func writeEstimate(b *bytes.Buffer, e sim.Estimate) {
	o := object{b: b}
	o.put("metric", str(e.Metric))
	estimateFields(&o, e, true)
}

// estimateFields writes an estimate's members after its metric: where,
// how many trials, the value with its spread and interval, the exact value
// and z, then the successes of a probability or the summary (and, with hist, the
// histogram) of a mean.
func estimateFields(o *object, e sim.Estimate, hist bool) {
	o.put("params", paramsJSON(e.Params))
	if e.Price > 0 {
		// What a _per_100_points metric divides by: the acting unit's
		// points at this point.
		o.put("price", num(e.Price))
	}
	o.put("kind", str(e.Kind.String()))
	o.put("trials", strconv.FormatInt(e.Trials, 10))
	o.put("estimate", num(e.Value))
	o.put("se", num(e.SE))
	o.put("ci95", pairJSON(e.CI95))
	if e.HasExact {
		o.put("exact", num(e.Exact))
	} else {
		o.put("exact", "null")
	}
	o.put("z", zJSON(e))
	if e.Kind == sim.Probability {
		o.put("successes", strconv.FormatInt(e.Successes, 10))
		return
	}
	o.put("sd", num(e.StdDev))
	o.put("median", num(e.Median))
	o.put("p05", num(e.P05))
	o.put("p95", num(e.P95))
	if hist && e.Hist != nil {
		var h bytes.Buffer
		h.WriteString("{")
		x, c := e.Hist.Values()
		for i := range x {
			if i > 0 {
				h.WriteString(", ")
			}
			h.WriteString(str(strconv.Itoa(int(x[i]))))
			h.WriteString(": ")
			h.WriteString(strconv.FormatInt(int64(c[i]), 10))
		}
		h.WriteString("}")
		o.put("histogram", h.String())
	}
}

func field(b *bytes.Buffer, indent, k, v string, comma bool) {
	b.WriteString(indent + str(k) + ": " + v)
	if comma {
		b.WriteString(",")
	}
	b.WriteString("\n")
}

func paramsJSON(ps []sim.Param) string {
	var b bytes.Buffer
	b.WriteString("{")
	for i, p := range ps {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(str(p.Name))
		b.WriteString(": ")
		switch v := p.Value.(type) {
		case int:
			b.WriteString(strconv.Itoa(v))
		case bool:
			b.WriteString(strconv.FormatBool(v))
		case float64:
			b.WriteString(num(v))
		default:
			b.WriteString(str(paramString(v)))
		}
	}
	b.WriteString("}")
	return b.String()
}

// str encodes a JSON string, with <, > and & as they are: a report is no
// web page, and a verdict reads "higher (>99.9%)" as the tables print it.
func str(s string) string {
	var b strings.Builder
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	e.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// num encodes a float64 in its shortest exact form, or null when it is not
// finite.
func num(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "null"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// zJSON encodes an estimate's z, sim.Estimate.Z as the tables print it:
// null when it has none (no exact value, or no trials), and the strings
// "inf" and "-inf" when it is infinite (an estimate off an exact value
// that leaves no spread). JSON has no infinity, and a null there would
// lose the sign and read as no exact value.
func zJSON(e sim.Estimate) string {
	z := e.Z()
	if math.IsInf(z, 0) {
		return str(infWord(z))
	}
	return num(z)
}

// zCSV is zJSON for a CSV cell: empty in place of null.
func zCSV(e sim.Estimate) string {
	z := e.Z()
	if math.IsInf(z, 0) {
		return infWord(z)
	}
	return csvNum(z)
}

// pairJSON encodes an interval as a JSON pair of numbers.
func pairJSON(ci [2]float64) string {
	return "[" + num(ci[0]) + ", " + num(ci[1]) + "]"
}

// stampJSON encodes a stamp as one JSON object, without the worker count.
func stampJSON(st sim.Stamp) string {
	var b bytes.Buffer
	o := object{b: &b}
	o.put("version", str(st.Version))
	o.put("scenario", str(st.Scenario))
	o.put("scenario_sha256", str(st.ScenarioSHA256))
	o.put("seed", strconv.FormatUint(st.Seed, 10))
	o.put("trials", strconv.FormatInt(st.Trials, 10))
	o.put("command", str(st.Command))
	if st.Precision > 0 {
		o.put("precision", num(st.Precision))
		o.put("precision_met", strconv.FormatBool(st.PrecisionMet))
		o.put("max_trials", strconv.FormatInt(st.MaxTrials, 10))
	}
	return "{" + b.String() + "}"
}

// object writes the members of a one-line JSON object in the order given.
type object struct {
	b *bytes.Buffer
	n int
}

func (o *object) put(k, v string) {
	if o.n > 0 {
		o.b.WriteString(", ")
	}
	o.n++
	o.b.WriteString(str(k))
	o.b.WriteString(": ")
	o.b.WriteString(v)
}
