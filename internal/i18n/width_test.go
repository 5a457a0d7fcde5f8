package i18n

import "testing"

// TestWidth: CJK and fullwidth punctuation are two cells, Latin, the dashes
// and the check marks one (the ambiguous-narrow policy).
func TestWidth(t *testing.T) {
	for s, want := range map[string]int{"": 0, "redlock": 7, "结论": 4, "✓ 5/5": 5, "0.18% – 5.45%": 13, "原因：": 6, "—": 1} {
		if got := Width(s); got != want {
			t.Errorf("Width(%q) = %d, want %d", s, got, want)
		}
	}
}
