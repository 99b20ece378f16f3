// Package scenariotest holds the checks every ruleset's tests run on its
// questions: positioned errors, estimates against exact values, and hot
// paths that allocate nothing. It is imported by tests only.
//
// It imports scenarios, sim and mechanics/dice, and never a ruleset.
package scenariotest
