package sim

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"
)

// MaxShards bounds a split: more shards than this gains nothing but
// bookkeeping (a shard of a million-trial run is already 61 chunks at 16).
const MaxShards = 1 << 16

// Shard is shard Index (from 0) of a run cut into Count shards.
type Shard struct{ Index, Count int }

// Chunks returns the chunks [lo, hi) that s runs of a run of trials: the
// run's chunks cut into Count contiguous ranges whose sizes differ by at
// most one (a shard of a run with fewer chunks than shards may have none).
// Which chunks a shard takes never changes a result: every chunk has its
// own stream, and tallies add up in any grouping.
func (s Shard) Chunks(trials int64) (lo, hi int64) {
	c := uint64(Chunks(trials))
	at := func(i int) int64 {
		h, l := bits.Mul64(c, uint64(i))
		q, _ := bits.Div64(h, l, uint64(s.Count))
		return int64(q)
	}
	return at(s.Index), at(s.Index + 1)
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Chunks is the number of chunks a run of trials has.
func Chunks(trials int64) int64 { return trials/ChunkSize + min(trials%ChunkSize, 1) }

// ChunkRange is the chunks [Lo, Hi) of a run.
type ChunkRange struct{ Lo, Hi int64 }

// trials is how many of a run's trials the range holds.
func (c ChunkRange) trials(runTrials int64) int64 {
	return max(0, min(c.Hi*ChunkSize, runTrials)-c.Lo*ChunkSize)
}

// PartHeader identifies the run a part belongs to: parts merge only when
// their headers are equal. It holds everything that decides a result.
type PartHeader struct {
	// Program and Version name what wrote the part; Build names the
	// binary, since two builds of one version may differ in their rules
	// while the version number stays: the commit it was built from, or
	// the SHA-256 of the executable when the tree had changes or no
	// commit was recorded.
	Program string `json:"program"`
	Version string `json:"version"`
	Build   string `json:"build"`
	// Command and Args are the command that ran (run, compare) and its
	// arguments other than flags, as given: the reproduce line uses them.
	Command string   `json:"command"`
	Args    []string `json:"args"`
	// Flags are the command's flags, beyond seed and trials, that change
	// results, in a fixed order.
	Flags []Flag `json:"flags"`
	// Inputs are the scenario files, whole, with their SHA-256: a merge
	// needs nothing but the parts.
	Inputs []Input `json:"inputs"`
	Seed   uint64  `json:"seed"`
	// Trials per model of the whole run.
	Trials    int64 `json:"trials"`
	ChunkSize int64 `json:"chunk_size"`
	Aligned   bool  `json:"aligned"`
	Batches   int   `json:"batches"`
	// Shards is how many shards the run was cut into.
	Shards int `json:"shards"`
}

// Flag is a command-line flag and its value.
type Flag struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Input is a scenario a run read: its file, and the SHA-256 that
// identifies it with every unit catalogue it read.
type Input struct {
	Name   string `json:"name"`
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
	Source string `json:"source"`
	// Catalogues are the unit catalogue files the scenario read, whole, in
	// the order it read them.
	Catalogues []InputFile `json:"catalogues,omitempty"`
}

// InputFile is a file a scenario read: its path, the hex SHA-256 of its
// bytes, and its whole text.
type InputFile struct {
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
	Source string `json:"source"`
}

// InputsSHA256 is the hex SHA-256 that identifies a scenario's text src
// with the unit catalogues it read, in order: that of src alone when it
// read none, else that of the lines giving the hex SHA-256 of src and of
// each catalogue, which is what `sha256sum FILE CATALOGUE... | cut -c1-64
// | sha256sum` prints. Stamps and parts give it (Input.SHA256).
func InputsSHA256(src []byte, catalogues ...[]byte) string {
	sum := sha256.Sum256(src)
	if len(catalogues) == 0 {
		return hex.EncodeToString(sum[:])
	}
	h := sha256.New()
	fmt.Fprintf(h, "%x\n", sum)
	for _, c := range catalogues {
		fmt.Fprintf(h, "%x\n", sha256.Sum256(c))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// tampered says which text of in does not match its SHA-256, or "": a
// unit catalogue whose text is not that of its own SHA-256, or the
// scenario whose text and catalogues are not those of in.SHA256.
func (in Input) tampered() string {
	var cats [][]byte
	for _, c := range in.Catalogues {
		if sum := sha256.Sum256([]byte(c.Source)); hex.EncodeToString(sum[:]) != c.SHA256 {
			return "the unit catalogue " + c.File
		}
		cats = append(cats, []byte(c.Source))
	}
	if InputsSHA256([]byte(in.Source), cats...) != in.SHA256 {
		return "the scenario " + in.Name
	}
	return ""
}

// InputBytes is the size of the texts h carries, every scenario's and
// every catalogue's, as a part holds them: JSON strings (without their
// quotes), exactly as WritePart writes them.
func (h *PartHeader) InputBytes() int {
	n := 0
	for _, in := range h.Inputs {
		n += jsonTextLen(in.Source)
		for _, c := range in.Catalogues {
			n += jsonTextLen(c.Source)
		}
	}
	return n
}

// jsonTextLen is the length of s as encoding/json writes it inside a
// string, HTML escaping off: a quote, a backslash and the control
// characters \b, \f, \n, \r and \t take two bytes; the other control
// characters, a byte that is not UTF-8 (written \ufffd), and U+2028 and
// U+2029 (which JavaScript reads as line ends) take six; the rest is
// written as it is.
func jsonTextLen(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
				n += 2
			case c < 0x20:
				n += 6
			default:
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1, r == '\u2028', r == '\u2029':
			n += 6
		default:
			n += size
		}
		i += size
	}
	return n
}

// equalInputs reports whether two runs read the same inputs.
func equalInputs(a, b []Input) bool {
	return slices.EqualFunc(a, b, func(x, y Input) bool {
		return x.Name == y.Name && x.File == y.File && x.SHA256 == y.SHA256 && x.Source == y.Source &&
			slices.Equal(x.Catalogues, y.Catalogues)
	})
}

// Part is the integer result of some chunks of one run: what a shard
// writes and what Merge adds up. A run of several groups of models (one per
// scenario of a comparison) has one Run per group, in order.
type Part struct {
	Header PartHeader
	// Chunks are the ranges the part holds, sorted, disjoint and not
	// touching (adjacent ranges are joined).
	Chunks []ChunkRange
	// Workers ran the part (0 when the parts of a merge disagree); results
	// never depend on it, but report documents show it.
	Workers int
	Runs    []Run
	// Interrupted is set when a run was cancelled before its chunks all
	// ran. Such a part can only be rendered as partial results: it is never
	// written to a file.
	Interrupted bool
}

// RunShard runs the chunks of shard sh of a run of cfg.Trials trials of
// every group of models and returns them as a part. cfg.Start must be 0.
// The groups run together (RunGroups): a cancelled shard holds the same
// chunks of every group, and has Interrupted set.
func RunShard(ctx context.Context, groups [][]Model, cfg Config, sh Shard, header PartHeader) (*Part, error) {
	if sh.Count < 1 || sh.Count > MaxShards || sh.Index < 0 || sh.Index >= sh.Count || cfg.Start != 0 {
		return nil, fmt.Errorf("sim: bad shard %s of a run starting at %d", sh, cfg.Start)
	}
	lo, hi := sh.Chunks(cfg.Trials)
	r := ChunkRange{lo, hi}
	header.Seed, header.Trials, header.ChunkSize = cfg.Seed, cfg.Trials, ChunkSize
	header.Aligned, header.Batches, header.Shards = cfg.Aligned, cfg.Batches, sh.Count
	p := &Part{Header: header, Workers: cfg.Workers}
	if lo < hi {
		p.Chunks = []ChunkRange{r}
	}
	shardCfg := cfg
	shardCfg.Start, shardCfg.Trials = lo*ChunkSize, r.trials(cfg.Trials)
	runs, err := RunGroups(ctx, groups, shardCfg)
	if err != nil {
		return nil, err
	}
	p.Runs = runs
	for _, r := range runs {
		p.Interrupted = p.Interrupted || r.Partial
	}
	return p, nil
}

// WholeRun makes a part of a run that ran on one machine: all its chunks,
// in one shard. Trials is the run's trial count per model (the final one,
// after precision rounds).
func WholeRun(header PartHeader, cfg Config, runs ...Run) *Part {
	header.Seed, header.Trials, header.ChunkSize = cfg.Seed, cfg.Trials, ChunkSize
	header.Aligned, header.Batches, header.Shards = cfg.Aligned, cfg.Batches, 1
	p := &Part{Header: header, Workers: cfg.Workers, Runs: runs}
	if c := Chunks(cfg.Trials); c > 0 {
		p.Chunks = []ChunkRange{{0, c}}
	}
	for _, r := range runs {
		p.Interrupted = p.Interrupted || r.Partial
	}
	return p
}

// NamedPart is a part and where it came from, for error messages.
type NamedPart struct {
	Name string
	*Part
}

// Merge adds parts of one run into one part. Every part must have the
// same header; no chunk may be held by two parts unless they are the same
// (equal chunks and equal tallies, such as a retried shard's output).
// Integers only are added, so the order of the parts never matters. The
// result may still lack chunks: Missing says which shards hold them.
func Merge(parts []NamedPart) (*Part, error) {
	var m Merger
	for _, p := range parts {
		if err := m.Add(p); err != nil {
			return nil, err
		}
	}
	return m.Result()
}

// Merger adds the parts of one run one at a time, as Merge does, holding
// their sum and not the parts: of each it keeps its name, its chunk ranges
// and a digest of its tallies, so that a merge of thousands of parts takes
// the memory of one part and the sum.
type Merger struct {
	first  NamedPart // the first part's name and header
	out    *Part
	seen   map[string]seenPart // parts that hold chunks, by their chunk ranges
	owners []ownedRange
	listed int64 // histogram cells the parts added list
	cells  int64 // histogram cells the sum holds
}

// mergeSlackCells is how many cells the sum's histograms may hold beyond
// twice those the parts list (see Merger.Add): a million, 8 MB.
const mergeSlackCells = 1 << 20

type seenPart struct {
	name   string
	digest [sha256.Size]byte
}

type ownedRange struct {
	ChunkRange
	owner string
}

// Add adds p to the sum. A part with the very chunks and tallies of one
// added before counts once.
func (m *Merger) Add(p NamedPart) error {
	if m.out == nil {
		m.first = NamedPart{Name: p.Name, Part: &Part{Header: p.Header}}
		m.out = &Part{Header: p.Header, Workers: p.Workers}
		m.seen = map[string]seenPart{}
	} else if err := sameRun(m.first, p); err != nil {
		return err
	}
	if len(p.Chunks) > 0 {
		key, digest := fmt.Sprint(p.Chunks), tallyDigest(p.Part)
		if s, ok := m.seen[key]; ok {
			if s.digest != digest {
				return fmt.Errorf("%s and %s hold the same chunks (%s) with different tallies: one of them is not what it claims to be", s.name, p.Name, rangesString(p.Chunks))
			}
			return nil
		}
		m.seen[key] = seenPart{p.Name, digest}
	}
	if p.Workers != m.out.Workers {
		m.out.Workers = 0
	}
	// A part's values are bounded (MaxTallyValue), but the sum's
	// histograms span from the least of every part's values to the
	// greatest: two parts of a few kilobytes, one counting a slot's value
	// -2^20 and the other 2^20, would make a histogram of 2^21 cells in
	// every slot of theirs, gigabytes in all. The parts of one run count
	// values from one range, so their sum spans little more than any of
	// them: it may hold at most twice the cells the parts list, and a
	// million more.
	if err := checkShapes(m.out, p.Part); err != nil {
		return fmt.Errorf("%s: %w", p.Name, err)
	}
	listed := m.listed
	for _, r := range p.Runs {
		listed += cells(r)
	}
	after := m.cells
	if m.out.Runs == nil {
		after = listed
	} else {
		for i := range m.out.Runs {
			after += growth(m.out.Runs[i], p.Runs[i])
		}
	}
	if after > 2*listed+mergeSlackCells {
		return fmt.Errorf("%s: its values lie so far from the other parts' that their sum would take %d histogram cells, against the %d the parts list: the parts of one run count values from one range", p.Name, after, listed)
	}
	m.listed, m.cells = listed, after
	m.out.Interrupted = m.out.Interrupted || p.Interrupted
	for _, c := range p.Chunks {
		m.owners = append(m.owners, ownedRange{c, p.Name})
	}
	addRuns(m.out, p.Part)
	return nil
}

// cells counts the histogram cells r holds, its batches' included.
func cells(r Run) int64 {
	var n int64
	for _, t := range r.Tallies {
		for i := range t.H {
			n += int64(len(t.H[i].counts))
		}
	}
	for _, b := range r.Batches {
		n += cells(b)
	}
	return n
}

// growth counts the cells adding b to a adds to a's histograms, each
// grown to span its own cells and b's values: what Histogram.Merge
// needs, before the room it leaves to grow again. a and b have one shape
// (checkShapes).
func growth(a, b Run) int64 {
	var n int64
	for m, t := range a.Tallies {
		for i := range t.H {
			h, o := &t.H[i], &b.Tallies[m].H[i]
			lo, hi, ok := o.Range()
			switch {
			case !ok:
			case len(h.counts) == 0:
				n += int64(hi) - int64(lo) + 1
			default:
				lo, hi = min(lo, h.min), max(hi, h.min+len(h.counts)-1)
				n += int64(hi) - int64(lo) + 1 - int64(len(h.counts))
			}
		}
	}
	for k := range a.Batches {
		n += growth(a.Batches[k], b.Batches[k])
	}
	return n
}

// Result checks that no two parts added hold the same chunk and returns
// the sum.
func (m *Merger) Result() (*Part, error) {
	if m.out == nil {
		return nil, fmt.Errorf("no parts to merge")
	}
	all := slices.Clone(m.owners)
	slices.SortStableFunc(all, func(a, b ownedRange) int { return cmp.Compare(a.Lo, b.Lo) })
	var ranges []ChunkRange
	for i, r := range all {
		if i > 0 && r.Lo < all[i-1].Hi {
			return nil, fmt.Errorf("%s and %s both hold chunks %s: merge each shard once (identical copies are fine)",
				all[i-1].owner, r.owner, rangesString([]ChunkRange{{r.Lo, min(r.Hi, all[i-1].Hi)}}))
		}
		ranges = append(ranges, r.ChunkRange)
	}
	out := *m.out
	out.Chunks = joinRanges(ranges)
	return &out, nil
}

// tallyDigest is a SHA-256 of what sameTallies compares: two parts have
// equal digests exactly when they hold equal tallies (up to a collision).
func tallyDigest(p *Part) [sha256.Size]byte {
	h := sha256.New()
	buf := make([]byte, 0, 4096)
	put := func(v int64) {
		if buf = binary.LittleEndian.AppendUint64(buf, uint64(v)); len(buf) == cap(buf) {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	if p.Interrupted {
		put(1)
	} else {
		put(0)
	}
	put(int64(len(p.Runs)))
	for _, r := range p.Runs {
		digestRun(put, r)
	}
	h.Write(buf)
	var d [sha256.Size]byte
	h.Sum(d[:0])
	return d
}

func digestRun(put func(int64), r Run) {
	put(int64(len(r.Completed)))
	for _, n := range r.Completed {
		put(n)
	}
	put(int64(len(r.Tallies)))
	for _, t := range r.Tallies {
		put(int64(len(t.H)))
		for i := range t.H {
			// Histogram.Equal compares trimmed histograms, and any two
			// empty ones are equal whatever their min.
			tr := t.H[i].trimmed()
			put(int64(len(tr.counts)))
			if len(tr.counts) > 0 {
				put(int64(tr.min))
				for _, c := range tr.counts {
					put(c)
				}
			}
		}
	}
	put(int64(len(r.Batches)))
	for _, b := range r.Batches {
		digestRun(put, b)
	}
}

// flagsText writes flags as a command line gives them, "--metrics hits";
// "none" for none.
func flagsText(flags []Flag) string {
	if len(flags) == 0 {
		return "none"
	}
	var out []string
	for _, f := range flags {
		out = append(out, "--"+f.Name+" "+f.Value)
	}
	return strings.Join(out, " ")
}

// sameRun says how b's run differs from a's, or returns nil.
func sameRun(a, b NamedPart) error {
	ha, hb := a.Header, b.Header
	differ := func(what string, vb, va any) error {
		return fmt.Errorf("%s is not a part of the same run as %s: %s %v, not %v", b.Name, a.Name, what, vb, va)
	}
	switch {
	case ha.Program != hb.Program || ha.Version != hb.Version:
		return differ("written by", hb.Program+" "+hb.Version, ha.Program+" "+ha.Version)
	case ha.Build != hb.Build:
		return differ("written by another build of "+hb.Program+" "+hb.Version+":", hb.Build, ha.Build)
	case ha.Command != hb.Command || !slices.Equal(ha.Args, hb.Args):
		return differ("command", hb.Command+" "+strings.Join(hb.Args, " "), ha.Command+" "+strings.Join(ha.Args, " "))
	case !equalInputs(ha.Inputs, hb.Inputs):
		return inputsDiffer(a, b, differ)
	case ha.Seed != hb.Seed:
		return differ("seed", hb.Seed, ha.Seed)
	case ha.Trials != hb.Trials:
		return differ("trials", hb.Trials, ha.Trials)
	case !slices.Equal(ha.Flags, hb.Flags):
		return differ("flags", flagsText(hb.Flags), flagsText(ha.Flags))
	case ha.ChunkSize != hb.ChunkSize || ha.Aligned != hb.Aligned || ha.Batches != hb.Batches:
		return differ("chunk size, alignment and batches", fmt.Sprint(hb.ChunkSize, hb.Aligned, hb.Batches), fmt.Sprint(ha.ChunkSize, ha.Aligned, ha.Batches))
	case ha.Shards != hb.Shards:
		return fmt.Errorf("%s is of a run cut into %d shards, %s of one cut into %d: merge the parts of one split", b.Name, hb.Shards, a.Name, ha.Shards)
	}
	return nil
}

// inputsDiffer says how the inputs of b's run differ from a's. A part
// whose texts do not match their SHA-256 was changed after it was
// written: that is said of it first, since its SHA-256 may then equal the
// other part's and tell nothing.
func inputsDiffer(a, b NamedPart, differ func(what string, vb, va any) error) error {
	for _, p := range []NamedPart{b, a} {
		for _, in := range p.Header.Inputs {
			if what := in.tampered(); what != "" {
				return fmt.Errorf("%s: %s it carries does not match its SHA-256; the part was changed after it was written", p.Name, what)
			}
		}
	}
	ia, ib := a.Header.Inputs, b.Header.Inputs
	if inputSums(ia) != inputSums(ib) {
		return differ("scenario sha256", inputSums(ib), inputSums(ia))
	}
	// The same texts, read under other names.
	for i := range ia {
		x, y := ia[i], ib[i]
		switch {
		case x.File != y.File:
			return differ("scenario file", y.File, x.File)
		case x.Name != y.Name:
			return differ("scenario name", y.Name, x.Name)
		}
		for j := range x.Catalogues {
			if x.Catalogues[j].File != y.Catalogues[j].File {
				return differ("unit catalogue file", y.Catalogues[j].File, x.Catalogues[j].File)
			}
		}
	}
	return differ("inputs", ib, ia) // not reached: equal sums hold equal texts
}

func inputSums(in []Input) string {
	var s []string
	for _, i := range in {
		s = append(s, i.SHA256)
	}
	return strings.Join(s, ",")
}

// joinRanges joins sorted, disjoint ranges that touch.
func joinRanges(rs []ChunkRange) []ChunkRange {
	var out []ChunkRange
	for _, r := range rs {
		if r.Lo >= r.Hi {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Hi == r.Lo {
			out[n-1].Hi = r.Hi
			continue
		}
		out = append(out, r)
	}
	return out
}

func rangesString(rs []ChunkRange) string {
	var s []string
	for _, r := range rs {
		if r.Hi-r.Lo == 1 {
			s = append(s, fmt.Sprint(r.Lo))
		} else {
			s = append(s, fmt.Sprintf("%d-%d", r.Lo, r.Hi-1))
		}
	}
	return strings.Join(s, ", ")
}

// addRuns adds p's runs into out's, which checkShapes has found of one
// shape (the first part's are copied).
func addRuns(out, p *Part) {
	if out.Runs == nil {
		for _, r := range p.Runs {
			out.Runs = append(out.Runs, cloneRun(r))
		}
		return
	}
	for i := range out.Runs {
		out.Runs[i].Merge(p.Runs[i])
	}
}

// checkShapes checks that p's runs can be added to out's (none yet is
// fine): of one shape, and with counts that add up within 64 bits.
func checkShapes(out, p *Part) error {
	if out.Runs == nil {
		return nil
	}
	// Every part holds every group, interrupted or not: groups run
	// together (RunGroups).
	if len(p.Runs) != len(out.Runs) {
		return fmt.Errorf("holds %d groups of models, not %d", len(p.Runs), len(out.Runs))
	}
	for i := range out.Runs {
		if err := sameShape(out.Runs[i], p.Runs[i]); err != nil {
			return err
		}
		if !sumsFit(out.Runs[i], p.Runs[i]) {
			return errors.New("its counts and the others' add up beyond 64 bits")
		}
	}
	return nil
}

func sameShape(a, b Run) error {
	if len(a.Tallies) != len(b.Tallies) || len(a.Completed) != len(a.Tallies) || len(b.Completed) != len(b.Tallies) || len(a.Batches) != len(b.Batches) {
		return fmt.Errorf("holds tallies of another shape (%d models and %d batches, not %d and %d)", len(b.Tallies), len(b.Batches), len(a.Tallies), len(a.Batches))
	}
	for m := range a.Tallies {
		if len(a.Tallies[m].H) != len(b.Tallies[m].H) {
			return fmt.Errorf("model %d has %d slots, not %d", m, len(b.Tallies[m].H), len(a.Tallies[m].H))
		}
	}
	for k := range a.Batches {
		if err := sameShape(a.Batches[k], b.Batches[k]); err != nil {
			return err
		}
	}
	return nil
}

// sumsFit reports whether adding b's counts to a's overflows nowhere: no
// total does, so no single count can.
func sumsFit(a, b Run) bool {
	for m := range a.Tallies {
		for i := range a.Tallies[m].H {
			if a.Tallies[m].H[i].N() > math.MaxInt64-b.Tallies[m].H[i].N() {
				return false
			}
		}
	}
	for k := range a.Batches {
		if !sumsFit(a.Batches[k], b.Batches[k]) {
			return false
		}
	}
	return true
}

func cloneRun(r Run) Run {
	c := Run{Completed: slices.Clone(r.Completed), Partial: r.Partial}
	for _, t := range r.Tallies {
		ct := &Tally{H: make([]Histogram, len(t.H))}
		for i := range t.H {
			ct.H[i] = t.H[i].Clone()
		}
		c.Tallies = append(c.Tallies, ct)
	}
	for _, b := range r.Batches {
		c.Batches = append(c.Batches, cloneRun(b))
	}
	return c
}

// Missing returns the shards whose chunks p lacks, in order: those that
// no one of p's ranges holds whole. Shards and p's ranges (sorted, as
// parts and merges hold them) are walked together, once each, so that a
// part of a million ranges is checked in a moment.
func (p *Part) Missing() []int {
	var out []int
	j := 0
	for i := range p.Header.Shards {
		lo, hi := Shard{i, p.Header.Shards}.Chunks(p.Header.Trials)
		if lo >= hi {
			continue
		}
		for j < len(p.Chunks) && p.Chunks[j].Hi <= lo {
			j++ // ranges that end before this shard, and so before the next
		}
		if j == len(p.Chunks) || p.Chunks[j].Lo > lo || p.Chunks[j].Hi < hi {
			out = append(out, i)
		}
	}
	return out
}

// maxNamedFlags is how many missing shards Complete names with their
// --shard flags; past it, it gives the flag once, for each index listed.
const maxNamedFlags = 4

// maxListedRanges is how many ranges of missing shards Complete lists;
// past them it gives the number of shards left out. A job array's index
// list takes the ranges as they are, and hundreds are already more than a
// rerun of that many pieces is worth listing.
const maxListedRanges = 100

// IndexRanges lists sorted indexes, three or more in a row as a range:
// "2, 5-9, 12"; past maxListedRanges ranges, how many indexes are left.
func IndexRanges(ix []int) string {
	var out []string
	for i := 0; i < len(ix); {
		if len(out) == maxListedRanges {
			out[len(out)-1] += fmt.Sprintf(" and %d more", len(ix)-i)
			break
		}
		j := i
		for j+1 < len(ix) && ix[j+1] == ix[j]+1 {
			j++
		}
		switch {
		case j-i >= 2:
			out = append(out, fmt.Sprintf("%d-%d", ix[i], ix[j]))
		default:
			for k := i; k <= j; k++ {
				out = append(out, fmt.Sprint(ix[k]))
			}
		}
		i = j + 1
	}
	return strings.Join(out, ", ")
}

// Complete checks that p holds every chunk of its run and every trial of
// every model, and returns the error a merge with missing shards gives.
func (p *Part) Complete() error {
	if miss := p.Missing(); len(miss) > 0 {
		s := "s"
		if len(miss) == 1 {
			s = ""
		}
		// A few shards are named with their flags; more, such as the
		// thousands a lost rack leaves, as ranges of indexes, which a
		// job array's index list takes as they are.
		rerun := fmt.Sprintf("rerun each with --shard I/%d", p.Header.Shards)
		if len(miss) <= maxNamedFlags {
			flags := make([]string, len(miss))
			for k, i := range miss {
				flags[k] = fmt.Sprintf("--shard %d/%d", i, p.Header.Shards)
			}
			rerun = "rerun with " + strings.Join(flags, ", ")
		}
		return fmt.Errorf("%d of %d shards missing: shard%s %s (%s)", len(miss), p.Header.Shards, s, IndexRanges(miss), rerun)
	}
	if p.Interrupted {
		return nil
	}
	for g, r := range p.Runs {
		for m, n := range r.Completed {
			if n != p.Header.Trials {
				return fmt.Errorf("group %d, model %d holds %d trials, not %d: the parts are inconsistent", g, m, n, p.Header.Trials)
			}
		}
	}
	return nil
}

// CheckLayout checks that p's tallies have the layout of the models that
// are to read them: a group per model list, a tally per model, a histogram
// per slot.
func (p *Part) CheckLayout(groups [][]Model) error {
	if len(p.Runs) != len(groups) {
		return fmt.Errorf("the parts hold %d groups of tallies; the scenarios have %d", len(p.Runs), len(groups))
	}
	for g, r := range p.Runs {
		if len(r.Tallies) != len(groups[g]) {
			return fmt.Errorf("the parts hold %d tallies in group %d; the scenario has %d models", len(r.Tallies), g, len(groups[g]))
		}
		for m, t := range r.Tallies {
			if n := len(groups[g][m].Slots()); len(t.H) != n {
				return fmt.Errorf("the parts hold %d slots for model %d of group %d; the model has %d", len(t.H), m, g, n)
			}
		}
	}
	return nil
}
