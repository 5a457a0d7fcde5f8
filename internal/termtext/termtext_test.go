package termtext

import "testing"

func TestEscape(t *testing.T) {
	for _, c := range []struct{ in, want, lines string }{
		{"plain ✓ 锁", "plain ✓ 锁", "plain ✓ 锁"},
		{"\x1b[2J\x1b]0;pwned\x07", `\x1b[2J\x1b]0;pwned\a`, `\x1b[2J\x1b]0;pwned\a`},
		{"a\nb\tc\r", `a\nb\tc\r`, "a\nb\tc\\r"},
		{"c1 \u009b x", `c1 \u009b x`, `c1 \u009b x`},
		{"bad \xff byte", `bad \xff byte`, `bad \xff byte`},
		{"del \x7f", `del \x7f`, `del \x7f`},
	} {
		if got := Escape(c.in); got != c.want {
			t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := EscapeKeepLines(c.in); got != c.lines {
			t.Errorf("EscapeKeepLines(%q) = %q, want %q", c.in, got, c.lines)
		}
		if HasControl(c.in) != (c.in != c.want) {
			t.Errorf("HasControl(%q) = %v", c.in, HasControl(c.in))
		}
	}
}
