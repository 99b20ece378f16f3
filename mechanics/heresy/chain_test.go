package heresy

import (
	"math"
	"testing"

	"hammersim/mechanics/dice"
)

// Profiles used across the tests; the numbers are illustrative, not quoted.
var (
	marine   = Profile{WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Save: 3}
	bolter   = Weapon{Name: "bolter", Shots: dice.Const(2), S: 4, AP: 5}
	lascan   = Weapon{Name: "lascannon", S: 9, AP: 2}
	hbolter  = Weapon{Name: "heavy bolter", Shots: dice.Const(3), S: 5, AP: 4}
	autocan  = Weapon{Name: "autocannon", Shots: dice.Const(2), S: 7, AP: 4}
	flamer   = Weapon{Name: "flamer", Shots: dice.MustParse("D3"), S: 4, AP: 5}
	feeble   = Weapon{Name: "feeble", S: 1, AP: APNone}
	rapier   = Profile{WS: 1, BS: 4, S: 3, T: 5, W: 2, I: 1, A: 0, Ld: 7, Save: 3, AutomatedArtillery: true, Bulky: 4}
	reveller = Profile{WS: 4, BS: 4, S: 4, T: 4, W: 1, I: 4, A: 1, Ld: 8, Save: 3, LordsOfProfligacy: true}
)

func stupefied(p Profile, n int) *Unit {
	u := NewUnit(p, n)
	u.Stupefied = 1
	return &u
}

func TestMitigation(t *testing.T) {
	fnp := func(x int) Profile { p := reveller; p.FeelNoPain = x; return p }
	fearless := reveller
	fearless.Fearless = true
	ew := reveller
	ew.EternalWarrior = true
	idOK := DefaultOptions
	idOK.FNPVsInstantDeath = true
	blunt := DefaultOptions
	blunt.MitigateBluntedInstantDeath = true
	plain := func(p Profile) *Unit { u := NewUnit(p, 5); return &u }

	tests := []struct {
		name string
		u    *Unit
		id   bool
		o    Options
		want int
		kind MitigationKind
	}{
		{"none", plain(reveller), false, DefaultOptions, Impossible, NoMitigation},
		{"Feel No Pain (5+)", plain(fnp(5)), false, DefaultOptions, 5, FeelNoPainRoll},
		{"Stupefied: 6+", stupefied(reveller, 5), false, DefaultOptions, 6, StupefiedRoll},
		{"Stupefied with Fearless: +1 makes 5+", stupefied(fearless, 5), false, DefaultOptions, 5, StupefiedRoll},
		{"FNP 4+ and Stupefied: one roll, the better", stupefied(fnp(4), 5), false, DefaultOptions, 4, FeelNoPainRoll},
		{"FNP 6+ and Stupefied 6+: one roll", stupefied(fnp(6), 5), false, DefaultOptions, 6, FeelNoPainRoll},
		{"Stupefied never against Instant Death", stupefied(reveller, 5), true, DefaultOptions, Impossible, NoMitigation},
		{"Stupefied never against Instant Death, even with the FNP option", stupefied(reveller, 5), true, idOK, Impossible, NoMitigation},
		{"FNP against Instant Death: not by default", plain(fnp(5)), true, DefaultOptions, Impossible, NoMitigation},
		{"FNP against Instant Death: option", plain(fnp(5)), true, idOK, 5, FeelNoPainRoll},
		{"FNP and Stupefied vs Instant Death with the FNP option: FNP only", stupefied(fnp(6), 5), true, idOK, 6, FeelNoPainRoll},
		{"Eternal Warrior: still Instant Death by default", stupefied(ew, 5), true, DefaultOptions, Impossible, NoMitigation},
		{"Eternal Warrior: option allows the roll", stupefied(ew, 5), true, blunt, 6, StupefiedRoll},
	}
	for _, tt := range tests {
		got, kind := Mitigation(tt.u, tt.id, tt.o)
		if got != tt.want || kind != tt.kind {
			t.Errorf("%s: %d (%s), want %d (%s)", tt.name, got, kind, tt.want, tt.kind)
		}
	}
}

