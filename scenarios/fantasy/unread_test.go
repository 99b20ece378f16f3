package fantasy

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"hammersim/sim"
)

// TestChargeReadsTheUnitsFlying: a charge question reads the unit's own
// flying key, as a battle does, when the charge gives none. Harpies (M 4,
// Fly (9)) 12" away:
//   - flying: a flying charge uses 9 as M with Swiftstride, M 7 or more:
//     9 + 3D6 discard the lowest, which reaches 12 unless the highest two
//     dice make 2 (three 1s): 215/216.
//   - on the ground, M 4 without Swiftstride: 4 + the highest of 2D6, at
//     most 10: never. Its mean reach is 4 + 161/36: the highest of 2D6 is
//     at least k with 1 - ((k-1)/6)^2, which sums over k = 1..6 to
//     6 - 55/36 = 161/36.
func TestChargeReadsTheUnitsFlying(t *testing.T) {
	for _, tc := range []struct {
		name, flying  string
		success, mean float64
	}{
		{"the unit's flying: false", "false", 0, 4 + 161.0/36},
		{"the unit's flying: true", "true", 215.0 / 216, 0},
		{"no flying anywhere (true)", "", 215.0 / 216, 0},
	} {
		unit := "{name: Harpies, M: 4, rules: [Fly (9)]}"
		if tc.flying != "" {
			unit = "{name: Harpies, M: 4, rules: [Fly (9)], flying: " + tc.flying + "}"
		}
		s, err := registry.Parse("t.yaml", []byte("name: t\nruleset: fantasy\ncharge: {unit: "+unit+", distance: 12}\n"))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		run, err := sim.RunAll(context.Background(), s.Models, sim.Config{Trials: 100, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range s.Results(run) {
			switch {
			case e.Metric == "charge_success" && math.Abs(e.Exact-tc.success) > 1e-12:
				t.Errorf("%s: charge_success exact %v, want %v", tc.name, e.Exact, tc.success)
			case e.Metric == "charge_reach" && tc.mean > 0 && math.Abs(e.Exact-tc.mean) > 1e-12:
				t.Errorf("%s: charge_reach exact %v, want %v", tc.name, e.Exact, tc.mean)
			}
		}
	}
}

// TestUnreadKeysRefused: a key that a question accepts and that would
// decide nothing there is an error at the key, saying what decides
// instead: flying given on both the charge and its unit; flying in a
// pursuit (flyers flee and pursue on the ground) and on a battle's target
// or others (only the attacker charges); flank, rear and higher_ground
// in a charge or pursuit question (no combat); a champion's count (a
// champion is one model). A Zzzzap! machine that shoots must move by D6s
// alone, which a Disaster takes one from.
func TestUnreadKeysRefused(t *testing.T) {
	head := "name: t\nruleset: fantasy\n"
	rat := "M: 4, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7"
	for _, tt := range []struct{ name, src, want string }{
		{"flying on the charge and its unit",
			"charge: {unit: {name: Harpies, M: 4, rules: [Fly (9)], flying: false}, distance: 12, flying: true}\n",
			`t.yaml:3:64: flying is given on unit "Harpies" and on the charge (line 3, column 94); give it in one place`},
		{"flying in a pursuit",
			"pursuit: {fleeing: {name: Harpies, M: 4, rules: [Fly (9)], flying: true}, pursuing: {name: B, M: 5}}\n",
			`t.yaml:3:68: flying on unit "Harpies": a pursuit question reads no flying, since flyers flee and pursue on the ground (Fly)`},
		{"flank in a pursuit",
			"pursuit: {fleeing: {name: A, M: 4}, pursuing: {name: B, M: 5, flank: true}}\n",
			`t.yaml:3:70: flank: true on unit "B": a pursuit question fights no combat, so flank decides nothing there`},
		{"rear swept in a charge",
			"charge: {unit: {name: A, M: 4, rear: [false, true]}, distance: 5}\n",
			`t.yaml:3:38: rear: true on unit "A": a charge question fights no combat`},
		{"flying on the target",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + ", rules: [Fly (8)], flying: false}, distance: 6, phases: [charge, combat]}\n",
			`t.yaml:3:163: flying on unit "B": only the attacker charges in a battle`},
		{"flying on others",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, others: [{name: C, side: friend, distance: 3, " + rat + ", flying: true}], distance: 6, phases: [charge, combat]}\n",
			`t.yaml:3:236: flying on unit "C": only the attacker charges in a battle`},
		// The attacker's flying is read only where it flies: not with
		// Random Movement, whose roll is the whole move, nor without Fly or
		// Tunneller; in a charge question as in a battle.
		{"flying with Random Movement",
			"battle: {attacker: {name: A, " + rat + ", rules: [Random Movement (3D6), Fly (9)], flying: true}, target: {name: B, " + rat + "}, distance: 6, phases: [charge, combat]}\n",
			`t.yaml:3:123: flying on unit "A", which moves by Random Movement: its roll is the whole of every move, so flying decides nothing`},
		{"flying without Fly",
			"battle: {attacker: {name: A, " + rat + ", flying: false}, target: {name: B, " + rat + "}, distance: 6, phases: [charge, combat]}\n",
			`t.yaml:3:82: flying on unit "A", which has no Fly or Tunneller`},
		{"flying with Random Movement in a charge",
			"charge: {unit: {name: A, rules: [Random Movement (3D6), Fly (9)], flying: [true, false]}, distance: 6}\n",
			`t.yaml:3:75: flying on unit "A", which moves by Random Movement`},
		{"target_flees from Random Movement",
			"battle: {attacker: {name: A, " + rat + ", rules: [Random Movement (3D6)]}, target: {name: B, " + rat + "}, distance: 6, phases: [charge, combat], options: {target_flees: true}}\n",
			`t.yaml:3:233: target_flees: the attacker moves by Random Movement`},
		// The options of a Doomwheel's rules, without them.
		{"Doomwheel options without its rules",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, distance: 6, phases: [charge, shooting, combat], options: {zzzzap_bolts: 5, out_of_control: towards, loss_of_control: end_of_phase}}\n",
			"t.yaml:3:211: zzzzap_bolts: the attacker has no Zzzzap!, the only rule it changes; remove it\n" +
				"t.yaml:3:230: out_of_control: the attacker never goes Out of Control"},
		// A Zzzzap! machine without Loss of Control goes Out of Control by
		// its Mishap chart alone, in a shooting phase; never after a pursuit.
		{"Out of Control without a shooting phase",
			"battle: {attacker: {name: D, troop: Chariot, S: 6, T: 6, W: 5, Ld: 7, crew: [{name: C, WS: 3, S: 2, I: 4, A: 1}], rules: [Random Movement (3D6), Zzzzap!]}, target: {name: B, " + rat + "}, distance: 6, phases: [charge, combat], options: {out_of_control: towards}}\n",
			"t.yaml:3:285: out_of_control: the attacker never goes Out of Control"},
		// A Doomwheel without a shooting phase is wounded in combat alone,
		// which a test on being wounded does not count.
		{"Out of Control of a Doomwheel that only fights",
			"battle: {attacker: {use: Doomwheel}, target: {name: B, " + rat + "}, distance: 6, phases: [charge, combat], options: {out_of_control: [in_place, towards]}}\n",
			"t.yaml:3:166: out_of_control: the attacker never goes Out of Control"},
		{"pursuer Out of Control without Loss of Control",
			"battle: {attacker: {name: D, troop: Chariot, S: 6, T: 6, W: 5, Ld: 7, crew: [{name: C, WS: 3, S: 2, I: 4, A: 1}], rules: [Random Movement (3D6), Zzzzap!]}, target: {name: B, " + rat + "}, distance: 6, phases: [charge, shooting, combat], options: {out_of_control: towards, pursuer_out_of_control: moves}}\n",
			"t.yaml:3:328: pursuer_out_of_control: the attacker has no Loss of Control"},
		// A pursuer goes Out of Control at the end of the combat phase
		// only, and moves only where out_of_control moves it.
		{"pursuer Out of Control by the defaults",
			"battle: {attacker: {use: Doomwheel}, target: {name: B, " + rat + "}, distance: 6, phases: [charge, combat], options: {pursuer_out_of_control: moves}}\n",
			"t.yaml:3:174: pursuer_out_of_control: a pursuer goes Out of Control only with loss_of_control: end_of_phase"},
		// A phase's refusal and a rule's come in one run.
		{"a phase's refusal beside a rule's",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, distance: 6, phases: [charge, combat], options: {zzzzap_bolts: 5, out_of_control: away}}\n",
			"t.yaml:3:201: zzzzap_bolts: the battle has no shooting phase, the only one this option changes; remove it or add the phase\nt.yaml:3:220: out_of_control: the attacker never goes Out of Control"},
		{"table on a charge by Random Movement",
			"charge: {unit: {name: A, rules: [Random Movement (3D6)]}, distance: 6, table: [wap, 8th]}\n",
			`t.yaml:3:79: table on the charge, whose units move by Random Movement`},
		{"flying on a charge with no flyer",
			"charge: {unit: {name: A, M: 5}, distance: 6, flying: [true, false]}\n",
			`t.yaml:3:54: flying on the charge, whose units have no Fly or Tunneller`},
		{"flying with no charge phase",
			"battle: {attacker: {name: A, M: 4, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7, rules: [Fly (8)], flying: false}, target: {name: B, M: 4, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7}, distance: 0, phases: [combat]}\n",
			`t.yaml:3:100: flying on unit "A": the battle has no charge phase`},
		{"a champion's count",
			"charge: {unit: {name: A, M: 4, models: 10, champion: {name: Champ, count: 3, A: 2}}, distance: 5}\n",
			`t.yaml:3:68: unknown key "count" in the champion; expected one of: name, A, WS, S, I`},
		{"a champion's count in a battle",
			"battle: {attacker: {name: A, models: 10, " + rat + ", champion: {name: Champ, count: 3, A: 2}}, target: {name: B, " + rat + "}, distance: 6, phases: [charge, combat]}\n",
			`t.yaml:3:110: unknown key "count" in the champion`},
		// An option that changes one phase only, in a battle without it,
		// is refused at its value, in the order written.
		{"options of phases the battle lacks",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, distance: 6, phases: [charge], options: {zzzzap_bolts: 2, target_flees: true, rounds: [1, all], pursue: false}}\n",
			"t.yaml:3:193: zzzzap_bolts: the battle has no shooting phase, the only one this option changes; remove it or add the phase\n" +
				"t.yaml:3:224: rounds: the battle has no combat phase, the only one this option changes; remove it or add the phase\n" +
				"t.yaml:3:242: pursue: the battle has no combat phase"},
		// wards joins a ward to Parry, a save in close combat only.
		{"wards with no combat phase",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + ", ward: 6+, parry: 6+}, distance: 6, phases: [shooting], options: {wards: [combine, best]}}\n",
			"t.yaml:3:209: wards: the battle has no combat phase"},
		{"target_flees with no charge phase",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, distance: 0, phases: [shooting, combat], options: {target_flees: true}}\n",
			"t.yaml:3:203: target_flees: the battle has no charge phase"},
		// firing_ranks without a missile weapon; a shooting phase in which
		// nothing shoots, at the phase.
		{"firing_ranks without a missile weapon",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, distance: 6, phases: [charge, shooting], options: {firing_ranks: 3}}\n",
			"t.yaml:3:203: firing_ranks: the attacker has no missile weapon, the only one it changes; remove it"},
		// A charge phase with the target in combat from the start at
		// every point charges nobody; at some point of a sweep it may.
		{"a charge phase with nobody to charge",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, distance: 0, phases: [charge, combat]}\n",
			"t.yaml:3:160: charge: the target starts in combat with the attacker (distance: 0) at every point, and an engaged unit declares no charge, so this phase, the first, charges nobody; remove it, or give a distance to charge from"},
		{"a shooting phase with nothing to shoot",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, distance: 6, phases: [charge, shooting, combat]}\n",
			"t.yaml:3:168: shooting: the attacker has no missile weapon and no Zzzzap!, so nothing shoots in this phase; remove it"},
		// A combat phase that nothing brings the units together for,
		// refused at the first combat phase: no charge phase before it and
		// the target out of contact at every point; a charge only after it
		// (the later phase would fight); a charge that never reaches (the
		// longest charge of M 4 is 4 plus the highest of 2D6, 10"); Zzzzap!'s Out of Control
		// move only after it, or not towards the others; Loss of Control
		// with nothing to wound the attacker out of combat first.
		{"a combat phase never fought",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, distance: [5, 9], phases: [combat]}\n",
			"t.yaml:3:165: combat: no combat is fought in this phase: the target is out of contact (distance above 0) at every point, and no charge phase comes before it"},
		{"a combat phase before the only charge phase",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, distance: 5, phases: [combat, charge, combat]}\n",
			"t.yaml:3:160: combat: no combat is fought in this phase: the target is out of contact"},
		{"a charge that never reaches",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, distance: [11, 50], phases: [charge, combat]}\n",
			"t.yaml:3:175: combat: no combat is fought in this phase: the target is beyond the attacker's longest charge at every point"},
		{"Out of Control only after the combat",
			"battle: {attacker: {use: Doomwheel}, target: {name: B, " + rat + "}, distance: 10, phases: [combat, shooting], options: {out_of_control: towards}}\n",
			"t.yaml:3:124: combat: no combat is fought in this phase: the target is out of contact (distance above 0) at every point, and no charge phase comes before it to bring them together; put a charge phase before it with the target within reach, start in contact (distance: 0), or remove the phase (a Zzzzap! machine may also come into contact Out of Control: a shooting phase before it, with out_of_control: towards)"},
		{"Out of Control in place",
			"battle: {attacker: {use: Doomwheel}, target: {name: B, " + rat + "}, distance: 10, phases: [shooting, combat]}\n",
			"t.yaml:3:134: combat: no combat is fought in this phase"},
		// A Burst of Speed from the Mishap chart makes the Doomwheel's
		// Random Movement 4D6 (24" at most) for a charge after the shooting
		// phase, but not for one before it (3D6: 18").
		{"a Doomwheel beyond 4D6",
			"battle: {attacker: {use: Doomwheel}, target: {name: B, " + rat + "}, distance: 25, phases: [shooting, charge, combat]}\n",
			"t.yaml:3:142: combat: no combat is fought in this phase: the target is beyond the attacker's longest charge at every point"},
		{"a Doomwheel beyond 3D6, shooting after its charge",
			"battle: {attacker: {use: Doomwheel}, target: {name: B, " + rat + "}, distance: 19, phases: [charge, shooting, combat]}\n",
			"t.yaml:3:142: combat: no combat is fought in this phase: the target is beyond the attacker's longest charge at every point"},
		{"Loss of Control with no wound out of combat",
			"battle: {attacker: {name: A, troop: Chariot, " + rat + ", rules: [Loss of Control]}, target: {name: B, " + rat + "}, distance: 10, phases: [combat, combat], options: {out_of_control: towards, loss_of_control: end_of_phase}}\n",
			"t.yaml:3:203: combat: no combat is fought in this phase"},
		// Both at once: an option's refusal does not hold the phase's back.
		{"firing_ranks and a shooting phase with nothing to shoot",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, distance: 6, phases: [charge, shooting], options: {firing_ranks: 3}}\n",
			"t.yaml:3:203: firing_ranks: the attacker has no missile weapon, the only one it changes; remove it\n" +
				"t.yaml:3:168: shooting: the attacker has no missile weapon and no Zzzzap!"},
		// target_flees where the target never may flee as its reaction:
		// engaged from the start, or immune to psychology (it holds).
		{"target_flees engaged from the start",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, distance: 0, phases: [charge, combat], options: {target_flees: true}}\n",
			"t.yaml:3:201: target_flees: the target is in combat from the start (distance 0)"},
		// A shooting phase before the charge moves nobody without Zzzzap!.
		{"target_flees beyond the longest charge after a shooting phase",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, distance: 20, phases: [shooting, charge, combat], options: {target_flees: true}}\n",
			"t.yaml:3:212: target_flees: no point has a target that may flee"},
		// No other unit starts in combat with the acting unit, so a combat
		// phase before the charge moves nobody either.
		{"target_flees beyond the longest charge after a combat phase",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, others: [{name: C, side: enemy, distance: 5, " + rat + "}], distance: 20, phases: [combat, charge, combat], options: {target_flees: true}}\n",
			"t.yaml:3:301: target_flees: no point has a target that may flee"},
		{"target_flees beyond the longest charge",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, distance: [11, 20], phases: [charge, combat], options: {target_flees: true}}\n",
			"t.yaml:3:208: target_flees: no point has a target that may flee as its charge reaction: one charged from afar but within"},
		{"target_flees from a unit immune to psychology",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + ", rules: [Immunity (Psychology)]}, distance: [0, 6], phases: [charge, combat], options: {target_flees: true}}\n",
			"t.yaml:3:238: target_flees: no point has a target that may flee as its charge reaction"},
		// Options of troop types and places no unit has, at their values
		// (columns counted on the line as written).
		{"options of Skirmishers, flanks and monstrous types none has",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, distance: 0, phases: [combat], options: {skirmishers_ranks: true, skirmishers_disrupt: true, disrupt_ranks: 3, monstrous_support: 2}}\n",
			"t.yaml:3:198: skirmishers_ranks: no unit is Skirmishers that fights in ranks (a Swarm has none), the only units it changes; remove it\n" +
				"t.yaml:3:225: skirmishers_disrupt: no Skirmishers that fight in ranks (a Swarm has none) fight in a flank or rear, the only units it changes; remove it\n" +
				"t.yaml:3:246: disrupt_ranks: no unit fights in a flank or rear (flank or rear), which alone disrupts; remove it\n" +
				"t.yaml:3:268: monstrous_support: no unit is Monstrous Infantry, Monstrous Cavalry or a Monstrous Beast at a point with supporting attacks (supporting_attacks: true), the only attacks it caps; remove it"},
		// An attacker that declares a charge right before every shooting
		// phase never shoots: a unit that declared a charge does not
		// shoot that turn.
		{"a missile after a declared charge",
			"battle: {attacker: {name: A, " + rat + ", BS: 3, missile: {S: 3, range: 24}}, target: {name: B, " + rat + "}, distance: 8, phases: [charge, shooting], options: {firing_ranks: 1}}\n",
			"t.yaml:3:238: firing_ranks: the attacker never fires its missile weapon, the only one it changes (it declares a charge in the charge phase before every shooting phase, and does not shoot that turn); remove it\n" +
				"t.yaml:3:203: shooting: the attacker declares a charge in the charge phase before it at every point"},
		// A Swarm is Skirmishers with no ranks; supporting attacks turned
		// off leave nothing to cap; a friend of the acting unit never
		// fights, so its types, saves and immunities decide nothing.
		{"Skirmishers options with a Swarm",
			"battle: {attacker: {name: A, troop: Swarm, models: 10, width: 3, " + rat + ", flank: true}, target: {name: B, " + rat + "}, distance: 0, phases: [combat], options: {skirmishers_ranks: true, skirmishers_disrupt: true}}\n",
			"t.yaml:3:247: skirmishers_ranks: no unit is Skirmishers that fights in ranks"},
		{"monstrous support without supporting attacks",
			"battle: {attacker: {name: A, troop: Monstrous Infantry, " + rat + "}, target: {name: B, " + rat + "}, distance: 0, phases: [combat], options: {supporting_attacks: false, monstrous_support: 2}}\n",
			"t.yaml:3:252: monstrous_support: no unit is Monstrous Infantry"},
		{"Killing Blow against a friend's type",
			"battle: {attacker: {name: A, " + rat + ", rules: [Killing Blow]}, target: {name: B, " + rat + "}, others: [{name: F, side: friend, distance: 30, troop: Monster, W: 4, " + rat + "}], distance: 0, phases: [combat], options: {killing_blow: none}}\n",
			"t.yaml:3:331: killing_blow: no unit strikes with Killing Blow"},
		{"wards of a friend",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, others: [{name: F, side: friend, distance: 30, " + rat + ", ward: 5+, parry: 6+}], distance: 0, phases: [combat], options: {wards: best}}\n",
			"t.yaml:3:300: wards: no unit has both"},
		{"Terror of a friend",
			"battle: {attacker: {name: A, " + rat + ", rules: [Immunity (Fear)]}, target: {name: B, " + rat + "}, others: [{name: F, side: friend, distance: 30, troop: Monster, W: 4, " + rat + "}], distance: 0, phases: [combat], options: {terror_vs_immune_fear: fear}}\n",
			"t.yaml:3:343: terror_vs_immune_fear: no Terror-causer faces"},
		// Blow and save options for blows and saves no unit has: Killing
		// Blow only against Infantry, which it slays; a ward with no Parry
		// (Parry with no ward, and a mounted unit's Parry, which it never
		// takes); Terror where no unit has Immunity (Fear).
		{"blow and save options none reads",
			"battle: {attacker: {name: A, " + rat + ", rules: [Killing Blow, Terror]}, target: {name: B, " + rat + ", ward: 5+}, distance: 0, phases: [combat], options: {killing_blow: none, wards: best, terror_vs_immune_fear: fear}}\n",
			"t.yaml:3:234: killing_blow: no unit strikes with Killing Blow at a unit of a type it cannot slay (Infantry, Cavalry and War Beasts it slays), the only blows it changes; remove it\n" +
				"t.yaml:3:247: wards: no unit has both a ward save and a Parry save it may take (mounted models take none), the only saves it joins; remove it\n" +
				"t.yaml:3:276: terror_vs_immune_fear: no Terror-causer faces a unit whose only shield from it is Immunity (Fear) (not immune to Terror or to psychology, nor causing Fear or Terror), the only units it changes; remove it"},
		// Zzzzap! written on a unit that is not the attacker never fires.
		{"Zzzzap! on others",
			"battle: {attacker: {name: A, " + rat + ", BS: 3, missile: {S: 3, range: 24}}, target: {name: B, " + rat + "}, others: [{name: Z, side: friend, distance: 3, troop: Chariot, " + rat + ", W: 5, rules: [Zzzzap!]}], distance: 10, phases: [shooting, combat]}\n",
			"t.yaml:3:293: Zzzzap! on unit \"Z\": only the attacker shoots in a battle"},
		// Loss of Control's two readings part only over a combat's wounds;
		// a pursuer that never pursues never goes Out of Control.
		{"loss_of_control without a combat phase",
			"battle: {attacker: {use: Doomwheel}, target: {name: B, " + rat + "}, distance: 6, phases: [shooting], options: {loss_of_control: end_of_phase}}\n",
			"t.yaml:3:161: loss_of_control: the battle has no combat phase"},
		{"pursuer_out_of_control without a pursuit",
			"battle: {attacker: {use: Doomwheel}, target: {name: B, " + rat + "}, distance: 6, phases: [charge, combat], options: {pursue: false, loss_of_control: end_of_phase, out_of_control: towards, pursuer_out_of_control: moves}}\n",
			"t.yaml:3:245: pursuer_out_of_control: a pursuer goes Out of Control only"},
		// A friend's break sets off Panic only beside a friend; a fleeing
		// unit is caught only by a charge or a pursuit.
		{"panic_friend_us without friends",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, distance: 0, phases: [combat], options: {panic_friend_us: 5}}\n",
			"t.yaml:3:196: panic_friend_us: no side has two units or more"},
		// The paths decide how a move meets the units besides the
		// attacker and the target, and nothing where there are none.
		{"charge_path without others",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, distance: 8, phases: [charge, combat], options: {charge_path: line}}\n",
			"t.yaml:3:200: charge_path: the battle has no unit besides the attacker and the target (others)"},
		{"pursuit_path without others",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, distance: 0, phases: [combat], options: {pursuit_path: [clear, line]}}\n",
			"t.yaml:3:193: pursuit_path: the battle has no unit besides the attacker and the target (others)"},
		// Unbreakable units never flee: what follows a flight is read
		// at no point.
		{"pursue between Unbreakable units",
			"battle: {attacker: {name: A, " + rat + ", rules: [Unbreakable]}, target: {name: B, " + rat + ", rules: [Unbreakable]}, distance: 0, phases: [combat], options: {pursue: restrain, caught: destroyed}}\n",
			"t.yaml:3:231: pursue: every unit is Unbreakable at every point, so none ever flees"},
		{"caught between Unbreakable units",
			"battle: {attacker: {name: A, " + rat + ", rules: [Unbreakable]}, target: {name: B, " + rat + ", rules: [Unbreakable]}, distance: 0, phases: [combat], options: {caught: destroyed}}\n",
			"t.yaml:3:231: caught: every unit is Unbreakable at every point, so none ever flees"},
		{"caught without a pursuit",
			"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, distance: 0, phases: [combat], options: {caught: destroyed, pursue: false}}\n",
			"t.yaml:3:187: caught: no unit can catch a fleeing one"},
		{"caught where Out of Control goes away",
			"battle: {attacker: {use: Doomwheel}, target: {name: B, " + rat + "}, distance: 10, phases: [shooting, shooting], options: {out_of_control: away, caught: destroyed}}\n",
			"t.yaml:3:185: caught: no unit can catch a fleeing one"},
		{"caught without a combat or charge",
			"battle: {attacker: {name: A, " + rat + ", BS: 3, missile: {S: 3, range: 24}}, target: {name: B, " + rat + "}, distance: 10, phases: [shooting], options: {caught: destroyed}}\n",
			"t.yaml:3:225: caught: no unit can catch a fleeing one"},
		{"Terror against a unit immune to it",
			"battle: {attacker: {name: A, " + rat + ", rules: [Terror]}, target: {name: B, " + rat + ", rules: [Immunity (Fear), Immunity (Terror)]}, distance: 0, phases: [combat], options: {terror_vs_immune_fear: fear}}\n",
			"t.yaml:3:264: terror_vs_immune_fear: no Terror-causer faces"},
		{"Terror against a Fear-causer with Immunity (Fear)",
			"battle: {attacker: {name: A, " + rat + ", rules: [Terror]}, target: {name: B, " + rat + ", rules: [Fear, Immunity (Fear)]}, distance: 0, phases: [combat], options: {terror_vs_immune_fear: fear}}\n",
			"t.yaml:3:251: terror_vs_immune_fear: no Terror-causer faces"},
		{"Zzzzap! with Random Movement not D6s alone",
			"battle: {attacker: {name: D, troop: Chariot, S: 6, T: 6, W: 5, Ld: 7, crew: [{name: C, WS: 3, S: 2, I: 4, A: 1}], rules: [Random Movement (2D6+2), Zzzzap!]}, target: {name: B, " + rat + "}, distance: 6, phases: [shooting]}\n",
			`t.yaml:3:123: Random Movement (2D6+2) on "D", which shoots with Zzzzap!: a Disaster takes one D6 from its movement`},
	} {
		wantError(t, tt.name, head+tt.src, tt.want)
	}
	// What a question does read, or what changes nothing (a false flank),
	// loads.
	for _, src := range []string{
		"charge: {unit: {name: A, M: 4, higher_ground: false}, distance: 5}\n",
		"charge: {unit: [{name: A, rules: [Random Movement (3D6)]}, {name: B, M: 5}], distance: 6, table: [wap, 8th]}\n",
		"battle: {attacker: {use: Doomwheel}, target: {name: B, " + rat + "}, distance: 6, phases: [charge, shooting, combat], options: {zzzzap_bolts: 5, out_of_control: towards, loss_of_control: end_of_phase}}\n",
		"battle: {attacker: {use: Doomwheel}, target: {name: B, " + rat + "}, distance: 6, phases: [charge, combat], options: {pursuer_out_of_control: moves, out_of_control: [in_place, away], loss_of_control: end_of_phase}}\n",
		"battle: {attacker: {use: Doomwheel}, target: {name: B, " + rat + "}, distance: 6, phases: [charge, combat], options: {out_of_control: towards, loss_of_control: [when_wounded, end_of_phase]}}\n",
		"battle: {attacker: [{name: A, " + rat + ", rules: [Random Movement (3D6)]}, {name: C, " + rat + "}], target: {name: B, " + rat + "}, distance: 6, phases: [charge, combat], options: {target_flees: true}}\n",
		"charge: {unit: {name: Harpies, M: 4, rules: [Fly (9)], flying: [false, true]}, distance: 12}\n",
		"battle: {attacker: {name: A, " + rat + ", rules: [Fly (8)], flying: false}, target: {name: B, " + rat + "}, distance: 6, phases: [charge, combat]}\n",
		"battle: {attacker: {name: D, troop: Chariot, S: 6, T: 6, W: 5, Ld: 7, crew: [{name: C, WS: 3, S: 2, I: 4, A: 1}], rules: [Random Movement (2D6+2), Zzzzap!]}, target: {name: B, " + rat + "}, distance: 6, phases: [charge, combat]}\n",
		"charge: {unit: {name: A, M: 4, models: 10, champion: {name: Champ, A: 2}, crew: [{name: C, count: 3, A: 1}]}, distance: 5}\n",
		"battle: {attacker: {name: A, models: 10, " + rat + ", rules: [Fly (8)], rear: true}, target: {name: B, " + rat + "}, distance: 0, phases: [combat], options: {skirmishers_ranks: true, skirmishers_disrupt: true, disrupt_ranks: 3}}\n",
		"battle: {attacker: {name: A, troop: Monstrous Infantry, " + rat + "}, target: {name: B, " + rat + "}, distance: 0, phases: [combat], options: {monstrous_support: 2}}\n",
		"battle: {attacker: {name: A, " + rat + ", rules: [Killing Blow]}, target: {name: B, troop: Monster, W: 6, " + rat + "}, distance: 0, phases: [combat], options: {killing_blow: none}}\n",
		"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + ", ward: 5+, parry: 6+}, distance: 0, phases: [combat], options: {wards: best}}\n",
		"battle: {attacker: {name: A, " + rat + ", rules: [Terror]}, target: {name: B, " + rat + ", rules: [Immunity (Fear)]}, distance: 0, phases: [combat], options: {terror_vs_immune_fear: fear}}\n",
		"battle: {attacker: {name: A, troop: Monstrous Infantry, " + rat + "}, target: {name: B, " + rat + "}, distance: 0, phases: [combat], options: {supporting_attacks: [false, true], monstrous_support: 2}}\n",
		// An Out of Control move towards the target before the charge may
		// bring it within the longest charge (4 + 6 here).
		"battle: {attacker: {name: W, troop: Chariot, M: 4, WS: 3, S: 5, T: 5, W: 5, I: 3, A: 3, Ld: 7, rules: [Zzzzap!]}, target: {name: B, " + rat + "}, distance: 12, phases: [shooting, charge], options: {out_of_control: towards, target_flees: true}}\n",
		// A shooting phase of another turn, a charge that may go
		// undeclared (a Terror test, Random Movement, a target beyond the
		// longest charge, 4 + 6 here): the missile fires.
		"battle: {attacker: {name: A, " + rat + ", BS: 3, missile: {S: 3, range: 24}}, target: {name: B, " + rat + "}, distance: [8, 11], phases: [charge, shooting], options: {firing_ranks: 1}}\n",
		"battle: {attacker: {name: A, " + rat + ", BS: 3, missile: {S: 3, range: 24}}, target: {name: B, " + rat + "}, distance: 20, phases: [shooting, charge, shooting], options: {firing_ranks: 1}}\n",
		"battle: {attacker: {name: A, " + rat + ", BS: 3, missile: {S: 3, range: 24}}, target: {name: B, " + rat + ", rules: [Terror]}, distance: 20, phases: [charge, shooting], options: {firing_ranks: 1}}\n",
		"battle: {attacker: {name: A, " + rat + ", BS: 3, missile: {S: 3, range: 24}, rules: [Random Movement (2D6)]}, target: {name: B, " + rat + "}, distance: 20, phases: [charge, shooting], options: {firing_ranks: 1}}\n",
		"battle: {attacker: {name: A, " + rat + ", rules: [Killing Blow]}, target: {name: B, " + rat + "}, others: [{name: E, side: enemy, distance: 30, troop: Monster, W: 4, " + rat + "}], distance: 0, phases: [combat], options: {killing_blow: none}}\n",
		"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, others: [{name: C, side: friend, distance: 3, " + rat + "}], distance: 0, phases: [combat], options: {panic_friend_us: 5}}\n",
		"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, others: [{name: E, side: enemy, distance: 3, " + rat + "}], distance: 0, phases: [combat], options: {panic_friend_us: 5}}\n",
		"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, distance: 0, phases: [combat], options: {caught: destroyed, pursue: [false, restrain]}}\n",
		"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, others: [{name: C, side: friend, distance: 3, " + rat + "}], distance: 8, phases: [charge, combat], options: {charge_path: line, pursuit_path: line}}\n",
		// A unit that may break, at some point or among several.
		"battle: {attacker: {name: A, " + rat + ", rules: [Unbreakable]}, target: {name: B, " + rat + ", rules: [{Unbreakable: [false, true]}]}, distance: 0, phases: [combat], options: {pursue: restrain, caught: destroyed}}\n",
		"battle: {attacker: {name: A, " + rat + ", rules: [Unbreakable]}, target: {name: B, " + rat + ", rules: [Unbreakable]}, others: [{name: C, side: friend, distance: 3, " + rat + "}], distance: 0, phases: [combat], options: {caught: destroyed}}\n",
		"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, distance: 8, phases: [charge], options: {caught: destroyed}}\n",
		// An Out of Control move catches a fleeing unit it reaches.
		"battle: {attacker: {use: Doomwheel}, target: {name: B, " + rat + "}, distance: 10, phases: [shooting, shooting], options: {out_of_control: towards, caught: destroyed}}\n",
		"battle: {attacker: {use: Doomwheel}, target: {name: B, " + rat + "}, distance: 0, phases: [combat, combat], options: {pursue: false, loss_of_control: end_of_phase, out_of_control: towards, caught: destroyed}}\n",
		// A card's Zzzzap! on another unit is left unused, as a card's bow.
		"battle: {attacker: {name: A, " + rat + ", BS: 3, missile: {S: 3, range: 24}}, target: {name: B, " + rat + "}, others: [{use: Doomwheel, side: friend, distance: 3}], distance: 10, phases: [shooting]}\n",
		// A combat phase fought at some point of a sweep, or after an Out
		// of Control move towards the target.
		"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, distance: [0, 5], phases: [combat]}\n",
		"battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, distance: [10, 50], phases: [charge, combat]}\n",
		// A Burst of Speed before the charge (4D6 reaches 19"); a Random
		// Movement move along the line that meets another enemy first.
		"battle: {attacker: {use: Doomwheel}, target: {name: B, " + rat + "}, distance: 19, phases: [shooting, charge, combat]}\n",
		"battle: {attacker: {name: A, " + rat + ", rules: [Random Movement (2D6)]}, target: {name: B, " + rat + "}, others: [{name: C, side: enemy, distance: 5, " + rat + "}], distance: 30, phases: [charge, combat], options: {charge_path: line}}\n",
		"battle: {attacker: {use: Doomwheel}, target: {name: B, " + rat + "}, distance: 10, phases: [shooting, combat], options: {out_of_control: towards}}\n",
	} {
		if _, err := registry.Parse("t.yaml", []byte(head+src)); err != nil {
			t.Errorf("%s: %v", src, err)
		}
	}
}

