package heresy

import "hammersim/mechanics/dice"

// MitigationKind names the Damage Mitigation roll a model takes.
type MitigationKind uint8

const (
	NoMitigation MitigationKind = iota
	FeelNoPainRoll
	StupefiedRoll
	ShroudedRoll
)

func (k MitigationKind) String() string {
	switch k {
	case NoMitigation:
		return "none"
	case FeelNoPainRoll:
		return "Feel No Pain"
	case StupefiedRoll:
		return "Stupefied"
	case ShroudedRoll:
		return "Shrouded"
	}
	return "MitigationKind(?)"
}

// The Stupefied roll ignores an unsaved wound on a 6+, and units with
// Fearless add 1 to it, so they need 5+ (Lords of Profligacy rule text).
const (
	stupefiedNeed          = 6
	stupefiedFearlessBonus = 1
)

// Mitigation returns the Damage Mitigation roll a model of target takes
// against an unsaved wound, and which one; Impossible with NoMitigation when
// it has none. instantDeath says the attack has Instant Death.
//
// A model makes at most one Damage Mitigation roll per wound whatever rules
// it has (rule text), so with both it takes the better: Feel No Pain (X)
// needs X+; the Stupefied roll 6+, 5+ with Fearless. Neither is allowed
// against Instant Death: the Stupefied roll never (rule text), Feel No Pain
// unless Options.FNPVsInstantDeath. An Eternal Warrior hit by Instant Death
// counts as hit by Instant Death unless Options.MitigateBluntedInstantDeath.
// The Shrouded roll of the Evade Reaction (Status.Shrouded) counts as Feel
// No Pain does.
func Mitigation(target *Unit, instantDeath bool, o Options) (int, MitigationKind) {
	return mitigation(target, instantDeath, false, o)
}

// mitigation is Mitigation for an attack whose Instant Death, if it has
// it, comes only from its Strength (byStrength): against such an attack
// Options.StupefiedRollVsDoubleStrength allows the Stupefied roll. Feel No
// Pain keeps its own rule.
func mitigation(target *Unit, instantDeath, byStrength bool, o Options) (int, MitigationKind) {
	barred := instantDeath && !(target.EternalWarrior && o.MitigateBluntedInstantDeath)
	stupefiedBarred := barred && !(byStrength && o.StupefiedRollVsDoubleStrength)
	best, kind := Impossible, NoMitigation
	if target.FeelNoPain > 0 && (!barred || o.FNPVsInstantDeath) {
		best, kind = clampNeed(target.FeelNoPain), FeelNoPainRoll
	}
	if target.Shrouded > 0 && (!barred || o.FNPVsInstantDeath) && clampNeed(target.Shrouded) < best {
		best, kind = clampNeed(target.Shrouded), ShroudedRoll
	}
	if target.IsStupefied() && !stupefiedBarred {
		need := stupefiedNeed
		if target.Fearless {
			need -= stupefiedFearlessBonus
		}
		if need = clampNeed(need); need < best {
			best, kind = need, StupefiedRoll
		}
	}
	return best, kind
}

// Stage is a step of the attack chain, counted per shot (or blow).
type Stage uint8

const (
	// StageShots counts shots fired.
	StageShots Stage = iota
	// StageHits counts hits.
	StageHits
	// StageWounds counts successful wound rolls.
	StageWounds
	// StageUnsaved counts wounds not saved.
	StageUnsaved
	// StageSuffered counts unsaved wounds not ignored by a Damage
	// Mitigation roll: the wounds the target suffers.
	StageSuffered
)

func (s Stage) String() string {
	switch s {
	case StageShots:
		return "shots"
	case StageHits:
		return "hits"
	case StageWounds:
		return "wounds"
	case StageUnsaved:
		return "unsaved wounds"
	case StageSuffered:
		return "wounds suffered"
	}
	return "Stage(?)"
}

