// Package heresy implements the Warhammer: The Horus Heresy, 2nd edition
// (HH2) rules that hammersim simulates, as a library with no I/O.
//
// What it covers:
//   - The shooting attack chain ([ShootingChain], [Chain]): to hit by
//     Ballistic Skill (re-rolls of 1 from BS 6, Snap Shots at BS 1), to
//     wound by the S vs T chart ([StandardWoundChart]), the single best of
//     armour (removed by AP equal or better), invulnerable and cover saves
//     ([BestSave]), one Damage Mitigation roll per unsaved wound at most
//     (Feel No Pain (X), the Stupefied roll; [Mitigation]), and Instant
//     Death with Eternal Warrior. Wounds go onto one model until it is
//     removed, the wounded one first ([Unit.TakeWound]).
//   - Shooting Attacks by a unit ([Attack]): Firing Protocols (X) weapon
//     choice ([Attack.Select]), and the Sentry Protocols target
//     ([ClosestTarget]).
//   - Lords of Profligacy and the Stupefied state ([Unit.Stupefy],
//     [Status], [StupefyChooser]), Fearless, Bulky (X), the Automated
//     Artillery sub-type (predicates on [Unit]), Morale checks, Pinning and
//     Regroup tests ([Unit.TakeTest]).
//   - A minimal close combat ([Fight]): strikes by Initiative, the
//     close-combat to-hit chart ([StandardWSChart]), combat resolution, the
//     loser's Morale check, Falling Back and Sweeping Advances.
//   - [Catalogue], the special rules as printed, for scenario files.
//
// Every chain has an exact counterpart computed without sampling: per-shot
// probabilities ([Chain.P], [HitRoll.P], [PassProbability]) and dice.Dist
// distributions of hits, wounds, unsaved wounds, wounds suffered after
// mitigation and casualties ([Chain.Dist], [Chain.Casualties],
// [Attack.Dist], [Attack.Casualties]), so that every estimate can be checked.
//
// Sources: the Horus Heresy seed text in the project's seeds (Automated
// Artillery, Bulky, Sentry Protocols, Firing Protocols, Lords of
// Profligacy, Fearless, Damage Mitigation) and the HH2 section of
// the core rules docs/heresy.md gives with their sources. Rules are paraphrased, never quoted.
// Where the texts leave a point open, the choice is a field of [Options]
// with its default in [DefaultOptions], and the field's comment says it is
// open.
//
// Rules of use: every function that rolls takes a *dice.Rand, which must be
// used by one goroutine at a time. [Attack] and [StupefyChooser] hold
// scratch space and must not be shared between goroutines either; once it
// has grown, rolling ([Chain.Roll], [Attack.Roll], [Fight], [Unit.TakeTest])
// and the expectations the policies use do not allocate. Profiles, weapons,
// charts and Options are plain values, safe to share once built. Units are
// mutable state owned by the caller.
package heresy
