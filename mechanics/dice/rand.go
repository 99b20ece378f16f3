package dice

import "math/bits"

// Rand is a xoshiro256** generator (Blackman and Vigna, "Scrambled linear
// pseudorandom number generators", 2021) with a pool of pending D6 results.
//
// The zero Rand is not seeded: call Seed (or use New) before drawing from it.
// A Rand must be used by one goroutine at a time.
type Rand struct {
	s0, s1, s2, s3 uint64

	// pool holds the D6 results not yet used of the last 64-bit output
	// accepted for D6 extraction, three bits each, the next in the lowest
	// bits. No result is 0, so the pool is empty exactly when it is 0.
	pool uint64
}

// New returns a generator seeded with (seed, stream); see Seed.
func New(seed, stream uint64) *Rand {
	r := new(Rand)
	r.Seed(seed, stream)
	return r
}

// Seed resets r to the start of the stream named by (seed, stream). Distinct
// pairs give unrelated 256-bit states: the pair is hashed into one SplitMix64
// seed, and SplitMix64 then fills the state, as the xoshiro authors advise.
func (r *Rand) Seed(seed, stream uint64) {
	x := mix64(seed ^ mix64(stream+0x6a09e667f3bcc909))
	r.s0 = splitmix64(&x)
	r.s1 = splitmix64(&x)
	r.s2 = splitmix64(&x)
	r.s3 = splitmix64(&x)
	if r.s0|r.s1|r.s2|r.s3 == 0 { // the one state xoshiro cannot leave
		r.s0 = 1
	}
	r.pool = 0
}

// splitmix64 advances *x and returns the next SplitMix64 output (Steele,
// Lea and Flood, "Fast splittable pseudorandom number generators", 2014).
func splitmix64(x *uint64) uint64 {
	*x += 0x9e3779b97f4a7c15
	return mix64(*x)
}

// mix64 is the SplitMix64 output function, a bijection on uint64.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Uint64 returns 64 uniformly distributed random bits.
func (r *Rand) Uint64() uint64 {
	result := bits.RotateLeft64(r.s1*5, 7) * 9
	t := r.s1 << 17
	r.s2 ^= r.s0
	r.s3 ^= r.s1
	r.s1 ^= r.s2
	r.s0 ^= r.s3
	r.s2 ^= t
	r.s3 = bits.RotateLeft64(r.s3, 45)
	return result
}

// IntN returns a uniform integer in [0, n) without bias, by Lemire's
// multiply-and-reject method ("Fast random integer generation in an
// interval", 2019). It panics if n <= 0.
func (r *Rand) IntN(n int) int {
	if n <= 0 {
		panic("dice: IntN with n <= 0")
	}
	s := uint64(n)
	hi, lo := bits.Mul64(r.Uint64(), s)
	if lo < s {
		t := -s % s
		for lo < t {
			hi, lo = bits.Mul64(r.Uint64(), s)
		}
	}
	return int(hi)
}

// pool6 is how many D6 results one accepted 64-bit output yields; p6 = 6^20
// is the size of the range they encode together. reject6 = 2^64 mod p6 is
// Lemire's rejection threshold for that range: an output x is used only when
// the low word of x*p6 is at least reject6, so that floor(x*p6 / 2^64) is
// uniform on [0, p6) and its twenty base-6 digits are independent fair D6
// results (Brackett-Rozinsky and Lemire, "Batched ranged random integer
// generation", 2024). A draw is rejected with probability under 2e-4.
const (
	pool6   = 20
	p6      = 3656158440062976 // 6^20
	reject6 = (1 << 64) % p6
)

// D6 returns a fair six-sided die result, 1 to 6.
//
// A refill packs into the pool the twenty base-6 digits of an accepted
// draw's y = floor(x * 6^20 / 2^64), most significant first; D6 then
// shifts them out one at a time. The refill is out of line, so that D6 is
// small enough to inline into the loops that roll dice.
func (r *Rand) D6() int {
	if r.pool == 0 {
		r.refill6()
	}
	d := r.pool & 7
	r.pool >>= 3
	return int(d)
}

// p5 = 6^5 and p10 = 6^10 split a draw's twenty base-6 digits into four
// quarters of five.
const (
	p5  = 7776     // 6^5
	p10 = 60466176 // 6^10
)

