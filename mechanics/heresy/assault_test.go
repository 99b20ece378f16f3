package heresy

import (
	"testing"

	"hammersim/mechanics/dice"
)

func TestSweepProbability(t *testing.T) {
	a, b := NewUnit(marine, 5), NewUnit(marine, 5)
	slow := NewUnit(Profile{I: 1}, 5)
	art := NewUnit(rapier, 2)
	tests := []struct {
		name     string
		win, los *Unit
		want     float64
		source   string
	}{
		{"equal Initiative", &a, &b, 21.0 / 36, "P(D6 >= D6) = 21/36"},
		{"I4 against I1", &a, &slow, 33.0 / 36, "fails only when the loser's die beats the winner's by 4 or more: 3/36"},
		{"I1 against I4", &slow, &a, 6.0 / 36, "the winner's die must beat the loser's by 3 or more: 3+2+1 pairs"},
		{"against Automated Artillery", &a, &art, 1, "destroyed with no dice"},
		{"by Automated Artillery", &art, &a, 0, "it may not sweep"},
	}
	for _, tt := range tests {
		if got := SweepProbability(tt.win, tt.los, DefaultOptions); !near(got, tt.want) {
			t.Errorf("%s: %.6f, want %.6f (%s)", tt.name, got, tt.want, tt.source)
		}
		// With no Sweeping Advance a unit Falling Back is never caught,
		// Automated Artillery included.
		none := DefaultOptions
		none.SweepingAdvance = NoSweep
		if got := SweepProbability(tt.win, tt.los, none); got != 0 {
			t.Errorf("%s, NoSweep: %.6f, want 0", tt.name, got)
		}
	}
}

func TestArtilleryNeverCharges(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Fight accepted a charge by Automated Artillery")
		}
	}()
	art, m := NewUnit(rapier, 3), NewUnit(marine, 5)
	if art.CanCharge() {
		t.Error("Automated Artillery may charge")
	}
	Fight(dice.New(1, 0), Side{Unit: &art, Charged: true}, Side{Unit: &m}, DefaultOptions)
}

// TestArtilleryChargedAndSwept answers the question the assault sequence is
// for: ten charging marines against three Bulky (4) guns that strike no
// blows. Each of the 20 blows (A1 + 1 for the charge) suffers a wound with
// q = 4/6 (WS4 vs WS1: 3+) * 2/6 (S4 vs T5: 5+) * 2/6 (3+ save) = 2/27. With
// k wounds the guns lose casualtiesFrom(k) models (W2); the marines score
// k, plus OutnumberBonus if 10 models outnumber the guns' remaining bulk;
// the guns score the bonus if they outnumber. If the guns lose and survive,
// they test on Ld 7 minus the difference (a double 1 passing); failing,
// they Fall Back and are destroyed by the Sweeping Advance with no dice.
// Run with no bonus (the default) and with the house rule's +1.
func TestArtilleryChargedAndSwept(t *testing.T) {
	for _, bonus := range []int{0, 1} {
		o := DefaultOptions
		o.OutnumberBonus = bonus
		artilleryChargedAndSwept(t, o)
	}
}

func artilleryChargedAndSwept(t *testing.T, o Options) {
	chargers, guns := NewUnit(marine, 10), NewUnit(rapier, 3)
	var fist Weapon
	c := MeleeChain(&chargers, &fist, &guns, o)
	if !near(c.P(StageSuffered), 2.0/27) {
		t.Fatalf("per-blow q %.6f, want 2/27", c.P(StageSuffered))
	}
	k := c.Dist(StageSuffered, dice.Const(20))
	want := 0.0
	for w := 0; w <= 20; w++ {
		left := guns
		left.Models -= casualtiesFrom(w, false, &guns)
		if left.Destroyed() {
			continue // wiped out: no Morale check, no sweep
		}
		sa, sb := w, 0
		if chargers.Outnumbers(&left) {
			sa += o.OutnumberBonus
		}
		if left.Outnumbers(&chargers) {
			sb += o.OutnumberBonus
		}
		if sa <= sb {
			continue
		}
		want += k.At(w) * (1 - PassProbability(left.Ld-(sa-sb), o.InsaneHeroism))
	}

	r := dice.New(1, 0)
	const n = 200_000
	swept := 0
	for range n {
		a, b := chargers, guns
		res := Fight(r, Side{Unit: &a, Charged: true}, Side{Unit: &b}, o)
		if res.Swept {
			swept++
			if res.SweepRolled || !b.Destroyed() || res.Winner != 0 {
				t.Fatalf("swept artillery: %+v, models left %d", res, b.Models)
			}
		}
		if res.Inflicted[1].Shots != 0 {
			t.Fatal("guns with no Attacks struck blows")
		}
	}
	if z, ok := zWithin(swept, n, want); !ok {
		t.Errorf("bonus %d: P(guns swept) %.4f, exact %.4f, z %.1f", o.OutnumberBonus, float64(swept)/n, want, z)
	}
}

