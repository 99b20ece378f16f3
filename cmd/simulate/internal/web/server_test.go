package web

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"hammersim/scenarios"
)

// fakeJob stands in for the command line's run: it counts to its trials,
// a chunk at a time, and stops early when cancelled, as sim does. The real
// engine's answers are tested in package main.
type fakeJob struct {
	trials  int64
	started chan struct{} // closed when Run starts, if set
	block   bool          // run until cancelled: the scenario text says "block"
	stopped *atomic.Bool  // set when a run saw its context end
	points  int           // points it sweeps; 0 is 1
	size    int           // bytes of each rendered output, when set
	render  func(string)  // called with each format rendered, when set
	// renderFor is how long each format takes to write, when set.
	renderFor time.Duration
	// early: stopped, it has no results, as a run stopped before every
	// point finished its first chunk (the scenario text "block early").
	early bool
}

func (j *fakeJob) MostTrials() int64 { return j.trials }

func (j *fakeJob) Points() int { return max(j.points, 1) }

func (j *fakeJob) Run(ctx context.Context, p Progress) (Result, error) {
	if j.started != nil {
		select {
		case <-j.started: // a later run of the same fake
		default:
			close(j.started)
		}
	}
	done := int64(0)
	for done < j.trials || j.block {
		select {
		case <-ctx.Done():
			if j.stopped != nil {
				j.stopped.Store(true)
			}
			if j.early {
				return nil, errors.New("run: interrupted before every point had its first trials")
			}
			return fakeResult{partial: true, done: done, size: j.size, render: j.render, renderFor: j.renderFor}, nil
		case <-time.After(time.Millisecond):
		}
		done = min(done+1, j.trials)
		p("fake", done, j.trials)
	}
	return fakeResult{done: done, size: j.size, render: j.render, renderFor: j.renderFor}, nil
}

type fakeResult struct {
	partial   bool
	done      int64
	size      int
	render    func(string)
	renderFor time.Duration // how long each format takes to write
}

// errReportsStopped stands for the error a report stopped while it was
// written returns.
var errReportsStopped = errors.New("interrupted while the outputs were written; none was written")

func (r fakeResult) Partial() bool { return r.partial }
func (r fakeResult) Render(ctx context.Context, format string) ([]byte, error) {
	if r.render != nil {
		r.render(format)
	}
	if r.renderFor > 0 {
		select {
		case <-ctx.Done():
			return nil, errReportsStopped
		case <-time.After(r.renderFor):
		}
	}
	if r.size > 0 {
		return bytes.Repeat([]byte("x"), r.size), nil
	}
	return fmt.Appendf(nil, "%s: %d trials, partial %v\n", format, r.done, r.partial), nil
}

// fakeEngine parses --trials like the command line and makes fake jobs;
// a scenario text "points N" sweeps N points.
func fakeEngine(job *fakeJob) Engine {
	prepare := func(args []string, block bool, srcs ...[]byte) (Job, error) {
		j := *job
		j.block = block
		for _, src := range srcs {
			if v, ok := strings.CutPrefix(string(src), "points "); ok {
				n, err := strconv.Atoi(v)
				if err != nil {
					return nil, err
				}
				j.points += n
			}
		}
		if j.trials == 0 {
			j.trials = 3
		}
		for _, a := range args {
			if v, ok := strings.CutPrefix(a, "--trials="); ok {
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					return nil, err
				}
				j.trials = n
			}
		}
		return &j, nil
	}
	return Engine{
		Formats: []string{"table", "json", "html"},
		Run: func(_ context.Context, file string, src []byte, args []string) (Job, error) {
			if strings.Contains(string(src), "bad") {
				return nil, errors.New(file + ": bad scenario")
			}
			job, err := prepare(args, string(src) == "block" || string(src) == "block early", src)
			if err == nil && string(src) == "block early" {
				job.(*fakeJob).early = true
			}
			return job, err
		},
		Compare: func(_ context.Context, files []string, srcs [][]byte, args []string) (Job, error) {
			return prepare(args, false, srcs...)
		},
		Dice: func(query, format string) ([]byte, error) {
			if query == "2D6" {
				return []byte("2D6 " + format + "\n"), nil
			}
			return nil, fmt.Errorf("dice %q: unknown", query)
		},
		DiceFormats: []string{"table", "json"},
		// No ruleset: every scenario it reads is refused.
		Scenarios: scenarios.NewRegistry(),
		Units:     func() []Unit { return nil },
	}
}

