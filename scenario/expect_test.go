package scenario

import (
	"strings"
	"testing"
)

// --expect is an expect: block's body.
func TestParseExpect(t *testing.T) {
	xs, err := ParseExpect("--expect", `{safe: false, violations: ">= 1"}`)
	if err != nil || len(xs) != 2 || xs[1].Op != ">=" || xs[1].Value != 1 {
		t.Fatalf("%+v %v", xs, err)
	}
	if _, err := ParseExpect("--expect", "speed: 3"); err == nil || !strings.HasPrefix(err.Error(), "--expect:1:1:") {
		t.Errorf("unknown metric: %v", err)
	}
}
