package scenarios_test

import "testing"

// TestWithMaxPoints: a registry with a lower bound on points refuses a
// sweep over it, at the scenario's first line and saying why, and still
// reads one at the bound; the registry it came from keeps MaxPoints.
func TestWithMaxPoints(t *testing.T) {
	// M 4..10 by distance 1..20: 7 * 20 = 140 points.
	src := []byte("name: sweep\nruleset: fantasy\ncharge:\n  unit: {name: C, M: 4..10}\n  distance: 1..20\n")
	low := both.WithMaxPoints(139, "simulate serve --max-points").WithoutFiles()
	_, err := low.Parse("x.yaml", src)
	want := "x.yaml:1:1: the sweeps make 140 points (M 7 × distance 20); at most 139 (simulate serve --max-points)"
	if err == nil || err.Error() != want {
		t.Errorf("over the bound: got %v, want %s", err, want)
	}
	for _, r := range []struct {
		name string
		n    int
	}{{"at the bound", 140}, {"the original registry", 0}} {
		reg := both
		if r.n > 0 {
			reg = both.WithMaxPoints(r.n, "why")
		}
		s, err := reg.Parse("x.yaml", src)
		if err != nil {
			t.Errorf("%s: %v", r.name, err)
			continue
		}
		points := 1
		for _, a := range s.Axes {
			points *= len(a.Values)
		}
		if points != 140 {
			t.Errorf("%s: %d points, want 140", r.name, points)
		}
	}
	one := []byte("name: one\nruleset: fantasy\ncharge:\n  unit: {name: C, M: 4}\n  distance: 7\n")
	if _, err := both.WithMaxPoints(1, "why").Parse("x.yaml", one); err != nil {
		t.Errorf("a scenario of one point under a bound of 1: %v", err)
	}
}