func do(t *testing.T, h http.Handler, method, target, body string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	if strings.HasPrefix(target, "/") {
		target = "http://127.0.0.1:8080" + target
	}
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func errorOf(t *testing.T, w *httptest.ResponseRecorder) apiError {
	t.Helper()
	var e apiError
	if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil {
		t.Fatalf("error body %q: %v", w.Body, err)
	}
	return e
}

// TestReadingBounded: scenarios read for requests, which take no run slot
// until read (and a check as the page's editor asks for none), are read at
// most one per CPU at once; the others wait their turn, and all are
// answered.
func TestReadingBounded(t *testing.T) {
	var now, most atomic.Int32
	release := make(chan struct{})
	eng := fakeEngine(&fakeJob{})
	run := eng.Run
	eng.Run = func(ctx context.Context, file string, src []byte, args []string) (Job, error) {
		n := now.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		<-release
		now.Add(-1)
		return run(ctx, file, src, args)
	}
	cpus := runtime.GOMAXPROCS(0)
	ts := httptest.NewServer(New(Config{MaxRuns: 100}, eng))
	defer ts.Close()
	n := cpus + 3
	codes := make(chan int, n)
	for range n {
		go func() {
			resp, err := http.Post(ts.URL+"/api/run?trials=1", "application/yaml", strings.NewReader("x"))
			if err != nil {
				codes <- 0
				return
			}
			resp.Body.Close()
			codes <- resp.StatusCode
		}()
	}
	deadline := time.Now().Add(5 * time.Second)
	for now.Load() < int32(cpus) && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // time for any more to start reading
	close(release)
	for range n {
		if c := <-codes; c != 200 {
			t.Errorf("a run answered %d", c)
		}
	}
	if m := most.Load(); m != int32(cpus) {
		t.Errorf("%d scenarios read at once, want %d (one per CPU)", m, cpus)
	}
}

// TestErrorClasses sends one request of every kind the server refuses and
// checks the status and that the message says what to do.
func TestErrorClasses(t *testing.T) {
	s := New(Config{MaxBody: 100, MaxTrials: 1000, MaxPoints: 10}, fakeEngine(&fakeJob{}))
	tests := []struct {
		name, method, target, body string
		header                     []string
		status                     int
		want                       string // in the error message
	}{
		{"rebound host", "GET", "http://evil.example:8080/", "", nil, 403, "--host evil.example"},
		{"rebound host, API", "POST", "http://evil.example/api/validate", "", nil, 403, "is not served here"},
		{"cross-origin POST", "POST", "/api/run", "x", []string{"Origin", "http://evil.example", "Sec-Fetch-Site", "cross-site"}, 403, "cross-origin"},
		{"cross-origin POST, Origin only", "POST", "/api/run", "x", []string{"Origin", "http://evil.example"}, 403, "cross-origin"},
		{"cross-site GET of the API", "GET", "/api/dice?q=2D6", "", []string{"Sec-Fetch-Site", "cross-site"}, 403, "cross-site"},
		{"body too large", "POST", "/api/run", strings.Repeat("x", 101), nil, 413, "limit of 100 bytes"},
		{"body too large to validate", "POST", "/api/validate", strings.Repeat("x", 101), nil, 413, "--max-body"},
		{"too many trials", "POST", "/api/run?trials=1001", "x", nil, 400, "at most 1000 (simulate serve --max-trials)"},
		{"too many points", "POST", "/api/run/events", "points 11", nil, 400, "sweeps 11 points, all its scenarios together; this server runs at most 10 (simulate serve --max-points)"},
		{"compare: too many points together", "POST", "/api/compare", `{"scenarios": [{"text": "points 6"}, {"text": "points 5"}]}`, nil, 400, "sweeps 11 points"},
		{"unknown format", "POST", "/api/run?format=pdf", "x", nil, 400, `unknown format "pdf"; expected table, json, html`},
		{"control character in file name", "POST", "/api/run?file=a%0Ab", "x", nil, 400, "file: expected a short file name"},
		{"C1 control character in file name", "POST", "/api/run?file=a%C2%85b", "x", nil, 400, "file: expected a short file name"},
		{"bidirectional override in file name", "POST", "/api/run?file=a%E2%80%AEb.yaml", "x", nil, 400, "file: expected a short file name"},
		{"file name that reads as a flag", "POST", "/api/run/events?file=--report%3Dx.html", "x", nil, 400, `file: "--report=x.html" starts with -`},
		{"bad scenario", "POST", "/api/run", "bad", nil, 400, "scenario.yaml: bad scenario"},
		{"bad scenario, streamed", "POST", "/api/run/events", "bad", nil, 400, "bad scenario"},
		{"compare: control character in a file name", "POST", "/api/compare", `{"scenarios": [{"file": "a.yaml"}, {"file": "b\u001b[2J.yaml"}]}`, nil, 400, "scenarios[1].file: expected a short file name without control characters"},
		{"compare: a file name that reads as a flag", "POST", "/api/compare/events", `{"scenarios": [{"file": "-o"}]}`, nil, 400, `scenarios[0].file: "-o" starts with -`},
		{"compare: one file name twice", "POST", "/api/compare", `{"scenarios": [{"file": "a.yaml"}, {"file": "a.yaml"}]}`, nil, 400,
			`scenarios[1].file "a.yaml" is the name of scenarios[0] too`},
		{"compare: a blank name meets its default", "POST", "/api/compare", `{"scenarios": [{"file": "scenario-2.yaml"}, {}]}`, nil, 400,
			`scenarios[1].file "scenario-2.yaml" is the name of scenarios[0] too`},
		{"compare: an empty name", "POST", "/api/compare", `{"scenarios": [{"file": "", "text": "x"}]}`, nil, 400,
			"scenarios[0].file: an empty name; expected a file name such as my-charge.yaml (leave file out for scenario-1.yaml)"},
		{"compare: not JSON", "POST", "/api/compare", "{", nil, 400, "expected JSON"},
		{"compare: no scenarios", "POST", "/api/compare", `{"scenarios": []}`, nil, 400, "0 given"},
		{"compare: too many", "POST", "/api/compare", `{"scenarios": [{},{},{},{},{},{},{},{},{}]}`, nil, 400, "9 given"},
		{"compare: too many trials", "POST", "/api/compare/events?trials=5000", `{"scenarios": [{}]}`, nil, 400, "--max-trials"},
		{"unknown built-in", "GET", "/api/scenarios/no-such", "", nil, 404, `no built-in scenario named "no-such"`},
		{"built-in name that is a path", "GET", "/api/scenarios/..%2F..%2Fetc%2Fpasswd", "", nil, 404, "no built-in scenario"},
		{"unknown endpoint", "GET", "/api/nothing", "", nil, 404, "docs/web.md"},
		{"wrong method on the API", "GET", "/api/run", "", nil, 405, "GET /api/run: this endpoint takes POST only"},
		{"POST to the page", "POST", "/index.html", "", nil, 405, "read with GET"},
		{"a file the page does not have", "GET", "/nope.html", "", nil, 404, "/nope.html: the page has no such file"},
		{"a file the page does not have, in a folder", "GET", "/b/c.js", "", nil, 404, "the page has no such file"},
		{"dice: no query", "GET", "/api/dice", "", nil, 400, "expected a dice query"},
		{"dice: too long", "GET", "/api/dice?q=" + strings.Repeat("D6+", 70), "", nil, 400, "q: 210 bytes; this server takes queries of at most 200 bytes"},
		{"dice: bad query", "GET", "/api/dice?q=D", "", nil, 400, `dice "D": unknown`},
		{"dice: unknown format", "GET", "/api/dice?q=2D6&format=svg", "", nil, 400, `unknown format "svg"; expected table, json`},
		// An empty format is refused, as the command line's --format ""
		// is, not read as the default.
		{"dice: empty format", "GET", "/api/dice?q=2D6&format=", "", nil, 400, `unknown format ""; expected table, json`},
		{"run: empty file", "POST", "/api/run?trials=1&file=", "x", nil, 400, "file: an empty name; expected a file name such as my-charge.yaml"},
		{"validate: empty file", "POST", "/api/validate?file=", "x", nil, 400, "file: an empty name"},
		{"run: empty format", "POST", "/api/run?trials=1&format=", "x", nil, 400, `unknown format ""; expected table`},
		{"compare: empty format", "POST", "/api/compare?trials=1&format=", `{"scenarios": [{}]}`, nil, 400, `unknown format ""; expected table`},
		{"cancel: unknown id", "POST", "/api/cancel?id=nope", "", nil, 404, "no run with that id"},
		{"cancel: no id", "POST", "/api/cancel", "", nil, 400, "POST /api/cancel needs id"},
		{"cancel: empty id", "POST", "/api/cancel?id=", "", nil, 400, "POST /api/cancel needs id"},
	}
	for _, tt := range tests {
		w := do(t, s, tt.method, tt.target, tt.body, tt.header...)
		if w.Code != tt.status {
			t.Errorf("%s: status %d, want %d (%s)", tt.name, w.Code, tt.status, w.Body)
			continue
		}
		if e := errorOf(t, w); !strings.Contains(e.Error, tt.want) {
			t.Errorf("%s: error %q, want it to contain %q", tt.name, e.Error, tt.want)
		}
	}
}

// TestNoHost: a request whose Host header is empty is told so, not told
// to start the server with a --host of nothing.
func TestNoHost(t *testing.T) {
	s := New(Config{}, fakeEngine(&fakeJob{}))
	for _, host := range []string{"", ":8080"} {
		r := httptest.NewRequest("GET", "http://127.0.0.1:8080/api/scenarios", nil)
		r.Host = host
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if e := errorOf(t, w); w.Code != http.StatusBadRequest || !strings.Contains(e.Error, "the request names no host") || strings.Contains(e.Error, "--host") {
			t.Errorf("Host %q: %d %q", host, w.Code, e.Error)
		}
	}
}

// TestBodyCutShort: a body that stops coming is answered with what came
// of it, and why it is not all there: the read timeout passed (408), or
// the client closed its side first (400).
func TestBodyCutShort(t *testing.T) {
	const timeout = time.Second
	ts := httptest.NewUnstartedServer(New(Config{ReadTimeout: timeout}, fakeEngine(&fakeJob{})))
	ts.Config.ReadTimeout = timeout
	ts.Start()
	defer ts.Close()
	for _, path := range []string{"/api/run", "/api/validate", "/api/compare"} {
		for _, closed := range []bool{false, true} {
			conn, err := net.Dial("tcp", ts.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nname:", path)
			status, want := http.StatusRequestTimeout, "the request body did not all arrive within the 1 s the server allows to read a request: 5 of the 100 bytes its Content-Length gives came"
			if closed {
				_ = conn.(*net.TCPConn).CloseWrite()
				status, want = http.StatusBadRequest, "the request body ended before its end: 5 of the 100 bytes its Content-Length gives came"
			}
			_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Errorf("%s, closed %v: %v", path, closed, err)
				conn.Close()
				continue
			}
			var e apiError
			_ = json.NewDecoder(resp.Body).Decode(&e)
			if resp.StatusCode != status || e.Error != want {
				t.Errorf("%s, closed %v: %d %q; want %d %q", path, closed, resp.StatusCode, e.Error, status, want)
			}
			conn.Close()
		}
	}
}

// TestMethodNotAllowed: a method an API endpoint does not take gets 405,
// with the methods it takes in Allow and in the message, which names the
// method used; a path with no endpoint gets 404.
func TestMethodNotAllowed(t *testing.T) {
	s := New(Config{}, fakeEngine(&fakeJob{}))
	tests := []struct{ method, target, allow string }{
		{"GET", "/api/run", "POST"},
		{"HEAD", "/api/run", "POST"},
		{"PUT", "/api/run/events", "POST"},
		{"DELETE", "/api/compare", "POST"},
		{"OPTIONS", "/api/validate", "POST"},
		{"GET", "/api/cancel?id=x", "POST"},
		{"POST", "/api/dice?q=2D6", "GET, HEAD"},
		{"PUT", "/api/scenarios", "GET, HEAD"},
		{"DELETE", "/api/scenarios/random-movement", "GET, HEAD"},
		{"POST", "/api/units", "GET, HEAD"},
	}
	for _, tt := range tests {
		w := do(t, s, tt.method, tt.target, "")
		path, _, _ := strings.Cut(tt.target, "?")
		want := tt.method + " " + path + ": this endpoint takes " + tt.allow + " only"
		if w.Code != http.StatusMethodNotAllowed || w.Header().Get("Allow") != tt.allow {
			t.Errorf("%s %s: %d, Allow %q; want 405, Allow %q", tt.method, tt.target, w.Code, w.Header().Get("Allow"), tt.allow)
		} else if e := errorOf(t, w); !strings.HasPrefix(e.Error, want) {
			t.Errorf("%s %s: error %q, want %q", tt.method, tt.target, e.Error, want)
		}
	}
	for _, m := range []string{"GET", "POST", "HEAD"} {
		if w := do(t, s, m, "/api/nothing", ""); w.Code != 404 || w.Header().Get("Allow") != "" {
			t.Errorf("%s /api/nothing: %d, Allow %q; want 404", m, w.Code, w.Header().Get("Allow"))
		}
	}
}

// TestBodyOverLimitRefusedAtOnce: a request whose Content-Length is over
// the body limit is refused with 413 before its body comes, rather than
// waiting for a body it may never send.
func TestBodyOverLimitRefusedAtOnce(t *testing.T) {
	ts := httptest.NewServer(New(Config{}, fakeEngine(&fakeJob{})))
	defer ts.Close()
	for _, path := range []string{"/api/run", "/api/run/events", "/api/compare", "/api/validate"} {
		conn, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 99999999999\r\n\r\nx", path)
		_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Errorf("%s: %v; want a 413 at once", path, err)
		} else if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("%s: %d, want 413", path, resp.StatusCode)
		}
		conn.Close()
	}
}