// refill6 fills the pool from the next accepted draw.
//
//go:noinline
func (r *Rand) refill6() {
	y, lo := bits.Mul64(r.Uint64(), p6)
	for lo < reject6 {
		y, lo = bits.Mul64(r.Uint64(), p6)
	}
	r.pool = pack6(y)
}

// pack6 returns the twenty base-6 digits of y < 6^20 as D6 results (digit
// plus 1), three bits each, the most significant in the lowest bits. It
// splits y into four quarters of five digits, by division by constants,
// and looks each quarter up in d6Quarters: four independent loads where
// reading the digits one by one is a chain of twenty dependent
// multiplications. TestPack6 checks it against division digit by digit.
func pack6(y uint64) uint64 {
	hi, low := y/p10, y%p10
	return uint64(d6Quarters[hi/p5]) | uint64(d6Quarters[hi%p5])<<15 |
		uint64(d6Quarters[low/p5])<<30 | uint64(d6Quarters[low%p5])<<45
}

// d6Quarters[q] holds the five base-6 digits of q < 6^5 as D6 results,
// three bits each, the most significant in the lowest bits (15.2 KiB).
var d6Quarters = func() (t [p5]uint16) {
	for q := range p5 {
		x := q
		for i := range 5 {
			t[q] |= uint16(x%6+1) << (3 * (4 - i))
			x /= 6
		}
	}
	return t
}()

// Fields of the D6 pool, in octal (one digit a result): evenFields covers
// the results at even places, carryBits the bit just above each of them,
// and ones a 1 in each even place.
const (
	evenFields = 0o07070707070707070707
	carryBits  = 0o10101010101010101010
	evenOnes   = 0o01010101010101010101
)

// Count draws n D6 results and returns how many of them are at least need.
// It draws exactly the results n calls of D6 would return, in the same
// order, so a caller that only counts successes (a bucket of to-hit dice,
// then one of to-wound dice for the hits) rolls the same experiment as one
// that rolls die by die, and leaves the generator where they would. A need
// of 1 or less counts every die; one of 7 or more counts none. n of 0 or
// less draws nothing and counts 0.
//
// The results are counted twenty at a time, straight from the pool: a
// result v is at least need when v + 8 - need carries out of its three
// bits. Adding 8 - need to every other result at once leaves a free bit
// above each, so the carries land there and one popcount counts them.
func (r *Rand) Count(n, need int) int {
	add := uint64(8-min(max(need, 1), 7)) * evenOnes
	if uint(n) < pool6 && r.pool>>(3*n) != 0 { // the pool holds more than n
		sel := r.pool & (1<<(3*n) - 1)
		r.pool >>= 3 * n
		return countFields(sel, add)
	}
	return r.countSlow(n, add)
}

// countSlow is Count when the pool holds n results or fewer: it counts
// what is left, then whole fresh pools, then the first results of one
// more, refilling only for results it takes. An empty field counts nothing
// (0 + add stays within its three bits).
func (r *Rand) countSlow(n int, add uint64) int {
	if n <= 0 {
		return 0
	}
	count := countFields(r.pool, add)
	n -= (bits.Len64(r.pool) + 2) / 3 // the results that were left
	r.pool = 0
	for ; n >= pool6; n -= pool6 {
		r.refill6()
		count += countFields(r.pool, add)
		r.pool = 0
	}
	if n > 0 {
		r.refill6()
		count += countFields(r.pool&(1<<(3*n)-1), add)
		r.pool >>= 3 * n
	}
	return count
}

// countFields counts the results in sel that carry when add is added.
func countFields(sel, add uint64) int {
	even := (sel&evenFields + add) & carryBits
	odd := ((sel>>3)&evenFields + add) & carryBits
	return bits.OnesCount64(even | odd<<3)
}

// D3 returns a D3 result, 1 to 3, read as a D6 halved and rounded up, the
// way the rules define it.
func (r *Rand) D3() int {
	return (r.D6() + 1) >> 1
}

// Die returns a result of a fair die with the given number of sides, 1 to
// sides. Six-sided dice come from the D6 pool.
func (r *Rand) Die(sides int) int {
	if sides == 6 {
		return r.D6()
	}
	return r.IntN(sides) + 1
}
