package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"hammersim/cmd/simulate/internal/web"
)

// browser starts headless Chromium for a test, or skips it loudly. Set
// HAMMERSIM_SCREENSHOTS to a folder to keep the test's screenshots.
func browser(t *testing.T) (context.Context, string) {
	t.Helper()
	if testing.Short() {
		t.Skip("SKIPPED: the browser test does not run with -short")
	}
	bin := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		t.Skip("SKIPPED: no Chromium on this machine, so the page was not tested in a browser; " +
			"install Debian's (apt-get install -y chromium), as .ci/run does")
	}
	shots := os.Getenv("HAMMERSIM_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1300, 1100),
	}
	// The whole session shares this bound: its parts take about 50 s on
	// an idle 2-core machine, so 6 minutes leave a loaded one room, and
	// still end a hung browser well inside CI's time.
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	t.Cleanup(cancel)
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	bctx, cancelBrowser := chromedp.NewContext(alloc)
	t.Cleanup(cancelBrowser)
	return bctx, shots
}

// screenshotTo saves the whole page (quality 100: PNG) as dir/name; a
// name starting "view-" gets the window only.
func screenshotTo(t *testing.T, dir, name string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		shot := chromedp.FullScreenshot(100)
		if strings.HasPrefix(name, "view-") {
			shot = chromedp.CaptureScreenshot()
		}
		png, err := shot(ctx, tg)
		if err != nil {
			return chromedp.Void{}, err
		}
		t.Logf("screenshot %s", filepath.Join(dir, name))
		return chromedp.Void{}, os.WriteFile(filepath.Join(dir, name), png, 0o644)
	}
}

// evalInto evaluates a JavaScript expression whose value is a string.
func evalInto(expr string, got *string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		s, err := chromedp.Evaluate[string](expr)(ctx, tg)
		*got = s
		return chromedp.Void{}, err
	}
}

