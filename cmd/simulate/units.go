package main

import (
	"fmt"
	"io"
	"strings"

	"hammersim/scenarios"
)

// runUnits lists the built-in unit cards, or prints one to copy.
func runUnits(args []string, stdout io.Writer) error {
	cards := scenarios.BuiltinUnits()
	switch {
	case len(args) == 0:
		for _, c := range cards {
			if _, err := fmt.Fprintf(stdout, "%-8s %-24s %s\n", c.Ruleset, c.Name, cardSummary(c)); err != nil {
				return err
			}
		}
		return nil
	case args[0] == "show" && len(args) >= 2:
		name := strings.Join(args[1:], " ")
		var found []*scenarios.UnitCard
		for _, c := range cards {
			if strings.EqualFold(c.Name, name) {
				found = append(found, c)
			}
		}
		if len(found) == 0 {
			return fmt.Errorf("no built-in unit card named %q (simulate units lists them)", name)
		}
		for i, c := range found {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			fmt.Fprintf(stdout, "# The built-in %s unit card %q. In a %s scenario, write {use: %s}\n# and change what differs, or copy it and edit it.\n", c.Ruleset, c.Name, c.Ruleset, c.Name)
			if _, err := io.WriteString(stdout, c.YAML()); err != nil {
				return err
			}
		}
		return nil
	}
	return usagef("units takes no arguments, or show and a unit's name (simulate units show Clanrats)")
}

// cardSummary is a card's profile line, or its first keys.
func cardSummary(c *scenarios.UnitCard) string {
	var parts []string
	for i, k := range c.Node.Keys {
		v := c.Node.Vals[i]
		switch {
		case k.Text == "profile":
			return v.Text
		case k.Text != "name" && v.Kind == scenarios.ScalarNode && len(parts) < 6:
			parts = append(parts, k.Text+" "+v.Text)
		}
	}
	return strings.Join(parts, ", ")
}
