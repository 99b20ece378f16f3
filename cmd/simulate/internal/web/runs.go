package web

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"hammersim/scenarios"
)

// prepareRun reads a run request: the scenario text as the body, the
// command line's flags as the query.
func (s *Server) prepareRun(w http.ResponseWriter, r *http.Request) (Job, error) {
	file, err := fileName(r)
	if err != nil {
		return nil, err
	}
	args, err := runArgs(r, "trials", "seed", "metrics")
	if err != nil {
		return nil, err
	}
	src, err := s.body(w, r)
	if err != nil {
		return nil, err
	}
	done, err := s.wait(r)
	if err != nil {
		return nil, err
	}
	ctx, cancel := s.preparing(r)
	job, err := s.eng.Run(ctx, file, src, args)
	cancel()
	done()
	if err != nil {
		return nil, err
	}
	return job, s.checkLimits(job)
}

// compareRequest is the body of a comparison: two or more scenario texts,
// or one with the query's by naming its swept parameter.
type compareRequest struct {
	Scenarios []struct {
		// File is nil when left out (the scenario is then scenario-N.yaml);
		// "" is refused, as the run's file= is.
		File *string `json:"file"`
		Text string  `json:"text"`
	} `json:"scenarios"`
}

// compareExample is what a comparison's body looks like, for errors.
const compareExample = `{"scenarios": [{"file": "a.yaml", "text": "..."}]}`

// decodeCompare reads a comparison's body strictly, as a scenario file is
// read: a key it does not take (a misspelt "text" would otherwise compare
// an empty scenario), a key given twice in one object, a key in other
// letter case than its own (which encoding/json would take), a value of
// the wrong kind, and anything after the JSON value are refused.
func decodeCompare(b []byte) (compareRequest, error) {
	var req compareRequest
	if err := checkJSON(b, compareShape); err != nil {
		return req, fmt.Errorf("the body: %v (a comparison's body is JSON such as %s; trials, seed, by and metrics go in the query)", err, compareExample)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return req, fmt.Errorf("the body: expected JSON such as %s: %v", compareExample, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return req, fmt.Errorf("the body: unexpected data after its JSON value at byte %d; expected one JSON value such as %s", dec.InputOffset(), compareExample)
	}
	return req, nil
}

// jsonPlace is what the value at one place of a JSON body must be: its
// kind, as errors name it ("an object", "a list", "a string"), and for an
// object the keys it may hold.
type jsonPlace struct {
	kind string
	keys []string
}

// compareShape is a comparison's body, place by place: "" for the
// outermost value, "a[]" for the elements of the list under key a.
var compareShape = map[string]jsonPlace{
	"":                 {kind: "an object", keys: []string{"scenarios"}},
	"scenarios":        {kind: "a list"},
	"scenarios[]":      {kind: "an object", keys: []string{"file", "text"}},
	"scenarios[].file": {kind: "a string"},
	"scenarios[].text": {kind: "a string"},
}

// jsonKind names the kind of value a JSON token starts.
func jsonKind(t json.Token) string {
	switch t.(type) {
	case json.Delim:
		if t == json.Delim('{') {
			return "an object"
		}
		return "a list"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "true or false"
	}
	return "null"
}

// checkJSON walks the JSON text b and checks each value at a place shape
// lists: its kind (null passes as an object's value, which encoding/json
// reads as absent, but not as a list's element, which it would read as an
// empty one) and, for an object, its keys. Errors name the place, such as
// scenarios[1].file. A value at a place not listed, nor inside one, is
// skipped without being walked: the walk goes no deeper than the shape,
// whatever the body's nesting. Text that is not JSON ends the walk at its
// first bad token and passes, for the decoder to refuse with its own
// words.
func checkJSON(b []byte, shape map[string]jsonPlace) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	// within reports whether a value at place p, or one inside it, is
	// checked.
	within := func(p string) bool {
		for k := range shape {
			if k == p || strings.HasPrefix(k, p+".") || strings.HasPrefix(k, p+"[") {
				return true
			}
		}
		return false
	}
	// skip reads the rest of a value whose first token was t, keeping
	// count of its brackets only.
	//
	// A token error stops every loop at once: the decoder stays on a bad
	// byte, so More would go on answering true at it.
	skip := func(t json.Token) error {
		depth := 0
		for {
			switch t {
			case json.Delim('{'), json.Delim('['):
				depth++
			case json.Delim('}'), json.Delim(']'):
				depth--
			}
			if depth <= 0 {
				return nil
			}
			var err error
			if t, err = dec.Token(); err != nil {
				return errNotJSON
			}
		}
	}
	// walk reads one value at path (scenarios[1], for errors) whose place
	// is p (scenarios[]); element tells whether it is a list's element.
	var walk func(path, p string, element bool) error
	walk = func(path, p string, element bool) error {
		at := ""
		if path != "" {
			at = path + ": "
		}
		t, err := dec.Token()
		if err != nil {
			return errNotJSON
		}
		place, listed := shape[p]
		if !listed && !within(p) {
			return skip(t)
		}
		if kind := jsonKind(t); listed && kind != place.kind && (kind != "null" || element) {
			return fmt.Errorf("%sexpected %s, found %s", at, place.kind, kind)
		}
		switch t {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				t, err := dec.Token()
				if err != nil {
					return errNotJSON
				}
				k, _ := t.(string)
				if listed && !slices.Contains(place.keys, k) {
					return fmt.Errorf("%sunknown key %s; expected one of: %s", at, quoteKey(k), strings.Join(place.keys, ", "))
				}
				if seen[k] {
					return fmt.Errorf("%skey %s given twice", at, quoteKey(k))
				}
				seen[k] = true
				if err := walk(strings.TrimPrefix(path+"."+k, "."), strings.TrimPrefix(p+"."+k, "."), false); err != nil {
					return err
				}
			}
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if err := walk(fmt.Sprintf("%s[%d]", path, i), p+"[]", true); err != nil {
					return err
				}
			}
		default:
			return nil
		}
		if _, err := dec.Token(); err != nil { // the closing bracket or brace
			return errNotJSON
		}
		return nil
	}
	if err := walk("", "", false); err != errNotJSON {
		return err
	}
	return nil
}

