package dice

import (
	"math"
	"math/bits"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// TestXoshiroReference pins the generator to the reference C code
// (prng.di.unimi.it/xoshiro256starstar.c), with the state filled by the
// reference splitmix64.c started from 0. The expected words were printed by
// those two files compiled with gcc.
func TestXoshiroReference(t *testing.T) {
	var x uint64
	r := Rand{s0: splitmix64(&x), s1: splitmix64(&x), s2: splitmix64(&x), s3: splitmix64(&x)}
	want := []uint64{0x99ec5f36cb75f2b4, 0xbf6e1f784956452a, 0x1a5f849d4933e6e0, 0x6aa594f1262d2d2c, 0xbba5ad4a1f842e59}
	for i, w := range want {
		if got := r.Uint64(); got != w {
			t.Errorf("output %d = %#x, want %#x", i, got, w)
		}
	}
}

// TestSplitMixReference checks SplitMix64 against its widely published test
// vector: seeded with 1234567 it first returns 6457827717110365317.
func TestSplitMixReference(t *testing.T) {
	x := uint64(1234567)
	want := []uint64{0x599ed017fb08fc85, 0x2c73f08458540fa5, 0x883ebce5a3f27c77}
	for i, w := range want {
		if got := splitmix64(&x); got != w {
			t.Errorf("output %d = %#x, want %#x", i, got, w)
		}
	}
}

func TestSeedStreamsDiffer(t *testing.T) {
	seen := map[uint64][2]uint64{}
	for seed := range uint64(20) {
		for stream := range uint64(200) {
			v := New(seed, stream).Uint64()
			if prev, ok := seen[v]; ok {
				t.Fatalf("(seed %d, stream %d) and %v start alike", seed, stream, prev)
			}
			seen[v] = [2]uint64{seed, stream}
		}
	}
	a, b := New(7, 3), New(7, 3)
	for range 100 {
		if a.Uint64() != b.Uint64() || a.D6() != b.D6() {
			t.Fatal("the same (seed, stream) gave different draws")
		}
	}
}

// TestD6Pool checks that the batched D6 constants are what they claim.
func TestD6Pool(t *testing.T) {
	p := uint64(1)
	for range pool6 {
		p *= 6
	}
	if p != p6 {
		t.Fatalf("p6 = %d, want 6^%d = %d", uint64(p6), pool6, p)
	}
	// Lemire's threshold lies below the range size, and twenty digits (not
	// the twenty-four that fit in 64 bits) keep rejections rare.
	if reject6 >= p6 {
		t.Fatalf("reject6 %d >= p6 %d", uint64(reject6), uint64(p6))
	}
	if rate := float64(reject6) / math.Pow(2, 64); rate > 2e-4 {
		t.Fatalf("rejection rate %g, documented as under 2e-4", rate)
	}
}

// TestD6Digits pins the D6 stream to its definition: the results are the
// base-6 digits, most significant first, of each accepted 64-bit output
// (read off by multiplying the fraction by 6), twenty per output. The
// reference reads them one at a time from a twin generator.
func TestD6Digits(t *testing.T) {
	r, twin := New(5, 3), New(5, 3)
	for i := 0; i < 50*pool6; {
		x := twin.Uint64()
		if x*p6 < reject6 {
			continue // rejected: D6 skips it too
		}
		for range pool6 {
			hi, lo := bits.Mul64(x, 6)
			x = lo
			if got := r.D6(); got != int(hi)+1 {
				t.Fatalf("D6 result %d is %d, want digit %d", i, got, hi+1)
			}
			i++
		}
	}
}

// TestPack6 checks the pool's digits against y's base-6 digits found by
// division, at the ends of the range and of each quarter (where a rounding
// error would show first) and at a million random values.
func TestPack6(t *testing.T) {
	want := func(y uint64) uint64 {
		var pool uint64
		for i := range pool6 {
			pool |= (y%6 + 1) << (3 * (pool6 - 1 - i))
			y /= 6
		}
		return pool
	}
	var ys []uint64
	for _, edge := range []uint64{0, p5, p10, p10 * p5, p6} {
		for _, d := range []uint64{0, 1, 2, 5, 6, 7} {
			if d <= edge {
				ys = append(ys, edge-d)
			}
			if edge+d < p6 {
				ys = append(ys, edge+d)
			}
		}
	}
	r := New(7, 0)
	for range 1_000_000 {
		ys = append(ys, r.Uint64()%p6)
	}
	for _, y := range ys {
		if y >= p6 {
			continue
		}
		if got, w := pack6(y), want(y); got != w {
			t.Fatalf("pack6(%d) = %o, want %o", y, got, w)
		}
	}
}

// chi-square critical values at p = 0.001, from standard tables.
const (
	chi2df5  = 20.515 // df = 5
	chi2df35 = 66.619 // df = 35
)

// TestD6Uniform is a chi-square goodness-of-fit test of D6 results, and of
// pairs of consecutive results (which would expose correlation between
// digits of one pooled draw).
func TestD6Uniform(t *testing.T) {
	r := New(1, 0)
	const n = 600_000
	var single [6]float64
	var pairs [36]float64
	prev := r.D6()
	for range n {
		v := r.D6()
		single[v-1]++
		pairs[(prev-1)*6+v-1]++
		prev = v
	}
	if c := chi2(single[:], n/6.0); c > chi2df5 {
		t.Errorf("D6 faces chi-square %.2f > %.3f (df 5, p 0.001)", c, chi2df5)
	}
	if c := chi2(pairs[:], n/36.0); c > chi2df35 {
		t.Errorf("D6 pairs chi-square %.2f > %.3f (df 35, p 0.001)", c, chi2df35)
	}
}

func TestIntNUniform(t *testing.T) {
	r := New(2, 0)
	const n = 600_000
	var counts [6]float64
	for range n {
		counts[r.IntN(6)]++
	}
	if c := chi2(counts[:], n/6.0); c > chi2df5 {
		t.Errorf("IntN(6) chi-square %.2f > %.3f (df 5, p 0.001)", c, chi2df5)
	}
}

func chi2(obs []float64, expected float64) float64 {
	c := 0.0
	for _, o := range obs {
		c += (o - expected) * (o - expected) / expected
	}
	return c
}

// TestRollAllocatesNothing: rolling, and counting rolls (each fast path of
// Expr.Count and the general one, and Rand.Count across pools), allocate
// nothing: they are the trials' hot path.
func TestRollAllocatesNothing(t *testing.T) {
	r := New(1, 1)
	e := MustParse("3D6kh2+D3+1")
	k := MustParse("5D6kh3")
	if a := testing.AllocsPerRun(1000, func() { e.Roll(r); k.Roll(r) }); a != 0 {
		t.Fatalf("Roll allocates %v times per call", a)
	}
	for _, s := range []string{"2D6", "highest of 2D6", "3D6 discard lowest", "4D6", "3D6kh2+D3+1", "2D10", "artillery"} {
		e := MustParse(s)
		counts := make([]int64, e.Max()-e.Min()+1)
		if a := testing.AllocsPerRun(100, func() { e.Count(r, 100, counts, e.Min()) }); a != 0 {
			t.Errorf("%s: Count allocates %v times per call", s, a)
		}
	}
	if a := testing.AllocsPerRun(1000, func() { r.Count(3, 4); r.Count(45, 5) }); a != 0 {
		t.Errorf("Rand.Count allocates %v times per call", a)
	}
}

// TestCountIsD6 pins Count to its definition: the count of results at least
// need among the next n results of D6, drawn from a twin generator one at a
// time, and the two generators end in the same state. The sizes cross the
// pool's twenty results in every way (0, part of a pool, exactly the rest,
// several pools), for every need from 0 to 8.
func TestCountIsD6(t *testing.T) {
	r, twin := New(9, 4), New(9, 4)
	for i := range 20_000 {
		n := i % 47
		need := i % 9
		want := 0
		for range n {
			if twin.D6() >= need {
				want++
			}
		}
		if got := r.Count(n, need); got != want {
			t.Fatalf("draw %d: Count(%d, %d) = %d, want %d", i, n, need, got, want)
		}
		if *r != *twin {
			t.Fatalf("draw %d: Count(%d, %d) left the generator elsewhere than %d D6 draws", i, n, need, n)
		}
	}
	// No dice: nothing drawn, nothing counted.
	for _, n := range []int{0, -1, -100} {
		if got := r.Count(n, 4); got != 0 || *r != *twin {
			t.Fatalf("Count(%d, 4) = %d, or it drew", n, got)
		}
	}
}

// TestCountBinomial checks Count's distribution on its own: Count(10, 4)
// is Binomial(10, 1/2), so a chi-square over its 11 values from 200,000
// draws has 10 degrees of freedom; 29.59 is its 0.999 quantile.
func TestCountBinomial(t *testing.T) {
	r := New(11, 0)
	const draws = 200_000
	obs := make([]float64, 11)
	for range draws {
		obs[r.Count(10, 4)]++
	}
	x := 0.0
	bin := distuv.Binomial{N: 10, P: 0.5}
	for k, o := range obs {
		e := draws * bin.Prob(float64(k))
		x += (o - e) * (o - e) / e
	}
	if x > 29.59 {
		t.Fatalf("chi-square %.2f over 10 degrees of freedom, above 29.59", x)
	}
}

// BenchmarkCount times Count over n dice against n calls of D6 counted in
// a loop, in the same run: the same results either way (TestCountIsD6).
// The ns/die figures of the pairs compare directly.
func BenchmarkCount(b *testing.B) {
	for _, n := range []int{1, 3, 8, 20} {
		b.Run("count/n="+strconv.Itoa(n), func(b *testing.B) {
			r := New(1, 0)
			s := 0
			for b.Loop() {
				s += r.Count(n, 4)
			}
			countSink = s
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/die")
		})
		b.Run("d6/n="+strconv.Itoa(n), func(b *testing.B) {
			r := New(1, 0)
			s := 0
			for b.Loop() {
				for range n {
					if r.D6() >= 4 {
						s++
					}
				}
			}
			countSink = s
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/die")
		})
	}
}

var countSink int
