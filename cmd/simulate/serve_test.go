package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"hammersim/cmd/simulate/internal/web"
	"hammersim/reports"
	"hammersim/scenarios"
	"hammersim/sim"
)

func newTestServer(t *testing.T, cfg web.Config) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(web.New(cfg, serveEngine(cfg.MaxPoints)))
	t.Cleanup(ts.Close)
	return ts
}

func post(t *testing.T, target, ctype string, body []byte) (int, []byte) {
	t.Helper()
	resp, err := http.Post(target, ctype, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

// TestServeRunIsTheCLI: /api/run answers with the bytes `simulate run FILE
// --trials N --seed S --format F` prints, and format=html with the file
// `--report FILE.html` writes, for a file and for a built-in.
func TestServeRunIsTheCLI(t *testing.T) {
	ts := newTestServer(t, web.Config{})
	dir := t.TempDir()
	file := filepath.Join(dir, "swordsmen.yaml")
	if err := os.WriteFile(file, []byte(swordsmen("swordsmen", 3)), 0o644); err != nil {
		t.Fatal(err)
	}
	random, _ := os.ReadFile("../../scenarios/library/random-movement.yaml")
	cases := []struct {
		name string // as the command line names it
		src  []byte
	}{
		{file, []byte(swordsmen("swordsmen", 3))},
		{"random-movement", random},
	}
	for _, c := range cases {
		for _, format := range []string{"table", "json", "csv", "markdown", "html"} {
			args := []string{"run", c.name, "--trials", "3000", "--seed", "7"}
			if format == "html" {
				args = append(args, "--report", filepath.Join(dir, "report.html"))
			} else {
				args = append(args, "--format", format)
			}
			cli, _, err := runCLI(t, args...)
			if err != nil {
				t.Fatal(err)
			}
			want := []byte(cli)
			if format == "html" {
				if want, err = os.ReadFile(filepath.Join(dir, "report.html")); err != nil {
					t.Fatal(err)
				}
			}
			q := url.Values{"file": {c.name}, "trials": {"3000"}, "seed": {"7"}, "format": {format}}
			status, got := post(t, ts.URL+"/api/run?"+q.Encode(), "application/yaml", c.src)
			if status != 200 || !bytes.Equal(got, want) {
				t.Errorf("%s %s: status %d, the answer differs from the command line's:\n%s\n---\n%s", c.name, format, status, got, want)
			}
		}
	}
}

// TestServeFlagErrorsAreTheCLI: query parameters go through the command
// line's own flag parser, errors and all.
func TestServeFlagErrorsAreTheCLI(t *testing.T) {
	ts := newTestServer(t, web.Config{})
	src, _ := os.ReadFile("../../scenarios/library/random-movement.yaml")
	for _, q := range []string{"trials=lots", "trials=0", "seed=-1", "trials=-o"} {
		name, value, _ := strings.Cut(q, "=")
		_, _, cliErr := runCLI(t, "run", "random-movement", "--"+name+"="+value)
		status, body := post(t, ts.URL+"/api/run?file=random-movement&"+q, "application/yaml", src)
		var e struct{ Error string }
		json.Unmarshal(body, &e)
		if cliErr == nil || status != 400 || e.Error != cliErr.Error() {
			t.Errorf("%s: %d %q, the command line: %v", q, status, e.Error, cliErr)
		}
	}
	// 2e3 is how the command line writes 2,000 trials.
	status, body := post(t, ts.URL+"/api/run?file=random-movement&trials=2e3&format=json", "application/yaml", src)
	if status != 200 || !bytes.Contains(body, []byte(`"trials": 2000`)) {
		t.Errorf("trials=2e3: %d %.200s", status, body)
	}
}

// TestServeMetricsAndUnits: metrics= is --metrics, and /api/units is the
// catalogue `simulate units` lists.
func TestServeMetricsAndUnits(t *testing.T) {
	ts := newTestServer(t, web.Config{})
	src, _ := os.ReadFile("../../scenarios/library/random-movement.yaml")
	cli, _, err := runCLI(t, "run", "random-movement", "--trials", "2000", "--metrics", "charge_reach", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	status, got := post(t, ts.URL+"/api/run?file=random-movement&trials=2000&metrics=charge_reach&format=json", "application/yaml", src)
	if status != 200 || string(got) != cli {
		t.Errorf("metrics: %d\n%s\nwant\n%s", status, got, cli)
	}
	_, _, cliErr := runCLI(t, "run", "random-movement", "--metrics", "nope")
	status, got = post(t, ts.URL+"/api/run?file=random-movement&metrics=nope", "application/yaml", src)
	if cliErr == nil || status != 400 || !strings.Contains(string(got), "unknown metric") {
		t.Errorf("unknown metric: %d %s (the command line: %v)", status, got, cliErr)
	}

	resp, err := http.Get(ts.URL + "/api/units")
	if err != nil {
		t.Fatal(err)
	}
	var units []web.Unit
	json.NewDecoder(resp.Body).Decode(&units)
	resp.Body.Close()
	var list bytes.Buffer
	for _, u := range units {
		fmt.Fprintf(&list, "%-8s %-24s %s\n", u.Ruleset, u.Name, u.Summary)
	}
	want, _, err := runCLI(t, "units")
	if err != nil || list.String() != want || len(units) == 0 {
		t.Errorf("units:\n%s\nwant\n%s", list.String(), want)
	}
	// Each card is the one `simulate units show` prints, with its notes.
	for _, u := range units {
		shown, _, err := runCLI(t, "units", "show", u.Name)
		if err != nil || !strings.HasSuffix(shown, u.YAML) {
			t.Errorf("%s: the page's card\n%s\nis not the end of\n%s", u.Name, u.YAML, shown)
		}
		if u.Name == "Rat Ogres" && !strings.HasPrefix(u.YAML, "# Its troop type, Monstrous Infantry, also gives it Fear, Swiftstride") {
			t.Errorf("Rat Ogres: the page's card has no note of its troop type's rules:\n%s", u.YAML)
		}
	}
}

// TestServeCompareIsTheCLI: /api/compare answers as `simulate compare`, for
// two files and for one file's swept parameter.
func TestServeCompareIsTheCLI(t *testing.T) {
	ts := newTestServer(t, web.Config{})
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml")
	srcA, srcB := swordsmen("swordsmen", 3), swordsmen("strong", 4)
	os.WriteFile(a, []byte(srcA), 0o644)
	os.WriteFile(b, []byte(srcB), 0o644)
	doomwheel, err := os.ReadFile("../../scenarios/library/doomwheel-balance.yaml")
	if err != nil {
		t.Fatal(err)
	}
	type cand struct {
		File string `json:"file"`
		Text string `json:"text"`
	}
	cases := []struct {
		args  []string
		cands []cand
	}{
		{[]string{a, b}, []cand{{a, srcA}, {b, srcB}}},
		{[]string{"doomwheel-balance"}, []cand{{"doomwheel-balance", string(doomwheel)}}}, // by its attacker
	}
	for _, c := range cases {
		for _, format := range []string{"table", "json", "html"} {
			args := append([]string{"compare"}, c.args...)
			args = append(args, "--trials", "2000", "--seed", "3")
			if format == "html" {
				args = append(args, "--report", filepath.Join(dir, "cmp.html"))
			} else {
				args = append(args, "--format", format)
			}
			cli, _, err := runCLI(t, args...)
			if err != nil {
				t.Fatalf("%v: %v", args, err)
			}
			want := []byte(cli)
			if format == "html" {
				want, _ = os.ReadFile(filepath.Join(dir, "cmp.html"))
			}
			body, _ := json.Marshal(map[string]any{"scenarios": c.cands})
			q := url.Values{"trials": {"2000"}, "seed": {"3"}, "format": {format}}
			status, got := post(t, ts.URL+"/api/compare?"+q.Encode(), "application/json", body)
			if status != 200 || !bytes.Equal(got, want) {
				t.Errorf("%v %s: status %d, the answer differs from the command line's:\n%s\n---\n%s", c.args, format, status, got, want)
			}
		}
	}
	// Too few trials for the differences' batches is refused as the
	// command line refuses it.
	_, _, cliErr := runCLI(t, "compare", a, b, "--trials", "10")
	body, _ := json.Marshal(map[string]any{"scenarios": cases[0].cands})
	status, got := post(t, ts.URL+"/api/compare?trials=10", "application/json", body)
	var e struct{ Error string }
	json.Unmarshal(got, &e)
	if cliErr == nil || status != 400 || e.Error != cliErr.Error() {
		t.Errorf("10 trials: %d %q, want 400 and %v", status, got, cliErr)
	}
	// by= is refused as --by "" is, not read as the parameter left out.
	_, _, cliErr = runCLI(t, "compare", "doomwheel-balance", "--by", "", "--trials", "2000")
	body, _ = json.Marshal(map[string]any{"scenarios": cases[1].cands})
	status, got = post(t, ts.URL+"/api/compare?trials=2000&by=", "application/json", body)
	e.Error = ""
	json.Unmarshal(got, &e)
	if cliErr == nil || status != 400 || e.Error != cliErr.Error() || !strings.Contains(e.Error, "an empty name") {
		t.Errorf("by=: %d %q, want 400 and %v", status, got, cliErr)
	}
}

// TestServeDiceAndValidateAreTheCLI: /api/dice answers with `simulate
// dice`'s bytes, and a scenario's errors are the command line's words.
func TestServeDiceAndValidateAreTheCLI(t *testing.T) {
	ts := newTestServer(t, web.Config{})
	for _, query := range []string{"3D6 discard lowest", "2D6 >= 9", "-1"} {
		for _, format := range []string{"table", "json", "csv", "markdown"} {
			cli, _, cliErr := runCLI(t, "dice", "--format", format, "--", query)
			resp, err := http.Get(ts.URL + "/api/dice?" + url.Values{"q": {query}, "format": {format}}.Encode())
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if cliErr != nil {
				// "-1" is no query: the same error, as JSON.
				var e struct{ Error string }
				json.Unmarshal(got, &e)
				if resp.StatusCode != 400 || e.Error != cliErr.Error() {
					t.Errorf("dice %q: %d %q, want 400 and %q", query, resp.StatusCode, e.Error, cliErr)
				}
				continue
			}
			if resp.StatusCode != 200 || string(got) != cli {
				t.Errorf("dice %q --format %s: %d %q, want %q", query, format, resp.StatusCode, got, cli)
			}
		}
	}

	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	src := "name: bad\nruleset: fantasy\ncharge:\n  unit: {name: A, M: 4}\n  distanse: 6\n"
	os.WriteFile(bad, []byte(src), 0o644)
	_, _, cliErr := runCLI(t, "run", bad)
	if cliErr == nil {
		t.Fatal("the CLI took a bad scenario")
	}
	_, body := post(t, ts.URL+"/api/validate?file="+url.QueryEscape(bad), "application/yaml", []byte(src))
	var v struct {
		Error string
	}
	json.Unmarshal(body, &v)
	if v.Error != cliErr.Error() {
		t.Errorf("validate says %q, the command line %q", v.Error, cliErr.Error())
	}
	status, body := post(t, ts.URL+"/api/run?file="+url.QueryEscape(bad), "application/yaml", []byte(src))
	if status != 400 || !strings.Contains(string(body), "bad.yaml:5:3") {
		t.Errorf("run of a bad scenario: %d %s", status, body)
	}
}

// TestServeStreamCancel starts a run, and a comparison of two files, far
// too long to finish, cancels each once its progress makes its first chunk
// of every point sure (keepsAChunk) and gets
// results marked partial: the comparison's over the trials both candidates
// completed, as the command line's.
func TestServeStreamCancel(t *testing.T) {
	ts := newTestServer(t, web.Config{MaxTrials: 1_000_000_000})
	src, _ := os.ReadFile("../../scenarios/library/swiftstride-charge.yaml")
	rm, _ := os.ReadFile("../../scenarios/library/random-movement.yaml")
	body, _ := json.Marshal(map[string]any{"scenarios": []map[string]string{
		{"file": "a.yaml", "text": string(rm)},
		{"file": "b.yaml", "text": strings.Replace(string(rm), "name: random-movement", "name: copy", 1)},
	}})
	tests := []struct {
		target, ctype string
		body          []byte
		want          string
	}{
		{"/api/run/events?trials=1000000000", "application/yaml", src, "PARTIAL RESULTS"},
		{"/api/compare/events?trials=1000000000", "application/json", body, "every candidate was cut to the"},
	}
	for _, tt := range tests {
		result := streamCancelled(t, ts.URL+tt.target, tt.ctype, tt.body)
		if !result.Partial || !strings.Contains(result.Outputs["table"], tt.want) || !strings.Contains(result.Outputs["json"], `"partial": true`) {
			t.Errorf("%s: partial %v; table:\n%.300s", tt.target, result.Partial, result.Outputs["table"])
		}
		for _, f := range serveEngine(0).Formats {
			if result.Outputs[f] == "" {
				t.Errorf("%s: no %s output", tt.target, f)
			}
		}
	}
}

type streamResult struct {
	Partial bool
	Outputs map[string]string
}

// keepsAChunk says whether a progress event's count of trials done
// (data: {"done", "total"}) of a run of trials per point makes its first
// chunk of every point sure to be kept once it is stopped: four chunks'
// worth a point beyond what the workers' items in progress, left
// unfinished by a stop, may hold. Items are taken in order, so only a
// worker that spent the whole time on one first chunk while the others
// finished four rows could lose it, which no scenario here is slow
// enough to make happen.
func keepsAChunk(data string, trials int64) bool {
	var p struct{ Done, Total int64 }
	if json.Unmarshal([]byte(data), &p) != nil || p.Total == 0 {
		return false
	}
	points := p.Total / trials
	return p.Done >= (4*points+int64(runtime.GOMAXPROCS(0)))*sim.ChunkSize
}

// streamCancelled posts body to an events target, cancels the run at the
// first progress event that keeps a chunk of every point (keepsAChunk,
// the target asking for 10^9 trials) and returns its result.
func streamCancelled(t *testing.T, target, ctype string, body []byte) streamResult {
	t.Helper()
	resp, err := http.Post(target, ctype, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var id string
	var result streamResult
	readStream(t, resp.Body, func(event, data string) {
		switch event {
		case "start":
			var s struct{ ID string }
			json.Unmarshal([]byte(data), &s)
			id = s.ID
		case "progress":
			if id != "" && keepsAChunk(data, 1e9) {
				if status, b := post(t, strings.SplitN(target, "/api/", 2)[0]+"/api/cancel?id="+id, "", nil); status != http.StatusNoContent {
					t.Fatalf("cancel: %d %s", status, b)
				}
				id = ""
			}
		case "result":
			json.Unmarshal([]byte(data), &result)
		case "error":
			t.Fatalf("%s: error event: %s", target, data)
		}
	})
	return result
}

// startServe runs `simulate serve --addr 127.0.0.1:0 ARGS...` until ctx
// ends, and returns the page's URL as it prints it and the channel that
// gets what the command returned.
func startServe(t *testing.T, ctx context.Context, args ...string) (string, <-chan error) {
	t.Helper()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	args = append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)
	go func() { done <- run(ctx, args, pw, io.Discard); pw.Close() }()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	u := strings.Fields(line)[3]
	if !strings.HasPrefix(u, "http://127.0.0.1:") {
		t.Fatalf("printed %q", line)
	}
	return u, done
}

// TestServeCommand starts `simulate serve` on a free port, fetches the page
// from the URL it prints, and stops it as Ctrl-C would: it exits as every
// interrupted command does.
func TestServeCommand(t *testing.T) {
	for _, args := range [][]string{{"serve", "extra"}, {"serve", "--max-runs", "0"},
		{"serve", "--max-connections", "0"}, {"serve", "--max-points", "0"}, {"serve", "--max-points", "100001"},
		{"serve", "--max-run-time", "0"}, {"serve", "--max-run-time", "-1m"}, {"serve", "--max-run-time", "10"}} {
		var u *usageError
		if _, _, err := runCLI(t, args...); !errors.As(err, &u) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	u, done := startServe(t, ctx)
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Contains(page, []byte("<title>hammersim</title>")) {
		t.Errorf("page: %.200s", page)
	}
	cancel()
	select {
	case err := <-done:
		if code := exitCode(err, io.Discard); code != exitInterrupted {
			t.Errorf("serve returned %v, exit %d; want exit %d", err, code, exitInterrupted)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
}

// TestServeRunBounded: a served run is bounded however its client
// behaves. One whose client sends a byte after its request (a pipelined
// request) and leaves stops, and its slot serves the next run; one that
// takes --max-run-time stops there and answers with its partial results,
// saying why.
func TestServeRunBounded(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	u, _ := startServe(t, ctx, "--max-runs", "1", "--max-trials", "1e12")
	src, _ := os.ReadFile("../../scenarios/library/swiftstride-charge.yaml")
	conn, err := net.Dial("tcp", strings.TrimPrefix(u, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "POST /api/run?trials=1e12&format=csv HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n\r\n%s", len(src), src)
	time.Sleep(300 * time.Millisecond)
	fmt.Fprint(conn, "G")
	time.Sleep(50 * time.Millisecond)
	conn.Close()
	// The run stops within a call of trials (about 20 ms); the bound is
	// generous.
	start := time.Now()
	for {
		status, body := post(t, u+"/api/run?trials=1e3", "application/yaml", src)
		if status == 200 {
			break
		}
		if status != http.StatusTooManyRequests || time.Since(start) > 10*time.Second {
			t.Fatalf("a run after a pipelining client left: %d %s", status, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
	u, _ = startServe(t, ctx, "--max-trials", "1e12", "--max-run-time", "1s")
	resp, err := http.Post(u+"/api/run?trials=1e12&format=json", "application/yaml", bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	const why = "the run reached this server's time limit of 1s (simulate serve --max-run-time)"
	if resp.StatusCode != 200 || resp.Header.Get("Hammersim-Partial") != "true" || resp.Header.Get("Hammersim-Partial-Reason") != why || !bytes.Contains(body, []byte(`"partial": true`)) {
		t.Errorf("a run past --max-run-time: %d %v %.200s", resp.StatusCode, resp.Header, body)
	}
}

// TestServeCtrlCSendsPartialResults: Ctrl-C on a server in the middle of
// a run far too long to finish cancels the run, as the page's Cancel
// button does, sends its client the partial results, marked so, and only
// then exits, with the interrupted status. The bound is generous: the run
// stops within a call of trials (about 20 ms), and the whole takes well
// under a second. It is stopped once its progress makes its first chunk
// sure (keepsAChunk).
func TestServeCtrlCSendsPartialResults(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// --max-trials in e-notation, as every trial count is written.
	u, done := startServe(t, ctx, "--max-trials", "1e12")
	src, _ := os.ReadFile("../../scenarios/library/swiftstride-charge.yaml")
	resp, err := http.Post(u+"/api/run/events?trials=1e12", "application/yaml", bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var events []string
	var result streamResult
	readStream(t, resp.Body, func(event, data string) {
		events = append(events, event)
		switch event {
		case "progress":
			if keepsAChunk(data, 1e12) {
				cancel() // Ctrl-C
			}
		case "result":
			json.Unmarshal([]byte(data), &result)
		}
	})
	if last := events[len(events)-1]; last != "result" {
		t.Fatalf("the stream ended with %q, want a result: %v", last, events)
	}
	if !result.Partial || !strings.Contains(result.Outputs["table"], "PARTIAL RESULTS") || !strings.Contains(result.Outputs["json"], `"partial": true`) {
		t.Errorf("partial %v; table:\n%.400s", result.Partial, result.Outputs["table"])
	}
	select {
	case err := <-done:
		if code := exitCode(err, io.Discard); code != exitInterrupted || !strings.Contains(err.Error(), "marked partial") {
			t.Errorf("serve returned %v, exit %d; want exit %d", err, code, exitInterrupted)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop")
	}
}

// readStream calls on for every server-sent event of body, until it ends.
func readStream(t *testing.T, body io.Reader, on func(event, data string)) {
	t.Helper()
	sc := bufio.NewScanner(body)
	sc.Buffer(nil, 1<<26)
	var event string
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "event: "); ok {
			event = name
		} else if data, ok := strings.CutPrefix(line, "data: "); ok {
			on(event, data)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("the stream broke off: %v", err)
	}
}

// TestServeValidateInFileOrder: /api/validate lists a scenario's errors
// in file order, by line and then column, whatever order the checks found
// them in (the command line prints the misspelt key at 6:5 before the
// missing name of the unit it is in, at 5:5).
func TestServeValidateInFileOrder(t *testing.T) {
	ts := newTestServer(t, web.Config{})
	src := "name: x\nruleset: fantasy\ncharge:\n  unit:\n    M: 5\n    swiftstrid: true\n    WS: 3\n  distanse: 8\n"
	status, body := post(t, ts.URL+"/api/validate?file=mine.yaml", "application/yaml", []byte(src))
	var v struct {
		Errors []struct{ Line, Col int }
	}
	if err := json.Unmarshal(body, &v); err != nil || status != 200 {
		t.Fatalf("%d %s %v", status, body, err)
	}
	var got []string
	for _, e := range v.Errors {
		got = append(got, fmt.Sprintf("%d:%d", e.Line, e.Col))
	}
	if len(got) < 3 || !slices.IsSortedFunc(v.Errors, func(a, b struct{ Line, Col int }) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	}) {
		t.Errorf("errors at %v, want at least three, in file order (%s)", got, body)
	}
}

// TestServeProblemsCounted: a scenario with 30 unknown keys is answered,
// by /api/validate and by a run alike, with the 20 problems the command
// line prints, more: 10 for the others, and the command line's text, which
// ends with the line that counts them.
func TestServeProblemsCounted(t *testing.T) {
	ts := newTestServer(t, web.Config{})
	var keys strings.Builder
	for i := range 30 {
		fmt.Fprintf(&keys, "bogus%d: 1\n", i)
	}
	src := []byte("name: x\nruleset: fantasy\n" + keys.String() + "charge: {unit: {name: A, M: 5}, distance: 8}\n")
	for _, target := range []string{"/api/validate?file=mine.yaml", "/api/run?trials=1000&file=mine.yaml"} {
		_, body := post(t, ts.URL+target, "application/yaml", src)
		var v struct {
			Error  string
			Errors []struct{ Line int }
			More   int
		}
		if err := json.Unmarshal(body, &v); err != nil {
			t.Fatalf("%s: %s %v", target, body, err)
		}
		// The 20th unknown key, bogus19, is on line 22.
		if len(v.Errors) != 20 || v.Errors[19].Line != 22 || v.More != 10 || !strings.HasSuffix(v.Error, "\n... and 10 more problems") {
			t.Errorf("%s: %d errors, more %d, error ending %q", target, len(v.Errors), v.More, v.Error[max(0, len(v.Error)-40):])
		}
	}
}

// TestServePrecisionCap: a served run of a scenario whose max_trials is
// below the trials the request asks for is refused as the command line
// refuses it (TestPrecisionCapBelowFirstRound), with 400, rather than run
// fewer trials than asked.
func TestServePrecisionCap(t *testing.T) {
	ts := newTestServer(t, web.Config{})
	src := []byte("name: p\nruleset: fantasy\nprecision: 0.01\nmax_trials: 1000\ncharge: {unit: {name: A, M: 4}, distance: 8}\n")
	status, body := post(t, ts.URL+"/api/run?trials=5000&file=p.yaml", "application/yaml", src)
	if want := "p.yaml:4:13: max_trials 1000 is below --trials 5000"; status != 400 || !strings.Contains(string(body), want) {
		t.Errorf("%d %s, want 400 and %q", status, body, want)
	}
}

func TestServeValidateAndBuiltins(t *testing.T) {
	ts := newTestServer(t, web.Config{})
	// Line 3, column 1: the misspelt key; the scenarios package's own tests
	// pin the wording, this one that the server passes it on whole.
	status, body := post(t, ts.URL+"/api/validate?file=mine.yaml", "application/yaml", []byte("name: x\nruleset: fantasy\nchrge: {}\n"))
	var v struct {
		OK          bool
		Name, Error string
		Axes        []string
		Errors      []struct {
			File, Message, Text string
			Line, Col           int
		}
	}
	if err := json.Unmarshal(body, &v); err != nil || status != 200 {
		t.Fatalf("%d %s %v", status, body, err)
	}
	if v.OK || len(v.Errors) == 0 {
		t.Fatalf("no errors: %+v", v)
	}
	// errors come in file order: the question missing from the mapping at
	// 1:1, then the misspelt key at 3:1 that is its cause; error is the
	// command line's text, the cause first.
	if len(v.Errors) != 2 {
		t.Fatalf("errors: %+v", v.Errors)
	}
	e := v.Errors[1]
	if e.File != "mine.yaml" || e.Line != 3 || e.Col != 1 || !strings.HasPrefix(e.Text, "mine.yaml:3:1: unknown key \"chrge\"") {
		t.Errorf("second error %+v", e)
	}
	if first := v.Errors[0]; first.Line != 1 || first.Col != 1 || v.Error != e.Text+"\n"+first.Text {
		t.Errorf("error %q, errors %+v", v.Error, v.Errors)
	}
	_, body = post(t, ts.URL+"/api/validate", "application/yaml", []byte("name: ok\nruleset: fantasy\ncharge:\n  unit: {name: A, M: [4, 5]}\n  distance: [6, 8]\n"))
	v.OK, v.Errors = false, nil
	if err := json.Unmarshal(body, &v); err != nil || !v.OK || v.Name != "ok" || len(v.Axes) == 0 {
		t.Errorf("valid scenario: %s", body)
	}

	resp, err := http.Get(ts.URL + "/api/scenarios")
	if err != nil {
		t.Fatal(err)
	}
	var list []struct {
		Name, Description string
		Default           bool
	}
	json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	names := scenarios.BuiltinNames()
	if len(list) != len(names) {
		t.Fatalf("%d scenarios listed, %d built in", len(list), len(names))
	}
	for i, sc := range list {
		if sc.Name != names[i] || sc.Description == "" || sc.Default != (sc.Name == scenarios.DefaultScenario) {
			t.Errorf("scenario %d: %+v", i, sc)
		}
	}
	resp, err = http.Get(ts.URL + "/api/scenarios/" + names[0])
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want, _ := scenarios.Builtin(names[0])
	if !bytes.Equal(got, want) {
		t.Errorf("scenario %s: %q", names[0], got)
	}
}

// FuzzServeValidate: no scenario text or file name makes /api/validate
// panic or answer anything but JSON; every error it lists has a place.
func FuzzServeValidate(f *testing.F) {
	random, _ := os.ReadFile("../../scenarios/library/random-movement.yaml")
	f.Add("random-movement.yaml", random)
	f.Add("x.yaml", []byte("name: x\nruleset: fantasy\ncharge: {unit: {use: Stormvermin}, distanse: 6}\n"))
	f.Add("", []byte("{"))
	h := web.New(web.Config{}, serveEngine(0))
	f.Fuzz(func(t *testing.T, file string, src []byte) {
		r := httptest.NewRequest("POST", "http://127.0.0.1/api/validate?"+url.Values{"file": {file}}.Encode(), bytes.NewReader(src))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		var v struct {
			OK     bool
			Errors []struct{ Line, Col int }
			Error  string
		}
		if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
			t.Fatalf("%d: not JSON: %q", w.Code, w.Body)
		}
		if w.Code == 200 && !v.OK && v.Error == "" {
			t.Errorf("a failed validation without an error")
		}
		for _, e := range v.Errors {
			if e.Line < 1 || e.Col < 1 {
				t.Errorf("error at %d:%d", e.Line, e.Col)
			}
		}
	})
}

// TestServeReadsNoFiles: a scenario sent to the server cannot make it read
// a file, by its units key or by the catalogues beside the file it names;
// the run and compare endpoints refuse it as /api/validate does, and quote
// nothing of the file.
func TestServeReadsNoFiles(t *testing.T) {
	ts := newTestServer(t, web.Config{})
	dir := t.TempDir()
	secret := "ruleset: fantasy\nunits:\n  - {name: Hidden, troop: Infantry, profile: M5 WS3 S3 T3 W1 I4 A1 Ld5}\n"
	if err := os.WriteFile(filepath.Join(dir, "units.yaml"), []byte(secret), 0o644); err != nil {
		t.Fatal(err)
	}
	named := "name: x\nruleset: fantasy\nunits: " + filepath.Join(dir, "units.yaml") + "\ncharge: {unit: {use: Hidden}, distance: 5}\n"
	beside := "name: x\nruleset: fantasy\ncharge: {unit: {use: Hidden}, distance: 5}\n"
	file := url.QueryEscape(filepath.Join(dir, "x.yaml"))
	for _, tc := range []struct{ name, src, want string }{
		{"units key", named, "x.yaml:3:8: this server reads no files"},
		{"units.yaml beside the file", beside, `no fantasy unit card named "Hidden"`},
	} {
		for _, target := range []string{"/api/validate?file=" + file, "/api/run?trials=1000&file=" + file} {
			_, raw := post(t, ts.URL+target, "application/yaml", []byte(tc.src))
			body := strings.ReplaceAll(string(raw), `\"`, `"`) // JSON's quotes
			if !strings.Contains(body, tc.want) || strings.Contains(body, "WS3 S3") {
				t.Errorf("%s, %s: %s", tc.name, target, body)
			}
		}
		req, _ := json.Marshal(map[string]any{"scenarios": []map[string]string{{"file": filepath.Join(dir, "x.yaml"), "text": tc.src}}})
		_, raw := post(t, ts.URL+"/api/compare?trials=1000", "application/json", req)
		if body := strings.ReplaceAll(string(raw), `\"`, `"`); !strings.Contains(body, tc.want) {
			t.Errorf("%s, compare: %s", tc.name, body)
		}
	}
}

// TestServeMaxPoints: a scenario sweeping more points than --max-points is
// refused when it is read, before it is compiled (compiling a point of a
// battle costs about 20 KB and 0.4 ms, so one of scenarios.MaxPoints
// points took 2.4 GB and 30 seconds just to validate), at its first line,
// naming the flag; a comparison counts the points of all its scenarios,
// and reads each within what those before it left.
func TestServeMaxPoints(t *testing.T) {
	ts := newTestServer(t, web.Config{MaxPoints: 139})
	// M 4..10 by distance 1..20: 7 * 20 = 140 points; 1..10: 70.
	over := []byte("name: sweep\nruleset: fantasy\ncharge:\n  unit: {name: C, M: 4..10}\n  distance: 1..20\n")
	half := bytes.Replace(over, []byte("1..20"), []byte("1..10"), 1)
	want := "x.yaml:1:1: the sweeps make 140 points (M 7 × distance 20); at most 139 (simulate serve --max-points)"
	for _, target := range []string{"/api/validate?file=x.yaml", "/api/run?trials=1000&file=x.yaml", "/api/run/events?trials=1000&file=x.yaml"} {
		_, raw := post(t, ts.URL+target, "application/yaml", over)
		if body := strings.ReplaceAll(string(raw), `\"`, `"`); !strings.Contains(body, want) {
			t.Errorf("%s: %s", target, body)
		}
	}
	if status, body := post(t, ts.URL+"/api/run?trials=1000&file=x.yaml", "application/yaml", half); status != 200 {
		t.Errorf("70 points: %d %s", status, body)
	}
	// The bound is for runs: the built-ins are all listed (charge-benchmark
	// sweeps 644 points), and one over it is refused when it is run.
	resp, err := http.Get(ts.URL + "/api/scenarios")
	if err != nil {
		t.Fatal(err)
	}
	var list []struct{ Name string }
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil || resp.StatusCode != 200 || len(list) != len(scenarios.BuiltinNames()) {
		t.Errorf("the built-ins under --max-points 139: %d, %v, %d listed", resp.StatusCode, err, len(list))
	}
	resp.Body.Close()
	src, _ := scenarios.Builtin("charge-benchmark")
	if status, raw := post(t, ts.URL+"/api/run?trials=1000&file=charge-benchmark.yaml", "application/yaml", src); status != 400 || !strings.Contains(string(raw), "at most 139") {
		t.Errorf("charge-benchmark under --max-points 139: %d %.300s", status, raw)
	}
	// A comparison reads each scenario within what those before it left:
	// the second of two of 70 points finds 69 left of 139.
	req, _ := json.Marshal(map[string]any{"scenarios": []map[string]string{{"file": "a.yaml", "text": string(half)}, {"file": "b.yaml", "text": string(half)}}})
	status, raw := post(t, ts.URL+"/api/compare?trials=1000", "application/json", req)
	want = "b.yaml:1:1: the sweeps make 70 points (M 7 × distance 10); at most 69 (simulate serve --max-points 139, less the 70 points of the scenarios before it)"
	if body := strings.ReplaceAll(string(raw), `\"`, `"`); status != 400 || !strings.Contains(body, want) {
		t.Errorf("two scenarios of 70 points: %d %s", status, raw)
	}
	// With 140, two fit and a third finds nothing left.
	ts = newTestServer(t, web.Config{MaxPoints: 140})
	req, _ = json.Marshal(map[string]any{"scenarios": []map[string]string{{"file": "a.yaml", "text": string(half)}, {"file": "b.yaml", "text": string(half)}, {"file": "c.yaml", "text": string(half)}}})
	status, raw = post(t, ts.URL+"/api/compare?trials=1000", "application/json", req)
	want = "c.yaml: the scenarios before it already sweep 140 points, the most this server runs in one comparison (simulate serve --max-points)"
	if status != 400 || !strings.Contains(string(raw), want) {
		t.Errorf("three scenarios of 70 points: %d %s", status, raw)
	}
	req, _ = json.Marshal(map[string]any{"scenarios": []map[string]string{{"file": "a.yaml", "text": string(half)}, {"file": "b.yaml", "text": string(half)}}})
	if status, raw = post(t, ts.URL+"/api/compare?trials=1000", "application/json", req); status != 200 {
		t.Errorf("two scenarios of 70 points within 140: %d %.300s", status, raw)
	}
	if web.DefaultConfig.MaxPoints >= scenarios.MaxPoints {
		t.Errorf("the server's default bound on points, %d, is not below the command line's, %d", web.DefaultConfig.MaxPoints, scenarios.MaxPoints)
	}
}

// TestServeHostList: --host takes a list as people write one, spaces after
// the commas included (an empty entry is refused: TestHostileInput's
// host-empty-entry); a name it does not give is still refused.
func TestServeHostList(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	u, done := startServe(t, ctx, "--host", "pi.local, pi ")
	defer func() { cancel(); <-done }()
	for host, want := range map[string]int{"pi": 200, "pi.local:8080": 200, "other": 403} {
		req, _ := http.NewRequest("GET", u+"/api/units", nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %q: %d, want %d", host, resp.StatusCode, want)
		}
	}
}

// TestServeAddr: a malformed --addr is a bad command line (exit status 2,
// one line naming --addr and what it takes, then serve's hint), where it
// was an error of listening (exit 1); an address that is well formed but
// taken stays an error, status 1.
func TestServeAddr(t *testing.T) {
	for _, tc := range []struct{ addr, want string }{
		{"nonsense", `--addr "nonsense": expected HOST:PORT, such as 127.0.0.1:8080, :8080 or [::1]:8080 (missing port in address)`},
		{"::1:8080", `--addr "::1:8080": expected HOST:PORT, such as 127.0.0.1:8080, :8080 or [::1]:8080 (too many colons in address)`},
		{"127.0.0.1:99999", `--addr "127.0.0.1:99999": port 99999 is out of range; expected a port from 0 to 65535, as in 127.0.0.1:8080`},
		{"127.0.0.1:no-such-service", `--addr "127.0.0.1:no-such-service": unknown port "no-such-service"; expected a port from 0 to 65535 (or a service name such as http), as in 127.0.0.1:8080`},
	} {
		out, _, err := runCLI(t, "serve", "--addr", tc.addr)
		var stderr strings.Builder
		if code := exitCode(err, &stderr); code != 2 || err.Error() != tc.want || out != "" {
			t.Errorf("--addr %s: exit %d, %v\nwant exit 2, %s", tc.addr, code, err, tc.want)
		}
		if want := "simulate: " + tc.want + "\nRun 'simulate serve -h' for its flags.\n"; stderr.String() != want {
			t.Errorf("--addr %s: stderr %q, want %q", tc.addr, stderr.String(), want)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, _, err = runCLI(t, "serve", "--addr", ln.Addr().String())
	var stderr strings.Builder
	if code := exitCode(err, &stderr); code != 1 || !strings.Contains(err.Error(), "address already in use") && !strings.Contains(err.Error(), "bind") {
		t.Errorf("--addr %s, taken: exit %d, %v; want exit 1, the address in use", ln.Addr(), code, err)
	}
}

// TestServePrecisionKeyPlaced: a scenario whose precision key holds
// nothing (firing-protocols reports averages alone) is refused by
// /api/validate and /api/run with the problem placed at the key, line 15
// column 12 of this text, so that the page marks it, as simulate run does.
func TestServePrecisionKeyPlaced(t *testing.T) {
	ts := newTestServer(t, web.Config{})
	src, _ := scenarios.Builtin("firing-protocols")
	src = bytes.Replace(src, []byte("trials: 200000\n"), []byte("trials: 20000\nprecision: 0.01\n"), 1)
	if line := 1 + bytes.Count(src[:bytes.Index(src, []byte("precision:"))], []byte("\n")); line != 15 {
		t.Fatalf("the precision key is on line %d", line)
	}
	for _, target := range []string{"/api/validate?file=fp.yaml", "/api/run?file=fp.yaml"} {
		_, raw := post(t, ts.URL+target, "application/yaml", src)
		var v struct {
			OK     bool
			Errors []struct{ Line, Col int }
		}
		if err := json.Unmarshal(raw, &v); err != nil || v.OK || len(v.Errors) != 1 || v.Errors[0].Line != 15 || v.Errors[0].Col != 12 {
			t.Errorf("%s: %s", target, raw)
		}
	}
}

// TestValidateWhenStopping: a scenario still being validated when the
// server begins to stop (a large sweep takes seconds to read) is answered
// 503, the server is stopping, at once: not an empty 200.
func TestValidateWhenStopping(t *testing.T) {
	h := web.New(web.Config{MaxPoints: 100_000}, serveEngine(100_000))
	src := battleSweep(100)
	r := httptest.NewRequest("POST", "http://127.0.0.1:8080/api/validate?file=big.yaml", strings.NewReader(src))
	r.Header.Set("Content-Type", "application/yaml")
	w := httptest.NewRecorder()
	time.AfterFunc(300*time.Millisecond, func() { h.CancelRuns() })
	start := time.Now()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), "stopping") {
		t.Errorf("%d %q; want 503, the server is stopping", w.Code, w.Body.String())
	}
	if took := time.Since(start); took > 300*time.Millisecond+time.Second {
		t.Errorf("answered %v after it began, want within a second of the stop", took)
	}
}

// TestServeStoppedMessage: a stopped server says how many runs were going
// without claiming each got results: one stopped before its first chunk
// was whole got an error.
func TestServeStoppedMessage(t *testing.T) {
	for runs, want := range map[int]string{
		0: "interrupted: the server stopped",
		1: "interrupted: the server stopped; the run going was cancelled and sent what it had run, marked partial (or an error, had it not finished its first trials)",
		2: "interrupted: the server stopped; the 2 runs going were cancelled and each sent what it had run, marked partial (or an error, had it not finished its first trials)",
	} {
		if got := (serveStopped{runs: runs}).Error(); got != want {
			t.Errorf("%d runs: %q, want %q", runs, got, want)
		}
	}
	// Clients cut off: whose answer was not whole the server does not
	// know, so it claims none was sent.
	for runs, want := range map[int]string{
		1: "interrupted: the server stopped; the run going was cancelled, to send what it had run, marked partial (or an error, had it not finished its first trials); clients whose answers were not whole after 10s (still being written, or not taken) were cut off without them",
		2: "interrupted: the server stopped; the 2 runs going were cancelled, each to send what it had run, marked partial (or an error, had it not finished its first trials); clients whose answers were not whole after 10s (still being written, or not taken) were cut off without them",
	} {
		if got := (serveStopped{runs: runs, cutOff: true}).Error(); got != want {
			t.Errorf("%d runs, cut off: %q, want %q", runs, got, want)
		}
	}
}

// TestServeReproducesAFileNamedLikeABuiltin: a text sent as file=NAME of a
// built-in is answered as simulate run NAME answers for a file NAME in its
// folder: when the text is not the built-in's, its reproduce line names
// ./NAME, which reads the file again; the built-in's own text keeps NAME.
func TestServeReproducesAFileNamedLikeABuiltin(t *testing.T) {
	ts := newTestServer(t, web.Config{})
	builtin, _ := os.ReadFile("../../scenarios/library/random-movement.yaml")
	edited := append(append([]byte{}, builtin...), "# edited\n"...)
	for _, c := range []struct {
		src  []byte
		want string
	}{
		{builtin, "reproduce: simulate run random-movement --seed 1 --trials 2000"},
		{edited, "reproduce: simulate run ./random-movement --seed 1 --trials 2000"},
	} {
		status, body := post(t, ts.URL+"/api/run?file=random-movement&trials=2000", "application/yaml", c.src)
		if status != 200 || !strings.Contains(string(body), c.want+"\n") {
			t.Errorf("%d, want %q in:\n%.600s", status, c.want, body)
		}
	}
	body := `{"scenarios": [{"file": "random-movement", "text": ` + strconv.Quote(string(edited)) + `}, {"file": "b.yaml", "text": ` + strconv.Quote(string(builtin)) + `}]}`
	status, got := post(t, ts.URL+"/api/compare?trials=960", "application/json", []byte(body))
	if want := "simulate compare ./random-movement b.yaml --seed 1 --trials 960"; status != 200 || !strings.Contains(string(got), want) {
		t.Errorf("compare: %d, want %q in:\n%.600s", status, want, got)
	}
}

// TestServeRenderStops: the command line's results, written for the
// server, stop with an error once the context they are written under is
// done (the server's time limit), in every format, run and comparison,
// rather than write on for as long as a large sweep's tables take.
func TestServeRenderStops(t *testing.T) {
	eng := serveEngine(0)
	src, err := os.ReadFile("../../scenarios/library/random-movement.yaml")
	if err != nil {
		t.Fatal(err)
	}
	run, err := eng.Run(context.Background(), "random-movement", src, []string{"--trials", "1000"})
	if err != nil {
		t.Fatal(err)
	}
	compared, err := eng.Compare(context.Background(), []string{"random-movement"}, [][]byte{src}, []string{"--trials", "1000", "--by", "random_movement"})
	if err != nil {
		t.Fatal(err)
	}
	stopped, stop := context.WithCancel(context.Background())
	stop()
	for name, job := range map[string]web.Job{"run": run, "compare": compared} {
		res, err := job.Run(context.Background(), func(string, int64, int64) {})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range eng.Formats {
			if b, err := res.Render(context.Background(), f); err != nil || len(b) == 0 {
				t.Errorf("%s %s: %d bytes, %v", name, f, len(b), err)
			}
			if _, err := res.Render(stopped, f); !errors.Is(err, reports.ErrStopped) {
				t.Errorf("%s %s under a done context: %v, want reports.ErrStopped", name, f, err)
			}
		}
	}
}

// TestServeHalfClosedClient: a client that sends its request and closes
// its side of the connection (as nc -N does) while the scenario is read is
// taken, as Go's server takes it, for one that went away: it gets no
// answer at all, where it got an empty 200 from /api/validate and a 400
// "stopped while the scenario was read" from /api/run, neither of which
// judged its scenario.
func TestServeHalfClosedClient(t *testing.T) {
	ts := httptest.NewServer(web.New(web.Config{MaxPoints: 100_000}, serveEngine(100_000)))
	defer ts.Close()
	src := battleSweep(100) // 10,000 points: a second or so to read
	for _, path := range []string{"/api/validate?file=big.yaml", "/api/run?file=big.yaml&trials=1"} {
		conn, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/yaml\r\nContent-Length: %d\r\n\r\n%s", path, len(src), src)
		_ = conn.(*net.TCPConn).CloseWrite()
		_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
		if resp, err := http.ReadResponse(bufio.NewReader(conn), nil); err == nil {
			b, _ := io.ReadAll(resp.Body)
			t.Errorf("%s: answered %d %q, want no answer", path, resp.StatusCode, b)
		} else if !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
			t.Errorf("%s: %v, want the connection closed unanswered", path, err)
		}
		conn.Close()
	}
}