// errNotJSON ends checkJSON's walk at text that is not JSON.
var errNotJSON = errors.New("not JSON")

func (s *Server) prepareCompare(w http.ResponseWriter, r *http.Request) (Job, error) {
	args, err := runArgs(r, "trials", "seed", "by", "metrics")
	if err != nil {
		return nil, err
	}
	b, err := s.body(w, r)
	if err != nil {
		return nil, err
	}
	req, err := decodeCompare(b)
	if err != nil {
		return nil, err
	}
	if n := len(req.Scenarios); n == 0 || n > maxCandidates {
		return nil, fmt.Errorf("scenarios: %d given; a comparison takes 1 (with by) to %d", n, maxCandidates)
	}
	var files []string
	var srcs [][]byte
	for i, sc := range req.Scenarios {
		file := fmt.Sprintf("scenario-%d.yaml", i+1)
		if sc.File != nil {
			file = *sc.File
		}
		if file == "" {
			return nil, fmt.Errorf("scenarios[%d].file: an empty name; expected a file name such as my-charge.yaml (leave file out for scenario-%d.yaml)", i, i+1)
		}
		if err := checkFileName(fmt.Sprintf("scenarios[%d].file", i), file); err != nil {
			return nil, err
		}
		if j := slices.Index(files, file); j >= 0 {
			// Errors and results name a scenario by its file.
			return nil, fmt.Errorf("scenarios[%d].file %q is the name of scenarios[%d] too; give each scenario a name of its own, as errors and results name them by it", i, file, j)
		}
		files, srcs = append(files, file), append(srcs, []byte(sc.Text))
	}
	done, err := s.wait(r)
	if err != nil {
		return nil, err
	}
	ctx, cancel := s.preparing(r)
	job, err := s.eng.Compare(ctx, files, srcs, args)
	cancel()
	done()
	if err != nil {
		return nil, err
	}
	return job, s.checkLimits(job)
}

// preparing is the context of reading a request's scenarios: done when
// its client goes away or the server begins to stop.
func (s *Server) preparing(r *http.Request) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(r.Context())
	stop := context.AfterFunc(s.halt, cancel)
	return ctx, func() { stop(); cancel() }
}