// Chain is one weapon's attack against one target with every roll settled:
// what each shot or blow needs at each step, and what the weapon's special
// rules change. Build one with ShootingChain or MeleeChain; rebuild it when
// the firer or the target changes state.
//
// The steps, each with the rules that change it (sources in docs/heresy.md):
//   - To Hit: Hit (Ballistic or Weapon Skill; Twin-linked re-rolls every
//     miss; BS 6+ re-rolls 1s); MasterCrafted re-rolls one miss per bearer;
//     Blast and Template hit without a roll (AutoHits, WallOfDeath), so
//     Master-crafted gives them nothing; GetsHot
//     wounds the firer on every To Hit roll that ends on a 1;
//   - To Wound: ToWound (the S vs T chart, Fleshbane 2+, Poisoned X+);
//     RerollWounds (Shred; Poisoned in close combat when the wielder's or
//     the weapon's S > T; a Twin-linked Template; Armourbane against a
//     Dreadnought or Automata target); a To Wound
//     roll of Rending or more wounds and is AP2, of Breaching or more is AP2,
//     of Murderous or more is Instant Death;
//   - saves: Save, or SaveAP2 for an AP2 wound; Brutal (X) makes each wound
//     X wounds saved one by one;
//   - Damage Mitigation: Mitigate, or MitigateID for a wound with Instant
//     Death from Murderous Strike;
//   - damage: one wound, D3 with Destroyer, or the whole model (Slays,
//     SlaysMurderous); Deflagrate then scores one more automatic hit per
//     unsaved wound, resolved as Deflagrate says (Defl).
type Chain struct {
	Hit HitRoll
	// MasterCrafted: each bearer re-rolls one failed To Hit roll (one not
	// re-rolled already) per attack.
	MasterCrafted bool
	// AutoHits is the hits each shot scores with no To Hit roll (Blast,
	// Template); 0 when shots roll To Hit.
	AutoHits int
	// WallOfDeath: each shot is D3 automatic hits (a Template weapon's Wall
	// of Death).
	WallOfDeath bool
	// GetsHot: To Hit rolls that end on a 1 (for weapons that roll no To Hit,
	// a D6 per shot, whose 1 also loses the shot) wound the firer, who saves
	// on HotSave and mitigates on HotMitigate. HotReroll: that D6 of 1 is
	// re-rolled, and only the re-roll counts (a firer that may re-roll its
	// To Hit rolls, rulebook p.239, with Options.HotRerollNoToHit).
	GetsHot              bool
	HotReroll            bool
	HotSave, HotMitigate int

	// Strength is the Strength the attack wounds with.
	Strength int
	// ToWound is the score to wound; Impossible when it cannot.
	ToWound int
	// RerollWounds: a To Wound roll that does not wound is re-rolled once.
	RerollWounds bool
	// Rending, Breaching and Murderous are the To Wound scores of those
	// rules; 0 when the weapon does not have them.
	Rending, Breaching, Murderous int
	// Brutal is the wounds each successful To Wound roll becomes (1 without
	// Brutal).
	Brutal int
	// Destroyer: each wound suffered costs the model D3 wounds.
	Destroyer bool

	// Save is the save the target takes, Impossible when none.
	Save     int
	SaveKind SaveKind
	// SaveAP2 is the save it takes against an AP2 wound (Rending, Breaching).
	SaveAP2     int
	SaveAP2Kind SaveKind
	// Mitigate is the Damage Mitigation roll the target takes, Impossible
	// when none.
	Mitigate     int
	MitigateKind MitigationKind
	// MitigateID is the Damage Mitigation roll against a wound that has
	// Instant Death from Murderous Strike.
	MitigateID     int
	MitigateIDKind MitigationKind
	// InstantDeath: the attack has Instant Death, from the weapon's rule or
	// from a Strength of at least double the target's Toughness.
	InstantDeath bool
	// Slays: each wound suffered removes a whole model (Instant Death on a
	// model without Eternal Warrior, which loses one wound instead).
	Slays bool
	// SlaysMurderous: a Murderous Strike wound suffered removes the model.
	SlaysMurderous bool

	// Deflagrate: after the weapon's wounds, one more automatic hit per
	// unsaved wound, resolved by Defl.
	Deflagrate bool
	Defl       DeflagrateHit

	// Concussive is X of Concussive (X); 0 without it.
	Concussive int
}

