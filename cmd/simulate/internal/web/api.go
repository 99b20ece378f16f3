package web

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"hammersim/scenarios"
)

// apiError is the body of every error answer: the command line's words,
// and each positioned problem apart when there are any.
type apiError struct {
	Error  string    `json:"error"`
	Errors []problem `json:"errors,omitempty"`
	// More counts the problems found past those Errors lists, which are
	// the command line's first 20.
	More  int        `json:"more,omitempty"`
	Limit *limitNote `json:"limit,omitempty"`
}

// problem is one positioned error in a scenario file.
type problem struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
	// Text is the line the command line prints for it.
	Text string `json:"text"`
}

// limitNote names the server limit a request ran into.
type limitNote struct {
	Name  string `json:"name"`
	Value int64  `json:"value"`
}

// limitError is a request over one of the server's bounds.
type limitError struct {
	status int
	msg    string
	limit  limitNote
}

func (e *limitError) Error() string { return e.msg }

// statusError is a request refused with a status of its own.
type statusError struct {
	status int
	msg    string
}

func (e *statusError) Error() string { return e.msg }

// problems lists the positioned errors inside err that the command line
// shows, and counts those it leaves out.
func problems(err error) (ps []problem, more int) {
	var list scenarios.ErrorList
	var one *scenarios.Error
	switch {
	case errors.As(err, &list):
	case errors.As(err, &one):
		list = scenarios.ErrorList{one}
	default:
		return nil, 0
	}
	list, more = list.Shown()
	ps = make([]problem, len(list))
	var files []string
	for i, e := range list {
		ps[i] = problem{File: e.File, Line: e.Line, Col: e.Col, Message: e.Message(), Text: e.Error()}
		if !slices.Contains(files, e.File) {
			files = append(files, e.File)
		}
	}
	// The command line lists a file's problems as its checks find them (a
	// misspelt key before what it leaves missing in the mapping above it);
	// a page marks them in the text, where file order reads best: files
	// as first met, each by line, then column.
	slices.SortStableFunc(ps, func(a, b problem) int {
		return cmp.Or(
			cmp.Compare(slices.Index(files, a.File), slices.Index(files, b.File)),
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Col, b.Col))
	})
	return ps, more
}

// failure is the body of an error answer for err.
func failure(err error) apiError {
	ps, more := problems(err)
	body := apiError{Error: err.Error(), Errors: ps, More: more}
	if le := (*limitError)(nil); errors.As(err, &le) {
		body.Limit = &le.limit
	}
	return body
}

// clientGone ends a request whose client went away (or half-closed its
// connection, which Go's server reads as the same) before it could be
// answered: with no answer at all, where returning would send an empty
// 200, and an error status would answer what it never judged.
func clientGone() {
	panic(http.ErrAbortHandler)
}

// fail answers with an error; its message is what the command line would
// print after "simulate: ".
func fail(w http.ResponseWriter, status int, err error) {
	body := failure(err)
	var le *limitError
	var se *statusError
	switch {
	case errors.As(err, &le):
		status = le.status
	case errors.As(err, &se):
		status = se.status
	}
	writeJSON(w, status, body)
}

// writeJSON answers with v as JSON, sent as send sends: an answer may
// come minutes after its request (an error at the end of a run), and its
// client must still take it within writeTimeout.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic("web: " + err.Error()) // every answer type marshals
	}
	b = append(b, '\n')
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_ = send(w, b)
}

// body reads a request body up to the server's limit. A body that says
// it is longer is refused before any of it is read, rather than read until
// it is over the limit: a client that says so and then sends nothing
// would otherwise hold its request until the read timeout.
func (s *Server) body(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	tooLarge := &limitError{http.StatusRequestEntityTooLarge,
		fmt.Sprintf("the request body is over this server's limit of %d bytes (simulate serve --max-body)", s.cfg.MaxBody),
		limitNote{"max-body", s.cfg.MaxBody}}
	if r.ContentLength > s.cfg.MaxBody {
		return nil, tooLarge
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBody))
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return nil, tooLarge
	}
	if err != nil {
		return nil, s.unreadBody(r, len(b), err)
	}
	return b, nil
}

