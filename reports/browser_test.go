package reports

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// chromium finds a headless-capable Chromium, or skips the test.
func chromium(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium on this machine")
	return ""
}

// screenshot renders an HTML file in headless Chromium, offline, and
// returns the decoded screenshot. The shot is kept in dir for a person to
// look at.
func screenshot(t *testing.T, html []byte, dir string) image.Image {
	t.Helper()
	bin := chromium(t)
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, html, 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "shot.png")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--screenshot="+shot, "--window-size=1200,2000",
		"file://"+page)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	data, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v\n%s", err, out)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("screenshot does not decode: %v", err)
	}
	t.Logf("screenshot: %s", shot)
	return img
}

// inked counts the pixels that are not near white.
func inked(img image.Image) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r < 0xe000 || g < 0xe000 || bl < 0xe000 {
				n++
			}
		}
	}
	return n
}

// inColour counts the pixels within 24 of c in each channel, on the same
// grid as inked.
func inColour(img image.Image, c color.RGBA) int {
	near := func(v uint32, want uint8) bool { d := int(v>>8) - int(want); return -24 < d && d < 24 }
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			if near(r, c.R) && near(g, c.G) && near(bl, c.B) {
				n++
			}
		}
	}
	return n
}

// TestHTMLInBrowser renders the report page and the comparison page (only
// the first under -short: each takes Chromium a few seconds) in headless
// Chromium and checks that something was drawn, a plot among it. Set HAMMERSIM_SHOTS to a
// folder to keep the screenshots there.
func TestHTMLInBrowser(t *testing.T) {
	chromium(t)
	var report, cmp bytes.Buffer
	r := stampedReport()
	r.Partial = true
	if err := WriteHTML(&report, r, sampleSource); err != nil {
		t.Fatal(err)
	}
	if err := WriteComparisonHTML(&cmp, sampleComparison(), sampleStamp(), map[string][]byte{"matchups.yaml": sampleSource}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		page []byte
	}{{"report", report.Bytes()}, {"comparison", cmp.Bytes()}} {
		name, page := tc.name, tc.page
		t.Run(name, func(t *testing.T) {
			if name != "report" && testing.Short() {
				t.Skip("one page is enough under -short")
			}
			t.Parallel()
			dir := t.TempDir()
			if keep := os.Getenv("HAMMERSIM_SHOTS"); keep != "" {
				dir = filepath.Join(keep, name)
				os.RemoveAll(dir)
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			img := screenshot(t, page, dir)
			if b := img.Bounds(); b.Dx() < 600 || b.Dy() < 600 {
				t.Errorf("screenshot is %v", b)
			}
			// A page of tables and plots inks far more than a few
			// hundred of the sampled pixels; a blank or failed page
			// inks none.
			if n := inked(img); n < 2000 {
				t.Errorf("only %d sampled pixels are not white: the page looks blank", n)
			}
			// Only the plots use the palette's first colour, for their
			// first series: a line or bar of it covers far more than 20
			// sampled pixels (a few hundred on these pages); the text and
			// tables alone, none.
			if n := inColour(img, palette[0]); n < 20 {
				t.Errorf("only %d sampled pixels in the first series' colour: no plot was drawn", n)
			}
		})
	}
}