// DeflagrateHit is how a Deflagrate hit is resolved: the weapon's Strength
// and AP with none of the attacker's special rules (rulebook p.237), one
// wound each.
type DeflagrateHit struct {
	ToWound, Save, Mitigate int
	Slays                   bool
}

// plain reports whether the chain has no rule beyond the core ones, so
// that each hit is one wound roll, one save and one mitigation roll of the
// same kind (the fast path of Roll).
func (c *Chain) plain() bool {
	return !c.MasterCrafted && c.AutoHits == 0 && !c.WallOfDeath && !c.GetsHot && !c.RerollWounds &&
		c.Rending == 0 && c.Breaching == 0 && c.Murderous == 0 && c.Brutal <= 1 && !c.Destroyer && !c.Deflagrate
}

// ShootingChain settles a Shooting Attack with weapon w by a model of firer
// against target, which takes its Status.Cover unless the weapon ignores
// cover. The firer shoots at its ShootingBS (Snap Shots while Stupefied).
func ShootingChain(firer *Unit, w *Weapon, target *Unit, o Options) Chain {
	return FiringChain(firer, w, target, w.Fire(firer, Situation{}), o)
}

// FiringChain settles weapon w fired by a model of firer at target as f
// says (Snap Shots, Wall of Death; see Weapon.Fire). A weapon that is not
// fired still gets its chain: the caller fires no shots with it.
func FiringChain(firer *Unit, w *Weapon, target *Unit, f Firing, o Options) Chain {
	cover := target.Cover
	if w.IgnoresCover || w.Template {
		cover = 0 // Template: Ignores Cover (rulebook p.248)
	}
	bs := firer.ShootingBS()
	if f.Snap {
		bs = min(bs, SnapShotBS)
	}
	c := settle(ShootingHit(bs, o), w.Strength(firer, o), w, target, cover, false, o)
	c.RerollWounds = c.RerollWounds || w.armourbaneRerolls(target, false, f.HalfRange)
	rerolls := c.Hit.RerollFailed || c.Hit.Reroll > 0 // Twin-linked, BS 6 and above
	switch {
	case f.WallOfDeath:
		c.WallOfDeath = true
	case w.Blast > 0:
		c.AutoHits = o.blastHits(w.Blast, target.Models)
	case w.Template:
		c.AutoHits = o.templateHits(target.Models)
	}
	if c.AutoHits > 0 || c.WallOfDeath {
		// No To Hit roll, so nothing for Master-crafted to re-roll; the
		// Hit is read only by GetsHot.
		c.Hit = HitRoll{Need: 1}
		c.MasterCrafted = false
	}
	if w.TwinLinked && w.Template {
		// A Template rolls no To Hit: Twin-linked re-rolls its failed To
		// Wound rolls instead (rulebook p.249), Wall of Death included.
		c.RerollWounds = true
	}
	if w.GetsHot {
		c.GetsHot = true
		// A weapon that rolls no To Hit re-rolls its Gets Hot 1 only
		// with Options.HotRerollNoToHit, when the firer may re-roll its
		// To Hit rolls, Twin-linked or BS 6 and above (rulebook p.239);
		// Master-crafted re-rolls one failed To Hit roll, which such a
		// weapon never makes.
		c.HotReroll = o.HotRerollNoToHit && rerolls && (c.AutoHits > 0 || c.WallOfDeath)
		c.HotSave, _ = BestSave(firer.Save, firer.Invuln, 0, w.AP)
		// Neither cover nor a Shrouded roll helps against Gets Hot (rulebook
		// p.239); Feel No Pain and the Stupefied roll do.
		self := *firer
		self.Shrouded = 0
		c.HotMitigate, _ = Mitigation(&self, false, o)
	}
	return c
}