// TestMissileReadOnlyWhereItShoots: only a battle's attacker shoots, in a
// shooting phase. A missile weapon a scenario writes on a unit of a
// charge or pursuit question, on a battle's target or others, or on an
// attacker in a battle without a shooting phase, is refused at its
// mapping; one a card carries and its use leaves alone is left unused, the
// card being written for every question. An attacker that would shoot a
// missile at BS - (which hits nothing) is refused at the BS; a card's bow
// with BS - on a unit that does not shoot is left unused too.
func TestMissileReadOnlyWhereItShoots(t *testing.T) {
	head := "name: t\nruleset: fantasy\n"
	rat := "M: 4, WS: 3, BS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7"
	bow := "missile: {S: 3, range: 24}"
	at := func(line, key string) string { // the column after "key: "
		return strconv.Itoa(strings.Index(line, key) + len(key) + 3)
	}
	for _, tt := range []struct{ name, src, want string }{
		{"a charge", "charge: {unit: {name: A, " + rat + ", " + bow + "}, distance: 8}",
			`missile on unit "A": a charge question shoots nothing`},
		{"a pursuit", "pursuit: {pursuing: {name: A, " + rat + ", " + bow + "}, fleeing: {name: B, M: 5}}",
			`missile on unit "A": a pursuit question shoots nothing`},
		{"the target", "battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + ", " + bow + "}, distance: 10, phases: [charge, combat]}",
			`missile on unit "B": only the attacker shoots in a battle`},
		{"others", "battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, others: [{name: C, side: enemy, distance: 9, " + rat + ", " + bow + "}], distance: 10, phases: [shooting]}",
			`missile on unit "C": only the attacker shoots in a battle`},
		{"no shooting phase", "battle: {attacker: {name: A, " + rat + ", " + bow + "}, target: {name: B, " + rat + "}, distance: 10, phases: [charge, combat]}",
			`missile on unit "A": the battle has no shooting phase`},
	} {
		want := "t.yaml:3:" + at(tt.src, "missile") + ": " + tt.want
		wantError(t, tt.name, head+tt.src+"\n", want)
	}
	noBS := "battle: {attacker: {name: A, M: 4, WS: 3, BS: \"-\", S: 3, T: 3, I: 3, A: 1, Ld: 7, " + bow + "}, target: {name: B, " + rat + "}, distance: 10, phases: [shooting]}"
	wantError(t, "BS -", head+noBS+"\n", "t.yaml:3:"+at(noBS, "BS")+`: unit "A" shoots a missile weapon at BS -, with which nothing hits`)
	// A BS not given at all is one problem, told once, at the weapon.
	unsaid := "battle: {attacker: {name: A, M: 4, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7, " + bow + "}, target: {name: B, " + rat + "}, distance: 10, phases: [shooting]}"
	_, err := registry.Parse("t.yaml", []byte(head+unsaid+"\n"))
	if want := "t.yaml:3:" + at(unsaid, "missile") + `: unit "A" has a missile weapon but no BS`; err == nil || err.Error() != want {
		t.Errorf("no BS: got %v, want only %s", err, want)
	}

	// A card's bow, used where nothing shoots, loads.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "units.yaml"), []byte("ruleset: fantasy\nunits:\n  - {name: Archers, models: 10, "+rat+", "+bow+"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, src := range []string{
		"charge: {unit: {use: Archers}, distance: 8}\n",
		"battle: {attacker: {use: Archers}, target: {use: Archers, name: Bowmen}, others: [{use: Archers, name: Skirmish Line, side: enemy, distance: 9}], distance: 10, phases: [charge, combat]}\n",
		"battle: {attacker: {name: A, " + rat + ", " + bow + "}, target: {name: B, " + rat + "}, distance: 10, phases: [shooting]}\n",
		"battle: {attacker: {use: Archers}, target: {use: Archers, name: Bowmen, BS: \"-\"}, distance: 10, phases: [shooting]}\n",
		"charge: {unit: {use: Archers, BS: \"-\"}, distance: 8}\n",
	} {
		path := filepath.Join(dir, fmt.Sprintf("s%d.yaml", i))
		if err := os.WriteFile(path, []byte(head+src), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := registry.Load(path); err != nil {
			t.Errorf("%s: %v", src, err)
		}
	}
	// A card's BS - shooting: refused at the use that makes it shoot, the
	// card being right for every question that does not.
	if err := os.WriteFile(filepath.Join(dir, "units.yaml"), []byte("ruleset: fantasy\nunits:\n  - {name: Archers, models: 10, "+rat+", "+bow+"}\n  - {name: Bowmen, models: 10, M: 4, WS: 3, BS: \"-\", S: 3, T: 3, I: 3, A: 1, Ld: 7, "+bow+"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	shooter := filepath.Join(dir, "shooter.yaml")
	if err := os.WriteFile(shooter, []byte(head+"battle:\n  attacker: {use: Bowmen}\n  target: {use: Archers}\n  distance: 10\n  phases: [shooting]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := registry.Load(shooter); err == nil || !strings.HasPrefix(err.Error(), shooter+":4:13: unit \"Bowmen\" shoots a missile weapon at BS - (its card's)") {
		t.Errorf("a card's BS - made to shoot: %v", err)
	}
	// A use that writes a missile of its own is the scenario's.
	own := "battle: {attacker: {use: Clanrats}, target: {use: Clanrats, BS: 3, " + bow + "}, distance: 10, phases: [charge, combat]}"
	wantError(t, "a use's own missile", head+own+"\n", "t.yaml:3:"+at(own, "missile")+`: missile on unit "Clanrats": only the attacker shoots in a battle`)
}

// TestSweptValuesReadByNothing: a value swept where the question reads
// none of it gives every point the same answer, and is refused at the
// sweep: a charge or pursuit reads a unit's M and rules alone, and not its
// M beside Random Movement; a battle reads BS only in the attacker's
// missile weapon, in a shooting phase. Fixed values go unread as before (a
// card holds a whole profile), and the same sweeps load where they are
// read.
func TestSweptValuesReadByNothing(t *testing.T) {
	head := "name: t\nruleset: fantasy\n"
	rat := "M: 4, WS: 3, S: 3, T: 3, I: 3, A: 1, Ld: 7"
	col := func(line, key string) string { // the column of the key's value
		return strconv.Itoa(strings.Index(line, key+": ") + len(key) + 3)
	}
	for _, tt := range []struct{ name, src, key, want string }{
		{"WS in a charge", "charge: {unit: {name: A, M: 5, WS: [3, 4]}, distance: 8}", "WS",
			`WS is swept on unit "A", but a charge question reads only the unit's M and its rules`},
		{"armour in a pursuit", "pursuit: {pursuing: {name: A, M: 5, armour: [4+, 5+]}, fleeing: {name: B, M: 5}}", "armour",
			`armour is swept on unit "A", but a pursuit question reads only the unit's M and its rules`},
		{"A in a charge", "charge: {unit: {name: A, M: 5, A: [1, D3]}, distance: 8}", "A",
			`A is swept on unit "A", but a charge question reads only the unit's M and its rules`},
		{"M beside Random Movement", "charge: {unit: {name: A, M: [5, 7], rules: [Random Movement (3D6)]}, distance: 8}", "M",
			`M is swept on unit "A", but its Random Movement is the whole of its move at every point`},
		{"M beside Fly", "charge: {unit: {name: A, M: [5, 7], rules: [Fly (10)]}, distance: 12}", "M",
			`M is swept on unit "A", but it charges by flying at every point, which moves it by its Fly value, not its M`},
		{"M beside Tunneller", "charge: {unit: {name: A, M: [5, 7], flying: true, rules: [Tunneller (10)]}, distance: 12}", "M",
			`M is swept on unit "A", but it charges by flying at every point, which moves it by its Tunneller value, not its M`},
		{"BS without a shooting phase", "battle: {attacker: {name: A, " + rat + ", BS: [2, 4], missile: {S: 3, range: 24}}, target: {name: B, " + rat + ", BS: 3}, distance: 0, phases: [combat]}", "BS",
			`missile on unit "A": the battle has no shooting phase`},
		{"BS without a missile weapon", "battle: {attacker: {name: A, " + rat + ", BS: [2, 4]}, target: {name: B, " + rat + ", BS: 3}, distance: 10, phases: [shooting, combat]}", "BS",
			`BS is swept on unit "A", but it has no missile weapon, the only thing BS changes`},
		{"BS of the target", "battle: {attacker: {name: A, " + rat + ", BS: 3}, target: {name: B, " + rat + ", BS: [2, 4]}, distance: 0, phases: [combat]}", "target: {name: B, " + rat + ", BS",
			`BS is swept on unit "B", but only the attacker shoots in a battle`},
		// Only the attacker's price is read, by the _per_100_points
		// metrics: the target's or another unit's labelled rows alike.
		{"points of the target", "battle: {attacker: {name: A, " + rat + ", points: 50}, target: {name: B, " + rat + ", points: [100, 200]}, distance: 0, phases: [combat]}", "target: {name: B, " + rat + ", points",
			`points is swept on unit "B", but only the attacker's points are read (wounds_per_100_points, models_killed_per_100_points); every value gives the same answer: sweep the attacker's`},
		{"points of another unit", "battle: {attacker: {name: A, " + rat + "}, target: {name: B, " + rat + "}, others: [{name: C, " + rat + ", side: friend, distance: 3, points: [1, 2]}], distance: 0, phases: [combat]}", "side: friend, distance: 3, points",
			`points is swept on unit "C", but only the attacker's points are read`},
	} {
		_, err := registry.Parse("t.yaml", []byte(head+tt.src+"\n"))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v; want %q", tt.name, err, tt.want)
			continue
		}
		// Placed at the sweep, where it says the key (the missile's own
		// refusal is at the missile).
		if !strings.HasPrefix(tt.want, "missile") {
			if want := "t.yaml:3:" + col(tt.src, tt.key) + ": "; !strings.Contains(err.Error(), want+tt.want) {
				t.Errorf("%s: %v; want it at %s", tt.name, err, want)
			}
		}
	}
	// Several in one unit are told in the order written.
	two := "charge: {unit: {name: A, M: [5, 7], WS: [3, 4], rules: [Fly (10)]}, distance: 12}"
	_, err := registry.Parse("t.yaml", []byte(head+two+"\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "t.yaml:3:"+col(two, "M")+`: M is swept`) || !strings.Contains(err.Error(), "\nt.yaml:3:"+col(two, "WS")+": WS is swept") {
		t.Errorf("M and WS swept beside Fly: %v", err)
	}
	for _, src := range []string{
		"charge: {unit: {name: A, M: [5, 7], WS: 3}, distance: 8}",
		"charge: {unit: {name: A, M: [5, 7], rules: [Swiftstride]}, distance: 8}",
		"charge: {unit: {name: A, M: 7, WS: 3, rules: [Random Movement (3D6)]}, distance: 8}",
		"pursuit: {pursuing: {name: A, M: [4, 9]}, fleeing: {name: B, M: 5}}",
		// A flyer's M is read where some point charges on the ground, and
		// in a pursuit, which is on the ground.
		"charge: {unit: {name: A, M: [5, 7], rules: [Fly (10)]}, distance: 12, flying: [false, true]}",
		"charge: {unit: {name: A, M: [5, 7], flying: false, rules: [Fly (10)]}, distance: 12}",
		"pursuit: {pursuing: {name: A, M: [4, 9], rules: [Fly (10)]}, fleeing: {name: B, M: 5}}",
		"battle: {attacker: {name: A, " + rat + ", BS: [2, 4], missile: {S: 3, range: 24}}, target: {name: B, " + rat + ", BS: 3}, distance: 10, phases: [shooting]}",
		"battle: {attacker: {name: A, " + rat + ", BS: 3}, target: {name: B, " + rat + ", BS: 3, armour: [4+, 5+]}, distance: 0, phases: [combat]}",
	} {
		if _, err := registry.Parse("t.yaml", []byte(head+src+"\n")); err != nil {
			t.Errorf("%s: %v", src, err)
		}
	}
}
