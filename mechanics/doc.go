// Package mechanics holds what the rulesets share: reading a special rule as
// it is printed on a unit card ("Impact Hits (D6+1)", "Fly (9)"), and the
// procedures of the games built on dice (see the sub-packages). It does no
// I/O and keeps no state: every function that rolls takes its generator.
//
// Sub-packages: dice (expressions, generator, exact distributions), fantasy
// (the Warhammer Armies Project rules) and heresy (Horus Heresy 2nd edition).
//
// mechanics and its sub-packages must never import sim, scenarios, reports
// or cmd: the rules know nothing of files, flags, goroutines or output. The
// shared packages (this one and dice) import no ruleset, and a ruleset
// never imports another (docs/architecture.md).
package mechanics