// MeleeChain settles close-combat blows with weapon w by a model of
// attacker against defender. Cover saves are not taken in close combat.
// Poisoned re-rolls failed To Wound rolls here when the wielder's Strength
// or the weapon's is above the defender's Toughness (rulebook p.244).
func MeleeChain(attacker *Unit, w *Weapon, defender *Unit, o Options) Chain {
	c := settle(MeleeHit(attacker.WS, defender.WS, o), w.Strength(attacker, o), w, defender, 0, true, o)
	if w.Poisoned > 0 && attacker.Strength() > defender.T {
		c.RerollWounds = true
	}
	c.RerollWounds = c.RerollWounds || w.armourbaneRerolls(defender, true, false)
	return c
}

// settle fills in the wound, save and mitigation steps and the weapon's
// rules. Instant Death (rulebook p.242): a Strength of double the Toughness
// or more kills outright, as does a weapon with the rule; Eternal Warrior
// makes it cost one wound instead (p.237). The Stupefied roll is barred
// against both by default; Options.StupefiedRollVsDoubleStrength allows it
// where the Instant Death comes only from the Strength.
func settle(hit HitRoll, s int, w *Weapon, target *Unit, cover int, melee bool, o Options) Chain {
	if w.TwinLinked {
		hit.RerollFailed, hit.Reroll = true, 0
	}
	c := Chain{Hit: hit, Strength: s, Brutal: 1}
	c.MasterCrafted = w.MasterCrafted && !hit.RerollFailed && hit.Reroll == 0
	chart := WoundNeed(s, target.T, o)
	c.ToWound = chart
	if w.Fleshbane {
		c.ToWound = 2 // p.238
	}
	if w.Poisoned > 0 {
		c.ToWound = min(c.ToWound, clampNeed(w.Poisoned)) // p.244; see Options.PoisonedReplacesChart
		if o.PoisonedReplacesChart && !w.Fleshbane {
			c.ToWound = clampNeed(w.Poisoned)
		}
		c.RerollWounds = melee && s > target.T
	}
	c.RerollWounds = c.RerollWounds || w.Shred
	c.Rending, c.Breaching, c.Murderous = w.Rending, w.Breaching, w.MurderousStrike
	c.Brutal = max(w.Brutal, 1)
	c.Destroyer = w.Type == Destroyer
	c.Concussive = w.Concussive
	c.Save, c.SaveKind = BestSave(target.Save, target.Invuln, cover, w.AP)
	c.SaveAP2, c.SaveAP2Kind = c.Save, c.SaveKind
	if w.Rending > 0 || w.Breaching > 0 {
		ap2 := 2
		if w.AP != APNone && w.AP < ap2 {
			ap2 = w.AP
		}
		c.SaveAP2, c.SaveAP2Kind = BestSave(target.Save, target.Invuln, cover, ap2)
	}
	coreID := target.T > 0 && s >= 2*target.T
	c.InstantDeath = w.InstantDeath || coreID
	c.Slays = c.InstantDeath && !target.EternalWarrior
	c.SlaysMurderous = !target.EternalWarrior
	c.Mitigate, c.MitigateKind = mitigation(target, c.InstantDeath, !w.InstantDeath, o)
	c.MitigateID, c.MitigateIDKind = c.Mitigate, c.MitigateKind
	if w.MurderousStrike > 0 {
		c.MitigateID, c.MitigateIDKind = Mitigation(target, true, o)
	}
	if w.Deflagrate {
		c.Deflagrate = true
		c.Defl = DeflagrateHit{ToWound: chart, Save: c.Save, Slays: coreID && !target.EternalWarrior}
		c.Defl.Mitigate, _ = mitigation(target, coreID, true, o) // no rule of the weapon's: Instant Death by Strength only
	}
	return c
}

