package shquote

import (
	"os/exec"
	"testing"
)

// TestQuoteRoundTrips: sh reads every quoted word back as the original.
func TestQuoteRoundTrips(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	words := []string{"plain", "with space", "it's", "$HOME", "a\"b", "back\\slash", "*", "", "new\nline", "-f"}
	for _, w := range words {
		out, err := exec.Command(sh, "-c", "printf %s "+Quote(w)).Output()
		if err != nil {
			t.Fatalf("%q: %v", w, err)
		}
		if string(out) != w {
			t.Errorf("Quote(%q) = %s reads back as %q", w, Quote(w), out)
		}
	}
	if Quote("scenarios.yaml") != "scenarios.yaml" {
		t.Errorf("a plain path is quoted: %s", Quote("scenarios.yaml"))
	}
}
