// Package hammersim is a Monte Carlo probability simulator for tabletop
// wargames. The packages below it hold the rules (mechanics), the engine
// (sim), the scenario format (scenarios) and the output (reports); the
// command is cmd/simulate.
//
// layers_test.go checks the arrows between them that docs/architecture.md
// forbids.
package hammersim