// wounds reports whether a To Wound roll of d wounds: the score needed, or
// Rending's score (which wounds whatever the Toughness).
func (c *Chain) wounds(d int) bool {
	return d > 1 && (d >= c.ToWound || (c.Rending > 0 && d >= c.Rending))
}

// woundRoll rolls one To Wound roll, re-rolling it once if it fails and
// the chain re-rolls failed wounds, and returns the die it ends on.
func (c *Chain) woundRoll(r *dice.Rand) int {
	d := r.D6()
	if c.RerollWounds && !c.wounds(d) {
		d = r.D6()
	}
	return d
}

// Tally counts what an attack did. Counts are of dice outcomes: shots fired
// after the target is destroyed still count as hits and wounds, and
// Suffered counts wounds that found no model left.
type Tally struct {
	Shots, Hits, Wounds, Unsaved, Suffered int
	// Casualties counts models removed.
	Casualties int
	// Lost counts the Wounds the target's models lost: each wound suffered
	// counts what it took off the model it landed on, the Wounds that
	// model had left at most (all of them for a wound that slays), and
	// nothing once no model is left. Brutal's wounds past the model's last
	// and wounds that found no model are in Suffered, not here.
	Lost int
	// Hot counts Gets Hot wounds the firer suffered (after its save and
	// Damage Mitigation roll).
	Hot int
	// Concussive is the highest X of a Concussive (X) weapon that wounded
	// the target (saved or not); 0 when none did.
	Concussive int
}

// Add adds the counts of t2 to t.
func (t *Tally) Add(t2 Tally) {
	t.Shots += t2.Shots
	t.Hits += t2.Hits
	t.Wounds += t2.Wounds
	t.Unsaved += t2.Unsaved
	t.Suffered += t2.Suffered
	t.Casualties += t2.Casualties
	t.Lost += t2.Lost
	t.Hot += t2.Hot
	t.Concussive = max(t.Concussive, t2.Concussive)
}

// At returns the count for stage s.
func (t Tally) At(s Stage) int {
	switch s {
	case StageShots:
		return t.Shots
	case StageHits:
		return t.Hits
	case StageWounds:
		return t.Wounds
	case StageUnsaved:
		return t.Unsaved
	case StageSuffered:
		return t.Suffered
	}
	return 0
}

// Roll resolves n shots (or blows) by one bearer against target and
// applies the wounds suffered to it. It does not allocate.
func (c *Chain) Roll(r *dice.Rand, n int, target *Unit) Tally {
	var t Tally
	c.rollHits(r, n, &t)
	c.Resolve(r, &t, target)
	return t
}

// RollBearers resolves bearers models making n shots (or blows) each, as
// Roll does; rules that count per bearer (Master-crafted) apply to each.
func (c *Chain) RollBearers(r *dice.Rand, bearers, n int, target *Unit) Tally {
	var t Tally
	if c.MasterCrafted {
		for range bearers {
			c.rollHits(r, n, &t)
		}
	} else {
		c.rollHits(r, bearers*n, &t)
	}
	c.Resolve(r, &t, target)
	return t
}

