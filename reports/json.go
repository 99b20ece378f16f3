package reports

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strconv"

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
//	     "ci95": [0.9697, 0.9703], "exact": 0.9700, "successes": 970000},
//	    {"metric": "charge_reach", "params": {...}, "kind": "mean", ...,
//	     "sd": 2.1, "median": 15, "p05": 11, "p95": 18,
//	     "histogram": {"9": 4630, "10": 23148, ...}}
//	  ]
//	}
//
// Keys keep this order; params keep the sweep's order; histogram keys are
// the values in increasing order. "exact" is null where no closed form is
// known, and any number that is not finite is null. The worker count is left
// out on purpose: the output is byte-identical whatever it was.
func WriteJSON(w io.Writer, r *sim.Report) error {
	var b bytes.Buffer
	b.WriteString("{\n")
	field(&b, "  ", "scenario", str(r.Scenario), true)
	field(&b, "  ", "description", str(r.Description), true)
	field(&b, "  ", "version", str(r.Version), true)
	field(&b, "  ", "seed", strconv.FormatUint(r.Seed, 10), true)
	field(&b, "  ", "trials", strconv.FormatInt(r.Trials, 10), true)
	field(&b, "  ", "partial", strconv.FormatBool(r.Partial), true)
	b.WriteString("  \"results\": [")
	for i, e := range r.Results {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    {")
		writeEstimate(&b, e)
		b.WriteString("}")
	}
	if len(r.Results) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]\n}\n")
	_, err := w.Write(b.Bytes())
	return err
}

func writeEstimate(b *bytes.Buffer, e sim.Estimate) {
	first := true
	put := func(k, v string) {
		if !first {
			b.WriteString(", ")
		}
		first = false
		b.WriteString(str(k))
		b.WriteString(": ")
		b.WriteString(v)
	}
	put("metric", str(e.Metric))
	put("params", paramsJSON(e.Params))
	put("kind", str(e.Kind.String()))
	put("trials", strconv.FormatInt(e.Trials, 10))
	put("estimate", num(e.Value))
	put("se", num(e.SE))
	put("ci95", "["+num(e.CI95[0])+", "+num(e.CI95[1])+"]")
	if e.HasExact {
		put("exact", num(e.Exact))
	} else {
		put("exact", "null")
	}
	if e.Kind == sim.Probability {
		put("successes", strconv.FormatInt(e.Successes, 10))
		return
	}
	put("sd", num(e.StdDev))
	put("median", num(e.Median))
	put("p05", num(e.P05))
	put("p95", num(e.P95))
	if e.Hist != nil {
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
		put("histogram", h.String())
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

// str encodes a JSON string.
func str(s string) string {
	out, _ := json.Marshal(s) // a string always marshals
	return string(out)
}

// num encodes a float64 in its shortest exact form, or null when it is not
// finite.
func num(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "null"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
