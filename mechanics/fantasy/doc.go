// Package fantasy implements the Warhammer Armies Project rules (a community
// edition of Warhammer Fantasy Battles) that hammersim simulates: movement
// rolls for charges, failed charges, flees and pursuits (Swiftstride, Random
// Movement, Fly, Tunnellers), and the special rules in [Catalogue].
//
// Sources: the rules texts in the project's seeds and the core tables in
// RULES-FACTS.md. Where the texts leave a point open, the choice is an
// option with the default those facts give, named in the doc comment of the
// code that uses it.
//
// The package does no I/O. Every function that rolls takes a *dice.Rand;
// values are immutable after construction and safe to share.
package fantasy