// TestStrictRequests: a parameter an endpoint does not take, one given
// twice, and a comparison body with keys it does not take or data after
// it are refused, naming the key and what is expected, as the command
// line refuses such flags; none is ignored.
func TestStrictRequests(t *testing.T) {
	s := New(Config{}, fakeEngine(&fakeJob{}))
	tests := []struct {
		name, method, target, body string
		want                       string // in the error message
	}{
		{"misspelt trials", "POST", "/api/run?trails=100&format=json", "x", `unknown parameter "trails"; POST /api/run takes only file, trials, seed, metrics, format`},
		{"trials twice", "POST", "/api/run?trials=20000&trials=5", "x", `parameter "trials" given 2 times; POST /api/run takes each parameter once, only file, trials, seed, metrics, format`},
		{"workers", "POST", "/api/run?workers=99999", "x", `unknown parameter "workers"`},
		{"precision", "POST", "/api/run/events?precision=0.5", "x", `unknown parameter "precision"; POST /api/run/events takes only file, trials, seed, metrics`},
		{"by on a run", "POST", "/api/run?by=unit", "x", `unknown parameter "by"`},
		{"format on a stream", "POST", "/api/compare/events?format=json", `{"scenarios": [{}]}`, `unknown parameter "format"; POST /api/compare/events takes only trials, seed, by, metrics`},
		{"file on a comparison", "POST", "/api/compare?file=a.yaml", `{"scenarios": [{}]}`, `unknown parameter "file"`},
		{"no query encoding", "POST", "/api/run?trials=%zz", "x", "expected key=value pairs"},
		{"an empty key", "GET", "/api/dice?q=2D6&=5", "", `unknown parameter ""; GET /api/dice takes only q, format`},
		{"validate: another key", "POST", "/api/validate?file=a.yaml&name=b", "x", `unknown parameter "name"; POST /api/validate takes only file`},
		{"a long key", "GET", "/api/dice?q=2D6&" + strings.Repeat("k", 100) + "=1", "", `unknown parameter "` + strings.Repeat("k", 40) + `"...`},
		{"a query on the list", "GET", "/api/scenarios?ruleset=fantasy", "", "GET /api/scenarios takes no parameters"},
		{"a query on a built-in", "GET", "/api/scenarios/x?v=1", "", "takes no parameters"},
		{"a query on the units", "GET", "/api/units?v=1", "", "takes no parameters"},
		{"dice twice", "GET", "/api/dice?q=2D6&q=3D6", "", `parameter "q" given 2 times`},
		{"cancel: another key", "POST", "/api/cancel?id=x&run=y", "", `unknown parameter "run"; POST /api/cancel takes only id`},
		{"compare: a misspelt text", "POST", "/api/compare", `{"scenarios": [{"text": "x"}, {"file": "b.yaml", "txt": 1}]}`, `the body: scenarios[1]: unknown key "txt"; expected one of: file, text (a comparison's body`},
		{"compare: trials in the body", "POST", "/api/compare", `{"scenarios": [{"text": "x"}, {"text": "y"}], "trials": 5}`, `the body: unknown key "trials"; expected one of: scenarios (a comparison's body is JSON such as {"scenarios": [{"file": "a.yaml", "text": "..."}]}; trials, seed, by and metrics go in the query)`},
		{"compare: a key in other case", "POST", "/api/compare", `{"Scenarios": [{"text": "x"}]}`, `unknown key "Scenarios"`},
		{"compare: a key twice", "POST", "/api/compare", `{"scenarios": [{"text": "x", "text": "y"}]}`, `scenarios[0]: key "text" given twice`},
		{"compare: scenarios twice", "POST", "/api/compare", `{"scenarios": [{"text": "x"}, {"text": "y"}], "scenarios": [{"text": "z"}]}`, `key "scenarios" given twice`},
		{"compare: data after the body", "POST", "/api/compare", `{"scenarios": [{"text": "x"}]} {"scenarios": []}`, "unexpected data after its JSON value"},
		{"compare: not an object", "POST", "/api/compare", `[1]`, "the body: expected an object, found a list (a comparison's body is JSON such as"},
		{"compare: a number for a text", "POST", "/api/compare", `{"scenarios": [{"text": 5}]}`, "the body: scenarios[0].text: expected a string, found a number (a comparison's body is JSON such as"},
		{"compare: numbers for scenarios", "POST", "/api/compare", `{"scenarios": [1, 2]}`, "the body: scenarios[0]: expected an object, found a number ("},
		{"compare: one scenario, not a list", "POST", "/api/compare", `{"scenarios": {"text": "x"}}`, "the body: scenarios: expected a list, found an object ("},
		{"compare: a number for a file", "POST", "/api/compare/events", `{"scenarios": [{"text": "x"}, {"file": 5}]}`, "the body: scenarios[1].file: expected a string, found a number ("},
		// A body nested a million deep is refused at its first bracket.
		{"compare: nested a million deep", "POST", "/api/compare", strings.Repeat("[", 1_000_000), "the body: expected an object, found a list ("},
		// null is absent as an object's value, but a list's element
		// would be read as an empty scenario.
		{"compare: a null scenario", "POST", "/api/compare", `{"scenarios": [{"text": "x"}, null]}`, "the body: scenarios[1]: expected an object, found null ("},
		// Text that is not JSON gets the decoder's own words (a walk
		// stuck on the bad byte once never answered).
		{"compare: a bare word in the list", "POST", "/api/compare", `{"scenarios": [x]}`, "invalid character 'x' looking for beginning of value"},
		{"compare: a bad escape", "POST", "/api/compare/events", `{"scenarios": [{"text": "a\q"}]}`, `invalid character 'q' in string escape code`},
		{"compare: a pasted newline", "POST", "/api/compare", "{\"scenarios\": [{\"text\": \"a\nb\"}]}", "invalid character '\\n' in string literal"},
	}
	for _, tt := range tests {
		w := do(t, s, tt.method, tt.target, tt.body)
		if w.Code != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400 (%s)", tt.name, w.Code, w.Body)
			continue
		}
		if e := errorOf(t, w); !strings.Contains(e.Error, tt.want) {
			t.Errorf("%s: error %q, want it to contain %q", tt.name, e.Error, tt.want)
		}
	}
	// What the page sends is taken: every key of each endpoint once.
	for _, target := range []string{
		"/api/run?file=a.yaml&trials=2&seed=1&metrics=m&format=json",
		"/api/run/events?file=a.yaml&trials=2&seed=1&metrics=m",
		"/api/compare?trials=2&seed=1&by=attacker&metrics=m&format=json",
		"/api/compare/events?trials=2&seed=1&by=attacker&metrics=m",
	} {
		body := "x"
		if strings.Contains(target, "compare") {
			body = "{\"scenarios\": [{\"file\": \"a.yaml\", \"text\": \"x\"}]}\n"
		}
		if w := do(t, s, "POST", target, body); w.Code != 200 {
			t.Errorf("%s: %d %s", target, w.Code, w.Body)
		}
	}
}

