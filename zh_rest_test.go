package main

import (
	"strings"
	"testing"
)

// A bad --strategies list is said in the language asked, by compare and
// by explore (runner.CheckStrategies' errors carry their sentence), and in
// English as it always was.
func TestStrategiesErrorInZH(t *testing.T) {
	for _, c := range []struct{ lang, cmd, want string }{
		{"zh", "compare", `lockstep compare: 未知的策略 "nope"（已知：setnx-del, `},
		{"zh", "explore", `lockstep explore: 未知的策略 "nope"（已知：setnx-del, `},
		{"en", "compare", `lockstep compare: unknown strategy "nope" (known: setnx-del, `},
	} {
		code, _, stderr := runLang(t, "--lang", c.lang, c.cmd, "-s", "gc-pause-wrong-delete", "--strategies", "lua-release,nope")
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("%s %s: exit %d, stderr %q; want %q", c.lang, c.cmd, code, stderr, c.want)
		}
		if c.lang == "zh" && strings.Contains(stderr, "profiles:") {
			t.Errorf("%s: English left: %q", c.cmd, stderr)
		}
	}
	code, _, stderr := runLang(t, "--lang", "zh", "compare", "-s", "gc-pause-wrong-delete", "--strategies", "redlock,redlock")
	if code != exitBadInput || !strings.Contains(stderr, `策略 "redlock" 被列出了两次`) {
		t.Errorf("twice: exit %d, stderr %q", code, stderr)
	}
}
