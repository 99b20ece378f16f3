// Package heresy holds the questions a scenario can ask in the heresy
// ruleset (Horus Heresy 2nd edition): unit and weapon profiles as printed
// on datasheets, read into mechanics/heresy units, and the shooting and
// assault questions with the models the engine runs and their metrics.
//
// It sits beside the other rulesets under scenarios/ because it is the
// scenario format's vocabulary for one game: it imports scenarios (nodes,
// decoder, sweeps) and mechanics/heresy (the rules), and turns one into
// the other. The rules themselves, and the exact values they imply, stay
// in mechanics/heresy, which knows nothing of files.
//
// It must never import another ruleset (mechanics/fantasy,
// scenarios/fantasy), reports, or cmd. Ruleset returns what a
// scenarios.Registry needs; the program lists it beside the others.
package heresy
