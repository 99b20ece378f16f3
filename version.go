// Package hammersim is a Monte Carlo probability simulator for tabletop
// wargames. The packages below it hold the rules (mechanics), the engine
// (sim), the scenario format (scenarios) and the output (reports); the
// command is cmd/simulate.
package hammersim

// Version is the version of hammersim that every report carries.
const Version = "0.1.0"
