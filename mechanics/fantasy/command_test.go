package fantasy

import (
	"math"
	"testing"

	"hammersim/mechanics/dice"
)

// TestCommandModelsFallLast: a unit's standard bearer and musician are
// removed only once no rank-and-file model is left, and then in the
// order Options.StandardFirst says (WAP, Command Groups and Casualties).
// One model (WS 3, S 3, A 1, Ld 7) fights two Infantry (T 3, no save, no
// attacks, Ld 7) who are a standard bearer and a musician; one round. Its
// attack kills one of them with 1/2 to hit times 1/2 to wound = 1/4.
//   - No kill (3/4): the two have the higher Unit Strength (+1) and the
//     standard (+1); the one model loses by 2 and breaks on 2D6 above 5,
//     26/36. The combat result is -2.
//   - A kill (1/4), musician first (the default): the standard bearer
//     stands alone; 1 against 1 and no musician, a draw: nobody tests,
//     combat result 0.
//   - A kill, standard first: the musician stands alone; 1 against 0, the
//     two lose by 1 and break on 2D6 above 6, 21/36; combat result +1.
//
// So the one model breaks with 3/4 x 26/36 = 13/24 either way; its mean
// combat result is -3/2 by default and 3/4 x -2 + 1/4 = -5/4 standard
// first; the two break with 0 and 1/4 x 21/36 = 7/48. Before command
// models fell last, the survivor kept both: 1 against 1 with the
// musician's +1, and a combat result of -7/4.
func TestCommandModelsFallLast(t *testing.T) {
	for _, c := range []struct {
		standardFirst         bool
		cr, broke, enemyBroke float64
	}{
		{false, -1.5, 13.0 / 24, 0},
		{true, -1.25, 13.0 / 24, 7.0 / 48},
	} {
		a := foot("One", 1, 1, 3, 3, 3, 3, 1, 7, NoSave)
		two := foot("Two", 2, 2, 3, 3, 3, 3, 0, 7, NoSave)
		two.Standard, two.Musician = true, true
		b := battle(a, two, 0, PhaseCombat)
		b.Options.Rounds, b.Options.Pursue = 1, PursueNever
		b.Options.StandardFirst = c.standardFirst
		ex := ExactBattle(b)
		for _, k := range []struct {
			name   string
			metric BattleMetric
			unit   int
			want   float64
		}{
			{"combat result", BattleCombatResult, 0, c.cr},
			{"broke", BattleBroke, 0, c.broke},
			{"enemy broke", BattleBroke, 1, c.enemyBroke},
		} {
			if got, has := ex.Value(k.metric, k.unit); !has || math.Abs(got-k.want) > 1e-12 {
				t.Errorf("standard first %v: exact %s %v, %v; want %v", c.standardFirst, k.name, got, has, k.want)
			}
		}
		matchesTrials(t, b, 53, 40_000, []exactProbe{
			{"combat result", BattleCombatResult, 0, func(s *State) float64 { return float64(s.Out.CombatResult) }},
			{"broke", BattleBroke, 0, func(s *State) float64 { return float64(flag(s.Units[0].Broke)) }},
			{"enemy broke", BattleBroke, 1, func(s *State) float64 { return float64(flag(s.Units[1].Broke)) }},
		})
	}
}

// TestCommandFrom: how many models a unit needs for its standard bearer
// and musician to stand, by hand from the order of removal: rank and file
// first, then the musician and the standard bearer (or the other way with
// standard first), the champion last; math.MaxInt for one it has not,
// which never stands.
func TestCommandFrom(t *testing.T) {
	champion := foot("Champion", 10, 5, 3, 3, 3, 3, 1, 7, NoSave)
	champion.Attackers = append(champion.Attackers, Attacker{Name: "Champ", WS: 3, S: 3, I: 3, A: dice.Const(2), PerBody: 1, Champion: true})
	for _, c := range []struct {
		name                       string
		champ, standard, musician  bool
		standardFirst              bool
		wantStandard, wantMusician int
	}{
		{"full command", true, true, true, false, 1, 2},
		{"full command, standard first", true, true, true, true, 2, 1},
		{"standard and musician", false, true, true, false, 0, 1},
		{"standard alone", false, true, false, true, 0, math.MaxInt},
		{"musician and champion", true, false, true, false, math.MaxInt, 1},
		{"no command", false, false, false, false, math.MaxInt, math.MaxInt},
	} {
		u := foot("Unit", 10, 5, 3, 3, 3, 3, 1, 7, NoSave)
		if c.champ {
			u = champion
		}
		v := *u
		v.Standard, v.Musician = c.standard, c.musician
		s, m := commandFrom(&v, c.standardFirst)
		if s != c.wantStandard || m != c.wantMusician {
			t.Errorf("%s: standard from %d, musician from %d; want %d and %d", c.name, s, m, c.wantStandard, c.wantMusician)
		}
	}
}
