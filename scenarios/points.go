package scenarios

import (
	"slices"
	"strconv"
)

// MaxUnitPoints is the largest points cost a unit may be written with.
const MaxUnitPoints = 100_000

// PerModel decides how a unit's points are read (docs/scenarios.md,
// Points per model), for unit n named name, whose models and points are
// read from modelsAt and pointsAt (nil where not written). A card's points
// are what its models cost: a use of the card that changes its models, and
// writes no points of its own, pays the card's points per model (card
// points x models / card models, not rounded), and PerModel returns the
// card's models, which the price is for. Otherwise it returns 0: the
// points are the unit's as written. Points written in the same mapping as
// a swept models would be one cost for units of every size, and are
// refused. Where nothing reads the unit's price (read false: a target's),
// none of this is refused, since no answer hangs on it.
func (d *Decoder) PerModel(n *Node, name string, models, points Param[int], modelsAt, pointsAt *Node, read bool) int {
	if !points.Set() || !models.Set() {
		return 0
	}
	_, pointsChanged, used := n.CardKey("points")
	cardModels, modelsChanged, _ := n.CardKey("models")
	if used && modelsChanged && !pointsChanged {
		if cardModels == nil { // the card is one model, by default
			return 1
		}
		if v, err := strconv.Atoi(cardModels.Text); err == nil && cardModels.Kind == ScalarNode && v >= 1 {
			return v
		}
		if !read {
			return 0
		}
		d.Errorf(modelsAt, "models on %q changes its card's, which are %s, not one number for its points to be priced per model by; give points beside models",
			name, cardModels.Describe())
		return 0
	}
	sizes := models.Values()
	if !read {
		return 0
	}
	if used && !modelsChanged && !pointsChanged {
		// Both from the card. Checked by itself, a card whose models are
		// swept at one price is usable with points given beside models,
		// which only a use settles; a use that gives neither is refused
		// where it is written.
		if !d.CheckingCard() && len(sizes) > 1 && len(points.Values()) == 1 {
			d.Errorf(n, "%q takes its card's models, swept (%d to %d), at the card's one price, %d points, which would be the cost of every size; give models and points beside use, one size at a time",
				name, slices.Min(sizes), slices.Max(sizes), points.Values()[0])
		}
		return 0
	}
	if len(sizes) > 1 && len(points.Values()) == 1 {
		// Written out in full, a unit may become a card's use, priced
		// per model; a use already is one, with points that stop it.
		fix := "give each size a unit of its own with its points, or sweep models on a use of a card, which prices the card's points per model"
		switch cardPoints, _, _ := n.CardKey("points"); {
		case used && modelsChanged && cardPoints != nil:
			// The card has a price, for its own models: without points
			// beside them, the use pays it per model.
			fix = "leave points out to pay the card's price per model, or give each size a use of its own, with its models and its points"
		case used:
			fix = "give each size a use of its own, with its models and its points"
		}
		d.Errorf(pointsAt, "points %d on %q would be the cost of every size its models sweep (%d to %d models); %s",
			points.Values()[0], name, slices.Min(sizes), slices.Max(sizes), fix)
	}
	return 0
}

// PriceAt is a unit's points cost at a point of its sweep: its points as
// written, or, where perModelOf is above 0 (PerModel), its card's points
// for perModelOf models paid for each of its models. The division is one
// of whole numbers: the nearest float64 to the price.
func PriceAt(points, models, perModelOf int) float64 {
	if perModelOf > 0 {
		return float64(points*models) / float64(perModelOf)
	}
	return float64(points)
}
