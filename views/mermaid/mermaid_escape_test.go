package mermaid

import (
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/sim"
)

// TestMermaidEscapesControlAndSyntax: control characters in a title, a
// participant or a message never reach the diagram raw, and text Mermaid
// would misparse (a line break, a statement separator, a comment start, an
// arrow inside a name) cannot end a statement early.
func TestMermaidEscapesControlAndSyntax(t *testing.T) {
	evil := "x\x1b]0;pwned\x07\x1b[2J"
	d := Events("t"+evil, []string{"A" + evil, "B->>C", "resource"}, []sim.Event{
		{Proc: "A" + evil, Kind: "note", Msg: "line1\nline2; %% comment " + evil},
	})
	if strings.ContainsAny(d, "\x1b\x07") {
		t.Fatalf("raw control characters in the diagram:\n%q", d)
	}
	for _, l := range strings.Split(strings.TrimSuffix(d, "\n"), "\n")[1:] {
		if !strings.HasPrefix(l, "    ") {
			t.Errorf("a statement was split: %q", l)
		}
	}
	if strings.Contains(d, "participant B->>C") || strings.Contains(d, "%% comment") || strings.Contains(d, "line2;") {
		t.Errorf("Mermaid syntax passed through:\n%s", d)
	}
	if !strings.Contains(d, `\x1b`) {
		t.Errorf("the escaped text is gone:\n%s", d)
	}
}
