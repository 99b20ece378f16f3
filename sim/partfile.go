package sim

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// PartFormat is the version of the partial-result file format that
// WritePart writes and ReadPart reads. It changes whenever the layout or the
// meaning of a field does.
const PartFormat = 3

// partMagic opens every partial-result file; the format version follows.
const partMagic = "hammersim partial result, format "

// Limits on what a partial-result file may hold. A scenario file is far
// smaller than MaxPartBytes; tallied values in the games are small
// integers, well inside ±MaxTallyValue, and bounding them bounds the memory
// a merge can be made to take.
const (
	MaxPartBytes  = 64 << 20
	MaxTallyValue = 1 << 20
	maxBatches    = 1 << 12
)

// The file is four lines:
//
//	hammersim partial result, format 3
//	{header: PartHeader as JSON}
//	{data: partData as JSON}
//	sha256 <hex SHA-256 of the three lines above, newlines included>
//
// docs/scale-out.md documents every field.

type partData struct {
	Chunks  [][]int64 `json:"chunks"` // pairs [lo, hi]: a Go array would drop a third number
	Workers int       `json:"workers"`
	Runs    []runData `json:"runs"`
}

type runData struct {
	Models  []modelData   `json:"models"`
	Batches [][]modelData `json:"batches"`
}

type modelData struct {
	Trials int64      `json:"trials"`
	Slots  []histData `json:"slots"`
}

type histData struct {
	Min    int     `json:"min"`
	Counts []int64 `json:"counts"`
}

