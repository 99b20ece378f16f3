package web

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"hammersim/scenarios"
)

//go:embed page
var page embed.FS

// Config bounds what one server does. The zero value of a field means its
// value in DefaultConfig.
type Config struct {
	// MaxBody is the largest request body, in bytes.
	MaxBody int64
	// MaxTrials is the most trials per point one run may ask for, counting
	// a precision run's cap.
	MaxTrials int64
	// MaxPoints is the most points one run or comparison may sweep, all
	// its scenarios together. A point costs memory and time whatever the
	// trials: compiling it, holding its results and rendering them.
	MaxPoints int
	// MaxRuns is how many runs and comparisons may go at once; more are
	// refused, not queued, so that a page always hears back at once.
	MaxRuns int
	// MaxRunTime is the longest a run or comparison may take: past it, it
	// stops as a cancelled one does and answers with its partial results.
	// It bounds how long a client the server cannot see leave holds a run
	// slot.
	MaxRunTime time.Duration
	// Hosts are the host names, besides IP addresses and localhost, that
	// requests may name in their Host header.
	Hosts []string
	// ReadTimeout is the longest a request may take to arrive, its body
	// included: the http.Server's ReadTimeout, which the caller sets to
	// it; errors name it.
	ReadTimeout time.Duration
}

// DefaultConfig allows a 1 MiB scenario, 100 million trials per point (the
// command line's own cap on a precision run), 10,000 points (a tenth of the
// command line's scenarios.MaxPoints: about 4 seconds and 200 MB to read a
// battle scenario of that many, 30 to 40 seconds and 1.5 GB to run it
// once and send every format, as the page asks, measured in
// docs/web.md; the largest built-in has 644), two runs at once and
// 10 minutes a run (the built-ins take seconds at their own trials), and
// a minute for a request to arrive (a 1 MiB body at 17 KiB/s).
var DefaultConfig = Config{MaxBody: 1 << 20, MaxTrials: 100_000_000, MaxPoints: 10_000, MaxRuns: 2, MaxRunTime: 10 * time.Minute,
	ReadTimeout: time.Minute}

// DefaultMaxConnections is how many connections `simulate serve` holds
// open at once (LimitListener) unless told otherwise. A page opens a few;
// 128 clients each stalled one byte short of a 1 MiB body held the server
// at 169 MB, where 1,000 of them held it at 1.2 GB before the cap
// (docs/reliability.md, "Measured").
const DefaultMaxConnections = 128

// maxQuery bounds a dice query's length: the longest useful ones, such as
// "10D6 count 4+ reroll failures", are a few dozen characters.
const maxQuery = 200

// maxCandidates bounds how many scenarios one comparison may hold.
const maxCandidates = 8

// Engine is the command line's work, as the server may call it.
type Engine struct {
	// Formats lists what a run or comparison renders, the command line's
	// default first.
	Formats []string
	// Scenarios reads scenario texts, with the command line's rulesets,
	// refusing one over the Config's MaxPoints before compiling it.
	Scenarios *scenarios.Registry
	// Check, when set, checks a scenario read whole as a run of it with no
	// flags would, for what only the whole settles (a precision target
	// that holds nothing): /api/validate reports its problem as a run's.
	Check func(*scenarios.Scenario) error
	// Run prepares `simulate run FILE ARGS...` with FILE's text given.
	// Reading a large scenario takes seconds: ctx is done when the client
	// goes away or the server stops, and should stop it.
	Run func(ctx context.Context, file string, src []byte, args []string) (Job, error)
	// Compare prepares `simulate compare FILES... ARGS...` with the files'
	// texts given, as Run does.
	Compare func(ctx context.Context, files []string, srcs [][]byte, args []string) (Job, error)
	// Dice is `simulate dice QUERY --format F`: its output.
	Dice func(query, format string) ([]byte, error)
	// DiceFormats lists the formats Dice writes, the default first.
	DiceFormats []string
	// Units lists the built-in unit cards, as `simulate units` does.
	Units func() []Unit
}

// Job is a run or comparison ready to go.
type Job interface {
	// MostTrials is the most trials per point it may run.
	MostTrials() int64
	// Points is how many points it runs, all its scenarios together.
	Points() int
	// Run runs it; cancelled, it returns partial results (or an error when
	// nothing can be shown), never a half-made answer.
	Run(ctx context.Context, progress Progress) (Result, error)
}

// Progress hears how far a run is: label names the scenario running.
type Progress func(label string, done, total int64)