// unreadBody says why a request body could not be read whole, with how
// much of it came: the client stopped sending it until the read timeout
// (408), or closed the connection before its end (400).
func (s *Server) unreadBody(r *http.Request, got int, err error) error {
	came := fmt.Sprintf("%d bytes came", got)
	if r.ContentLength >= 0 {
		came = fmt.Sprintf("%d of the %d bytes its Content-Length gives came", got, r.ContentLength)
	}
	var ne net.Error
	switch {
	case errors.As(err, &ne) && ne.Timeout():
		within := "the time the server allows to read a request"
		if s.cfg.ReadTimeout > 0 {
			within = fmt.Sprintf("the %g s the server allows to read a request", s.cfg.ReadTimeout.Seconds())
		}
		return &statusError{http.StatusRequestTimeout, fmt.Sprintf("the request body did not all arrive within %s: %s", within, came)}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &statusError{http.StatusBadRequest, fmt.Sprintf("the request body ended before its end: %s", came)}
	}
	return fmt.Errorf("reading the request body: %w", err)
}

// fileName is the name a request gives its scenario text: it labels
// errors and stamps, and is never opened.
func fileName(r *http.Request) (string, error) {
	q := r.URL.Query()
	if !q.Has("file") {
		return "scenario.yaml", nil
	}
	name := q.Get("file")
	if name == "" { // as -o "" is refused, not read as the default
		return "", errors.New("file: an empty name; expected a file name such as my-charge.yaml (leave file out for scenario.yaml)")
	}
	return name, checkFileName("file", name)
}

// checkFileName checks a name given to a scenario text: it shows where a
// scenario's names do (errors, stamps, the table's lines), so it is held
// to what they are: no control characters (C0 or C1, which a terminal
// obeys), line separators or bidirectional embeddings, overrides and
// isolates (which reorder the text around them). Nor may it start with -:
// the stamp's command, "simulate run -o.yaml ...", would read it as a
// flag and not give the same numbers.
func checkFileName(what, name string) error {
	unprintable := func(r rune) bool {
		return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' ||
			r >= '\u202A' && r <= '\u202E' || r >= '\u2066' && r <= '\u2069'
	}
	if len(name) > 200 || strings.IndexFunc(name, unprintable) >= 0 {
		return fmt.Errorf("%s: expected a short file name without control characters, such as my-charge.yaml", what)
	}
	if strings.HasPrefix(name, "-") {
		return fmt.Errorf("%s: %q starts with -, which the command in the stamp would read as a flag; expected a file name such as my-charge.yaml", what, name)
	}
	return nil
}

// checkQuery refuses a request whose query is not what its endpoint takes:
// a key the endpoint does not take (a misspelt trials would otherwise run
// the default million trials), a key given twice (which value would
// count?), or text that is not a query. The command line refuses the same
// of its flags.
func checkQuery(r *http.Request, keys []string) error {
	what := r.Method + " " + r.URL.Path
	takes := "no parameters"
	if len(keys) > 0 {
		takes = "only " + strings.Join(keys, ", ")
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return fmt.Errorf("the query of %s: %v; expected key=value pairs joined by &, with %%XX escapes (%s takes %s)", what, err, what, takes)
	}
	for _, k := range slices.Sorted(maps.Keys(q)) {
		if !slices.Contains(keys, k) {
			return fmt.Errorf("unknown parameter %s; %s takes %s", quoteKey(k), what, takes)
		}
		if n := len(q[k]); n > 1 {
			return fmt.Errorf("parameter %s given %d times; %s takes each parameter once, %s", quoteKey(k), n, what, takes)
		}
	}
	return nil
}

// quoteKey quotes a query key for an error, cut to its first 40 bytes.
func quoteKey(k string) string {
	if len(k) > 40 {
		return strconv.Quote(strings.ToValidUTF8(k[:40], "")) + "..."
	}
	return strconv.Quote(k)
}

// runArgs turns a request's query into the command line's flags, which
// the command line then checks. Only the flags listed here pass; none of
// them names a path. The query holds no other key, nor any twice
// (checkQuery).
func runArgs(r *http.Request, flags ...string) ([]string, error) {
	q := r.URL.Query()
	var args []string
	for _, name := range flags {
		if !q.Has(name) {
			continue
		}
		// One argument, --name=value: a value cannot pass for a flag.
		args = append(args, "--"+name+"="+q.Get(name))
	}
	return args, nil
}

// pickFormat is the output format a request asks for, one of formats, or
// the first when it asks for none.
func pickFormat(r *http.Request, formats []string) (string, error) {
	q := r.URL.Query()
	if !q.Has("format") {
		return formats[0], nil
	}
	f := q.Get("format") // format= is refused, as --format "" is
	if !slices.Contains(formats, f) {
		return "", fmt.Errorf("unknown format %q; expected %s", f, strings.Join(formats, ", "))
	}
	return f, nil
}

// contentType is the media type of each format.
func contentType(format string) string {
	switch format {
	case "json":
		return "application/json; charset=utf-8"
	case "csv":
		return "text/csv; charset=utf-8"
	case "markdown":
		return "text/markdown; charset=utf-8"
	case "html":
		return "text/html; charset=utf-8"
	}
	return "text/plain; charset=utf-8"
}