// WritePart writes p in the partial-result format. An interrupted part is
// refused: it does not hold the chunks it claims.
func WritePart(w io.Writer, p *Part) error {
	if p.Interrupted {
		return errors.New("sim: an interrupted run is not a part: rerun it")
	}
	h := p.Header
	if h.Args == nil {
		h.Args = []string{}
	}
	if h.Flags == nil {
		h.Flags = []Flag{}
	}
	d := partData{Chunks: [][]int64{}, Workers: p.Workers}
	for _, c := range p.Chunks {
		d.Chunks = append(d.Chunks, []int64{c.Lo, c.Hi})
	}
	for _, r := range p.Runs {
		rd := runData{Models: modelsData(r), Batches: [][]modelData{}}
		for _, b := range r.Batches {
			rd.Batches = append(rd.Batches, modelsData(b))
		}
		d.Runs = append(d.Runs, rd)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s%d\n", partMagic, PartFormat)
	// The texts are written as they are, not with <, > and & escaped for
	// HTML (six bytes each): a part is no web page, and InputBytes, which
	// a shard checks before it runs, counts them so. Encode ends each line.
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(h); err != nil {
		return err
	}
	if err := enc.Encode(d); err != nil {
		return err
	}
	sum := sha256.Sum256(b.Bytes())
	fmt.Fprintf(&b, checksumPrefix+"%s\n", hex.EncodeToString(sum[:]))
	if b.Len() > MaxPartBytes {
		return fmt.Errorf("sim: the part would be %d MiB, more than the %d MiB a merge reads", b.Len()>>20, MaxPartBytes>>20)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// PartSizeAtLeast is the fewest bytes a part of a run of groups, kept
// whole and in batches batches (Config.Batches), can take, whatever its
// trials show: the header's inputs, and each model's trial count and slots
// as a part writes them, each slot with no count at all, in the whole run
// and again in every batch. A part is refused only once it is written,
// after its work (WritePart); a shard checks this first, so that a sweep
// whose parts cannot fit is refused before it runs. The counts come on
// top, more as the trials spread over more values and their numbers gain
// digits (a few to a few tens of percent in the sweeps measured): a part
// may be refused at its end all the same.
func PartSizeAtLeast(h *PartHeader, groups [][]Model, batches int) int64 {
	const (
		run   = int64(len(`{"models":[],"batches":[]}`))
		model = int64(len(`{"trials":0,"slots":[]}`))
		slot  = int64(len(`{"min":0,"counts":[]}`))
	)
	b := int64(max(batches, 0))
	// commas is what a list of k entries adds between them.
	commas := func(k int64) int64 { return max(k-1, 0) }
	n := int64(h.InputBytes()) + commas(int64(len(groups)))
	for _, g := range groups {
		var models int64 // a list of the group's models, brackets aside
		for _, m := range g {
			k := int64(len(m.Slots()))
			models += model + k*slot + commas(k)
		}
		models += commas(int64(len(g)))
		// The whole run's list, and each batch's in brackets.
		n += run + models + b*(2+models) + commas(b)
	}
	return n
}

func modelsData(r Run) []modelData {
	out := make([]modelData, len(r.Tallies))
	for m, t := range r.Tallies {
		out[m] = modelData{Trials: r.Completed[m], Slots: make([]histData, len(t.H))}
		for i := range t.H {
			h := t.H[i].trimmed()
			out[m].Slots[i] = histData{Min: h.min, Counts: h.counts}
			if h.counts == nil {
				out[m].Slots[i].Counts = []int64{}
			}
		}
	}
	return out
}

// PartError is a file that is not a sound partial result.
type PartError struct {
	Name string
	Msg  string
}

func (e *PartError) Error() string { return e.Name + ": " + e.Msg }

// ReadPart reads a partial-result file; name names it in errors. It checks
// the format version, the checksum and that the contents are consistent
// (chunks inside the run, trials matching chunks), so that a truncated,
// corrupted or foreign file is an error, never a wrong number.
func ReadPart(name string, r io.Reader) (*Part, error) {
	fail := func(format string, args ...any) error { return &PartError{name, fmt.Sprintf(format, args...)} }
	src, err := io.ReadAll(io.LimitReader(r, MaxPartBytes+1))
	if err != nil {
		return nil, fail("%v", err)
	}
	if len(src) > MaxPartBytes {
		return nil, fail("larger than %d MiB: not a partial result of hammersim", MaxPartBytes>>20)
	}
	body, err := checkPartBytes(src, fail)
	if err != nil {
		return nil, err
	}
	// Split in place: a part may be 64 MiB, and each copy of it costs
	// that again.
	lines := bytes.SplitN(body, []byte("\n"), 4)
	if len(lines) != 4 || len(lines[3]) != 0 {
		return nil, fail("expected a format line, a header line and a data line before the checksum")
	}
	p := &Part{}
	if err := strictJSON(lines[1], &p.Header); err != nil {
		return nil, fail("header: %v", err)
	}
	var d partData
	if err := strictJSON(lines[2], &d); err != nil {
		return nil, fail("data: %v", err)
	}
	if err := p.setData(d); err != nil {
		return nil, fail("%v", err)
	}
	return p, nil
}

// IsPart reports whether what r holds begins as a partial result of
// hammersim does, of any format version: the test a merge of a folder uses
// to tell parts from the other files beside them (logs, reports, plots).
// An empty file is read as a part: it is what a shard stopped while
// writing to a shell's redirect leaves, which the merge must report. So
// is a file no longer than the format line's opening that begins it (a
// part cut short), which reading then reports as truncated.
func IsPart(r io.Reader) (bool, error) {
	head := make([]byte, len(partMagic))
	n, err := io.ReadFull(r, head)
	switch {
	case n == 0 && (err == io.EOF || err == nil):
		return true, nil
	case err != nil && err != io.ErrUnexpectedEOF:
		return false, err
	}
	return strings.HasPrefix(partMagic, string(head[:n])), nil
}

// checkPartBytes checks the format line and the checksum, and returns the
// bytes the checksum covers.
func checkPartBytes(src []byte, fail func(string, ...any) error) ([]byte, error) {
	if len(src) == 0 {
		// What a shard that wrote to a shell's redirect leaves when it is
		// stopped: the shell made the file, the shard wrote nothing.
		return nil, fail("empty, not a partial result: its shard wrote nothing (one stopped while its output was redirected to the file leaves it so); rerun that shard")
	}
	if len(src) <= len(partMagic) && strings.HasPrefix(partMagic, string(src)) {
		return nil, fail("truncated: it ends within its format line (a shard still writing, or a copy cut short?); rerun the shard that wrote it")
	}
	first, _, _ := bytes.Cut(src, []byte("\n"))
	v, ok := strings.CutPrefix(string(first), partMagic)
	if !ok {
		return nil, fail("not a hammersim partial result (it does not begin %q); simulate run --shard I/N -o FILE writes them", partMagic+strconv.Itoa(PartFormat))
	}
	if strings.HasSuffix(v, "\r") {
		// A part is written with bare line feeds; a copy made as text
		// on Windows ends its lines in CR LF, which no version writes.
		return nil, fail("corrupted: its lines end in CR LF, as a copy made in text mode leaves them; copy the part as a binary file, or rerun the shard that wrote it")
	}
	if n, err := strconv.Atoi(v); err != nil || n != PartFormat {
		return nil, fail("partial-result format %q; this hammersim reads format %d: merge with the version that wrote the parts", v, PartFormat)
	}
	if i, want, ok := lastChecksum(src); ok {
		sum := sha256.Sum256(src[:i+1])
		if hex.EncodeToString(sum[:]) != want {
			return nil, fail("corrupted: its contents do not match its checksum; rerun the shard that wrote it")
		}
		return src[:i+1], nil
	}
	if n := bytesAfterChecksum(src); n > 0 {
		bytesWord := "bytes follow"
		if n == 1 {
			bytesWord = "byte follows"
		}
		return nil, fail("corrupted: %d %s its checksum line (something was added to the end of the file); rerun the shard that wrote it", n, bytesWord)
	}
	return nil, fail("truncated: it does not end with its checksum line (a shard still writing, or a copy cut short?)")
}

// checksumPrefix begins a part's last line, followed by the hexadecimal
// SHA-256 of every byte before that line and a newline.
const checksumPrefix = "sha256 "

// lastChecksum reads the checksum on src's last line: i is the index of
// the newline before that line.
func lastChecksum(src []byte) (i int, want string, ok bool) {
	if !bytes.HasSuffix(src, []byte("\n")) {
		return 0, "", false
	}
	i = bytes.LastIndex(src[:len(src)-1], []byte("\n"))
	want, ok = strings.CutPrefix(string(src[i+1:len(src)-1]), checksumPrefix)
	return i, want, ok && len(want) == 2*sha256.Size
}

// bytesAfterChecksum tells a part with bytes added after its checksum line
// from one cut short: it returns how many bytes follow the last
// well-formed checksum line, where that line's checksum holds for the
// bytes before it, and 0 otherwise.
func bytesAfterChecksum(src []byte) int {
	i := bytes.LastIndex(src, []byte("\n"+checksumPrefix))
	if i < 0 {
		return 0
	}
	end := i + 1 + len(checksumPrefix) + 2*sha256.Size + 1
	if end > len(src) || src[end-1] != '\n' {
		return 0
	}
	if _, _, ok := lastChecksum(src[:end]); !ok {
		return 0
	}
	sum := sha256.Sum256(src[:i+1])
	if hex.EncodeToString(sum[:]) != string(src[i+1+len(checksumPrefix):end-1]) {
		return 0
	}
	return len(src) - end
}

// strictJSON decodes b, one JSON value, into v: a field v does not have, a
// key given twice in one object (which encoding/json reads as its last
// value, silently) and data after the value are errors, and a value of the
// wrong type is named by its key and what was expected, not by Go's names.
func strictJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			if te.Field == "" {
				return fmt.Errorf("the line is a JSON %s, not %s", te.Value, jsonKind(te.Type))
			}
			return fmt.Errorf("at byte %d of the line: %q is %s, not %s", te.Offset, te.Field, te.Value, jsonKind(te.Type))
		}
		return err
	}
	// Not dec.More, which reports a closing bracket as the end.
	if len(bytes.TrimSpace(b[dec.InputOffset():])) > 0 {
		return errors.New("unexpected data after the JSON value")
	}
	if key, at, ok := duplicateKey(b); ok {
		return fmt.Errorf("at byte %d of the line: key %q given twice in one object", at, key)
	}
	return nil
}

