package reports

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"hammersim/sim"
)

func TestWriteASCII(t *testing.T) {
	tests := []struct {
		name  string
		head  []string
		align string
		rows  [][]string
		want  string
	}{{
		name:  "labels left, numbers right, header aligned as its column",
		head:  []string{"distance", "M 4", "M 5"},
		align: "lrr",
		rows:  [][]string{{"6", "70.00", "100.00"}, {"7", "40.00", "70.00"}},
		want: `+----------+-------+--------+
| distance |   M 4 |    M 5 |
+----------+-------+--------+
| 6        | 70.00 | 100.00 |
| 7        | 40.00 |  70.00 |
+----------+-------+--------+
`,
	}, {
		name:  "a cell of two lines makes its row two lines high, the others padded below",
		head:  []string{"unit", "A"},
		align: "lr",
		rows:  [][]string{{"Clanrats", "25.0%\nexact 24.1%"}, {"Rats", "3"}},
		want: `+----------+-------------+
| unit     |           A |
+----------+-------------+
| Clanrats |       25.0% |
|          | exact 24.1% |
| Rats     |           3 |
+----------+-------------+
`,
	}, {
		name:  "a header of two lines",
		head:  []string{"attacker.\nname", "x"},
		align: "lr",
		rows:  [][]string{{"Doomwheel", "1"}},
		want: `+-----------+---+
| attacker. | x |
| name      |   |
+-----------+---+
| Doomwheel | 1 |
+-----------+---+
`,
	}, {
		// 日 and 本 take two columns each in a terminal, é (a letter) and
		// é (e with a combining accent) one: the border stays straight.
		name:  "widths in terminal columns",
		head:  []string{"name", "n"},
		align: "lr",
		rows:  [][]string{{"日本", "1"}, {"é", "2"}, {"e\u0301e", "3"}},
		want: "+------+---+\n" +
			"| name | n |\n" +
			"+------+---+\n" +
			"| 日本 | 1 |\n" +
			"| é    | 2 |\n" +
			"| e\u0301e   | 3 |\n" +
			"+------+---+\n",
	}, {
		name:  "no rows: the header alone",
		head:  []string{"value", "exactly"},
		align: "rr",
		want: `+-------+---------+
| value | exactly |
+-------+---------+
`,
	}, {
		name:  "a short row is padded with empty cells",
		head:  []string{"a", "b"},
		align: "ll",
		rows:  [][]string{{"x"}},
		want: `+---+---+
| a | b |
+---+---+
| x |   |
+---+---+
`,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := writeASCII(&b, tc.head, tc.align, tc.rows); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tc.want)
			}
		})
	}
}

// envTable is a report's table with a unit whose name holds letters that
// some terminals, told so by the locale or RUNEWIDTH_EASTASIAN, draw two
// columns wide.
func envTable() string {
	r := &sim.Report{Scenario: "env", Version: "test", Seed: 1, Trials: 10}
	r.Results = []sim.Estimate{sim.ProbabilityOf("won", []sim.Param{{Name: "unit", Value: "Légionnaires ×"}}, 4, 10)}
	var b bytes.Buffer
	WriteTable(&b, r)
	return b.String()
}

// TestTablesIgnoreTheEnvironment runs the test binary again with the
// settings that make East Asian terminals count such letters as two
// columns: its tables must be the same bytes, as results are for any run
// of the same scenario, seed and trials.
func TestTablesIgnoreTheEnvironment(t *testing.T) {
	if os.Getenv("HAMMERSIM_ENV_TABLE") == "1" {
		os.Stdout.WriteString(envTable())
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestTablesIgnoreTheEnvironment$")
	cmd.Env = append(os.Environ(), "HAMMERSIM_ENV_TABLE=1", "RUNEWIDTH_EASTASIAN=1", "LANG=ja_JP.UTF-8", "LC_ALL=ja_JP.UTF-8")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	got, _, _ := strings.Cut(string(out), "PASS\n")
	if want := envTable(); got != want {
		t.Errorf("with East Asian widths asked for:\n%s\nwithout:\n%s", got, want)
	}
}