// Result is a finished run or comparison.
type Result interface {
	// Partial reports whether it was cancelled before every trial ran.
	Partial() bool
	// Render writes it in one of the Engine's Formats. It stops with an
	// error once ctx is done: a large sweep's tables and report can take
	// longer to write than its trials took to run.
	Render(ctx context.Context, format string) ([]byte, error)
}

// Unit is a built-in unit card: a scenario uses it as {use: NAME}.
type Unit struct {
	Name    string `json:"name"`
	Ruleset string `json:"ruleset"`
	// Summary is the card's line in `simulate units`.
	Summary string `json:"summary"`
	// YAML is the card as `simulate units show NAME` prints it, with its
	// comments on what it has without writing it, not those on how to
	// use it.
	YAML string `json:"yaml"`
}

// Server serves the page and its API.
type Server struct {
	cfg   Config
	eng   Engine
	mux   *http.ServeMux
	slots chan struct{}
	// busy bounds the work done for requests outside their run slots:
	// reading a scenario (to check it, or before its run) and answering a
	// dice query. At most one per CPU goes at once; the others wait.
	busy    chan struct{}
	mu      sync.Mutex
	running map[string]context.CancelFunc
	// halt ends with CancelRuns: every run's context derives from it.
	halt     context.Context
	haltRuns context.CancelFunc
	// builtins lists the built-in scenarios, read once: they are part of
	// the binary.
	builtins func() ([]scenarioInfo, error)
}

// New returns a server for eng, bounded by cfg.
func New(cfg Config, eng Engine) *Server {
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultConfig.MaxBody
	}
	if cfg.MaxTrials <= 0 {
		cfg.MaxTrials = DefaultConfig.MaxTrials
	}
	if cfg.MaxPoints <= 0 {
		cfg.MaxPoints = DefaultConfig.MaxPoints
	}
	if cfg.MaxRuns <= 0 {
		cfg.MaxRuns = DefaultConfig.MaxRuns
	}
	if cfg.MaxRunTime <= 0 {
		cfg.MaxRunTime = DefaultConfig.MaxRunTime
	}
	s := &Server{cfg: cfg, eng: eng, mux: http.NewServeMux(),
		slots: make(chan struct{}, cfg.MaxRuns), busy: make(chan struct{}, runtime.GOMAXPROCS(0)),
		running: map[string]context.CancelFunc{}}
	s.halt, s.haltRuns = context.WithCancel(context.Background())
	s.builtins = sync.OnceValues(s.readBuiltins)
	assets, err := fs.Sub(page, "page")
	if err != nil {
		panic("web: " + err.Error()) // the embedded folder is part of the binary
	}
	files := http.FileServerFS(assets)
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			fail(w, http.StatusMethodNotAllowed, fmt.Errorf("%s %s: the page's files are read with GET", r.Method, r.URL.Path))
			return
		}
		// A file the page does not have is refused as the API refuses
		// an endpoint it does not have, in JSON.
		if name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/"); name != "" {
			if _, err := fs.Stat(assets, name); err != nil {
				fail(w, http.StatusNotFound, fmt.Errorf("%s: the page has no such file", r.URL.Path))
				return
			}
		}
		files.ServeHTTP(w, r)
	})
	// Each endpoint with the query parameters it takes: any other, or one
	// given twice, is refused rather than ignored (checkQuery).
	s.handle("GET /api/scenarios", s.scenarios)
	s.handle("GET /api/scenarios/{name}", s.scenario)
	s.handle("GET /api/units", s.units)
	s.handle("POST /api/validate", s.validate, "file")
	s.handle("POST /api/run", s.run, "file", "trials", "seed", "metrics", "format")
	s.handle("POST /api/run/events", s.runEvents, "file", "trials", "seed", "metrics")
	s.handle("POST /api/compare", s.compare, "trials", "seed", "by", "metrics", "format")
	s.handle("POST /api/compare/events", s.compareEvents, "trials", "seed", "by", "metrics")
	s.handle("POST /api/cancel", s.cancel, "id")
	s.handle("GET /api/dice", s.dice, "q", "format")
	s.mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		if allow := s.methods(r); allow != "" {
			w.Header().Set("Allow", allow)
			fail(w, http.StatusMethodNotAllowed, fmt.Errorf("%s %s: this endpoint takes %s only (docs/web.md lists the API)", r.Method, r.URL.Path, allow))
			return
		}
		fail(w, http.StatusNotFound, fmt.Errorf("no API endpoint %s %s (docs/web.md lists them)", r.Method, r.URL.Path))
	})
	return s
}