// jsonKind names what a JSON value must be to decode into t.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number in range"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "a list"
	case reflect.Array:
		return fmt.Sprintf("a list of %d", t.Len())
	}
	return "an object"
}

// duplicateKey finds the first key given twice in one object of b, which
// must be valid JSON, in any mix of cases (encoding/json decodes "Chunks"
// into the field of "chunks"); at is the byte offset of its second
// occurrence. The keys of the objects open at a point are kept on one
// stack, so a scan allocates only as deep and wide as the objects are,
// not once for each.
func duplicateKey(b []byte) (key string, at int, ok bool) {
	var keys [][]byte // the keys of the open objects, innermost last
	var starts []int  // where each open object's keys begin in keys; -1 for a list
	expectKey := false
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '{':
			starts = append(starts, len(keys))
			expectKey = true
		case '[':
			starts = append(starts, -1)
		case '}', ']':
			if s := starts[len(starts)-1]; s >= 0 {
				keys = keys[:s]
			}
			starts = starts[:len(starts)-1]
		case ',':
			expectKey = len(starts) > 0 && starts[len(starts)-1] >= 0
		case '"':
			j := i + 1
			for b[j] != '"' {
				if b[j] == '\\' {
					j++
				}
				j++
			}
			if expectKey {
				k := b[i+1 : j]
				if bytes.IndexByte(k, '\\') >= 0 {
					// "\u0063hunks" is "chunks" too.
					var u string
					if err := json.Unmarshal(b[i:j+1], &u); err != nil {
						return "", 0, false // not valid JSON: Decode says why
					}
					k = []byte(u)
				}
				for _, seen := range keys[starts[len(starts)-1]:] {
					if bytes.EqualFold(seen, k) { // as encoding/json matches keys
						return string(k), i, true
					}
				}
				keys = append(keys, k)
				expectKey = false
			}
			i = j
		}
	}
	return "", 0, false
}

