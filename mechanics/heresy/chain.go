package heresy

import "hammersim/mechanics/dice"

// Weapon is a weapon profile, ranged or close combat.
type Weapon struct {
	Name string
	// Shots is the number of shots each model fires with it; the zero Expr
	// means one. Close combat ignores it (models strike their Attacks).
	Shots dice.Expr
	// S is the weapon's Strength; 0 means it uses the wielder's Strength
	// ("User"), plus StrengthBonus.
	S int
	// StrengthBonus is added to the wielder's Strength when S is 0 ("+1").
	StrengthBonus int
	// AP is the armour penetration, APNone for "-".
	AP int
	// InstantDeath: the weapon has the Instant Death special rule.
	InstantDeath bool
	// IgnoresCover: no cover save may be taken against it.
	IgnoresCover bool
}

// oneShot is what the zero Weapon.Shots means.
var oneShot = dice.Const(1)

func (w *Weapon) shots() dice.Expr {
	if w.Shots.IsZero() {
		return oneShot
	}
	return w.Shots
}

// Strength is the weapon's Strength in the hands of user. Stupefied raises
// the user's Strength characteristic by 1, which weapons using it carry;
// fixed-Strength weapons gain it only with Options.StupefiedFixedStrength.
func (w *Weapon) Strength(user *Unit, o Options) int {
	if w.S == 0 {
		return user.Strength() + w.StrengthBonus
	}
	if o.StupefiedFixedStrength && user.IsStupefied() {
		return w.S + 1
	}
	return w.S
}

// MitigationKind names the Damage Mitigation roll a model takes.
type MitigationKind uint8

const (
	NoMitigation MitigationKind = iota
	FeelNoPainRoll
	StupefiedRoll
)

func (k MitigationKind) String() string {
	switch k {
	case NoMitigation:
		return "none"
	case FeelNoPainRoll:
		return "Feel No Pain"
	case StupefiedRoll:
		return "Stupefied"
	}
	return "MitigationKind(?)"
}

// The Stupefied roll ignores an unsaved wound on a 6+, and units with
// Fearless add 1 to it, so they need 5+ (Lords of Profligacy seed text).
const (
	stupefiedNeed          = 6
	stupefiedFearlessBonus = 1
)