// checkLimits refuses a job over the server's trials or points.
func (s *Server) checkLimits(job Job) error {
	if n := job.MostTrials(); n > s.cfg.MaxTrials {
		return &limitError{http.StatusBadRequest,
			fmt.Sprintf("this run asks for up to %d trials per point; this server runs at most %d (simulate serve --max-trials)", n, s.cfg.MaxTrials),
			limitNote{"max-trials", s.cfg.MaxTrials}}
	}
	if n := job.Points(); n > s.cfg.MaxPoints {
		return &limitError{http.StatusBadRequest,
			fmt.Sprintf("this run sweeps %d points, all its scenarios together; this server runs at most %d (simulate serve --max-points)", n, s.cfg.MaxPoints),
			limitNote{"max-points", int64(s.cfg.MaxPoints)}}
	}
	return nil
}

// wait takes a turn at the work done outside run slots (Server.busy),
// waiting for one while the client does.
func (s *Server) wait(r *http.Request) (done func(), err error) {
	select {
	case s.busy <- struct{}{}:
		return func() { <-s.busy }, nil
	case <-r.Context().Done():
		return nil, r.Context().Err()
	}
}

// acquire takes one of the run slots, or says why it cannot.
func (s *Server) acquire() (release func(), err error) {
	select {
	case s.slots <- struct{}{}:
		return func() { <-s.slots }, nil
	default:
		return nil, s.slotsTaken()
	}
}

// slotsTaken is the error of a run refused because every slot is taken.
func (s *Server) slotsTaken() error {
	return &limitError{http.StatusTooManyRequests,
		fmt.Sprintf("the server is already running %d runs, its limit (simulate serve --max-runs); try again when one has finished", s.cfg.MaxRuns),
		limitNote{"max-runs", int64(s.cfg.MaxRuns)}}
}

// start prepares a job and takes a run slot for it, or answers with why
// it cannot; the caller releases the slot. A server that began to stop
// while the request was read and prepared (its body can take seconds to
// arrive, a large scenario seconds to compile) answers 503 as it does
// before: the run would start cancelled, and its client is told to try
// again elsewhere, not that its scenario was bad.
func (s *Server) start(w http.ResponseWriter, r *http.Request, prepare func(http.ResponseWriter, *http.Request) (Job, error)) (Job, func(), bool) {
	if s.stopping(w) {
		return nil, nil, false
	}
	if len(s.slots) == cap(s.slots) {
		// Refused before the scenario is read and compiled, which can
		// take seconds and hundreds of MB of the runs going on; a slot
		// that frees meanwhile is taken below, or the run refused there.
		fail(w, http.StatusTooManyRequests, s.slotsTaken())
		return nil, nil, false
	}
	job, err := prepare(w, r)
	if s.stopping(w) {
		return nil, nil, false
	}
	if (errors.Is(err, scenarios.ErrStopped) || errors.Is(err, context.Canceled)) && r.Context().Err() != nil {
		// Not a bad scenario: the client left while it was read, or while
		// it waited for its turn to be read (wait), and nobody waits for
		// the answer. A body cut short is answered (unreadBody).
		clientGone()
	}
	if err != nil {
		fail(w, http.StatusBadRequest, err)
		return nil, nil, false
	}
	release, err := s.acquire()
	if err != nil {
		fail(w, http.StatusTooManyRequests, err)
		return nil, nil, false
	}
	if s.stopping(w) {
		release()
		return nil, nil, false
	}
	return job, release, true
}

// stopping answers 503 once the server has begun to stop (CancelRuns).
func (s *Server) stopping(w http.ResponseWriter) bool {
	if s.halt.Err() == nil {
		return false
	}
	fail(w, http.StatusServiceUnavailable, errors.New("the server is stopping and takes no more runs"))
	return true
}

func (s *Server) run(w http.ResponseWriter, r *http.Request) {
	s.answer(w, r, s.prepareRun)
}

func (s *Server) compare(w http.ResponseWriter, r *http.Request) {
	s.answer(w, r, s.prepareCompare)
}

func (s *Server) runEvents(w http.ResponseWriter, r *http.Request) {
	s.stream(w, r, s.prepareRun)
}

func (s *Server) compareEvents(w http.ResponseWriter, r *http.Request) {
	s.stream(w, r, s.prepareCompare)
}