// setData checks the decoded data against the header and fills p.
func (p *Part) setData(d partData) error {
	h := p.Header
	switch {
	case h.ChunkSize != ChunkSize:
		return fmt.Errorf("chunks of %d trials; this hammersim cuts runs into chunks of %d", h.ChunkSize, ChunkSize)
	case h.Trials < 1 || h.Trials > MaxTrials:
		return fmt.Errorf("trials %d: expected 1 to %d", h.Trials, int64(MaxTrials))
	case h.Shards < 1 || h.Shards > MaxShards:
		return fmt.Errorf("shards %d: expected 1 to %d", h.Shards, MaxShards)
	case h.Batches < 0 || h.Batches > maxBatches:
		return fmt.Errorf("batches %d: expected 0 to %d", h.Batches, maxBatches)
	}
	var chunks []ChunkRange
	var trials int64
	for _, c := range d.Chunks {
		if len(c) != 2 {
			return fmt.Errorf("chunk range %v: expected a pair of numbers, [first, last + 1]", c)
		}
		r := ChunkRange{c[0], c[1]}
		if r.Lo < 0 || r.Hi <= r.Lo || r.Hi > Chunks(h.Trials) || (len(chunks) > 0 && r.Lo <= chunks[len(chunks)-1].Hi) {
			return fmt.Errorf("chunk range %d-%d: expected sorted, disjoint ranges inside the run's %d chunks", r.Lo, r.Hi, Chunks(h.Trials))
		}
		chunks = append(chunks, r)
		trials += r.trials(h.Trials)
	}
	if d.Workers < 0 {
		return fmt.Errorf("workers %d: expected 0 or more", d.Workers)
	}
	p.Chunks, p.Workers = chunks, d.Workers
	for g, rd := range d.Runs {
		run, err := runFromData(rd, trials, h.Batches)
		if err != nil {
			return fmt.Errorf("group %d: %v", g, err)
		}
		p.Runs = append(p.Runs, run)
	}
	if len(p.Runs) == 0 {
		return errors.New("no tallies")
	}
	return nil
}

func runFromData(rd runData, trials int64, batches int) (Run, error) {
	run, err := tallies(rd.Models)
	if err != nil {
		return Run{}, err
	}
	for m, n := range run.Completed {
		if n != trials {
			return Run{}, fmt.Errorf("model %d holds %d trials; its chunks hold %d", m, n, trials)
		}
		// A trial makes at most one observation in each slot (none where
		// what the slot counts did not happen).
		for i := range run.Tallies[m].H {
			if k := run.Tallies[m].H[i].N(); k > n {
				return Run{}, fmt.Errorf("model %d, slot %d: %d observations in %d trials; a trial makes at most one", m, i, k, n)
			}
		}
	}
	if len(rd.Batches) != batches {
		return Run{}, fmt.Errorf("%d batches, not %d", len(rd.Batches), batches)
	}
	sums := make([]int64, len(run.Completed))
	for k, b := range rd.Batches {
		br, err := tallies(b)
		if err != nil {
			return Run{}, fmt.Errorf("batch %d: %v", k, err)
		}
		if len(br.Tallies) != len(run.Tallies) {
			return Run{}, fmt.Errorf("batch %d has %d models, not %d", k, len(br.Tallies), len(run.Tallies))
		}
		for m, n := range br.Completed {
			sums[m] += n
		}
		run.Batches = append(run.Batches, br)
	}
	for m := range sums {
		if batches > 0 && sums[m] != trials {
			return Run{}, fmt.Errorf("model %d: its batches hold %d trials, not %d", m, sums[m], trials)
		}
	}
	return run, nil
}

func tallies(ms []modelData) (Run, error) {
	var run Run
	for m, md := range ms {
		if md.Trials < 0 {
			return Run{}, fmt.Errorf("model %d: negative trials", m)
		}
		t := &Tally{H: make([]Histogram, len(md.Slots))}
		for i, hd := range md.Slots {
			// Min is bounded first, so that Min+len cannot overflow.
			if hd.Min < -MaxTallyValue || hd.Min > MaxTallyValue || len(hd.Counts) > MaxTallyValue+1-hd.Min {
				return Run{}, fmt.Errorf("model %d, slot %d: values outside ±%d", m, i, MaxTallyValue)
			}
			var total int64
			for _, c := range hd.Counts {
				if c < 0 || c > math.MaxInt64-total {
					return Run{}, fmt.Errorf("model %d, slot %d: counts below 0 or beyond 64 bits", m, i)
				}
				total += c
			}
			t.H[i] = Histogram{min: hd.Min, counts: hd.Counts}
		}
		run.Tallies = append(run.Tallies, t)
		run.Completed = append(run.Completed, md.Trials)
	}
	return run, nil
}