// TestOneMitigationRollPerWound pins the rule that a model makes one Damage
// Mitigation roll per wound whatever it has: with Feel No Pain (5+) and the
// Stupefied roll (6+) an unsaved wound is suffered with probability 4/6, not
// 4/6 * 5/6, both exactly and when rolled.
func TestOneMitigationRollPerWound(t *testing.T) {
	p := reveller
	p.FeelNoPain = 5
	target := stupefied(p, 1000)
	c := ShootingChain(&Unit{Profile: marine, Models: 1}, &lascan, target, DefaultOptions)
	c.InstantDeath, c.Slays = false, false // S9 vs T4 would be Instant Death
	c.Mitigate, c.MitigateKind = Mitigation(target, false, DefaultOptions)
	if got := c.Step(StageSuffered); !near(got, 4.0/6) {
		t.Fatalf("P(suffered | unsaved) %.6f, want 4/6 (FNP 5+ fails on 1-4; one roll)", got)
	}
	r := dice.New(1, 0)
	var tally Tally
	for range 100 {
		u := *target
		tally.Add(c.Roll(r, 2000, &u))
	}
	if z, ok := zWithin(tally.Suffered, tally.Unsaved, 4.0/6); !ok {
		t.Errorf("suffered/unsaved %.4f, want 4/6, z %.1f", float64(tally.Suffered)/float64(tally.Unsaved), z)
	}
}

func TestInstantDeath(t *testing.T) {
	ew := marine
	ew.EternalWarrior = true
	idBolter := bolter
	idBolter.InstantDeath = true
	shooter := &Unit{Profile: marine, Models: 1}
	tests := []struct {
		name      string
		w         Weapon
		target    Profile
		id, slays bool
	}{
		{"S9 vs T4: double Toughness", lascan, marine, true, true},
		{"S8 vs T4: exactly double", Weapon{S: 8, AP: 3}, marine, true, true},
		{"S7 vs T4: not double", autocan, marine, false, false},
		{"Eternal Warrior loses one wound instead", lascan, ew, true, false},
		{"the Instant Death weapon rule", idBolter, marine, true, true},
	}
	for _, tt := range tests {
		target := NewUnit(tt.target, 3)
		c := ShootingChain(shooter, &tt.w, &target, DefaultOptions)
		if c.InstantDeath != tt.id || c.Slays != tt.slays {
			t.Errorf("%s: InstantDeath %v Slays %v, want %v %v", tt.name, c.InstantDeath, c.Slays, tt.id, tt.slays)
		}
	}
	// A slaying wound removes a three-wound model at once; a normal one takes a wound.
	u := NewUnit(Profile{W: 3}, 2)
	if !u.TakeWound(true) || u.Models != 1 || u.Hurt != 0 {
		t.Errorf("slaying wound: %+v", u)
	}
	if u.TakeWound(false) || u.Hurt != 1 {
		t.Errorf("one wound on a W3 model: %+v", u)
	}
	// Instant Death lands on the wounded model first: it is removed, the
	// next model is unhurt.
	if !u.TakeWound(true) || u.Models != 0 || u.Hurt != 0 {
		t.Errorf("slaying the wounded model: %+v", u)
	}
}

// TestStupefiedStrength pins +1 Strength to the Stupefied unit's own
// attacks: a close-combat blow at its own S4 against T4 wounds on 4+, on 3+
// while Stupefied (S5); a fixed-Strength gun is unchanged unless the option.
func TestStupefiedStrength(t *testing.T) {
	target := NewUnit(marine, 5)
	calm := NewUnit(reveller, 5)
	high := stupefied(reveller, 5)
	var fist Weapon // the zero Weapon: User Strength, AP "-"
	if c := MeleeChain(&calm, &fist, &target, DefaultOptions); c.ToWound != 4 {
		t.Errorf("S4 vs T4: %d+, want 4+", c.ToWound)
	}
	if c := MeleeChain(high, &fist, &target, DefaultOptions); c.Strength != 5 || c.ToWound != 3 {
		t.Errorf("Stupefied S4+1 vs T4: S%d %d+, want S5 3+", c.Strength, c.ToWound)
	}
	plus1 := Weapon{StrengthBonus: 1}
	if c := MeleeChain(high, &plus1, &target, DefaultOptions); c.Strength != 6 || c.ToWound != 2 {
		t.Errorf("Stupefied S4+1 with a +1 weapon: S%d %d+, want S6 2+", c.Strength, c.ToWound)
	}
	if c := ShootingChain(high, &bolter, &target, DefaultOptions); c.Strength != 4 {
		t.Errorf("fixed S4 gun while Stupefied: S%d, want 4 by default", c.Strength)
	}
	o := DefaultOptions
	o.StupefiedFixedStrength = true
	if c := ShootingChain(high, &bolter, &target, o); c.Strength != 5 {
		t.Errorf("fixed S4 gun with StupefiedFixedStrength: S%d, want 5", c.Strength)
	}
	// and Snap Shots: BS 1 hits on 6+.
	if c := ShootingChain(high, &bolter, &target, DefaultOptions); !near(c.P(StageHits), 1.0/6) {
		t.Errorf("Stupefied shooting: P(hit) %.4f, want 1/6 (Snap Shots)", c.P(StageHits))
	}
}

