// Package fantasy implements the Warhammer Armies Project rules (a community
// edition of Warhammer Fantasy Battles) that hammersim simulates: movement
// rolls for charges, failed charges, flees and pursuits (Swiftstride, Random
// Movement, Fly, Tunnellers), and the special rules in [Catalogue].
//
// Sources: the WAP unit cards and rulebook pages listed in docs/fantasy.md,
// with 8th edition's rules where WAP's were not found. Where the texts
// leave a point open, the choice is a field of Options with a documented
// default, named in the doc comment of the code that uses it.
//
// A Battle runs whole combats: Options.Rounds rounds, or until one side
// breaks, flees or is destroyed (at most MaxRounds). A trial allocates
// nothing once its State is made.
//
// The package does no I/O. Every function that rolls takes a *dice.Rand;
// values are immutable after construction and safe to share.
package fantasy
