package text

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWidthIsStringWidth pins the fast width to ansi.StringWidth, on the
// fast path and on every way out of it.
func TestWidthIsStringWidth(t *testing.T) {
	for _, s := range []string{
		"", "plain", "\x1b[1;38;5;196mred\x1b[0m", "\x1b[m", "a\x1b[2Jb", "\x1b[", "\x1b[1", "\x1bx",
		"\x1b[?25l", "\x1b]0;title\x07x", "锁 lock", "│ box │", "tab\there", "\x7f", "é", "\x1b[1;2 q",
		"▶ ┏━┓ · … ✓ ✖ ▲ ▼ █ ░", "e\u0301", "✓\ufe0f", "│\u200d│", "\u00ad", "a\u2028b", "\u2764\ufe0f", "\xff",
	} {
		if got, want := Width(s), ansi.StringWidth(s); got != want {
			t.Errorf("Width(%q) = %d, want %d", s, got, want)
		}
	}
}

func FuzzWidth(f *testing.F) {
	f.Add("\x1b[1mbold\x1b[0m")
	f.Add("▶ \x1b[2m│ ✓ é …\x1b[0m")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Width(s), ansi.StringWidth(s); got != want {
			t.Errorf("Width(%q) = %d, want %d", s, got, want)
		}
	})
}