func TestChainExact(t *testing.T) {
	shooter := &Unit{Profile: marine, Models: 1}
	target := NewUnit(marine, 10)
	c := ShootingChain(shooter, &bolter, &target, DefaultOptions)
	// BS4 3+ (4/6), S4 vs T4 4+ (3/6), 3+ save kept by AP5 (fails 2/6).
	steps := []struct {
		s    Stage
		want float64
	}{
		{StageHits, 4.0 / 6},
		{StageWounds, 4.0 / 6 * 3 / 6},
		{StageUnsaved, 4.0 / 6 * 3 / 6 * 2 / 6},
		{StageSuffered, 4.0 / 6 * 3 / 6 * 2 / 6},
	}
	for _, st := range steps {
		if got := c.P(st.s); !near(got, st.want) {
			t.Errorf("P(%s) %.6f, want %.6f", st.s, got, st.want)
		}
	}
	// 10 shots, 1/9 each: P(no unsaved wound) = (8/9)^10; mean 10/9.
	d := c.Dist(StageUnsaved, dice.Const(10))
	if !near(d.At(0), math.Pow(8.0/9, 10)) || !near(d.Mean(), 10.0/9) {
		t.Errorf("10 shots: P(0) %.6f mean %.6f, want (8/9)^10 and 10/9", d.At(0), d.Mean())
	}
	// D6 shots: mean hits 3.5 * 4/6.
	if got := c.Dist(StageHits, dice.MustParse("D6")).Mean(); !near(got, 3.5*4/6) {
		t.Errorf("D6 shots: mean hits %.6f, want 3.5 * 4/6", got)
	}

	// One W2 model, two shots at q = 4/6 * 5/6 (BS4, S8 vs T4 2+, AP2 removes 3+).
	ew := NewUnit(Profile{T: 4, W: 2, Save: 3, EternalWarrior: true}, 1)
	cq := ShootingChain(shooter, &Weapon{S: 8, AP: 2}, &ew, DefaultOptions)
	q := 4.0 / 6 * 5 / 6
	if got := cq.Casualties(dice.Const(2), &ew).At(1); !near(got, q*q) {
		t.Errorf("Eternal Warrior W2, two shots: P(removed) %.6f, want q^2", got)
	}
	mortal := NewUnit(Profile{T: 4, W: 2, Save: 3}, 1)
	cs := ShootingChain(shooter, &Weapon{S: 8, AP: 2}, &mortal, DefaultOptions)
	if got := cs.Casualties(dice.Const(2), &mortal).At(1); !near(got, 1-(1-q)*(1-q)) {
		t.Errorf("Instant Death W2, two shots: P(removed) %.6f, want 1-(1-q)^2", got)
	}
}