// answer runs a job and answers with its output in the asked format, as
// the command line writes it. A client that goes away stops the run.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, prepare func(http.ResponseWriter, *http.Request) (Job, error)) {
	format, err := pickFormat(r, s.eng.Formats)
	if err != nil {
		fail(w, http.StatusBadRequest, err)
		return
	}
	job, release, ok := s.start(w, r, prepare)
	if !ok {
		return
	}
	release = sync.OnceFunc(release)
	defer release()
	ctx, cancel := s.runContext(r)
	defer cancel()
	present, leave := context.WithCancel(r.Context())
	defer leave()
	left := watchClient(w, r, func() { cancel(); leave() })
	res, err := job.Run(ctx, func(string, int64, int64) {})
	if r.Context().Err() != nil || left() {
		clientGone()
	}
	if err != nil {
		fail(w, http.StatusBadRequest, stoppedBy(ctx, err))
		return
	}
	rctx, rcancel := s.renderContext(present)
	defer rcancel()
	out, err := res.Render(rctx, format)
	if r.Context().Err() != nil || left() {
		clientGone()
	}
	if err != nil {
		fail(w, http.StatusInternalServerError, renderError(rctx, err))
		return
	}
	// The work is done: sending it takes no run slot, so a client slow to
	// take its answer does not keep others from running.
	release()
	w.Header().Set("Content-Type", contentType(format))
	w.Header().Set("Cache-Control", "no-store")
	if res.Partial() {
		w.Header().Set("Hammersim-Partial", "true")
		if why := partialReason(ctx); why != "" {
			w.Header().Set("Hammersim-Partial-Reason", why)
		}
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(out)))
	_ = send(w, out)
}

// writeTimeout is how long a client may take none of its answer before it
// is cut off, so that one that stops reading cannot hold a run, its slot
// or its answer's memory for ever. A variable for tests.
var writeTimeout = 30 * time.Second

// send writes the pieces, in order, to a client that keeps taking them:
// one that takes none of them for writeTimeout is cut off, with an error.
// The deadline it leaves is ServeHTTP's to renew, and net/http's to clear
// once the answer is done.
func send(w http.ResponseWriter, pieces ...[]byte) error {
	rc := http.NewResponseController(w)
	for _, b := range pieces {
		for len(b) > 0 {
			n := min(len(b), 64<<10)
			_ = rc.SetWriteDeadline(time.Now().Add(writeTimeout)) // none to set in tests' recorders
			if _, err := w.Write(b[:n]); err != nil {
				return err
			}
			b = b[n:]
		}
	}
	if err := rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	return nil
}

// stream runs a job and tells its progress as server-sent events: start
// (the id that cancels it), progress, then result (every format) or error.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, prepare func(http.ResponseWriter, *http.Request) (Job, error)) {
	job, release, ok := s.start(w, r, prepare)
	if !ok {
		return
	}
	release = sync.OnceFunc(release)
	defer release()
	ctx, cancel := s.runContext(r)
	defer cancel()
	present, leave := context.WithCancel(r.Context())
	defer leave()
	left := watchClient(w, r, func() { cancel(); leave() })
	id := s.register(cancel)
	defer s.unregister(id)

	ev := newEvents(w, cancel)
	ev.send("start", map[string]string{"id": id})
	res, err := job.Run(ctx, func(label string, done, total int64) {
		ev.send("progress", progressEvent{label, done, total})
	})
	if r.Context().Err() != nil || ev.gone() || left() {
		return
	}
	if err != nil {
		release()
		ev.send("error", failure(stoppedBy(ctx, err)))
		return
	}
	out := resultEvent{Partial: res.Partial()}
	if out.Partial {
		out.Reason = partialReason(ctx)
	}
	rctx, rcancel := s.renderContext(present)
	defer rcancel()
	// Each format is kept only as the JSON string the event carries,
	// and the event is written piece by piece: a large sweep's answer
	// (hundreds of MB) is held once, not as text, then as JSON, then as
	// the event.
	outputs := map[string][]byte{}
	for _, f := range renderOrder(s.eng.Formats) {
		if r.Context().Err() != nil || ev.gone() || left() {
			return // the client left while the earlier formats were written
		}
		b, err := res.Render(rctx, f)
		if err != nil {
			release()
			ev.send("error", failure(renderError(rctx, err)))
			return
		}
		outputs[f], err = json.Marshal(string(b))
		if err != nil {
			panic("web: " + err.Error()) // a string always marshals
		}
	}
	// The work is done, as in answer: sending it takes no run slot.
	release()
	ev.sendPieces("result", out.pieces(outputs)...)
}

