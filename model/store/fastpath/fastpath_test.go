package fastpath

import "testing"

func TestFastPathRecognisesEveryScript(t *testing.T) {
	for _, src := range []string{ScriptRelease, ScriptRenew, ScriptFencedAcquire,
		ScriptReentrantAcquire, ScriptReentrantRelease, ScriptReentrantRenew, ScriptFairAcquire, ScriptTouchOrSet,
		ScriptRedsyncDelete, ScriptRedsyncTouch, ScriptRedsyncTouchSetNX,
		ScriptRedislockRelease, ScriptRedislockRefresh, ScriptRedislockObtain} {
		if scriptBySrc(src) == nil {
			t.Errorf("no fast path for script %.40q", src)
			continue
		}
		if got := ScriptName(src); got != "<"+scriptBySrc(src).name+">" {
			t.Errorf("ScriptName(%.20q) = %q", src, got)
		}
	}
	for _, s := range fastScripts {
		if fastBySHA()[shaOf(s)] != s || len(s.sha) != 40 {
			t.Errorf("%s: bad sha %q", s.name, s.sha)
		}
	}
	if got := ScriptName("return 1"); got != "<script>" {
		t.Errorf("ScriptName of an unknown script = %q", got)
	}
}

// The libraries' scripts are named by the SHA1 the libraries send.
func TestLibraryScriptSHAs(t *testing.T) {
	for src, sha := range map[string]string{
		ScriptRedsyncDelete:     "e950836ed1e694540c503ef9972b8de518044d3b", // redsync v4.18.1 scripts.go
		ScriptRedsyncTouchSetNX: "b6b55c439e02c6f52ffb8be7ec8c0d0ac816ea79",
		ScriptRedsyncTouch:      "d75bb8b5bd13532ddedd17762e772346e39b321e",
		ScriptRedislockObtain:   "80a1b5f2cfccec3b7119ba7721d2127682b691a7", // bsm/redislock v0.9.4 redislock.go luaObtain
		ScriptRedislockRelease:  "cf0e94b2e9ffc7e04395cf88f7583fc309985910",
		ScriptRedislockRefresh:  "a7aba3bc5d6e99b3003da8b9d80a63b9f4092ecf",
	} {
		if s := scriptBySrc(src); s == nil || shaOf(s) != sha {
			t.Errorf("%.30q: SHA %v, the library sends %s", src, s, sha)
		}
	}
}
