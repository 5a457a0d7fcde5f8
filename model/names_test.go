package model

import (
	"strconv"
	"testing"
)

// TestHoldTokensAcrossBatches: every hold's token is NAME-h, on either side
// of a batch's end and for the last, shorter batch (the judge finds a
// token's owner by that spelling, judge.tokenOwner).
func TestHoldTokensAcrossBatches(t *testing.T) {
	const holds = 3*tokenBatch + 5
	var ts holdTokens
	for h := 1; h <= holds; h++ {
		if got, want := ts.of("w07", h, holds), "w07-"+strconv.Itoa(h); got != want {
			t.Fatalf("hold %d: token %q, want %q", h, got, want)
		}
	}
	if ts.s != "" {
		t.Errorf("after the last hold the batch still holds %q: it went past the last hold", ts.s)
	}
	if got := ts.of("w07", 2, holds); got != "w07-2" { // out of turn: a batch of its own
		t.Errorf("hold 2 asked again: %q", got)
	}
}