// renderOrder is formats with html first: the HTML report, which draws
// every figure, takes the most memory while it is made (1.3 GB for a
// 10,000-point battle, where its text is 77 MB), and made first it does
// not add to the other formats' texts, held until the event is sent.
func renderOrder(formats []string) []string {
	out := slices.Clone(formats)
	if i := slices.Index(out, "html"); i > 0 {
		out = slices.Insert(slices.Delete(out, i, i+1), 0, "html")
	}
	return out
}

// pieces are the result event's JSON, the outputs given as the JSON
// strings of each format: the bytes json.Marshal writes for the event
// with Outputs set to them, in pieces that are not copied together.
func (out resultEvent) pieces(outputs map[string][]byte) [][]byte {
	head, err := json.Marshal(out) // {"partial":...,"outputs":null}
	if err != nil {
		panic("web: " + err.Error())
	}
	head = bytes.TrimSuffix(head, []byte("null}"))
	pieces := [][]byte{head, []byte("{")}
	for i, f := range slices.Sorted(maps.Keys(outputs)) { // json.Marshal's order of a map's keys
		key, _ := json.Marshal(f)
		if i > 0 {
			key = append([]byte(","), key...)
		}
		pieces = append(pieces, append(key, ':'), outputs[f])
	}
	return append(pieces, []byte("}}"))
}

// runContext is a run's context: it ends when the client goes away (the
// request's context, or watchClient), when the run is cancelled, when the
// server cancels every run (CancelRuns), or when the run has taken
// MaxRunTime. Only the first means nobody is listening; the others still
// answer, with the partial results.
func (s *Server) runContext(r *http.Request) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(r.Context())
	stop := context.AfterFunc(s.halt, func() { cancel(errServerStopped) })
	timed, stopTimer := context.WithTimeoutCause(ctx, s.cfg.MaxRunTime, &runTimeError{s.cfg.MaxRunTime})
	return timed, func() { stop(); stopTimer(); cancel(nil) }
}

// renderContext is what an answer is written under once its run is
// done: it ends when present does (the client goes away), or once writing
// has taken MaxRunTime, so that an answer too large to write (the tables
// of a large sweep) cannot hold a run slot for long after its run. A
// cancelled run, or one the server stopped, is still written: its partial
// results are the answer.
func (s *Server) renderContext(present context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(present, s.cfg.MaxRunTime, &renderTimeError{s.cfg.MaxRunTime})
}

// renderTimeError is why an answer was not written: writing it took the
// server's MaxRunTime.
type renderTimeError struct{ limit time.Duration }

func (e *renderTimeError) Error() string {
	return fmt.Sprintf("the results could not be written within this server's time limit of %s (simulate serve --max-run-time), which writing an answer has after its run; ask for fewer points or metrics, or run it with simulate run", e.limit)
}

// renderError is what a client is told of an answer that could not be
// written: the time limit, when that stopped it, as a limit error.
func renderError(ctx context.Context, err error) error {
	var te *renderTimeError
	if errors.As(context.Cause(ctx), &te) {
		return &limitError{http.StatusServiceUnavailable, te.Error(), limitNote{"max-run-time", te.limit.Milliseconds()}}
	}
	return err
}

// errServerStopped is why the runs going stopped when the server was
// stopped (CancelRuns: a signal to simulate serve).
var errServerStopped = errors.New("the server was stopped while the run went on")

// runTimeError is why a run that took the server's MaxRunTime stopped.
type runTimeError struct{ limit time.Duration }

func (e *runTimeError) Error() string {
	return fmt.Sprintf("the run reached this server's time limit of %s (simulate serve --max-run-time)", e.limit)
}

// partialReason says why a run stopped short when the client did not ask
// it to: the server's time limit, or the server stopping. It is empty
// otherwise.
func partialReason(ctx context.Context) string {
	var te *runTimeError
	switch cause := context.Cause(ctx); {
	case errors.As(cause, &te):
		return te.Error()
	case errors.Is(cause, errServerStopped):
		return cause.Error()
	}
	return ""
}

