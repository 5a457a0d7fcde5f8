package store

import "testing"

func TestFastPathRecognisesEveryScript(t *testing.T) {
	for _, src := range []string{ScriptRelease, ScriptRenew, ScriptFencedAcquire,
		ScriptReentrantAcquire, ScriptReentrantRelease, ScriptReentrantRenew, ScriptFairAcquire, ScriptTouchOrSet} {
		if fastBySrc[src] == nil {
			t.Errorf("no fast path for script %.40q", src)
		}
		if got := ScriptName(src); got != "<"+fastBySrc[src].name+">" {
			t.Errorf("ScriptName(%.20q) = %q", src, got)
		}
	}
	for _, s := range fastScripts {
		if fastBySHA[s.sha] != s || len(s.sha) != 40 {
			t.Errorf("%s: bad sha %q", s.name, s.sha)
		}
	}
	if got := ScriptName("return 1"); got != "<script>" {
		t.Errorf("ScriptName of an unknown script = %q", got)
	}
}
