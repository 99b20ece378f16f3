package heresy

import "hammersim/mechanics"

// StupefyPolicy is how the controlling player of a unit with Lords of
// Profligacy chooses whether it becomes Stupefied after a Shooting Attack
// against it.
type StupefyPolicy uint8

const (
	// StupefyNever never chooses it.
	StupefyNever StupefyPolicy = iota
	// StupefyAlways chooses it whenever the unit may.
	StupefyAlways
	// StupefyWhenItPays chooses it when it saves more of the unit's models
	// than it costs the enemy's, by exact expected casualties (see
	// StupefyChooser.Choose).
	StupefyWhenItPays
)

func (p StupefyPolicy) String() string {
	switch p {
	case StupefyNever:
		return "never"
	case StupefyAlways:
		return "always"
	case StupefyWhenItPays:
		return "when it pays"
	}
	return "StupefyPolicy(?)"
}

// StupefyStakes is what StupefyWhenItPays weighs: the Shooting Attack the
// unit expects to receive next, and its own next one. A nil unit leaves
// that side out.
type StupefyStakes struct {
	// Enemy is the unit expected to shoot it next, with EnemyWeapons.
	Enemy        *Unit
	EnemyWeapons []Weapon
	// OwnTarget is the unit it means to shoot next, with OwnWeapons.
	OwnTarget  *Unit
	OwnWeapons []Weapon
	// Situation is how the enemy's attack is made (distance, whether the
	// enemy moved); OwnSituation how the unit's own is made, in its own
	// turn, whatever the enemy did.
	Situation, OwnSituation Situation
}

// StupefyChooser applies a StupefyPolicy. It holds scratch space, so that
// choosing does not allocate once it has grown; it must not be shared
// between goroutines. The zero value uses StupefyNever.
type StupefyChooser struct {
	Policy StupefyPolicy
	att    Attack
}

// Choose reports whether unit u, just shot at, should become Stupefied; it
// never says yes to a unit that may not (see Unit.CanStupefy). It does not
// change u.
//
// StupefyWhenItPays compares, with u Stupefied and not, the exact expected
// casualties u suffers from the enemy's attack (the Stupefied roll, the
// only effect on incoming shots) with the exact expected casualties u
// inflicts with its own (Snap Shots, +1 Strength), and chooses Stupefied
// when the casualties saved exceed the casualties given up. Other effects
// (no Reactions, no Morale checks or Pinning from shooting, Disordered
// charges) are not weighed.
func (c *StupefyChooser) Choose(u *Unit, st StupefyStakes, o Options) bool {
	if !u.CanStupefy(o) {
		return false
	}
	switch c.Policy {
	case StupefyAlways:
		return true
	case StupefyWhenItPays:
	default:
		return false
	}
	stu := *u
	stu.Stupefied = max(stu.Stupefied, 1)
	stu.Ignored |= stu.Conditions
	saved, lost := 0.0, 0.0
	if st.Enemy != nil {
		c.att.PrepareAt(st.Enemy, st.EnemyWeapons, u, st.Situation, o)
		saved = c.att.ExpectedCasualties(u)
		c.att.PrepareAt(st.Enemy, st.EnemyWeapons, &stu, st.Situation, o)
		saved -= c.att.ExpectedCasualties(&stu)
	}
	if st.OwnTarget != nil {
		c.att.PrepareAt(u, st.OwnWeapons, st.OwnTarget, st.OwnSituation, o)
		lost = c.att.ExpectedCasualties(st.OwnTarget)
		c.att.PrepareAt(&stu, st.OwnWeapons, st.OwnTarget, st.OwnSituation, o)
		lost -= c.att.ExpectedCasualties(st.OwnTarget)
	}
	return mechanics.Exceeds(saved, lost) // equal expectations are equal on every machine
}
