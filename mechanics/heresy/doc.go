// Package heresy implements the Warhammer: The Horus Heresy, 2nd edition
// (HH2) rules that hammersim simulates, as a library with no I/O.
//
// What it covers:
//   - The attack chain ([ShootingChain], [FiringChain], [MeleeChain],
//     [Chain]): to hit by Ballistic Skill (re-rolls of 1 from BS 6, Snap
//     Shots at BS 1) or Weapon Skill ([StandardWSChart]), to wound by the S
//     vs T chart ([StandardWoundChart]), the single best of armour (removed
//     by AP equal or better), invulnerable and cover saves ([BestSave]), one
//     Damage Mitigation roll per unsaved wound at most (Feel No Pain (X), the
//     Stupefied roll, Evade's Shrouded roll; [Mitigation]), Instant Death
//     with Eternal Warrior, and the weapon rules along it: Twin-linked,
//     Master-crafted, Gets Hot, Blast and Template (hits against N models),
//     Wall of Death, Fleshbane, Poisoned, Shred, Armourbane (by the
//     target's [UnitType]), Rending, Breaching,
//     Murderous Strike, Brutal, Destroyer, Deflagrate, Concussive.
//   - Weapon types as printed ([ParseType], [WeaponType]) and how a weapon
//     fires in a [Situation] ([Weapon.Fire]): range, half range for Rapid
//     Fire, Heavy after moving, Ordnance, no Snap Shots for Blast.
//   - Shooting Attacks by a unit ([Attack]): Firing Protocols (X) weapon
//     choice ([Attack.Select]), Ordnance firing alone, two Pistols, the
//     Gets Hot wounds the firing unit suffers ([Attack.Fire], exactly
//     with what the attack does: [Attack.HotStates]), and the Sentry
//     Protocols target ([ClosestTarget]).
//   - Lords of Profligacy and the Stupefied state ([Unit.Stupefy],
//     [Status], [StupefyChooser]), Fearless, Fear (X), Bulky (X), the
//     Automated Artillery sub-type (predicates on [Unit]), Reactions
//     ([Unit.CanReact]), Morale checks, Pinning and Regroup tests
//     ([Unit.TakeTest]).
//   - Charges ([Charge], [ChargeRoll], [ChargeDisordered]) with Overwatch
//     and Disordered charges (no bonus Attack, no Furious Charge), and a
//     round of close combat ([Fight]): strikes by Initiative, combat
//     resolution, the loser's Morale check (Fear, Our Weapons Are Useless),
//     Falling Back and Sweeping Advances.
//   - [Catalogue], the special rules as printed, for scenario files.
//
// Every chain has an exact counterpart computed without sampling: per-shot
// probabilities ([Chain.P], [HitRoll.P], [PassProbability]) and dice.Dist
// distributions of hits, wounds, unsaved wounds, wounds suffered after
// mitigation and casualties ([Chain.Dist], [Chain.Casualties],
// [Attack.Dist], [Attack.Casualties]), so that every estimate can be checked.
// [ExactShooting] and [ExactAssault] give every quantity of a Shooting
// Attack and of a charge and combat; [ShootingExactWork] and
// [AssaultExactWork] estimate beforehand the steps they take, so that a
// caller can skip those past [MaxExactWork].
//
// Sources: the HH2 special rules texts this project implements (Automated
// Artillery, Bulky, Sentry Protocols, Firing Protocols, Lords of
// Profligacy, Fearless, Damage Mitigation), and for the core rules and the
// weapon rules the rulebook pages and guides docs/heresy.md lists. Rules
// are paraphrased, never quoted.
// Where the texts leave a point open, the choice is a field of [Options]
// with its default in [DefaultOptions], and the field's comment says it is
// open.
//
// Rules of use: every function that rolls takes a *dice.Rand, which must be
// used by one goroutine at a time. [Attack] and [StupefyChooser] hold
// scratch space and must not be shared between goroutines either; once it
// has grown, rolling ([Chain.Roll], [Attack.Roll], [Attack.Fire], [Fight], [Charge],
// [Unit.TakeTest])
// and the expectations the policies use do not allocate. Profiles, weapons,
// charts and Options are plain values, safe to share once built. Units are
// mutable state owned by the caller.
package heresy