func TestPageAndHeaders(t *testing.T) {
	s := New(Config{}, fakeEngine(&fakeJob{}))
	for _, target := range []string{"/", "http://localhost:8080/app.js", "http://[::1]:8080/style.css"} {
		w := do(t, s, "GET", target, "")
		if w.Code != 200 || w.Body.Len() == 0 {
			t.Errorf("GET %s: %d, %d bytes", target, w.Code, w.Body.Len())
		}
		if w.Header().Get("Content-Security-Policy") == "" || w.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: missing security headers: %v", target, w.Header())
		}
	}
	// The page loads nothing from the network: every src and href is local.
	w := do(t, s, "GET", "/", "")
	for _, bad := range []string{"http://", "https://", "//cdn"} {
		if strings.Contains(w.Body.String(), bad) {
			t.Errorf("the page refers to %q", bad)
		}
	}
	// Same-origin POSTs, and clients that send no Origin (curl), pass.
	for _, h := range [][]string{nil, {"Origin", "http://127.0.0.1:8080", "Sec-Fetch-Site", "same-origin"}} {
		if w := do(t, s, "POST", "/api/run", "x", h...); w.Code != 200 {
			t.Errorf("same-origin POST %v: %d %s", h, w.Code, w.Body)
		}
	}
	// A named host is served when configured.
	named := New(Config{Hosts: []string{"sim.lan"}}, fakeEngine(&fakeJob{}))
	if w := do(t, named, "GET", "http://sim.lan:8080/", ""); w.Code != 200 {
		t.Errorf("configured host: %d", w.Code)
	}
}

func TestRunFormatsAndBuiltins(t *testing.T) {
	s := New(Config{}, fakeEngine(&fakeJob{}))
	tests := []struct{ target, body, ctype string }{
		{"/api/run?trials=5", "table: 5 trials, partial false\n", "text/plain; charset=utf-8"},
		{"/api/run?trials=4&format=json", "json: 4 trials, partial false\n", "application/json; charset=utf-8"},
		{"/api/run?format=html", "html: 3 trials, partial false\n", "text/html; charset=utf-8"},
		{"/api/compare?trials=2&format=json", "json: 2 trials, partial false\n", "application/json; charset=utf-8"},
	}
	for _, tt := range tests {
		body := "x"
		if strings.Contains(tt.target, "compare") {
			body = `{"scenarios": [{"file": "a.yaml", "text": "x"}, {"text": "y"}]}`
		}
		w := do(t, s, "POST", tt.target, body)
		if w.Code != 200 || w.Body.String() != tt.body || w.Header().Get("Content-Type") != tt.ctype {
			t.Errorf("%s: %d %q %q", tt.target, w.Code, w.Body, w.Header().Get("Content-Type"))
		}
	}
	w := do(t, s, "GET", "/api/dice?q=2D6&format=json", "")
	if w.Code != 200 || !strings.Contains(w.Body.String(), "2D6 json\n") {
		t.Errorf("dice: %d %s", w.Code, w.Body)
	}
}