// TestFightAftermath pins the other branches: a Fearless loser holds; a
// winner that is Automated Artillery does not sweep; a Stupefied loser
// tests as usual and Falling Back ends Stupefied; a Stupefied charger gets
// no charge bonus.
func TestFightAftermath(t *testing.T) {
	r := dice.New(1, 0)
	brave := marine
	brave.Fearless = true
	for range 2000 {
		a, b := NewUnit(Profile{WS: 5, S: 6, T: 4, W: 1, I: 5, A: 3, Ld: 8}, 10), NewUnit(brave, 5)
		res := Fight(r, Side{Unit: &a, Charged: true}, Side{Unit: &b}, DefaultOptions)
		if res.Winner == 0 && !b.Destroyed() && (!res.Passed || res.FellBack) {
			t.Fatalf("a Fearless loser fell back: %+v", res)
		}
	}

	sawFall := false
	for range 2000 {
		gunner := rapier
		gunner.A, gunner.WS, gunner.S, gunner.I = 4, 5, 6, 5
		art, weak := NewUnit(gunner, 3), NewUnit(Profile{WS: 2, S: 3, T: 3, W: 1, I: 2, A: 1, Ld: 5}, 3)
		res := Fight(r, Side{Unit: &weak, Charged: true}, Side{Unit: &art}, DefaultOptions)
		if res.Winner == 1 && res.FellBack {
			sawFall = true
			if res.Swept || res.SweepRolled || weak.Destroyed() {
				t.Fatalf("Automated Artillery made a Sweeping Advance: %+v", res)
			}
		}
	}
	if !sawFall {
		t.Error("no trial had the artillery's enemy fall back")
	}

	sawStupefiedFall := false
	for range 2000 {
		a, b := NewUnit(Profile{WS: 5, S: 6, T: 4, W: 1, I: 5, A: 3, Ld: 8}, 10), *stupefied(reveller, 3)
		res := Fight(r, Side{Unit: &a, Charged: true}, Side{Unit: &b}, DefaultOptions)
		if res.Winner == 0 && !res.Tested && !b.Destroyed() {
			t.Fatalf("a Stupefied loser took no Morale check in the Assault phase: %+v", res)
		}
		if res.FellBack && res.Winner == 0 { // the Stupefied unit lost and Fell Back
			sawStupefiedFall = true
			if b.IsStupefied() {
				t.Fatal("Falling Back did not end Stupefied")
			}
		}
	}
	if !sawStupefiedFall {
		t.Error("no trial had the Stupefied unit fall back")
	}

	// A Stupefied charger's charge is Disordered: one blow per model, not two.
	a, b := *stupefied(reveller, 5), NewUnit(Profile{WS: 1, T: 10, W: 5, I: 1}, 5)
	res := Fight(r, Side{Unit: &a, Charged: true}, Side{Unit: &b}, DefaultOptions)
	if res.Inflicted[0].Shots != 5 {
		t.Errorf("Stupefied charger struck %d blows, want 5 (no charge bonus)", res.Inflicted[0].Shots)
	}
	a, b = NewUnit(reveller, 5), NewUnit(Profile{WS: 1, T: 10, W: 5, I: 1}, 5)
	res = Fight(r, Side{Unit: &a, Charged: true}, Side{Unit: &b}, DefaultOptions)
	if res.Inflicted[0].Shots != 10 {
		t.Errorf("charger struck %d blows, want 10 (A1 + 1 for the charge)", res.Inflicted[0].Shots)
	}
}

// TestInitiativeOrder: a unit that strikes first removes models before they
// strike back; one that charged through Difficult Terrain strikes at I1
// unless its enemy is Stupefied.
func TestInitiativeOrder(t *testing.T) {
	r := dice.New(1, 0)
	killer := Profile{WS: 10, S: 10, T: 4, W: 1, I: 5, A: 10}
	victim := Profile{WS: 1, S: 3, T: 3, W: 1, I: 3, A: 1, LordsOfProfligacy: true}
	for range 200 {
		a, b := NewUnit(killer, 5), NewUnit(victim, 1)
		res := Fight(r, Side{Unit: &a}, Side{Unit: &b}, DefaultOptions)
		if res.Inflicted[1].Shots != 0 {
			t.Fatal("a model removed at a higher Initiative struck back")
		}
	}
	sawStrike := false
	for range 200 {
		a, b := NewUnit(killer, 5), NewUnit(victim, 1)
		res := Fight(r, Side{Unit: &a, Charged: true, DifficultTerrain: true}, Side{Unit: &b}, DefaultOptions)
		if res.Inflicted[1].Shots != 1 {
			t.Fatal("charging through Difficult Terrain did not drop the charger to Initiative 1")
		}
		a, b = NewUnit(killer, 5), *stupefied(victim, 1)
		res = Fight(r, Side{Unit: &a, Charged: true, DifficultTerrain: true}, Side{Unit: &b}, DefaultOptions)
		sawStrike = sawStrike || res.Inflicted[1].Shots != 0
	}
	if sawStrike {
		t.Error("the Difficult Terrain penalty applied against a Stupefied unit")
	}
}
