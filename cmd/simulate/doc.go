// Command simulate runs hammersim scenarios: Monte Carlo estimates of
// tabletop wargame odds, with exact values beside them where they exist.
//
// Run `simulate -h` for the commands and flags.
//
// It holds no game logic and no statistics: it parses flags, wires the
// scenarios -> sim -> reports path, and lists the rulesets it reads
// (rulesets.go). Nothing imports it.
package main