// waitText waits until the JavaScript expression's string value contains
// want, and returns it.
func waitText(expr, want string, got *string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		for {
			if _, err := evalInto(expr, got)(ctx, tg); err == nil && strings.Contains(*got, want) {
				return chromedp.Void{}, nil
			}
			select {
			case <-ctx.Done():
				return chromedp.Void{}, ctx.Err()
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
}

// The scenario the browser types: a Random Movement (2D6) charge over 7",
// with "distance" misspelt on line 6.
const browserScenario = "name: web-check\nruleset: fantasy\ntrials: 20000\ncharge:\n" +
	"  unit: {name: Wheel, rules: [{Random Movement: 2D6}]}\n  distanse: 7\n"

// TestBrowser drives the page in headless Chromium, one tab per part, on
// one browser (it takes seconds to start).
func TestBrowser(t *testing.T) {
	ctx, shots := browser(t)
	ts := newTestServer(t, web.Config{})
	// The first Run starts the browser, on the test's own context.
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	for _, part := range []struct {
		name string
		run  func(*testing.T, context.Context, string, string)
	}{
		{"EditFixRun", browserEditFixRun},
		{"Cancel", browserCancel},
		{"CompareAndDice", browserCompareAndDice},
		{"CompareError", browserCompareError},
		{"UnitCard", browserUnitCard},
		{"StaleCheck", browserStaleCheck},
		{"ManyProblems", browserManyProblems},
		{"NumbersAsGo", browserNumbersAsGo},
		{"OpenedFileAndBoxes", browserOpenedFileAndBoxes},
		{"Keyboard", browserKeyboard},
		{"PickersFollowTheText", browserPickersFollowTheText},
		{"Narrow", browserNarrow},
	} {
		t.Run(part.name, func(t *testing.T) {
			tab, cancel := chromedp.NewContext(ctx)
			defer cancel()
			part.run(t, tab, ts.URL, shots)
		})
	}
}

// browserEditFixRun types a scenario with a mistake into the page, sees
// the error at its line in the command line's words, fixes it, runs it and
// finds the exact value in the report.
func browserEditFixRun(t *testing.T, ctx context.Context, url, shots string) {
	var problems, gutter, status, exact, valid string
	// "distanse" sits at line 6, column 3; the message is the scenarios
	// package's for an unknown key.
	wantErr := `web-check.yaml:6:3: unknown key "distanse"`
	err := chromedp.Do(ctx,
		chromedp.Navigate(url),
		waitText(`document.querySelector("#yaml").value`, "swiftstride-charge", &valid), // the default scenario is loaded
		evalInto(`document.querySelector("#yaml").value = ""`, &valid),
		evalInto(`document.querySelector("#file").value = "web-check.yaml"`, &valid),
		chromedp.Focus("#yaml"),
		chromedp.SendKeys("#yaml", browserScenario),
		waitText(`document.querySelector("#problems").innerText`, wantErr, &problems),
		evalInto(`[...document.querySelectorAll("#editor .gutter span.err")].map(s => s.textContent).join(",")`, &gutter),
		screenshotTo(t, shots, "1-error.png"),
	)
	if err != nil {
		t.Fatalf("typing the scenario: %v (problems shown: %q)", err, problems)
	}
	// Line 6 holds the misspelt key; line 5 opens the charge, which now
	// lacks its distance.
	if gutter != "5,6" {
		t.Errorf("gutter marks lines %q, want 5,6", gutter)
	}
	err = chromedp.Do(ctx,
		// A click on the error at line 6 (the list is in file order, after
		// the charge's missing distance at line 5) puts the cursor on
		// "distanse"; retype it.
		chromedp.Click(`#problems li[data-line="6"]`, chromedp.NodeVisible),
		chromedp.KeyEvent(strings.Repeat(kb.Delete, len("distanse"))),
		chromedp.SendKeys("#yaml", "distance"),
		waitText(`document.querySelector("#problems").innerText`, "✓ web-check", &valid),
		evalInto(`document.querySelectorAll("#editor .gutter span.err").length + ""`, &gutter),
		screenshotTo(t, shots, "2-fixed.png"),
		chromedp.Click("#run", chromedp.NodeVisible),
		waitText(`document.querySelector("#results .status").innerText`, "Finished", &status),
		// The exact column of the charge_success table in the report.
		waitText(`(() => {
			const doc = document.querySelector("#results iframe").contentDocument;
			const h = [...doc.querySelectorAll("h2")].find(h => h.textContent.startsWith("charge_success"));
			const table = h.nextElementSibling;
			const col = [...table.querySelectorAll("th")].findIndex(th => th.textContent === "exact");
			return table.querySelector("tbody tr").children[col].textContent;
		})()`, "%", &exact),
		waitText(`document.querySelector("#results iframe").style.height`, "px", &status),
		screenshotTo(t, shots, "3-results.png"),
	)
	if err != nil {
		t.Fatalf("fixing and running: %v (problems %q, status %q)", err, valid, status)
	}
	if gutter != "0" {
		t.Errorf("%s lines still marked after the fix", gutter)
	}
	// P(2D6 >= 7) = 21/36 = 58.33% (by enumeration).
	if exact != "58.33%" {
		t.Errorf("exact value %q, want 58.33%%", exact)
	}
	// A second run's downloads replace the first's, whose outputs the page
	// lets go of (revokes their blob URLs, which the page's own content
	// security policy keeps it from fetching to see): a page kept open for
	// many runs holds only the last.
	var first, second, old string
	links := `[...document.querySelectorAll("#results .downloads a")].map(a => a.href)`
	err = chromedp.Do(ctx,
		evalInto(`(() => { window.revoked = []; const revoke = URL.revokeObjectURL;
			URL.revokeObjectURL = u => { window.revoked.push(u); revoke(u); };
			return (window.firstLinks = `+links+`).join(" ") })()`, &first),
		chromedp.Click("#run", chromedp.NodeVisible),
		waitText(`(() => { const l = `+links+`; return l.length === 5 && !l.some(u => window.firstLinks.includes(u)) ? "new " + l.join(" ") : "" })()`, "new", &second),
		evalInto(`window.firstLinks.map(u => window.revoked.includes(u) ? "gone" : "kept").join(",")`, &old),
	)
	if err != nil {
		t.Fatalf("running again: %v (links %q, then %q)", err, first, second)
	}
	if old != "gone,gone,gone,gone,gone" {
		t.Errorf("the first run's five downloads after the second run: %s, want all gone", old)
	}
}

// browserCancel starts a long run of a built-in, cancels it from the page
// and sees the results marked partial.
func browserCancel(t *testing.T, ctx context.Context, url, shots string) {
	var valid, status, progress, report string
	err := chromedp.Do(ctx,
		chromedp.Navigate(url),
		waitText(`document.querySelector("#problems").innerText`, "✓ swiftstride-charge", &valid),
		evalInto(`(() => { const s = document.querySelector("#builtin"); s.value = "random-movement";
			s.dispatchEvent(new Event("change")); return "" })()`, &valid),
		waitText(`document.querySelector("#problems").innerText`, "✓ random-movement", &valid),
		evalInto(`document.querySelector("#trials").value = "100000000"`, &progress),
		chromedp.Click("#run", chromedp.NodeVisible),
		waitText(`document.querySelector("#progress span").innerText`, "trials (", &progress),
		screenshotTo(t, shots, "4-progress.png"),
		// Pressed once it is enabled, by the page's own click: a mouse
		// click at coordinates taken a moment before can miss the button
		// when the progress line reflows, and the run then goes to its end.
		chromedp.WaitEnabled("#cancel"),
		evalInto(`(() => { document.querySelector("#cancel").click(); return "" })()`, &valid),
		waitText(`document.querySelector("#results .status").innerText`, "PARTIAL", &status),
		waitText(`document.querySelector("#results iframe").contentDocument.body.innerText`, "PARTIAL", &report),
		screenshotTo(t, shots, "view-5-cancelled.png"),
	)
	if err != nil {
		t.Fatalf("%v (status %q, progress %q)", err, status, progress)
	}
}

// browserCompareAndDice compares a built-in's attackers on the compare
// tab, and reads a distribution on the dice tab.
func browserCompareAndDice(t *testing.T, ctx context.Context, url, shots string) {
	var axes, status, report, row string
	err := chromedp.Do(ctx,
		chromedp.Navigate(url),
		chromedp.Click(`.tab[data-tab="compare"]`, chromedp.NodeVisible),
		waitText(`document.querySelector(".candidate .pick").options.length > 1 ? "loaded" : ""`, "loaded", &axes),
		evalInto(`(() => { const s = document.querySelector(".candidate .pick"); s.value = "doomwheel-balance";
			s.dispatchEvent(new Event("change")); return "" })()`, &axes),
		chromedp.Click(`input[name=mode][value=axis]`, chromedp.NodeVisible),
		waitText(`[...document.querySelector("#by").options].map(o => o.value).join(",")`, "attacker", &axes),
		evalInto(`document.querySelector("#c-trials").value = "2000"`, &status),
		chromedp.Click("#c-run", chromedp.NodeVisible),
		waitText(`document.querySelector("#c-results .status").innerText`, "Finished", &status),
		waitText(`document.querySelector("#c-results iframe").contentDocument.body.innerText`, "Comparison of Doomwheel", &report),
		waitText(`document.querySelector("#c-results iframe").style.height`, "px", &report), // sized to its report
		screenshotTo(t, shots, "6-compare.png"),
		chromedp.Click(`.tab[data-tab="dice"]`, chromedp.NodeVisible),
		evalInto(`document.querySelector("#expr").value = ""`, &row),
		chromedp.SendKeys("#expr", "3D6 discard lowest"),
		// The last row: 12 on the best two of three D6 needs two or three
		// sixes, 16 of 216 rolls = 7.41%, at least 12 the same, at most 12
		// certain (by enumeration).
		waitText(`document.querySelector("#dice-table tbody tr:last-child").innerText`, "12\t7.41%\t7.41%\t100.00%", &row),
		chromedp.Click(`input[name=view][value=at_least]`, chromedp.NodeVisible),
		screenshotTo(t, shots, "7-dice.png"),
		// A condition: 2D6 >= 9 holds on 10 of 36 rolls = 27.78%, about 1
		// in 3.6 (by enumeration).
		evalInto(`document.querySelector("#expr").value = ""`, &row),
		chromedp.SendKeys("#expr", "2D6 >= 9"),
		waitText(`document.querySelector("#dice-condition").innerText`, "exactly 27.78%, about 1 in 3.6", &row),
		screenshotTo(t, shots, "view-8-condition.png"),
		// What is possible but rounds to 0.00%, or is not certain but
		// rounds to 100.00%, is written as simulate dice writes it. Of
		// ten D6, exactly 8 sixes come C(10,8)*25 = 1125 times in 6^10,
		// at least 8 1125 + 50 + 1 = 1176 times, at most 8 all but 51.
		evalInto(`document.querySelector("#expr").value = ""`, &row),
		chromedp.SendKeys("#expr", "10D6 count 6+"),
		waitText(`document.querySelector("#dice-table tbody tr:nth-child(9)").innerText`, "8\t<0.01%\t<0.01%\t>99.99%", &row),
		// At least 9 sixes: 51 in 6^10 = 8.434467561e-7, about 1 in
		// 1,185,611, to three figures 1.19e+06, written as simulate dice
		// writes them.
		evalInto(`document.querySelector("#expr").value = ""`, &row),
		chromedp.SendKeys("#expr", "10D6 count 6+ >= 9"),
		waitText(`document.querySelector("#dice-condition").innerText`, "exactly <0.01% (8.434467561e-07), about 1 in 1.19e+06", &row),
		// Go writes 1/6^6 = 2.143347051e-05 with an exponent below 1e-4,
		// where JavaScript's toPrecision would not; and a tie at three
		// figures, 1/(1000 * 209 * 5) = 1/1,045,000, to the even digit:
		// 1.04e+06 (by hand).
		evalInto(`document.querySelector("#expr").value = ""`, &row),
		chromedp.SendKeys("#expr", "6D6 = 6"),
		waitText(`document.querySelector("#dice-condition").innerText`, "exactly <0.01% (2.143347051e-05), about 1 in 46656.0", &row),
		evalInto(`document.querySelector("#expr").value = ""`, &row),
		chromedp.SendKeys("#expr", "D1000 = 1 and D209 = 1 and D5 = 1"),
		waitText(`document.querySelector("#dice-condition").innerText`, "(9.56937799e-07), about 1 in 1.04e+06", &row),
		// A tie in rounding: 208 of the 512 rolls of 3D8 come to 12 or
		// less (by enumeration), 0.40625 exactly, which simulate dice
		// writes 40.62% (a tie to the even digit), and 1/0.40625 =
		// 2.46, about 1 in 2.5. The table's at-most column for 12 is the
		// same 40.62%.
		evalInto(`document.querySelector("#expr").value = ""`, &row),
		chromedp.SendKeys("#expr", "3D8 <= 12"),
		waitText(`document.querySelector("#dice-condition").innerText`, "exactly 40.62%, about 1 in 2.5", &row),
		evalInto(`document.querySelector("#expr").value = ""`, &row),
		chromedp.SendKeys("#expr", "3D8"),
		waitText(`document.querySelector("#dice-table tbody tr:nth-child(10)").innerText`, "12\t", &row),
		waitText(`document.querySelector("#dice-table tbody tr:nth-child(10)").innerText.split("\t")[3]`, "40.62%", &row),
		// With the server gone (every request fails), a new query says so,
		// and the last query's answer does not stand under it.
		evalInto(`(() => { window.fetch = () => Promise.reject(new TypeError("Failed to fetch")); return "" })()`, &row),
		evalInto(`document.querySelector("#expr").value = ""`, &row),
		chromedp.SendKeys("#expr", "4D6"),
		waitText(`document.querySelector("#dice-error").innerText`, "the server cannot be reached: Failed to fetch", &row),
		waitText(`String(document.querySelector("#dice-out").hidden)`, "true", &row),
	)
	if err != nil {
		t.Fatalf("%v (axes %q, status %q, dice row %q)", err, axes, status, row)
	}
}

// browserCompareError: an error in scenario B of a comparison of two
// files, clicked, puts the cursor in B at its line and column. The column
// is counted in characters, and the line holds two emoji, each two UTF-16
// units in a textarea: "four" starts at character 25 of line 5, which is
// UTF-16 offset 26 of the line; lines 1 to 4 take 8 + 17 + 13 + 8 = 46.
func browserCompareError(t *testing.T, ctx context.Context, url, _ string) {
	var focus string
	a := "name: a\nruleset: fantasy\ntrials: 2000\ncharge:\n  unit: {name: K, M: 5}\n  distance: 5\n"
	b := "name: b\nruleset: fantasy\ntrials: 2000\ncharge:\n  unit: {name: \"😀😀\", M: four}\n  distance: 5\n"
	err := chromedp.Do(ctx,
		chromedp.Navigate(url),
		chromedp.Click(`.tab[data-tab="compare"]`, chromedp.NodeVisible),
		chromedp.Click(`input[name=mode][value=files]`, chromedp.NodeVisible),
		evalInto(`(() => { const src = document.querySelectorAll(".candidate .src");
			src[0].value = `+strconv.Quote(a)+`; src[1].value = `+strconv.Quote(b)+`; return "" })()`, &focus),
		chromedp.Click("#c-run", chromedp.NodeVisible),
		waitText(`document.querySelector("#c-error").innerText`, `b.yaml:5:25`, &focus),
		chromedp.Click(`#c-error li[data-line="5"]`, chromedp.NodeVisible),
		waitText(`document.activeElement.getAttribute("aria-label") + " " + document.activeElement.selectionStart`, "Scenario B 72", &focus),
		// B's file name left blank: the server calls it scenario-2.yaml,
		// and the page still finds B.
		evalInto(`(() => { document.querySelectorAll(".candidate .file")[1].value = ""; document.querySelector(".candidate .src").focus(); return "" })()`, &focus),
		chromedp.Click("#c-run", chromedp.NodeVisible),
		waitText(`document.querySelector("#c-error").innerText`, `scenario-2.yaml:5:25`, &focus),
		chromedp.Click(`#c-error li[data-line="5"]`, chromedp.NodeVisible),
		waitText(`document.activeElement.getAttribute("aria-label") + " " + document.activeElement.selectionStart`, "Scenario B 72", &focus),
		// Checked as it is typed, the blank name reads as the comparison
		// will call it, not as a lone scenario's scenario.yaml.
		evalInto(`(() => { document.querySelectorAll(".candidate .src")[1].dispatchEvent(new Event("input")); return "" })()`, &focus),
		waitText(`document.querySelectorAll(".candidate .problems")[1].innerText`, `scenario-2.yaml:5:25`, &focus),
	)
	if err != nil {
		t.Fatalf("%v (focus %q)", err, focus)
	}
}

// browserUnitCard builds a scenario from a card of the unit catalogue and
// runs it for one metric.
func browserUnitCard(t *testing.T, ctx context.Context, url, shots string) {
	var valid, status, report string
	err := chromedp.Do(ctx,
		chromedp.Navigate(url),
		waitText(`document.querySelector("#units").options.length > 1 ? "loaded" : ""`, "loaded", &valid),
		waitText(`document.querySelector("#yaml").value`, "swiftstride-charge", &valid), // the default scenario is loaded
		evalInto(`document.querySelector("#yaml").value = ""`, &valid),
		evalInto(`document.querySelector("#file").value = "stormvermin.yaml"`, &valid),
		chromedp.Focus("#yaml"),
		chromedp.SendKeys("#yaml", "name: stormvermin-charge\nruleset: fantasy\ntrials: 20000\ncharge:\n  unit: "),
		evalInto(`(() => { const s = document.querySelector("#units"); s.value = "Stormvermin";
			s.dispatchEvent(new Event("change")); return "" })()`, &valid),
		chromedp.SendKeys("#yaml", "\n  distance: [6, 9]\n"),
		waitText(`document.querySelector("#problems").innerText`, "✓ stormvermin-charge", &valid),
		waitText(`[...document.querySelectorAll("#metrics input")].map(i => i.value).join(",")`, "charge_success", &valid),
		chromedp.Click(`#metrics input[value="charge_success"]`, chromedp.NodeVisible),
		chromedp.Click("#run", chromedp.NodeVisible),
		waitText(`document.querySelector("#results .status").innerText`, "Finished", &status),
		// The scenario's source closes the report: once it shows, the
		// whole report has loaded.
		waitText(`document.querySelector("#results iframe").contentDocument.body.innerText`, "use: Stormvermin", &report),
		screenshotTo(t, shots, "view-9-unit-card.png"),
	)
	if err != nil {
		t.Fatalf("%v (validation %q, status %q)", err, valid, status)
	}
	if !strings.Contains(report, "charge_success") || strings.Contains(report, "charge_reach") {
		t.Errorf("the report does not show the card's scenario with charge_success alone:\n%.600s", report)
	}
}

// browserStaleCheck: the check of an earlier text that answers after the
// check of the text as it is now is not shown. The page's fetch is made to
// hold back the answer for a text marked "# slow" by a second, as a
// scenario that takes long to read would; the later text's error must
// still be what the editor shows after it. The test waits on the held
// check's own marks (sent, answered), not on time, so that a slow machine
// cannot let it pass without the two answers crossing.
func browserStaleCheck(t *testing.T, ctx context.Context, url, shots string) {
	var shown, ignore string
	b := `document.querySelector('.candidate[data-cand="b"]')`
	set := func(text string) chromedp.Action[chromedp.Void] {
		return evalInto(`(() => { const a = `+b+`.querySelector(".src"); a.value = `+strconv.Quote(text)+`;
			a.dispatchEvent(new Event("input")); return "" })()`, &ignore)
	}
	err := chromedp.Do(ctx,
		chromedp.Navigate(url),
		evalInto(`(() => { const f = window.fetch; window.fetch = async (u, o) => {
			const slow = String(u).startsWith("/api/validate") && String(o && o.body).includes("# slow");
			if (slow) window.slowSent = "sent";
			const r = await f(u, o);
			if (slow) {
				await new Promise(ok => setTimeout(ok, 1000));
				setTimeout(() => { window.slowDone = "answered" }, 0); // after the page has read the answer
			}
			return r; }; return "" })()`, &ignore),
		chromedp.Click(`.tab[data-tab="compare"]`, chromedp.NodeVisible),
		set("# slow\nname: ok\nruleset: fantasy\ncharge: {unit: {name: C, M: 5}, distance: 7}\n"),
		waitText(`String(window.slowSent)`, "sent", &ignore), // past the page's pause: the slow check is out
		set("name: ok\nruleset: fantasy\nchrge: {}\n"),
		waitText(b+`.querySelector(".problems").innerText`, `unknown key "chrge"`, &shown),
		waitText(`String(window.slowDone)`, "answered", &ignore),
		chromedp.Sleep(100*time.Millisecond), // the page's handling of that answer has run
		evalInto(b+`.querySelector(".problems").innerText`, &shown),
	)
	if err != nil {
		t.Fatalf("%v (shown %q)", err, shown)
	}
	if !strings.Contains(shown, `unknown key "chrge"`) {
		t.Errorf("after the earlier text's answer came in, the editor shows %q, not the error of its text", shown)
	}
}

// browserManyProblems: a scenario with 30 unknown keys shows the 20
// problems the command line prints, then the line that counts the other
// 10, as the command line ends its list.
func browserManyProblems(t *testing.T, ctx context.Context, url, shots string) {
	var shown, items, ignore string
	var keys strings.Builder
	for i := range 30 {
		fmt.Fprintf(&keys, "bogus%d: 1\n", i)
	}
	src := "name: many\nruleset: fantasy\n" + keys.String() + "charge: {unit: {name: A, M: 5}, distance: 8}\n"
	err := chromedp.Do(ctx,
		chromedp.Navigate(url),
		waitText(`document.querySelector("#yaml").value`, "swiftstride-charge", &ignore),
		evalInto(`(() => { const a = document.querySelector("#yaml"); a.value = `+strconv.Quote(src)+`;
			a.dispatchEvent(new Event("input")); return "" })()`, &ignore),
		waitText(`document.querySelector("#problems").innerText`, "... and 10 more problems", &shown),
		evalInto(`document.querySelectorAll("#problems li").length + ""`, &items),
		screenshotTo(t, shots, "many-problems.png"),
	)
	if err != nil {
		t.Fatalf("%v (shown %q)", err, shown)
	}
	if items != "21" {
		t.Errorf("%s items listed, want 20 problems and the count of the rest", items)
	}
}

// browserNumbersAsGo: the page writes the dice figures as simulate dice
// does, to the digit, so its formatting functions must give what Go's
// strconv.FormatFloat gives: 'f' with 1 and 2 decimals, 'g' with 3 and 10
// figures. The values are the ties a float64 can hold (odd multiples of
// 2^-n, n <= 30, where JavaScript's toFixed and toPrecision round up and
// Go to the even digit) and 2,000 values spread over 10^-25 to 10^6, where
// the two choose exponent notation at different sizes.
func browserNumbersAsGo(t *testing.T, ctx context.Context, url, _ string) {
	var xs []float64
	for n := 0; n <= 30; n++ {
		for k := 1; k < 200; k += 2 {
			xs = append(xs, float64(k)/math.Ldexp(1, n))
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		xs = append(xs, math.Pow(10, r.Float64()*31-25))
	}
	var want []string
	for _, x := range xs {
		want = append(want, strings.Join([]string{strconv.FormatFloat(x, 'f', 1, 64), strconv.FormatFloat(x, 'f', 2, 64),
			strconv.FormatFloat(x, 'g', 3, 64), strconv.FormatFloat(x, 'g', 10, 64)}, " "))
	}
	arg, err := json.Marshal(xs)
	if err != nil {
		t.Fatal(err)
	}
	var got string
	err = chromedp.Do(ctx,
		chromedp.Navigate(url),
		waitText(`typeof general`, "function", &got),
		evalInto(`JSON.stringify(`+string(arg)+`.map(x => [fixed(x, 1), fixed(x, 2), general(x, 3), general(x, 10)].join(" ")))`, &got),
	)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	if err := json.Unmarshal([]byte(got), &lines); err != nil {
		t.Fatal(err)
	}
	if len(lines) != len(want) {
		t.Fatalf("%d values written, want %d", len(lines), len(want))
	}
	bad := 0
	for i := range want {
		if lines[i] != want[i] {
			if bad++; bad <= 10 {
				t.Errorf("%v: the page writes %q, Go %q", xs[i], lines[i], want[i])
			}
		}
	}
}

// browserOpenedFileAndBoxes opens a file with a byte order mark and CRLF
// line ends, which the editor shows without either, and runs it unedited:
// the report's stamp holds sha256sum's hash of the file's bytes. A file
// that is not UTF-8 is checked as its bytes, and refused. Then a
// Trials box holding "5e", which a browser reads as empty, stops the run
// with an error naming the box, where it used to run the scenario's own
// trials.
func browserOpenedFileAndBoxes(t *testing.T, ctx context.Context, url, _ string) {
	src := []byte("\ufeffname: crlf\r\nruleset: fantasy\r\ntrials: 1000\r\ncharge:\r\n  unit: {name: x, M: 5}\r\n  distance: 6\r\n")
	path := filepath.Join(t.TempDir(), "crlf.yaml")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(src)
	want := hex.EncodeToString(sum[:])
	var valid, status, stamp, errText string
	err := chromedp.Do(ctx,
		chromedp.Navigate(url),
		waitText(`document.querySelector("#problems").innerText`, "✓ swiftstride-charge", &valid),
		chromedp.SetUploadFiles("#open", []string{path}),
		waitText(`document.querySelector("#problems").innerText`, "✓ crlf", &valid),
		chromedp.Click("#run", chromedp.NodeVisible),
		waitText(`document.querySelector("#results .status").innerText`, "Finished", &status),
		waitText(`document.querySelector("#results iframe").contentDocument.body.innerText`, "SHA-256", &stamp),
	)
	if err != nil {
		t.Fatalf("opening and running the file: %v (problems %q, status %q)", err, valid, status)
	}
	if !strings.Contains(stamp, want) {
		t.Errorf("the stamp does not hold the file's SHA-256 %s:\n%s", want, stamp)
	}
	// A byte that is not UTF-8, which the editor shows replaced, is checked
	// as the run will read it: the file's bytes, refused.
	latin := filepath.Join(t.TempDir(), "latin.yaml")
	if err := os.WriteFile(latin, []byte("# caf\xe9\nname: latin\nruleset: fantasy\ncharge: {unit: {name: x, M: 5}, distance: 6}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = chromedp.Do(ctx,
		chromedp.SetUploadFiles("#open", []string{latin}),
		waitText(`document.querySelector("#problems").innerText`, "latin.yaml:1:6: byte 0xE9 is not UTF-8", &valid),
	)
	if err != nil {
		t.Fatalf("opening a file that is not UTF-8: %v (problems %q)", err, valid)
	}
	err = chromedp.Do(ctx,
		chromedp.Focus("#trials"),
		chromedp.SendKeys("#trials", "5e"),
		chromedp.Click("#run", chromedp.NodeVisible),
		waitText(`document.querySelector("#run-error").innerText`, "Trials per point", &errText),
	)
	if err != nil {
		t.Fatalf("a Trials box of 5e: %v (error shown %q)", err, errText)
	}
	if !strings.Contains(errText, "Trials per point: not a number") {
		t.Errorf("a Trials box of 5e: %q", errText)
	}
}

// browserKeyboard: the keyboard is never held in the scenario editor. Tab
// indents there; Shift+Tab, and Tab after Escape, move on as from any
// field. A problem listed is a button: Tab reaches it and Enter follows it
// to its place.
func browserKeyboard(t *testing.T, ctx context.Context, url, _ string) {
	var valid, got string
	err := chromedp.Do(ctx,
		chromedp.Navigate(url),
		waitText(`document.querySelector("#problems").innerText`, "✓ swiftstride-charge", &valid),
		evalInto(`(() => { const y = document.querySelector("#yaml"); window.orig = y.value; y.focus(); y.setSelectionRange(0, 0); return "" })()`, &got),
		chromedp.KeyEvent(kb.Tab),
		evalInto(`document.activeElement.id + "|" + (document.querySelector("#yaml").value === "  " + window.orig)`, &got),
	)
	if err != nil || got != "yaml|true" {
		t.Fatalf("Tab in the editor: %q (%v), want the editor still focused and two spaces inserted", got, err)
	}
	err = chromedp.Do(ctx,
		chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)),
		evalInto(`document.activeElement.id + "|" + (document.querySelector("#yaml").value === "  " + window.orig)`, &got),
	)
	// The save button stands before the editor.
	if err != nil || got != "save|true" {
		t.Errorf("Shift+Tab in the editor: %q (%v), want focus on the save button and the text as it was", got, err)
	}
	// A mistake (the key "ruleset" misspelt): Escape and Tab leave the
	// editor for the first problem listed, Enter goes back to the editor,
	// at that problem's line.
	err = chromedp.Do(ctx,
		evalInto(`(() => { const y = document.querySelector("#yaml"); y.value = window.orig.replace("ruleset:", "rulset:");
			y.dispatchEvent(new Event("input")); y.focus(); return "" })()`, &got),
		waitText(`document.querySelector("#problems").innerText`, `unknown key "rulset"`, &valid),
		chromedp.KeyEvent(kb.Escape),
		chromedp.KeyEvent(kb.Tab),
		evalInto(`(() => { const a = document.activeElement; window.line = +a.parentElement.dataset.line; return a.tagName + "|" + a.textContent })()`, &got),
	)
	// The first problem listed is the missing ruleset, at the mapping
	// that lacks it.
	if err != nil || !strings.HasPrefix(got, "BUTTON|swiftstride-charge.yaml:") || !strings.Contains(got, `"ruleset"`) {
		t.Fatalf("Escape and Tab from the editor: %q (%v), want the first problem's button focused", got, err)
	}
	err = chromedp.Do(ctx,
		chromedp.KeyEvent(kb.Enter),
		evalInto(`(() => { const y = document.querySelector("#yaml"); return document.activeElement.id + "|" + (y.value.slice(0, y.selectionStart).split("\n").length === window.line) })()`, &got),
	)
	if err != nil || got != "yaml|true" {
		t.Errorf("Enter on the problem: %q (%v), want the editor focused at the problem's line", got, err)
	}
}

// browserPickersFollowTheText: a built-in picker names the built-in only
// while its text holds it: a file opened after it, or a comparison's
// text edited, clears it, so that picking the built-in again loads it.
func browserPickersFollowTheText(t *testing.T, ctx context.Context, url, _ string) {
	path := filepath.Join(t.TempDir(), "mine.yaml")
	if err := os.WriteFile(path, []byte("name: mine\nruleset: fantasy\ncharge: {unit: {name: x, M: 5}, distance: 6}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var valid, got string
	err := chromedp.Do(ctx,
		chromedp.Navigate(url),
		waitText(`document.querySelector("#problems").innerText`, "✓ swiftstride-charge", &valid),
		evalInto(`document.querySelector("#builtin").value`, &got),
	)
	if err != nil || got != "swiftstride-charge" {
		t.Fatalf("the default built-in's picker: %q (%v)", got, err)
	}
	err = chromedp.Do(ctx,
		chromedp.SetUploadFiles("#open", []string{path}),
		waitText(`document.querySelector("#problems").innerText`, "✓ mine", &valid),
		evalInto(`document.querySelector("#builtin").value`, &got),
	)
	if err != nil || got != "" {
		t.Errorf("the picker after a file was opened: %q (%v), want it cleared", got, err)
	}
	err = chromedp.Do(ctx,
		chromedp.Click(`.tab[data-tab="compare"]`, chromedp.NodeVisible),
		evalInto(`(() => { const c = document.querySelector(".candidate[data-cand=a]"); const p = c.querySelector(".pick");
			p.value = "random-movement"; p.dispatchEvent(new Event("change")); return "" })()`, &got),
		waitText(`document.querySelector(".candidate[data-cand=a] .src").value`, "random-movement", &valid),
		chromedp.SendKeys(`.candidate[data-cand=a] .src`, "#"),
		evalInto(`document.querySelector(".candidate[data-cand=a] .pick").value`, &got),
	)
	if err != nil || got != "" {
		t.Errorf("a comparison's picker after its text was edited: %q (%v), want it cleared", got, err)
	}
}

// browserNarrow: a phone-wide window (390 CSS pixels) shows every tab and
// both of a comparison's scenarios without scrolling sideways.
func browserNarrow(t *testing.T, ctx context.Context, url, shots string) {
	var valid, scenario, compare string
	width := `document.documentElement.scrollWidth + "/" + document.documentElement.clientWidth`
	err := chromedp.Do(ctx,
		chromedp.EmulateViewport(390, 800),
		chromedp.Navigate(url),
		waitText(`document.querySelector("#problems").innerText`, "✓ swiftstride-charge", &valid),
		evalInto(width, &scenario),
		screenshotTo(t, shots, "narrow-scenario.png"),
		chromedp.Click(`.tab[data-tab="compare"]`, chromedp.NodeVisible),
		evalInto(width, &compare),
		screenshotTo(t, shots, "narrow-compare.png"),
	)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct{ tab, got string }{{"scenario", scenario}, {"compare", compare}} {
		if w.got != "390/390" {
			t.Errorf("the %s tab at 390 pixels: scroll width/client width %s, want 390/390", w.tab, w.got)
		}
	}
}