// stoppedBy adds to a run's error the time limit that stopped it, if one
// did: the command line's words say only that the run was interrupted.
// The time limit is named as every bound a request hits is (limit).
func stoppedBy(ctx context.Context, err error) error {
	why := partialReason(ctx)
	if why == "" {
		return err
	}
	if te := (*runTimeError)(nil); errors.As(context.Cause(ctx), &te) {
		return &limitError{http.StatusBadRequest, fmt.Sprintf("%v: %s", err, why), limitNote{"max-run-time", te.limit.Milliseconds()}}
	}
	return fmt.Errorf("%w: %s", err, why)
}

// connKey holds a request's connection in its context (ConnContext).
type connKey struct{}

// ConnContext is for http.Server's ConnContext: it lets a run watch its
// client's connection (watchClient). A server without it still bounds its
// runs by MaxRunTime.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// watchClient stops a run (stop) when its client closes the connection.
// net/http cancels a request's context when the client leaves only until
// the client sends a byte after its request (pipelining): then it stops
// reading the connection, and a client that sends one byte and leaves
// would keep its run, and its slot, going to the end. The answer closes
// the connection (Connection: close), so whatever a client sends after a
// run's request is never read as a request; the watch reads it and drops
// it until the connection ends, which stops the run. The request's body
// has been read whole before the watch starts, and the connection is
// closed once the answer is sent, which ends the watch. left reports
// whether the watch saw the connection end.
func watchClient(w http.ResponseWriter, r *http.Request, stop context.CancelFunc) (left func() bool) {
	w.Header().Set("Connection", "close")
	var gone atomic.Bool
	c, ok := r.Context().Value(connKey{}).(net.Conn)
	if !ok || r.ProtoMajor != 1 {
		return gone.Load
	}
	go func() {
		buf := make([]byte, 512)
		for {
			if _, err := c.Read(buf); err != nil {
				gone.Store(true)
				stop()
				return
			}
		}
	}()
	return gone.Load
}

type progressEvent struct {
	Label string `json:"label"`
	Done  int64  `json:"done"`
	Total int64  `json:"total"`
}

type resultEvent struct {
	Partial bool `json:"partial"`
	// Reason says why a partial run stopped when it was not cancelled:
	// the server's time limit, or the server stopping.
	Reason string `json:"reason,omitempty"`
	// Outputs are every format's text; stream writes them itself
	// (pieces), so the struct is marshalled without them.
	Outputs map[string]string `json:"outputs"`
}

// events writes server-sent events; progress comes from the engine's
// goroutine, so writes take a lock. A client that takes none of an event
// for writeTimeout is cut off and its run stopped (stop), so that it
// cannot hold the run's slot by not reading.
type events struct {
	mu     sync.Mutex
	w      http.ResponseWriter
	stop   context.CancelFunc
	failed bool
}

func newEvents(w http.ResponseWriter, stop context.CancelFunc) *events {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	return &events{w: w, stop: stop}
}

func (e *events) send(name string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic("web: " + err.Error()) // every event type marshals
	}
	e.sendPieces(name, b)
}

// sendPieces sends the event name whose JSON data is the pieces in order.
func (e *events) sendPieces(name string, data ...[]byte) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.failed {
		return
	}
	pieces := append([][]byte{[]byte("event: " + name + "\ndata: ")}, data...)
	if err := send(e.w, append(pieces, []byte("\n\n"))...); err != nil {
		e.failed = true
		e.stop()
	}
}

// gone reports whether the client was cut off.
func (e *events) gone() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.failed
}

// register remembers a streaming run's cancel function under a fresh,
// unguessable id.
func (s *Server) register(cancel context.CancelFunc) string {
	id := rand.Text()
	s.mu.Lock()
	s.running[id] = cancel
	s.mu.Unlock()
	return id
}

func (s *Server) unregister(id string) {
	s.mu.Lock()
	delete(s.running, id)
	s.mu.Unlock()
}

// cancel stops a streaming run, which then sends its partial results. An
// id missing or empty is a bad request, as every empty parameter is, not
// an unknown run.
func (s *Server) cancel(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	if id == "" {
		fail(w, http.StatusBadRequest, errors.New("POST /api/cancel needs id, the id the run's start event gave (id=...)"))
		return
	}
	s.mu.Lock()
	stop, ok := s.running[id]
	s.mu.Unlock()
	if !ok {
		fail(w, http.StatusNotFound, errors.New("no run with that id is going (it may have finished)"))
		return
	}
	stop()
	w.WriteHeader(http.StatusNoContent)
}