// rollHits rolls n shots by one bearer to hit, adding shots, hits and Gets
// Hot wounds to t.
func (c *Chain) rollHits(r *dice.Rand, n int, t *Tally) {
	t.Shots += n
	if c.AutoHits > 0 || c.WallOfDeath {
		for range n {
			if c.GetsHot && r.D6() == 1 && (!c.HotReroll || r.D6() == 1) {
				c.hotWound(r, t)
				continue
			}
			if c.WallOfDeath {
				t.Hits += r.D3()
			} else {
				t.Hits += c.AutoHits
			}
		}
		return
	}
	if c.Hit.Need >= Impossible {
		return
	}
	if !c.GetsHot && !c.MasterCrafted {
		for range n {
			if c.Hit.Roll(r) {
				t.Hits++
			}
		}
		return
	}
	ones, missed := 0, 0
	for range n {
		hit, one := c.Hit.roll(r)
		switch {
		case hit:
			t.Hits++
		case one:
			ones++
			missed++
		default:
			missed++
		}
	}
	if c.MasterCrafted && missed > 0 {
		// The bearer re-rolls one miss, a 1 when it has one (a 1 re-rolled
		// no longer counts for Gets Hot).
		if ones > 0 {
			ones--
		}
		switch d := r.D6(); {
		case d >= c.Hit.Need:
			t.Hits++
		case d == 1:
			ones++
		}
	}
	if c.GetsHot {
		for range ones {
			c.hotWound(r, t)
		}
	}
}

// hotWound resolves one Gets Hot wound on the firer: its save, then its
// Damage Mitigation roll.
func (c *Chain) hotWound(r *dice.Rand, t *Tally) {
	if c.HotSave < Impossible && r.D6() >= c.HotSave {
		return
	}
	if c.HotMitigate < Impossible && r.D6() >= c.HotMitigate {
		return
	}
	t.Hot++
}

// Resolve resolves t.Hits hits against target and applies the wounds
// suffered to it, adding to t's counts. Without special rules, dice are
// rolled step by step as at the table: every wound roll, then the saves,
// then one Damage Mitigation roll per unsaved wound, each wound going onto
// the target as it stands. With them, each hit is resolved in turn from
// its wound roll to its damage, Murderous Strike's wounds first (see
// resolveMurderousFirst), and Deflagrate's hits follow the weapon's.
// It does not allocate.
func (c *Chain) Resolve(r *dice.Rand, t *Tally, target *Unit) {
	before := t.Wounds
	if c.plain() {
		c.resolvePlain(r, t, target)
	} else {
		unsaved := 0
		if c.murderousFirst(target) {
			unsaved = c.resolveMurderousFirst(r, t, target)
		} else {
			for range t.Hits {
				unsaved += c.resolveHit(r, t, target)
			}
		}
		if c.Deflagrate {
			c.resolveDeflagrate(r, unsaved, t, target)
		}
	}
	if c.Concussive > 0 && t.Wounds > before {
		t.Concussive = max(t.Concussive, c.Concussive)
	}
}

func (c *Chain) resolvePlain(r *dice.Rand, t *Tally, target *Unit) {
	wounds := 0
	if c.ToWound < Impossible {
		for range t.Hits {
			if r.D6() >= c.ToWound {
				wounds++
			}
		}
	}
	unsaved := wounds
	if c.Save < Impossible {
		for range wounds {
			if r.D6() >= c.Save {
				unsaved--
			}
		}
	}
	t.Wounds += wounds
	t.Unsaved += unsaved
	for range unsaved {
		if c.Mitigate < Impossible && r.D6() >= c.Mitigate {
			continue
		}
		t.Suffered++
		removed, lost := target.takeWounds(1, c.Slays)
		t.Lost += lost
		if removed {
			t.Casualties++
		}
	}
}

// murderousFirst reports whether the order of the chain's wounds against
// target has to put Murderous Strike's first. Against models of one Wound
// it does not: every wound that is suffered removes one model whatever it
// is, so the order changes nothing and the hits are resolved as rolled.
func (c *Chain) murderousFirst(target *Unit) bool {
	return c.Murderous > 0 && target.W > 1
}

