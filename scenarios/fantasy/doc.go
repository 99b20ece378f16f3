// Package fantasy holds the questions a scenario can ask in the fantasy
// ruleset (Warhammer Armies Project): the unit card format read into
// mechanics/fantasy units, and the charge, pursuit and battle questions
// with the models the engine runs and the metrics they report.
//
// It sits beside the other rulesets under scenarios/ because it is the
// scenario format's vocabulary for one game: it imports scenarios (nodes,
// decoder, sweeps) and mechanics/fantasy (the rules), and turns one into
// the other. The rules themselves, and the exact values they imply, stay
// in mechanics/fantasy, which knows nothing of files.
//
// It must never import another ruleset (mechanics/heresy,
// scenarios/heresy), reports, or cmd. Ruleset returns what a
// scenarios.Registry needs; the program lists it beside the others.
package fantasy