// TestCasualtyProgramme checks the dynamic programme of Attack against the
// closed form of Chain.Casualties, for one weapon, with and without a
// wounded model, with Instant Death and with dice for shots.
func TestCasualtyProgramme(t *testing.T) {
	tests := []struct {
		name   string
		w      Weapon
		target Unit
	}{
		{"bolters at W2, one wounded", bolter, Unit{Profile: Profile{T: 4, W: 2, Save: 4}, Models: 4, Hurt: 1}},
		{"D3 flamers at W3", flamer, Unit{Profile: Profile{T: 4, W: 3, Save: 5}, Models: 3}},
		{"lascannons slay W3", lascan, Unit{Profile: Profile{T: 4, W: 3, Save: 2, Invuln: 5}, Models: 3, Hurt: 2}},
		{"overkill on one model", hbolter, Unit{Profile: Profile{T: 3, W: 1}, Models: 2}},
	}
	for _, tt := range tests {
		shooter := NewUnit(marine, 5)
		var a Attack
		a.Prepare(&shooter, []Weapon{tt.w}, &tt.target, DefaultOptions)
		got := a.Casualties(&tt.target)
		// Total shots of five models: five rolls of the weapon's shots.
		total := tt.w.shots().Dist()
		sum := dice.Point(0)
		for range 5 {
			sum = sum.Add(total)
		}
		c := a.Volleys[0].Chain
		k := binomialMixture(sum.Min, sum.P, c.P(StageSuffered))
		want := k.Map(func(k int) int { return casualtiesFrom(k, c.Slays, &tt.target) })
		for v := 0; v <= tt.target.Models; v++ {
			if math.Abs(got.At(v)-want.At(v)) > 1e-12 {
				t.Errorf("%s: P(%d casualties) %.12f, closed form %.12f", tt.name, v, got.At(v), want.At(v))
			}
		}
		if !near(a.ExpectedCasualties(&tt.target), want.Mean()) {
			t.Errorf("%s: expected casualties %.12f, closed form %.12f", tt.name, a.ExpectedCasualties(&tt.target), want.Mean())
		}
	}
}

// TestAttackMonteCarlo rolls a two-weapon Firing Protocols attack, one
// weapon slaying, against multi-wound models and compares every stage's
// mean and the casualty distribution with the exact values.
func TestAttackMonteCarlo(t *testing.T) {
	p := marine
	p.FiringProtocols = 2
	firer := NewUnit(p, 3)
	start := Unit{Profile: Profile{T: 4, W: 2, Save: 3, Invuln: 5, FeelNoPain: 6}, Models: 4, Hurt: 1}
	var a Attack
	a.Prepare(&firer, []Weapon{flamer, lascan, feeble}, &start, DefaultOptions)
	if len(a.Volleys) != 2 {
		t.Fatalf("volleys %d, want 2", len(a.Volleys))
	}
	r := dice.New(1, 0)
	const n = 200_000
	var sums [5]float64
	counts := make([]int, start.Models+1)
	for range n {
		u := start
		tl := a.Roll(r, &u)
		for s := StageShots; s <= StageSuffered; s++ {
			sums[s] += float64(tl.At(s))
		}
		if tl.Casualties != start.Models-u.Models {
			t.Fatalf("tally casualties %d, unit lost %d", tl.Casualties, start.Models-u.Models)
		}
		counts[tl.Casualties]++
	}
	for s := StageShots; s <= StageSuffered; s++ {
		d := a.Dist(s)
		se := d.StdDev() / math.Sqrt(n)
		if z := (sums[s]/n - d.Mean()) / se; math.Abs(z) > 5 {
			t.Errorf("%s: mean %.4f, exact %.4f, z %.1f", s, sums[s]/n, d.Mean(), z)
		}
		if !near(d.Mean(), a.Expected(s)) {
			t.Errorf("%s: Dist mean %.12f, Expected %.12f", s, d.Mean(), a.Expected(s))
		}
	}
	cas := a.Casualties(&start)
	for v, k := range counts {
		if z, ok := zWithin(k, n, cas.At(v)); !ok {
			t.Errorf("P(%d casualties): %.4f, exact %.4f, z %.1f", v, float64(k)/n, cas.At(v), z)
		}
	}
}

// casualtiesFrom is the closed form the casualty programme is checked
// against for chains whose wounds are single and alike: with k wounds
// suffered, a slaying attack removes min(k, models); otherwise the wounded
// model goes after its wounds left, and each further W wounds remove one
// more model.
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

