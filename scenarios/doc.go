// Package scenarios reads scenario files: the YAML format, strict
// validation with file:line:col errors, sweeps of any value into axes, the
// registry of rulesets and the questions they answer, and the built-in
// scenario library (library/*.yaml, embedded).
//
// It knows no game. A ruleset's package (scenarios/fantasy,
// scenarios/heresy) builds a *Ruleset: its rules catalogue and its
// questions, each a Question that decodes its mapping with a *Decoder and
// compiles it into sim models once the axes are known. The program hands
// the rulesets it supports to NewRegistry, in one ordinary list, and
// loads scenarios through the Registry.
//
// This package must never import a ruleset: not mechanics/fantasy,
// mechanics/heresy, nor scenarios/fantasy or scenarios/heresy (which
// import it). It imports mechanics (the rule catalogue types and dice),
// sim (the model and result types) and the YAML parser.
//
// A Decoder belongs to one load and is used by one goroutine; a Registry
// is read-only once made and may be shared. Loading is deterministic: the
// same file gives the same models, in the same order, and so the same
// results for a given seed and trial count.
package scenarios
