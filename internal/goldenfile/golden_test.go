package goldenfile

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"testing"
)

// TestFusesAgreesWithTheBuild: Fuses tells a fusing build by one
// multiply-add whose two roundings differ: rounded twice (the conversion
// forbids fusing, by the Go specification) it is 0, rounded once
// (math.FMA) -2^-60, and the build's own is one of the two.
func TestFusesAgreesWithTheBuild(t *testing.T) {
	unfused, fused := float64(fmaX*fmaY)+fmaZ, math.FMA(fmaX, fmaY, fmaZ)
	if unfused != 0 || fused != -0x1p-60 {
		t.Fatalf("rounded twice %g, once %g; want 0 and -2^-60", unfused, fused)
	}
	got := multiplyAdd(fmaX, fmaY, fmaZ)
	if got != unfused && got != fused || Fuses() != (got == fused) {
		t.Errorf("the build's multiply-add %g, Fuses %v", got, Fuses())
	}
	t.Logf("this build fuses a multiply and an add: %v", Fuses())
}

func TestNearlyEqualText(t *testing.T) {
	for _, tt := range []struct {
		got, want string
		ok        bool
	}{
		{`{"exact": 0.5563271604938271, "z": 1.5}`, `{"exact": 0.556327160493827, "z": 1.5}`, true},
		{`"z": 0.6980135078512304`, `"z": 0.6980135078512303`, true},
		// A rounded cell one unit of its last digit away: a rounding that
		// went the other way.
		{"| 88.86% |", "| 88.85% |", true},
		{"| 88.87% |", "| 88.85% |", false},
		// Counts are exact.
		{`"successes": 2197`, `"successes": 2198`, false},
		{"5.6e+08 steps", "5.5e+08 steps", true},
		{"5.8e+08 steps", "5.5e+08 steps", false},
		// Anything but a number is compared as it is.
		{`"exact": 0.5, "z": 1`, `"exact": 0.5, "Z": 1`, false},
		{"a 1 b 2", "a 1 b", false},
	} {
		if err := nearlyEqualText(tt.got, tt.want); (err == nil) != tt.ok {
			t.Errorf("%q against %q: %v, want equal %v", tt.got, tt.want, err, tt.ok)
		}
	}
}

func TestSamePNGSize(t *testing.T) {
	img := func(w, h int) []byte {
		var b bytes.Buffer
		if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	if err := samePNGSize(img(4, 3), img(4, 3)); err != nil {
		t.Error(err)
	}
	if err := samePNGSize(img(4, 3), img(3, 4)); err == nil {
		t.Error("images of other sizes compared equal")
	}
	if err := samePNGSize([]byte("not a png"), img(4, 3)); err == nil {
		t.Error("text compared equal to a PNG image")
	}
}

// TestEqualIsExactWhereNothingFuses: on a build that rounds every step,
// one digit off is a difference.
func TestEqualIsExactWhereNothingFuses(t *testing.T) {
	err := Equal([]byte(`"z": 0.6980135078512304`), []byte(`"z": 0.6980135078512303`))
	if Fuses() != (err == nil) {
		t.Errorf("fuses %v, Equal: %v", Fuses(), err)
	}
}