// TestMurderousStrikeFirst pins the order of wounds: Murderous Strike's
// are saved and applied first (rulebook p.243). One WS4 S4 model strikes
// four blows with Murderous Strike (6+) at three WS4 T4 W2 models with no
// save. Each blow hits on 4+ (1/2) and wounds on 4+: a 6 is Instant Death
// (I, 1/2 x 1/6 = 1/12), a 4 or 5 one wound (R, 1/2 x 2/6 = 1/6), else
// nothing (3/4). With the I first, each removes a whole unwounded model and
// the Rs then remove one model per two, so casualties = min(3, nI +
// floor(nR/2)); summed over the multinomial counts this is 3221/6912
// (0.46600). In the order rolled, an I after a lone R would waste that
// wound: 0.45848 by the same enumeration over the 3^4 orders.
func TestMurderousStrikeFirst(t *testing.T) {
	p := Profile{WS: 4, S: 4, T: 4, W: 2, I: 4, A: 4}
	attacker, target := NewUnit(p, 1), NewUnit(p, 3)
	blade := Weapon{Name: "blade", S: 4, AP: APNone, MurderousStrike: 6}
	c := MeleeChain(&attacker, &blade, &target, DefaultOptions)
	want := 0.0
	for nI := 0; nI <= 4; nI++ {
		for nR := 0; nI+nR <= 4; nR++ {
			n0 := 4 - nI - nR
			ways := float64(binomialCoeff(4, nI) * binomialCoeff(4-nI, nR))
			pr := ways * math.Pow(1.0/12, float64(nI)) * math.Pow(1.0/6, float64(nR)) * math.Pow(3.0/4, float64(n0))
			want += pr * float64(min(3, nI+nR/2))
		}
	}
	if !near(want, 3221.0/6912) {
		t.Fatalf("hand sum %.9f, want 3221/6912", want)
	}
	got := c.BearersCasualties(1, 4, &target)
	if !near(got.Mean(), want) {
		t.Errorf("exact casualties %.6f, want %.6f (3221/6912)", got.Mean(), want)
	}
	r := dice.New(11, 0)
	const n = 400_000
	sum, sum2 := 0.0, 0.0
	for range n {
		u := target
		k := float64(c.RollBearers(r, 1, 4, &u).Casualties)
		sum += k
		sum2 += k * k
	}
	mean := sum / n
	if se := math.Sqrt((sum2/n - mean*mean) / n); math.Abs(mean-want) > 5*se {
		t.Errorf("rolled casualties %.5f, exact %.5f (5 SE = %.5f)", mean, want, 5*se)
	}
}

func binomialCoeff(n, k int) int {
	c := 1
	for i := range k {
		c = c * (n - i) / (i + 1)
	}
	return c
}

