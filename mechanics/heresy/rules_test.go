package heresy

import (
	"reflect"
	"testing"

	"hammersim/mechanics"
)

func TestCatalogue(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Catalogue {
		if seen[mechanics.Canonical(r.Name)] {
			t.Errorf("%s listed twice", r.Name)
		}
		seen[mechanics.Canonical(r.Name)] = true
		if r.Summary == "" {
			t.Errorf("%s has no summary", r.Name)
		}
	}
	// Fantasy rules belong to the fantasy package, not here.
	for _, name := range []string{"Swiftstride", "Impact Hits", "Random Movement", "Fly", "Terror", "Stomp", "Tunneller"} {
		if _, ok := Catalogue.Lookup(name); ok {
			t.Errorf("the Heresy catalogue has the Fantasy rule %s", name)
		}
	}
	// States, not card rules.
	for _, name := range []string{"Stupefied", "Snap Shots"} {
		if _, ok := Catalogue.Lookup(name); ok {
			t.Errorf("%s is a state, not a rule on a card", name)
		}
	}
}

func TestApply(t *testing.T) {
	var p Profile
	for _, text := range []string{
		"Automated Artillery Sub-type", "Bulky (4)", "Sentry Protocols", "Firing Protocols (2)",
		"Lords of Profligacy", "Fearless", "Feel No Pain (5+)", "Eternal Warrior",
	} {
		r, err := Catalogue.Parse(text)
		if err != nil {
			t.Fatalf("Parse(%q): %v", text, err)
		}
		if err := p.Apply(r); err != nil {
			t.Errorf("Apply(%q): %v", text, err)
		}
	}
	want := Profile{AutomatedArtillery: true, Bulky: 4, SentryProtocols: true, FiringProtocols: 2,
		LordsOfProfligacy: true, Fearless: true, FeelNoPain: 5, EternalWarrior: true}
	if p != want {
		t.Errorf("applied profile %+v, want %+v", p, want)
	}
	r, _ := Catalogue.Parse("Feel No Pain (6)")
	if err := p.Apply(r); err != nil || p.FeelNoPain != 6 {
		t.Errorf("Feel No Pain (6): %v, %d", err, p.FeelNoPain)
	}

	var w Weapon
	for _, text := range []string{"Instant Death", "Ignores Cover"} {
		r, err := Catalogue.Parse(text)
		if err != nil {
			t.Fatalf("Parse(%q): %v", text, err)
		}
		if err := w.Apply(r); err != nil {
			t.Errorf("weapon Apply(%q): %v", text, err)
		}
		if err := p.Apply(r); err == nil {
			t.Errorf("a model took the weapon rule %s", text)
		}
	}
	if !w.InstantDeath || !w.IgnoresCover {
		t.Errorf("weapon %+v", w)
	}
	r, _ = Catalogue.Parse("Fearless")
	if err := w.Apply(r); err == nil {
		t.Error("a weapon took the model rule Fearless")
	}
	// A bare Poisoned is Poisoned (4+), as the 2022 army data print it.
	for text, want := range map[string]int{"Poisoned": 4, "Poisoned (3+)": 3} {
		var pw Weapon
		r, err := Catalogue.Parse(text)
		if err != nil {
			t.Fatalf("Parse(%q): %v", text, err)
		}
		if err := pw.Apply(r); err != nil || pw.Poisoned != want {
			t.Errorf("%s: %v, Poisoned %d, want %d", text, err, pw.Poisoned, want)
		}
	}
	for _, bad := range []string{"Bulky", "Feel No Pain (7+)", "Firing Protocols (0)"} {
		if _, err := Catalogue.Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

// TestApplyWeaponRules reads every weapon rule of the chain as printed and
// checks the field it sets.
func TestApplyWeaponRules(t *testing.T) {
	var w Weapon
	for _, text := range []string{
		"Rending (6+)", "Breaching (5+)", "Shred", "Twin-linked", "Master-crafted", "Gets Hot",
		"Poisoned (4+)", "Fleshbane", "Murderous Strike (6+)", "Brutal (3)", "Deflagrate",
		"Concussive (1)", "Rad-phage", "Sniper", "Precision Shots (6+)", "Blast (3\")", "Template",
	} {
		r, err := Catalogue.Parse(text)
		if err != nil {
			t.Fatalf("Parse(%q): %v", text, err)
		}
		if err := w.Apply(r); err != nil {
			t.Errorf("weapon Apply(%q): %v", text, err)
		}
	}
	want := Weapon{Rending: 6, Breaching: 5, Shred: true, TwinLinked: true, MasterCrafted: true, GetsHot: true,
		Poisoned: 4, Fleshbane: true, MurderousStrike: 6, Brutal: 3, Deflagrate: true, Concussive: 1,
		RadPhage: true, Sniper: true, PrecisionShots: 6, Blast: 3, Template: true}
	if !reflect.DeepEqual(w, want) {
		t.Errorf("applied weapon %+v, want %+v", w, want)
	}
	var p Profile
	for _, text := range []string{"Fear (2)", "Furious Charge (1)"} {
		r, _ := Catalogue.Parse(text)
		if err := p.Apply(r); err != nil {
			t.Errorf("Apply(%q): %v", text, err)
		}
		if err := w.Apply(r); err == nil {
			t.Errorf("a weapon took the model rule %s", text)
		}
	}
	if p.Fear != 2 || p.FuriousCharge != 1 {
		t.Errorf("profile %+v, want Fear 2, Furious Charge 1", p)
	}
	for _, bad := range []string{"Brutal (1)", "Blast (4\")", "Rending"} {
		if _, err := Catalogue.Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

// TestCatalogueHolders: what each rule is marked as written on, a model or
// a weapon, is exactly what Profile.Apply and Weapon.Apply take, so that a
// misspelt rule is only offered names its list may hold.
func TestCatalogueHolders(t *testing.T) {
	for i := range Catalogue {
		spec := &Catalogue[i]
		r, err := Catalogue.Parse(spec.Name + " " + mechanics.Example(spec))
		if err != nil {
			t.Fatalf("%s: %v", spec.Name, err)
		}
		var p Profile
		var w Weapon
		onModel, onWeapon := p.Apply(r) == nil, w.Apply(r) == nil
		switch {
		case spec.On == mechanics.OnModel && (!onModel || onWeapon),
			spec.On == mechanics.OnWeapon && (onModel || !onWeapon),
			spec.On == mechanics.AnyHolder:
			t.Errorf("%s is marked %d; Profile.Apply takes it: %t, Weapon.Apply: %t", spec.Name, spec.On, onModel, onWeapon)
		}
	}
}

// TestArmourbaneVariants: the bare rule and each variant set the weapon's
// Armourbane, in any case; "any", the bare rule's value, is not written in
// brackets.
func TestArmourbaneVariants(t *testing.T) {
	for text, want := range map[string]Armourbane{
		"Armourbane": ArmourbaneAny, "Armourbane (Melta)": ArmourbaneMelta, "Armourbane (melee)": ArmourbaneMelee,
		"Armourbane (Ranged)": ArmourbaneRanged, "Armourbane(Melta)": ArmourbaneMelta,
	} {
		r, err := Catalogue.Parse(text)
		var w Weapon
		if err != nil || w.Apply(r) != nil || w.Armourbane != want {
			t.Errorf("%q: %v, Armourbane %d, want %d", text, err, w.Armourbane, want)
		}
	}
	if _, err := Catalogue.Parse("Armourbane (any)"); err == nil {
		t.Error("Armourbane (any) read as a variant")
	}
}