// Mitigation returns the Damage Mitigation roll a model of target takes
// against an unsaved wound, and which one; Impossible with NoMitigation when
// it has none. instantDeath says the attack has Instant Death.
//
// A model makes at most one Damage Mitigation roll per wound whatever rules
// it has (seed text), so with both it takes the better: Feel No Pain (X)
// needs X+; the Stupefied roll 6+, 5+ with Fearless. Neither is allowed
// against Instant Death: the Stupefied roll never (seed text), Feel No Pain
// unless Options.FNPVsInstantDeath. An Eternal Warrior hit by Instant Death
// counts as hit by Instant Death unless Options.MitigateBluntedInstantDeath.
// Other Damage Mitigation rules (Shrouded (X)) are not implemented.
func Mitigation(target *Unit, instantDeath bool, o Options) (int, MitigationKind) {
	barred := instantDeath && !(target.EternalWarrior && o.MitigateBluntedInstantDeath)
	best, kind := Impossible, NoMitigation
	if target.FeelNoPain > 0 && (!barred || o.FNPVsInstantDeath) {
		best, kind = clampNeed(target.FeelNoPain), FeelNoPainRoll
	}
	if target.IsStupefied() && !barred {
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
// what each shot or blow needs at each step. Build one with ShootingChain or
// MeleeChain; rebuild it when the firer or the target changes state.
type Chain struct {
	Hit HitRoll
	// Strength is the Strength the attack wounds with.
	Strength int
	// ToWound is the score to wound; Impossible when it cannot.
	ToWound int
	// Save is the save the target takes, Impossible when none.
	Save     int
	SaveKind SaveKind
	// Mitigate is the Damage Mitigation roll the target takes, Impossible
	// when none.
	Mitigate     int
	MitigateKind MitigationKind
	// InstantDeath: the attack has Instant Death, from the weapon's rule or
	// from a Strength of at least double the target's Toughness.
	InstantDeath bool
	// Slays: each wound suffered removes a whole model (Instant Death on a
	// model without Eternal Warrior, which loses one wound instead).
	Slays bool
}

// ShootingChain settles a Shooting Attack with weapon w by a model of firer
// against target, which takes its Status.Cover unless the weapon ignores
// cover. The firer shoots at its ShootingBS (Snap Shots while Stupefied).
func ShootingChain(firer *Unit, w *Weapon, target *Unit, o Options) Chain {
	cover := target.Cover
	if w.IgnoresCover {
		cover = 0
	}
	return settle(ShootingHit(firer.ShootingBS(), o), w.Strength(firer, o), w, target, cover, o)
}

// MeleeChain settles close-combat blows with weapon w by a model of
// attacker against defender. Cover saves are not taken in close combat.
func MeleeChain(attacker *Unit, w *Weapon, defender *Unit, o Options) Chain {
	return settle(MeleeHit(attacker.WS, defender.WS, o), w.Strength(attacker, o), w, defender, 0, o)
}

// settle fills in the wound, save and mitigation steps. Instant Death
// (RULES-FACTS.md, HH2): a Strength of double the Toughness or more kills
// outright, as does a weapon with the rule; Eternal Warrior makes it cost one
// wound instead.
func settle(hit HitRoll, s int, w *Weapon, target *Unit, cover int, o Options) Chain {
	c := Chain{Hit: hit, Strength: s, ToWound: WoundNeed(s, target.T, o)}
	c.Save, c.SaveKind = BestSave(target.Save, target.Invuln, cover, w.AP)
	c.InstantDeath = w.InstantDeath || (target.T > 0 && s >= 2*target.T)
	c.Slays = c.InstantDeath && !target.EternalWarrior
	c.Mitigate, c.MitigateKind = Mitigation(target, c.InstantDeath, o)
	return c
}

// Step is the exact probability that a shot which reached the stage before
// s also passes s: P(hit), P(wound | hit), P(unsaved | wound) or
// P(suffered | unsaved); 1 for StageShots.
func (c *Chain) Step(s Stage) float64 {
	switch s {
	case StageHits:
		return c.Hit.P()
	case StageWounds:
		return pAtLeast(c.ToWound)
	case StageUnsaved:
		return 1 - pAtLeast(c.Save)
	case StageSuffered:
		return 1 - pAtLeast(c.Mitigate)
	}
	return 1
}

// P is the exact probability that one shot gets through stage s: the
// product of the steps up to it.
func (c *Chain) P(s Stage) float64 {
	p := 1.0
	for st := StageHits; st <= s; st++ {
		p *= c.Step(st)
	}
	return p
}

// Tally counts what an attack did. Counts are of dice outcomes: shots fired
// after the target is destroyed still count as hits and wounds, and
// Suffered counts wounds that found no model left.
type Tally struct {
	Shots, Hits, Wounds, Unsaved, Suffered int
	// Casualties counts models removed.
	Casualties int
}

// Add adds the counts of t2 to t.
func (t *Tally) Add(t2 Tally) {
	t.Shots += t2.Shots
	t.Hits += t2.Hits
	t.Wounds += t2.Wounds
	t.Unsaved += t2.Unsaved
	t.Suffered += t2.Suffered
	t.Casualties += t2.Casualties
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

// Roll resolves n shots (or blows) against target and applies the wounds
// suffered to it. Dice are rolled step by step as at the table: every hit
// roll, then every wound roll, then the saves, then one Damage Mitigation
// roll per unsaved wound, each wound going onto the target as it stands.
// It does not allocate.
func (c *Chain) Roll(r *dice.Rand, n int, target *Unit) Tally {
	t := Tally{Shots: n}
	if c.Hit.Need < Impossible {
		for range n {
			if c.Hit.Roll(r) {
				t.Hits++
			}
		}
	}
	if c.ToWound < Impossible {
		for range t.Hits {
			if r.D6() >= c.ToWound {
				t.Wounds++
			}
		}
	}
	t.Unsaved = t.Wounds
	if c.Save < Impossible {
		for range t.Wounds {
			if r.D6() >= c.Save {
				t.Unsaved--
			}
		}
	}
	for range t.Unsaved {
		if c.Mitigate < Impossible && r.D6() >= c.Mitigate {
			continue
		}
		t.Suffered++
		if target.TakeWound(c.Slays) {
			t.Casualties++
		}
	}
	return t
}

// Dist is the exact distribution of how many of the shots get through
// stage s, for a number of shots rolled on shots (dice.Const(n) for a fixed
// number): a mixture of binomials over the shots.
func (c *Chain) Dist(s Stage, shots dice.Expr) dice.Dist {
	sd := nonNegative(shots.Dist())
	return binomialMixture(sd.Min, sd.P, c.P(s))
}

// Casualties is the exact distribution of models removed from target by
// the shots, in closed form: with k wounds suffered, a slaying attack
// removes min(k, models); otherwise the wounded model goes after its wounds
// left, c, and each further W wounds remove one more model.
func (c *Chain) Casualties(shots dice.Expr, target *Unit) dice.Dist {
	k := c.Dist(StageSuffered, shots)
	return k.Map(func(k int) int { return casualtiesFrom(k, c.Slays, target) })
}

// casualtiesFrom is the number of models k wounds suffered remove from u.
func casualtiesFrom(k int, slays bool, u *Unit) int {
	if u.Models <= 0 || k <= 0 {
		return 0
	}
	if slays {
		return min(k, u.Models)
	}
	w := max(u.W, 1)
	left := w - u.Hurt
	if k < left {
		return 0
	}
	return min(u.Models, 1+(k-left)/w)
}

// nonNegative folds the mass of negative values onto 0: a negative number of
// shots fires none.
func nonNegative(d dice.Dist) dice.Dist {
	if d.Min >= 0 {
		return d
	}
	return d.Map(func(v int) int { return max(v, 0) })
}

// binomialMixture returns the distribution of successes when N trials,
// N distributed as P(N = min+i) = pn[i], each succeed with probability p.
// The binomial of n trials is built up one trial at a time, which stays
// exact and stable for any n (no powers that underflow).
func binomialMixture(nMin int, pn []float64, p float64) dice.Dist {
	nMax := nMin + len(pn) - 1
	if nMax < 0 {
		return dice.Point(0)
	}
	b := make([]float64, nMax+1) // binomial(n, p) for the current n
	out := make([]float64, nMax+1)
	b[0] = 1
	for n := 0; ; n++ {
		if n >= nMin {
			if w := pn[n-nMin]; w != 0 {
				for k := 0; k <= n; k++ {
					out[k] += w * b[k]
				}
			}
		}
		if n == nMax {
			break
		}
		for k := n + 1; k > 0; k-- {
			b[k] = b[k]*(1-p) + b[k-1]*p
		}
		b[0] *= 1 - p
	}
	return trim(out)
}

// trim drops the zero-probability values above the last possible one.
func trim(p []float64) dice.Dist {
	hi := len(p)
	for hi > 1 && p[hi-1] == 0 {
		hi--
	}
	return dice.Dist{Min: 0, P: p[:hi]}
}