// TestStupefiedRollVsDoubleStrength: five BS 4 models fire one Heavy 1 S8
// AP3 shot each at ten Fearless Stupefied T4 3+ models. A shot hits on 3+
// (2/3) and wounds on 2+ (S8 against T4, 5/6); AP3 removes the 3+ save, so
// 5 * 2/3 * 5/6 = 25/9 = 2.778 wounds go unsaved. S8 is double T4:
// Instant Death. By default that bars the Stupefied roll: nothing is
// mitigated and each unsaved wound removes a model, 25/9 casualties (five
// shots cannot reach the tenth model). With
// Options.StupefiedRollVsDoubleStrength the roll is allowed (5+ with
// Fearless, a wound ignored with 1/3): mitigated 25/27 = 0.926, casualties
// 25/9 * 2/3 = 50/27 = 1.852. The same gun with the Instant Death weapon
// rule, and Feel No Pain (5+) on a unit that is not Stupefied, stay barred
// with the option.
func TestStupefiedRollVsDoubleStrength(t *testing.T) {
	p := reveller
	p.Fearless = true
	target := stupefied(p, 10)
	firer := NewUnit(marine, 5)
	gun := Weapon{Name: "gun", Type: Heavy, S: 8, AP: 3}
	allow := DefaultOptions
	allow.StupefiedRollVsDoubleStrength = true
	for _, c := range []struct {
		name           string
		o              Options
		mitigated, cas float64
	}{
		{"default", DefaultOptions, 0, 25.0 / 9},
		{"option", allow, 25.0 / 27, 50.0 / 27},
	} {
		var a Attack
		a.Prepare(&firer, []Weapon{gun}, target, c.o)
		unsaved := a.Expected(StageUnsaved)
		if !near(unsaved, 25.0/9) {
			t.Errorf("%s: unsaved %.6f, want 25/9", c.name, unsaved)
		}
		if got := unsaved - a.Expected(StageSuffered); !near(got, c.mitigated) {
			t.Errorf("%s: mitigated %.6f, want %.6f", c.name, got, c.mitigated)
		}
		if got := a.ExpectedCasualties(target); !near(got, c.cas) {
			t.Errorf("%s: casualties %.6f, want %.6f", c.name, got, c.cas)
		}
		// The rolls agree within 5 standard errors (fixed seed).
		mean, se := rolledCasualties(&a, *target, 3, 100_000)
		if math.Abs(mean-c.cas) > 5*se {
			t.Errorf("%s: rolled casualties %.4f, exact %.4f (5 SE = %.4f)", c.name, mean, c.cas, 5*se)
		}
	}
	ruled := gun
	ruled.InstantDeath = true
	if c := ShootingChain(&firer, &ruled, target, allow); c.Mitigate != Impossible {
		t.Errorf("the Instant Death weapon rule with the option: mitigation %d+, want none", c.Mitigate)
	}
	fnp := reveller
	fnp.FeelNoPain = 5
	plainFNP := NewUnit(fnp, 10)
	if c := ShootingChain(&firer, &gun, &plainFNP, allow); c.Mitigate != Impossible {
		t.Errorf("Feel No Pain against S8 with the option: %d+, want none (FNPVsInstantDeath rules it)", c.Mitigate)
	}
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

// TestArmourbane: Armourbane re-rolls failed To Wound rolls against a
// Dreadnought or Automata, and only there; (Melta) only at half range or
// less, (Melee) only in close combat, (Ranged) only in Shooting Attacks.
// A lascannon (S9) against T7 wounds on 2+ (S two above T), 5/6 a hit;
// re-rolled, 1 - (1/6)^2 = 35/36 (newrecruit.eu's Horus Heresy (2022)
// wiki, Armourbane).
func TestArmourbane(t *testing.T) {
	firer := NewUnit(marine, 1)
	dread := Profile{WS: 5, BS: 5, S: 6, T: 7, W: 6, I: 4, A: 3, Ld: 10, Save: 2}
	target := func(ty UnitType) *Unit { p := dread; p.Type = ty; u := NewUnit(p, 1); return &u }
	gun := func(a Armourbane) Weapon { return Weapon{Type: Assault, Range: 12, S: 9, AP: 2, Armourbane: a} }
	const plain, rerolled = 5.0 / 6, 35.0 / 36
	for _, tt := range []struct {
		name     string
		a        Armourbane
		ty       UnitType
		distance int
		want     float64
	}{
		{"none against a Dreadnought", NoArmourbane, Dreadnought, 6, plain},
		{"against a Dreadnought", ArmourbaneAny, Dreadnought, 12, rerolled},
		{"against Automata", ArmourbaneAny, Automata, 12, rerolled},
		{"against Infantry", ArmourbaneAny, Infantry, 6, plain},
		{"Melta at half range", ArmourbaneMelta, Dreadnought, 6, rerolled},
		{"Melta beyond half range", ArmourbaneMelta, Dreadnought, 7, plain},
		{"Melta with no distance", ArmourbaneMelta, Dreadnought, 0, plain},
		{"Ranged in a Shooting Attack", ArmourbaneRanged, Dreadnought, 12, rerolled},
		{"Melee in a Shooting Attack", ArmourbaneMelee, Dreadnought, 6, plain},
	} {
		w := gun(tt.a)
		c := FiringChain(&firer, &w, target(tt.ty), w.Fire(&firer, Situation{Distance: tt.distance}), DefaultOptions)
		if got := c.Step(StageWounds); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: wounds a hit %.4f, want %.4f", tt.name, got, tt.want)
		}
	}
	// In close combat: an S8 weapon against T7 wounds on 3+ (S one above
	// T), 2/3 a hit; re-rolled 8/9.
	for _, tt := range []struct {
		a    Armourbane
		want float64
	}{{ArmourbaneMelee, 8.0 / 9}, {ArmourbaneAny, 8.0 / 9}, {ArmourbaneRanged, 2.0 / 3}, {ArmourbaneMelta, 2.0 / 3}} {
		w := Weapon{S: 8, AP: 2, Armourbane: tt.a}
		c := MeleeChain(&firer, &w, target(Dreadnought), DefaultOptions)
		if got := c.Step(StageWounds); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("melee, Armourbane %d: wounds a hit %.4f, want %.4f", tt.a, got, tt.want)
		}
	}
}