// readEvents reads server-sent events until the stream ends.
func readEvents(t *testing.T, r io.Reader, each func(name, data string)) {
	t.Helper()
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<24)
	var name, data string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = line[7:]
		case strings.HasPrefix(line, "data: "):
			data = line[6:]
		case line == "":
			each(name, data)
		}
	}
}

// TestStreamCancel starts a streaming run that would never end, cancels it
// by its id, and gets its results marked partial.
func TestStreamCancel(t *testing.T) {
	ts := httptest.NewServer(New(Config{}, fakeEngine(&fakeJob{trials: 1000})))
	defer ts.Close()
	resp, err := http.Post(ts.URL+"/api/run/events", "application/yaml", strings.NewReader("block"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var progress int
	var result resultEvent
	readEvents(t, resp.Body, func(name, data string) {
		switch name {
		case "start":
			var s struct{ ID string }
			_ = json.Unmarshal([]byte(data), &s)
			r, err := http.Post(ts.URL+"/api/cancel?id="+s.ID, "", nil)
			if err != nil || r.StatusCode != http.StatusNoContent {
				t.Errorf("cancel: %v %v", r, err)
			}
		case "progress":
			progress++
		case "result":
			_ = json.Unmarshal([]byte(data), &result)
		}
	})
	if !result.Partial || len(result.Outputs) != 3 || !strings.Contains(result.Outputs["json"], "partial true") {
		t.Errorf("result %+v", result)
	}
}

// TestCancelRuns: a server told to cancel its runs (simulate serve on
// Ctrl-C) answers each run going, streamed or not, with its partial
// results, as the Cancel button does, and refuses runs from then on.
func TestCancelRuns(t *testing.T) {
	started := make(chan struct{})
	s := New(Config{}, fakeEngine(&fakeJob{trials: 1000, started: started}))
	ts := httptest.NewServer(s)
	defer ts.Close()
	type answer struct {
		body    string
		partial string
	}
	plain := make(chan answer, 1)
	go func() {
		resp, err := http.Post(ts.URL+"/api/run", "application/yaml", strings.NewReader("block"))
		if err != nil {
			plain <- answer{body: err.Error()}
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		plain <- answer{string(b), resp.Header.Get("Hammersim-Partial") + " " + resp.Header.Get("Hammersim-Partial-Reason")}
	}()
	<-started
	resp, err := http.Post(ts.URL+"/api/run/events", "application/yaml", strings.NewReader("block"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var events []string
	var result resultEvent
	readEvents(t, resp.Body, func(name, data string) {
		events = append(events, name)
		switch name {
		case "start":
			if n := s.CancelRuns(); n != 2 {
				t.Errorf("CancelRuns says %d runs were going, want 2", n)
			}
		case "result":
			_ = json.Unmarshal([]byte(data), &result)
		}
	})
	// Both say the server stopped them, not that their client cancelled.
	stopped := "the server was stopped while the run went on"
	if !result.Partial || result.Reason != stopped || !strings.Contains(result.Outputs["json"], "partial true") || events[len(events)-1] != "result" {
		t.Errorf("stream: events %v, result %+v", events, result)
	}
	if a := <-plain; a.partial != "true "+stopped || !strings.HasSuffix(a.body, "partial true\n") {
		t.Errorf("/api/run: %+v", a)
	}
	w := do(t, s, "POST", "/api/run?trials=1", "x")
	if e := errorOf(t, w); w.Code != http.StatusServiceUnavailable || !strings.Contains(e.Error, "stopping") {
		t.Errorf("a run after CancelRuns: %d %+v", w.Code, e)
	}
}

// slowBody is a request body that arrives in two parts: the first Read
// says so on read, and the rest waits for more to be closed.
type slowBody struct {
	first, rest string
	read, more  chan struct{}
	n           int
}

func (b *slowBody) Read(p []byte) (int, error) {
	b.n++
	switch b.n {
	case 1:
		close(b.read)
		return copy(p, b.first), nil
	case 2:
		<-b.more
		return copy(p, b.rest), nil
	}
	return 0, io.EOF
}

// TestStopWhileReading: a run whose body is still arriving when the server
// begins to stop is answered 503, as one that starts after it is (docs: a
// request already being read when the signal came), not 400 or a run that
// starts cancelled; the plain and the streaming run alike.
func TestStopWhileReading(t *testing.T) {
	for _, path := range []string{"/api/run", "/api/run/events"} {
		s := New(Config{}, fakeEngine(&fakeJob{trials: 1000}))
		body := &slowBody{first: "blo", rest: "ck", read: make(chan struct{}), more: make(chan struct{})}
		r := httptest.NewRequest("POST", "http://127.0.0.1:8080"+path, body)
		w := httptest.NewRecorder()
		done := make(chan struct{})
		go func() { s.ServeHTTP(w, r); close(done) }()
		<-body.read
		if n := s.CancelRuns(); n != 0 {
			t.Errorf("%s: CancelRuns says %d runs were going while one was read", path, n)
		}
		close(body.more)
		<-done
		if e := errorOf(t, w); w.Code != http.StatusServiceUnavailable || !strings.Contains(e.Error, "stopping") {
			t.Errorf("%s: a run read as the server stopped: %d %+v", path, w.Code, e)
		}
	}
}

// TestClientGoneStopsRun drops the connection of a run that would never
// end and checks that the run saw its context end.
func TestClientGoneStopsRun(t *testing.T) {
	for _, path := range []string{"/api/run", "/api/run/events"} {
		var stopped atomic.Bool
		started := make(chan struct{})
		ts := httptest.NewServer(New(Config{MaxRuns: 1}, fakeEngine(&fakeJob{trials: 1000, started: started, stopped: &stopped})))
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+path, strings.NewReader("block"))
		go func() { <-started; cancel() }()
		if resp, err := http.DefaultClient.Do(req); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body) // the stream's start event came first
			resp.Body.Close()
		}
		deadline := time.Now().Add(5 * time.Second)
		for !stopped.Load() && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if !stopped.Load() {
			t.Errorf("%s: the run went on after its client left", path)
		}
		ts.Close()
	}
}

// TestPipelinedClientGoneStopsRun: a client that sends a byte after its
// request (a pipelined request) and then closes the connection stops its
// run, and gives back its slot: net/http alone stops watching the
// connection once that byte comes.
func TestPipelinedClientGoneStopsRun(t *testing.T) {
	for _, path := range []string{"/api/run", "/api/run/events"} {
		var stopped atomic.Bool
		started := make(chan struct{})
		h := New(Config{MaxRuns: 1}, fakeEngine(&fakeJob{trials: 1000, started: started, stopped: &stopped}))
		ts := httptest.NewUnstartedServer(h)
		ts.Config.ConnContext = ConnContext
		ts.Start()
		conn, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nblock", path)
		<-started
		time.Sleep(50 * time.Millisecond) // the server is waiting for the run
		fmt.Fprint(conn, "G")
		time.Sleep(50 * time.Millisecond) // the server has read it
		conn.Close()
		deadline := time.Now().Add(5 * time.Second)
		for !stopped.Load() && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if !stopped.Load() {
			t.Errorf("%s: the run went on after its client sent a pipelined byte and left", path)
		}
		h.CancelRuns() // ends a run that went on, so that Close returns
		ts.Close()
	}
}

// TestRunAnswersCloseTheConnection: a run's answer closes its
// connection, so that nothing a client sends after a run's request is
// read as a request (the run's watch for a departed client reads it).
func TestRunAnswersCloseTheConnection(t *testing.T) {
	s := New(Config{}, fakeEngine(&fakeJob{}))
	for _, target := range []string{"/api/run", "/api/run/events"} {
		if w := do(t, s, "POST", target, "x"); w.Code != 200 || w.Header().Get("Connection") != "close" {
			t.Errorf("%s: %d, Connection %q, want close", target, w.Code, w.Header().Get("Connection"))
		}
	}
}

// TestMaxRunTime: a run that takes the server's MaxRunTime stops as a
// cancelled one does and answers with its partial results, saying why.
func TestMaxRunTime(t *testing.T) {
	s := New(Config{MaxRunTime: 50 * time.Millisecond}, fakeEngine(&fakeJob{trials: 1000}))
	const why = "the run reached this server's time limit of 50ms (simulate serve --max-run-time)"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req := httptest.NewRequestWithContext(ctx, "POST", "http://127.0.0.1:8080/api/run", strings.NewReader("block"))
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	if w.Code != 200 || !strings.HasSuffix(w.Body.String(), "partial true\n") || w.Header().Get("Hammersim-Partial") != "true" || w.Header().Get("Hammersim-Partial-Reason") != why {
		t.Errorf("/api/run: %d %q %v", w.Code, w.Body, w.Header())
	}
	req = httptest.NewRequestWithContext(ctx, "POST", "http://127.0.0.1:8080/api/run/events", strings.NewReader("block"))
	w = httptest.NewRecorder()
	s.ServeHTTP(w, req)
	var result resultEvent
	readEvents(t, w.Body, func(name, data string) {
		if name == "result" {
			_ = json.Unmarshal([]byte(data), &result)
		}
	})
	if !result.Partial || result.Reason != why {
		t.Errorf("/api/run/events: %+v", result)
	}
	// Stopped before it had results: an error, naming the limit as every
	// bound a request hits is.
	req = httptest.NewRequestWithContext(ctx, "POST", "http://127.0.0.1:8080/api/run", strings.NewReader("block early"))
	w = httptest.NewRecorder()
	s.ServeHTTP(w, req)
	var e apiError
	_ = json.Unmarshal(w.Body.Bytes(), &e)
	if w.Code != 400 || e.Error != "run: interrupted before every point had its first trials: "+why || e.Limit == nil || *e.Limit != (limitNote{"max-run-time", 50}) {
		t.Errorf("/api/run stopped early: %d %s", w.Code, w.Body)
	}
	req = httptest.NewRequestWithContext(ctx, "POST", "http://127.0.0.1:8080/api/run/events", strings.NewReader("block early"))
	w = httptest.NewRecorder()
	s.ServeHTTP(w, req)
	e = apiError{}
	readEvents(t, w.Body, func(name, data string) {
		if name == "error" {
			_ = json.Unmarshal([]byte(data), &e)
		}
	})
	if e.Limit == nil || e.Limit.Name != "max-run-time" {
		t.Errorf("/api/run/events stopped early: %+v", e)
	}
	if ctx.Err() != nil {
		t.Error("the runs went on past the time limit")
	}
}

// TestMaxRenderTime: an answer whose writing takes the server's
// MaxRunTime after its run is stopped and refused with 503, naming the
// limit, so that its run slot is not held for as long as writing takes (a
// large sweep's five formats: tens of seconds); the second request finds
// the one slot free.
func TestMaxRenderTime(t *testing.T) {
	const limit = 100 * time.Millisecond
	s := New(Config{MaxRunTime: limit, MaxRuns: 1}, fakeEngine(&fakeJob{trials: 2, renderFor: time.Hour}))
	const why = "the results could not be written within this server's time limit of 100ms (simulate serve --max-run-time)"
	for _, target := range []string{"/api/run", "/api/run/events"} {
		start := time.Now()
		w := do(t, s, "POST", target, "x")
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("%s: answered after %v", target, took)
		}
		var e apiError
		if strings.HasSuffix(target, "events") {
			readEvents(t, w.Body, func(name, data string) {
				if name == "error" {
					_ = json.Unmarshal([]byte(data), &e)
				}
			})
		} else {
			if w.Code != http.StatusServiceUnavailable {
				t.Errorf("%s: status %d, want 503", target, w.Code)
			}
			e = errorOf(t, w)
		}
		if !strings.HasPrefix(e.Error, why) || e.Limit == nil || *e.Limit != (limitNote{"max-run-time", 100}) {
			t.Errorf("%s: error %+v, want %q with its limit", target, e, why)
		}
	}
}

// TestClientGoneStopsFormatting: a stream whose client leaves while its
// result is written in the first format writes no other format.
func TestClientGoneStopsFormatting(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var rendered []string
	h := New(Config{MaxRuns: 1}, fakeEngine(&fakeJob{trials: 2, render: func(f string) {
		rendered = append(rendered, f)
		cancel() // the client leaves
	}}))
	req := httptest.NewRequestWithContext(ctx, "POST", "http://127.0.0.1:8080/api/run/events", strings.NewReader("x"))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if len(rendered) != 1 {
		t.Logf("answer: %d %s", w.Code, w.Body)
		t.Errorf("formats rendered after the client left during the first: %v, want only the first", rendered)
	}
}

// TestConcurrentRunsBounded fills the only run slot and checks that a
// second run is refused with 429, before its scenario is read and
// compiled (prepared), then allowed once the first ends.
func TestConcurrentRunsBounded(t *testing.T) {
	started := make(chan struct{})
	eng := fakeEngine(&fakeJob{trials: 1000, started: started})
	var prepared atomic.Int32
	run := eng.Run
	eng.Run = func(ctx context.Context, file string, src []byte, args []string) (Job, error) {
		prepared.Add(1)
		return run(ctx, file, src, args)
	}
	ts := httptest.NewServer(New(Config{MaxRuns: 1}, eng))
	defer ts.Close()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/api/run", strings.NewReader("block"))
	done := make(chan struct{})
	go func() {
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
		close(done)
	}()
	<-started
	resp, err := http.Post(ts.URL+"/api/run?trials=1", "application/yaml", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(b), "--max-runs") {
		t.Errorf("second run: %d %s", resp.StatusCode, b)
	}
	if n := prepared.Load(); n != 1 {
		t.Errorf("%d runs prepared, want only the first: the refused one was compiled for nothing", n)
	}
	// A dice query is not a run: the page's Dice tab works while runs go.
	resp, err = http.Get(ts.URL + "/api/dice?q=2D6")
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(b) != "2D6 table\n" {
		t.Errorf("dice while the runs are full: %d %s", resp.StatusCode, b)
	}
	cancel()
	<-done
	deadline := time.Now().Add(5 * time.Second)
	for {
		resp, err := http.Post(ts.URL+"/api/run?trials=1", "application/yaml", strings.NewReader("x"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the slot was not given back: %d", resp.StatusCode)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestLongRunOutlivesReadTimeout: a run that takes longer than the
// server's ReadTimeout (simulate serve sets one, for the body) finishes
// whole: net/http lifts the read deadline once the body is read, and the
// watch for a departed client must not mistake its expiry for one.
func TestLongRunOutlivesReadTimeout(t *testing.T) {
	ts := httptest.NewUnstartedServer(New(Config{}, fakeEngine(&fakeJob{trials: 400})))
	ts.Config.ReadTimeout = 100 * time.Millisecond // the fake takes 400 ms or more
	ts.Start()
	defer ts.Close()
	resp, err := http.Post(ts.URL+"/api/run?trials=400", "application/yaml", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "table: 400 trials, partial false\n" {
		t.Errorf("%d %q", resp.StatusCode, b)
	}
}

// stallServer serves runs one at a time whose every output is size bytes,
// with writeTimeout set to timeout until the test ends. It closes after
// the test's deferred calls, so after the stalled connections they close,
// which its handlers may wait on.
func stallServer(t *testing.T, timeout time.Duration, size int) *httptest.Server {
	old := writeTimeout
	writeTimeout = timeout
	ts := httptest.NewServer(New(Config{MaxRuns: 1}, fakeEngine(&fakeJob{size: size})))
	t.Cleanup(func() { ts.Close(); writeTimeout = old })
	return ts
}

// stall asks ts for path as a client that then reads nothing, and
// returns its connection, whose reader has read the status line. The
// stalled request must hold its run slot before the test's next run asks
// for one: its answer has begun once its status line comes. (Otherwise
// the next run could take the slot first, and the stalled request be
// answered 429 on a connection kept open.) The caller closes the
// connection, with a deferred call, which comes before stallServer's
// ts.Close: that waits for the handler, which may wait on the client.
func stall(t *testing.T, ts *httptest.Server, path string) (net.Conn, *bufio.Reader) {
	t.Helper()
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\n\r\nx", path)
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	stalled := bufio.NewReader(conn)
	if status, err := stalled.ReadString('\n'); err != nil || !strings.HasPrefix(status, "HTTP/1.1 200") {
		t.Fatalf("the stalled request's answer begins %q (%v), want 200", status, err)
	}
	return conn, stalled
}

// awaitSlot asks ts for runs until one is answered 200 with some of its
// answer (the slot came back), and fails on any answer but 429 (the slot
// still held) or once within has passed.
func awaitSlot(t *testing.T, ts *httptest.Server, within time.Duration) {
	t.Helper()
	client := &http.Client{Timeout: within}
	deadline := time.Now().Add(within)
	for {
		resp, err := client.Post(ts.URL+"/api/run?trials=1&format=json", "application/yaml", strings.NewReader("x"))
		if err != nil {
			t.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		// A large answer sent to a reader that a loaded machine does not
		// schedule for writeTimeout is cut off too: some of it is enough.
		if resp.StatusCode == 200 && n > 0 {
			return
		}
		if resp.StatusCode != http.StatusTooManyRequests || time.Now().After(deadline) {
			t.Fatalf("the next run while a client stalls: %d, %d bytes", resp.StatusCode, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestStalledClientCutOff: a client that asks for a run and then reads
// none of its answer neither keeps the run's slot (the next run is
// answered) nor keeps its connection: the server cuts it off once it has
// taken nothing for writeTimeout, well before the whole answer is sent.
func TestStalledClientCutOff(t *testing.T) {
	// 32 MiB: far more than the kernel's socket buffers on both ends hold
	// (Linux's tcp_wmem and tcp_rmem top out at 4 and 6 MiB by default).
	const size = 32 << 20
	ts := stallServer(t, 200*time.Millisecond, size)
	conn, stalled := stall(t, ts, "/api/run?trials=1")
	defer conn.Close()
	awaitSlot(t, ts, 5*time.Second)
	time.Sleep(4 * writeTimeout)
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	got, err := io.Copy(io.Discard, stalled)
	if got >= size || err != nil && !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("the stalled client read %d bytes of %d (%v); want it cut off", got, size, err)
	}
}

// TestStalledStreamGivesBackItsSlot: a streaming client that takes none of
// its result event keeps no run slot while the server waits on it, as a
// plain run's client does not (TestStalledClientCutOff): the run is over
// once its formats are written. The write timeout is set far beyond the
// test's wait, so only a slot given back before the result is sent lets
// the next run through.
func TestStalledStreamGivesBackItsSlot(t *testing.T) {
	// 8 MiB in each format: the result event is several times what the
	// kernel's socket buffers on both ends hold (see TestStalledClientCutOff).
	ts := stallServer(t, time.Minute, 8<<20)
	conn, _ := stall(t, ts, "/api/run/events?trials=1")
	defer conn.Close()
	awaitSlot(t, ts, 10*time.Second)
}

// stuckWriter is a client that takes nothing: a write waits until its
// deadline passes.
type stuckWriter struct {
	header   http.Header
	deadline time.Time
}

func (w *stuckWriter) Header() http.Header { return w.header }
func (w *stuckWriter) WriteHeader(int)     {}
func (w *stuckWriter) Write(b []byte) (int, error) {
	if w.deadline.IsZero() {
		select {} // as a socket without a deadline
	}
	time.Sleep(time.Until(w.deadline))
	return 0, os.ErrDeadlineExceeded
}
func (w *stuckWriter) Flush()                             {}
func (w *stuckWriter) SetWriteDeadline(t time.Time) error { w.deadline = t; return nil }

// TestStalledStreamStopsRun: a progress event that a streaming client
// does not take within writeTimeout cuts the client off and stops its run,
// instead of blocking the run, and its slot, for ever; later events are
// dropped at once.
func TestStalledStreamStopsRun(t *testing.T) {
	defer func(d time.Duration) { writeTimeout = d }(writeTimeout)
	writeTimeout = 50 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ev := newEvents(&stuckWriter{header: http.Header{}}, cancel)
	sent := make(chan struct{})
	go func() {
		ev.send("progress", progressEvent{"x", 1, 2})
		ev.send("progress", progressEvent{"x", 2, 2})
		close(sent)
	}()
	select {
	case <-sent:
	case <-time.After(5 * time.Second):
		t.Fatal("a send to a client that reads nothing did not return")
	}
	if ctx.Err() == nil || !ev.gone() {
		t.Errorf("the run was not stopped (%v) or the client not cut off (%v)", ctx.Err(), ev.gone())
	}
}

// TestStopWhilePreparing: a scenario still being read (a large sweep takes
// seconds) when the server begins to stop is told so through its context,
// and its request is answered 503 at once, for a run and a comparison.
func TestStopWhilePreparing(t *testing.T) {
	for _, path := range []string{"/api/run", "/api/compare"} {
		reading := make(chan struct{})
		eng := fakeEngine(&fakeJob{trials: 1000})
		wait := func(ctx context.Context) (Job, error) {
			close(reading)
			<-ctx.Done() // as a decoder that stops at its context
			return nil, ctx.Err()
		}
		eng.Run = func(ctx context.Context, _ string, _ []byte, _ []string) (Job, error) { return wait(ctx) }
		eng.Compare = func(ctx context.Context, _ []string, _ [][]byte, _ []string) (Job, error) { return wait(ctx) }
		s := New(Config{}, eng)
		body := "block"
		if path == "/api/compare" {
			body = `{"scenarios": [{"file": "a.yaml", "text": "x"}, {"file": "b.yaml", "text": "y"}]}`
		}
		r := httptest.NewRequest("POST", "http://127.0.0.1:8080"+path, strings.NewReader(body))
		w := httptest.NewRecorder()
		done := make(chan struct{})
		go func() { s.ServeHTTP(w, r); close(done) }()
		<-reading
		s.CancelRuns()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: the request went on 5 s after the server began to stop", path)
		}
		if e := errorOf(t, w); w.Code != http.StatusServiceUnavailable || !strings.Contains(e.Error, "stopping") {
			t.Errorf("%s: %d %+v; want 503, stopping", path, w.Code, e)
		}
	}
}

// TestCheckJSONEndsOnBadText: text that is not JSON ends the walk at its
// first bad token, wherever it stands, and passes for the decoder to
// refuse; the decoder stays on a bad byte, so a list's loop that went on
// asking for more once spun for ever.
func TestCheckJSONEndsOnBadText(t *testing.T) {
	// A shape that skips whatever is under a: the skip's loop too.
	skipA := map[string]jsonPlace{"": {kind: "an object", keys: []string{"a"}}}
	for _, tt := range []struct {
		body  string
		shape map[string]jsonPlace
	}{
		{`{"scenarios": [x]}`, compareShape},
		{`{"scenarios": [True]}`, compareShape},
		{`{"scenarios": [{'text': 'x'}]}`, compareShape},
		{`{"scenarios": [{"text": "a\q"}]}`, compareShape},
		{"{\"scenarios\": [{\"text\": \"a\nb\"}]}", compareShape},
		{`{"scenarios": [{"text": "x"} {"text": "y"}]}`, compareShape},
		{`{"scenarios": [{"text": "x"}`, compareShape},
		{`{"scenarios" 1}`, compareShape},
		{`{"a": [x]}`, skipA},
		{`{"a": [[{"b": x}]], "a": 1}`, skipA},
	} {
		done := make(chan error, 1)
		go func() { done <- checkJSON([]byte(tt.body), tt.shape) }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("checkJSON(%s) = %v, want nil for the decoder to refuse it", tt.body, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("checkJSON(%s) still running after 5 s", tt.body)
		}
		if _, err := decodeCompare([]byte(tt.body)); err == nil {
			t.Errorf("decodeCompare(%s) took it", tt.body)
		}
	}
}

// TestCheckJSONSkipsDepth: a value at a place the shape does not list is
// skipped by counting its brackets, however deep it nests. Walking it would
// build a path a step longer at each level: memory of the square of the
// depth (a 32 KB body took 3.5 GB so), where skipping takes the decoder's
// own stack of a word or so a level.
func TestCheckJSONSkipsDepth(t *testing.T) {
	const depth = 200_000
	shape := map[string]jsonPlace{"": {kind: "an object", keys: []string{"a", "b"}}}
	body := []byte(`{"a": ` + strings.Repeat(`[{"x": `, depth) + "1" + strings.Repeat("}]", depth) + `, "c": 1}`)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := checkJSON(body, shape)
	runtime.ReadMemStats(&after)
	// The key after the deep value is still checked.
	if err == nil || err.Error() != `unknown key "c"; expected one of: a, b` {
		t.Errorf("checkJSON: %v, want the unknown key c", err)
	}
	// 64 MB is some 300 bytes a level: the decoder's stack and its tokens
	// take a few tens; a walk's paths would take gigabytes.
	if used := after.TotalAlloc - before.TotalAlloc; used > 64<<20 {
		t.Errorf("checkJSON allocated %d MB for a body nested %d deep", used>>20, 2*depth)
	}
}

// TestHalfClosedRun: a client that closes its side of the connection once
// its run's request is sent has gone, as Go's server reads it: the run
// stops and the connection closes with no answer, where an empty 200 was
// sent once the run had stopped.
func TestHalfClosedRun(t *testing.T) {
	ts := httptest.NewServer(New(Config{}, fakeEngine(&fakeJob{trials: 100_000})))
	defer ts.Close()
	expectNoAnswerWhenHalfClosed(t, ts, "/api/run", "/api/run?format=json")
}

// TestHalfClosedWhileWaiting: a client that half-closes its connection
// while its request waits for a turn at reading (every turn taken) gets no
// answer either, where it got a 400 "context canceled".
func TestHalfClosedWhileWaiting(t *testing.T) {
	s := New(Config{}, fakeEngine(&fakeJob{trials: 100_000}))
	for range cap(s.busy) {
		s.busy <- struct{}{}
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	expectNoAnswerWhenHalfClosed(t, ts, "/api/run", "/api/validate")
}

// expectNoAnswerWhenHalfClosed posts a one-byte body to each path of ts,
// closes its side of the connection, and fails the test if an answer
// comes before the server closes the connection (or 20 s pass).
func expectNoAnswerWhenHalfClosed(t *testing.T, ts *httptest.Server, paths ...string) {
	t.Helper()
	for _, path := range paths {
		conn, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\n\r\nx", path)
		_ = conn.(*net.TCPConn).CloseWrite()
		_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
		if resp, err := http.ReadResponse(bufio.NewReader(conn), nil); err == nil {
			b, _ := io.ReadAll(resp.Body)
			t.Errorf("%s: answered %d %q, want no answer", path, resp.StatusCode, b)
		}
		conn.Close()
	}
}

// TestResultPieces: the result event written piece by piece is, joined,
// the bytes json.Marshal gives for it with its outputs, whatever they
// hold (HTML, quotes, newlines, invalid UTF-8, a line separator).
func TestResultPieces(t *testing.T) {
	texts := map[string]string{
		"table":    "a | b\n1 | 2\n",
		"html":     "<p class=\"x\">&amp;</p>\u2028",
		"json":     `{"k": "v"}`,
		"csv":      "a,b\r\n1,\xff\n",
		"markdown": "",
	}
	for _, out := range []resultEvent{{}, {Partial: true, Reason: "the server's <time> limit"}} {
		esc := map[string][]byte{}
		for f, s := range texts {
			b, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			esc[f] = b
		}
		got := bytes.Join(out.pieces(esc), nil)
		out.Outputs = texts
		want, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("pieces:\n got %s\nwant %s", got, want)
		}
	}
}