// scenarioInfo describes a built-in scenario for the picker.
type scenarioInfo struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Ruleset     string `json:"ruleset"`
	// Default marks what `simulate` runs with no arguments.
	Default bool `json:"default,omitempty"`
}

func (s *Server) scenarios(w http.ResponseWriter, r *http.Request) {
	out, err := s.builtins()
	if err != nil {
		fail(w, http.StatusInternalServerError, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// readBuiltins lists the built-ins, each read once. The server's bound on
// points is for runs: a built-in over it is listed, and refused when it is
// run, as any scenario over it is.
func (s *Server) readBuiltins() ([]scenarioInfo, error) {
	reader := s.eng.Scenarios.WithMaxPoints(scenarios.MaxPoints, "")
	var list []scenarioInfo
	for _, name := range scenarios.BuiltinNames() {
		sc, err := reader.Load(name)
		if err != nil {
			return nil, fmt.Errorf("built-in scenario %s: %w", name, err)
		}
		list = append(list, scenarioInfo{sc.Name, sc.Description, sc.Ruleset, name == scenarios.DefaultScenario})
	}
	return list, nil
}

func (s *Server) units(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.eng.Units())
}

func (s *Server) scenario(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	src, ok := scenarios.Builtin(name)
	if !ok {
		fail(w, http.StatusNotFound, fmt.Errorf("no built-in scenario named %q (simulate list shows them)", name))
		return
	}
	w.Header().Set("Content-Type", "application/yaml; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(src)))
	_ = send(w, src)
}

// validation is the answer of /api/validate.
type validation struct {
	OK          bool     `json:"ok"`
	Name        string   `json:"name,omitempty"`
	Description string   `json:"description,omitempty"`
	Axes        []string `json:"axes,omitempty"`
	Metrics     []string `json:"metrics,omitempty"`
	// Error, Errors and More in the order of every error answer (apiError).
	Error  string    `json:"error,omitempty"`
	Errors []problem `json:"errors,omitempty"`
	More   int       `json:"more,omitempty"`
}

func (s *Server) validate(w http.ResponseWriter, r *http.Request) {
	file, err := fileName(r)
	if err != nil {
		fail(w, http.StatusBadRequest, err)
		return
	}
	src, err := s.body(w, r)
	if err != nil {
		fail(w, http.StatusBadRequest, err)
		return
	}
	done, err := s.wait(r)
	if err != nil {
		clientGone()
	}
	ctx, cancel := s.preparing(r)
	sc, err := s.eng.Scenarios.ParseContext(ctx, file, src)
	cancel()
	if errors.Is(err, scenarios.ErrStopped) {
		done()
		// The server is stopping, or else the client went away.
		if !s.stopping(w) {
			clientGone()
		}
		return
	}
	if err == nil && s.eng.Check != nil {
		err = s.eng.Check(sc)
	}
	done()
	if err != nil {
		f := failure(err)
		writeJSON(w, http.StatusOK, validation{Errors: f.Errors, More: f.More, Error: f.Error})
		return
	}
	v := validation{OK: true, Name: sc.Name, Description: sc.Description}
	for _, a := range sc.Axes {
		v.Axes = append(v.Axes, a.Name)
	}
	v.Metrics = sc.Metrics()
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) dice(w http.ResponseWriter, r *http.Request) {
	query := r.URL.Query().Get("q")
	if strings.TrimSpace(query) == "" {
		fail(w, http.StatusBadRequest, errors.New("q: expected a dice query, such as 2D6, \"2D6 >= 9\" or \"10D6 count 4+ reroll failures\""))
		return
	}
	if len(query) > maxQuery {
		fail(w, http.StatusBadRequest, &limitError{http.StatusBadRequest,
			fmt.Sprintf("q: %d bytes; this server takes queries of at most %d bytes", len(query), maxQuery),
			limitNote{"q", maxQuery}})
		return
	}
	format, err := pickFormat(r, s.eng.DiceFormats)
	if err != nil {
		fail(w, http.StatusBadRequest, err)
		return
	}
	// A dice query is answered in well under a second (the exact work has
	// a budget): it waits its turn rather than taking a run slot, so that
	// runs going do not turn it away.
	done, err := s.wait(r)
	if err != nil {
		return // the client went away
	}
	out, err := s.eng.Dice(query, format)
	done()
	if err != nil {
		fail(w, http.StatusBadRequest, err)
		return
	}
	w.Header().Set("Content-Type", contentType(format))
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Length", strconv.Itoa(len(out)))
	_ = send(w, out)
}