// resolveMurderousFirst resolves t.Hits hits with Murderous Strike's
// wounds saved and applied before the others (rulebook p.243) and returns
// the unsaved wounds. Every wound roll is made first: a Murderous Strike
// wound is resolved at once; the others wait, counted by the die each
// ended on, and are then resolved in an order drawn uniformly at random.
// The rolls are independent, so every order of a given set of dice was
// equally likely as rolled: the waiting wounds land as they would have in
// the order rolled, behind the Murderous ones. Where every waiting wound
// is saved alike (no Rending or Breaching), their order changes nothing
// and no order is drawn.
func (c *Chain) resolveMurderousFirst(r *dice.Rand, t *Tally, target *Unit) int {
	var waiting [7]int // by the die the wound roll ended on
	n, unsaved := 0, 0
	for range t.Hits {
		d := c.woundRoll(r)
		switch {
		case !c.wounds(d):
		case d >= c.Murderous:
			unsaved += c.resolveWound(r, d, t, target)
		default:
			waiting[d]++
			n++
		}
	}
	shuffle := c.Rending > 0 || c.Breaching > 0
	for d := 2; n > 0; n-- {
		if shuffle {
			k := r.IntN(n)
			for d = 2; k >= waiting[d]; d++ {
				k -= waiting[d]
			}
		} else {
			for waiting[d] == 0 {
				d++
			}
		}
		waiting[d]--
		unsaved += c.resolveWound(r, d, t, target)
	}
	return unsaved
}

// resolveHit resolves one hit from its wound roll to its damage and returns
// its unsaved wounds.
func (c *Chain) resolveHit(r *dice.Rand, t *Tally, target *Unit) int {
	d := c.woundRoll(r)
	if !c.wounds(d) {
		return 0
	}
	return c.resolveWound(r, d, t, target)
}

// resolveWound resolves a wound roll that ended on d and wounded, from its
// saves to its damage, and returns its unsaved wounds. Brutal's wounds are
// saved one by one and land on the same model; what is left when it is
// removed is lost.
func (c *Chain) resolveWound(r *dice.Rand, d int, t *Tally, target *Unit) int {
	save, mit, slays := c.Save, c.Mitigate, c.Slays
	if (c.Rending > 0 && d >= c.Rending) || (c.Breaching > 0 && d >= c.Breaching) {
		save = c.SaveAP2
	}
	if c.Murderous > 0 && d >= c.Murderous {
		mit, slays = c.MitigateID, c.SlaysMurderous
	}
	unsaved, suffered, dmg := 0, 0, 0
	for range c.Brutal {
		t.Wounds++
		if save < Impossible && r.D6() >= save {
			continue
		}
		unsaved++
		if mit < Impossible && r.D6() >= mit {
			continue
		}
		suffered++
		if c.Destroyer {
			dmg += r.D3()
		} else {
			dmg++
		}
	}
	t.Unsaved += unsaved
	t.Suffered += suffered
	if suffered > 0 {
		removed, lost := target.takeWounds(dmg, slays)
		t.Lost += lost
		if removed {
			t.Casualties++
		}
	}
	return unsaved
}

// resolveDeflagrate resolves n Deflagrate hits.
func (c *Chain) resolveDeflagrate(r *dice.Rand, n int, t *Tally, target *Unit) {
	h := &c.Defl
	t.Hits += n
	for range n {
		if h.ToWound >= Impossible || r.D6() < h.ToWound {
			continue
		}
		t.Wounds++
		if h.Save < Impossible && r.D6() >= h.Save {
			continue
		}
		t.Unsaved++
		if h.Mitigate < Impossible && r.D6() >= h.Mitigate {
			continue
		}
		t.Suffered++
		removed, lost := target.takeWounds(1, h.Slays)
		t.Lost += lost
		if removed {
			t.Casualties++
		}
	}
}

// nonNegative folds the mass of negative values onto 0: a negative number of
// shots fires none.
func nonNegative(d dice.Dist) dice.Dist {
	if d.Min >= 0 {
		return d
	}
	return d.Map(func(v int) int { return max(v, 0) })
}

// trim drops the zero-probability values above the last possible one.
func trim(p []float64) dice.Dist {
	hi := len(p)
	for hi > 1 && p[hi-1] == 0 {
		hi--
	}
	return dice.Dist{Min: 0, P: p[:hi]}
}