// handle serves pattern with h, for requests whose query holds only the
// keys given, each at most once.
func (s *Server) handle(pattern string, h http.HandlerFunc, keys ...string) {
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		if err := checkQuery(r, keys); err != nil {
			fail(w, http.StatusBadRequest, err)
			return
		}
		h(w, r)
	})
}

// methods lists the methods an API endpoint takes at r's path, for a
// request that used another: empty when no endpoint is there. An endpoint
// read with GET is read with HEAD too.
func (s *Server) methods(r *http.Request) string {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost} {
		probe := *r
		probe.Method = m
		if _, pattern := s.mux.Handler(&probe); pattern != "/api/" {
			allow = append(allow, m)
			if m == http.MethodGet {
				allow = append(allow, http.MethodHead)
			}
		}
	}
	return strings.Join(allow, ", ")
}

// CancelRuns cancels every run and comparison going, as the page's Cancel
// button does: each answers its client with its partial results (or with
// an error when nothing can be shown yet). Runs asked for afterwards are
// refused. A server that stops calls it first, then waits for the
// handlers to send those answers (http.Server.Shutdown), so that no
// client is cut off mid-run. It returns how many runs were going: counted
// before they are cancelled, since a cancelled run gives back its slot as
// soon as its partial results are rendered.
func (s *Server) CancelRuns() int {
	n := len(s.slots)
	s.haltRuns()
	return n
}

// ServeHTTP checks the Host and Origin of every request before it reaches
// the page or the API.
//
// Every answer is sent within writeTimeout of its last progress: a client
// that takes none of it for that long is cut off. Answers written at once
// (the page's files, a check's) have that long from the request; those
// that come later (a run's) set their own deadlines as they send (send).
// What the handler leaves for net/http to write after it (what is still
// buffered, a chunked answer's end) has that long from its return; net/http
// clears the deadline once the answer is done, for the connection's next
// request. Without a deadline, a client that sends requests and reads
// nothing holds its connection, and a handler or net/http blocked writing
// to it, for ever, and with them one of the connections the server holds
// at once (LimitListener).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Now().Add(writeTimeout)) // none to set in tests' recorders
	s.serve(w, r)
	_ = rc.SetWriteDeadline(time.Now().Add(writeTimeout)) // an aborted answer panics past this
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if !s.hostAllowed(r.Host) {
		if hostName(r.Host) == "" {
			fail(w, http.StatusBadRequest, fmt.Errorf("the request names no host (Host %q): ask for this server by an IP address or localhost", r.Host))
			return
		}
		fail(w, http.StatusForbidden, fmt.Errorf("host %q is not served here: use an IP address or localhost, or start the server with --host %s", r.Host, hostName(r.Host)))
		return
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.Header().Set("X-Frame-Options", "DENY")
	w.Header().Set("Content-Security-Policy", csp)
	origin.ServeHTTP(w, r, s.mux)
}

// csp lets the page load only its own files, and lets the report frame
// (srcdoc, so of this origin) show inline styles and images, never scripts.
const csp = "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; form-action 'none'"

// hostAllowed implements the DNS rebinding check: a page served from an
// attacker's name that now resolves to this machine sends that name in
// Host, which is refused; an IP address or localhost cannot be rebound.
func (s *Server) hostAllowed(host string) bool {
	h := hostName(host)
	if h == "" {
		return false
	}
	if strings.EqualFold(h, "localhost") || net.ParseIP(h) != nil {
		return true
	}
	return slices.ContainsFunc(s.cfg.Hosts, func(a string) bool { return strings.EqualFold(a, h) })
}

// hostName is a Host header without its port and brackets.
func hostName(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
}

// origin refuses cross-origin POSTs: a page elsewhere cannot make a
// visitor's browser start runs here.
var origin = originCheck{http.NewCrossOriginProtection()}

type originCheck struct{ p *http.CrossOriginProtection }

func (o originCheck) ServeHTTP(w http.ResponseWriter, r *http.Request, next http.Handler) {
	err := o.p.Check(r)
	if err == nil && strings.HasPrefix(r.URL.Path, "/api/") && r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		// Reading is harmless, but even a GET may start work (a dice
		// distribution); no other site's page has any business here.
		err = errors.New("a cross-site request")
	}
	if err != nil {
		fail(w, http.StatusForbidden, fmt.Errorf("cross-origin request refused: only this server's own page may call its API (%v)", err))
		return
	}
	next.ServeHTTP(w, r)
}
