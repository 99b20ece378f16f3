package goldenfile

import (
	"bytes"
	"fmt"
	"image/png"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// These are package variables, not constants, so that the compiler cannot
// work the product out before the program runs.
var fmaX, fmaY, fmaZ = 1 + 0x1p-30, 1 - 0x1p-30, -1.0

// Fuses reports whether this build fuses a multiply and an add into one
// rounding. x*y is 1 - 2^-60, which rounds to 1 on its own: x*y - 1 is 0
// when the product is rounded first and -2^-60 when it is not.
func Fuses() bool { return multiplyAdd(fmaX, fmaY, fmaZ) != 0 }

// multiplyAdd is x*y + z as the compiler builds it. It is not inlined,
// so that its operands come in registers, as most of a program's do
// (an operand read from memory is multiplied by an instruction that the
// compiler does not fuse).
//
//go:noinline
func multiplyAdd(x, y, z float64) float64 { return x*y + z }

// number matches a number as the outputs write it: "-0.5", "1e+08",
// "88.85" (of "88.85%"), "2198".
var number = regexp.MustCompile(`[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?`)

// Equal reports whether got matches want, the golden file, and if not
// where they first differ: byte for byte on a build that does not fuse
// (Fuses), and as the package comment says on one that does.
func Equal(got, want []byte) error {
	if bytes.Equal(got, want) {
		return nil
	}
	if !Fuses() {
		return firstDifference(got, want)
	}
	if bytes.HasPrefix(want, []byte("\x89PNG")) {
		return samePNGSize(got, want)
	}
	return nearlyEqualText(string(got), string(want))
}

func firstDifference(got, want []byte) error {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	return fmt.Errorf("they differ from byte %d (of %d written, %d in the golden file)", i, len(got), len(want))
}

func samePNGSize(got, want []byte) error {
	g, err := png.DecodeConfig(bytes.NewReader(got))
	if err != nil {
		return fmt.Errorf("not a PNG image: %v", err)
	}
	w, err := png.DecodeConfig(bytes.NewReader(want))
	if err != nil {
		return fmt.Errorf("the golden file is not a PNG image: %v", err)
	}
	if g.Width != w.Width || g.Height != w.Height {
		return fmt.Errorf("a PNG image of %dx%d, the golden file's is %dx%d", g.Width, g.Height, w.Width, w.Height)
	}
	return nil
}

// nearlyEqualText compares two texts piece by piece: what is not a number
// must be the same, and each number within the tolerance of its golden
// counterpart.
func nearlyEqualText(got, want string) error {
	gi, wi := number.FindAllStringIndex(got, -1), number.FindAllStringIndex(want, -1)
	if len(gi) != len(wi) {
		return fmt.Errorf("%d numbers written, %d in the golden file", len(gi), len(wi))
	}
	gEnd, wEnd := 0, 0
	for k := range gi {
		if got[gEnd:gi[k][0]] != want[wEnd:wi[k][0]] {
			return fmt.Errorf("the text before number %d differs: %q, the golden file %q", k+1, got[gEnd:gi[k][0]], want[wEnd:wi[k][0]])
		}
		g, w := got[gi[k][0]:gi[k][1]], want[wi[k][0]:wi[k][1]]
		if !near(g, w) {
			return fmt.Errorf("number %d is %s, the golden file's %s", k+1, g, w)
		}
		gEnd, wEnd = gi[k][1], wi[k][1]
	}
	if got[gEnd:] != want[wEnd:] {
		return fmt.Errorf("the text after the last number differs")
	}
	return nil
}

// near reports whether number g agrees with the golden w to within a part
// in 10^9 or, for a number written with a fraction or an exponent, one
// unit of w's last digit.
func near(g, w string) bool {
	if g == w {
		return true
	}
	a, errA := strconv.ParseFloat(g, 64)
	b, errB := strconv.ParseFloat(w, 64)
	if errA != nil || errB != nil {
		return false
	}
	// A whole number written in full is a count, a seed or a size, which
	// no rounding changes: it gets the relative tolerance alone.
	unit := 0.0
	mantissa, exp, hasExp := strings.Cut(strings.ToLower(w), "e")
	if _, frac, ok := strings.Cut(mantissa, "."); ok || hasExp {
		unit = math.Pow(10, -float64(len(frac)))
	}
	if hasExp {
		e, _ := strconv.Atoi(exp)
		unit *= math.Pow(10, float64(e))
	}
	return math.Abs(a-b) <= max(1e-9*math.Max(math.Abs(a), math.Abs(b)), unit*(1+1e-9))
}
