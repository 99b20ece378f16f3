// Package dice rolls the dice of tabletop wargames and computes their exact
// distributions.
//
// An [Expr] is a dice expression as players write it: "D6", "2D6+1", "D3+1",
// "3D6kh2", "3D6 discard lowest", "highest of 2D6", the Artillery dice
// ("artillery") and the Scatter dice ("scatter"). [Parse] reads one; every
// Expr can be rolled with a generator passed in ([Expr.Roll]) and has an exact
// distribution ([Expr.Dist]) computed by convolution and enumeration, never by
// sampling, so simulated estimates can always be checked against it.
//
// A [Query] is a question about dice as `simulate dice` takes it: a number
// ("10D6 count 4+ reroll failures", "D66", "D6!") or a condition ("2D6 >= 9
// and 3D6kh2 >= 10") over independent rolls, with an exact answer.
// [ParseQuery] documents its syntax. [Parse] names what only a Query reads
// when it refuses it, and [ParseSum] the Artillery and Scatter dice too,
// for places that add dice up.
//
// [Rand] is the random number generator every roll draws from. It is
// xoshiro256** seeded through SplitMix64 (see [Rand.Seed]); D6 results are cut
// from each 64-bit output twenty at a time without bias (see [Rand.D6]).
//
// Rules of use: a Rand must be used by one goroutine at a time; give each
// worker its own. An Expr is immutable after Parse and safe to share between
// goroutines. Rolling never allocates.
//
// It imports nothing else of this project.
package dice
