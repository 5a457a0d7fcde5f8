package store

import (
	"testing"

	"github.com/lockstep-sim/lockstep/model/store/fastpath"
)

// classify's switch for the hot commands must agree with the tables it
// shortcuts, for every command either table names.
func TestClassifyAgreesWithTables(t *testing.T) {
	names := []string{"SET", "SETNX", "PEXPIRE", "INCR", "HINCRBY", "HSET", "EVALSHA", "EVAL", "DEL", "GET",
		"EXISTS", "PTTL", "HGET", "NOSUCH"}
	for c := range writeCommands() {
		names = append(names, c)
	}
	for c := range connStateCommands() {
		names = append(names, c)
	}
	for c := range readCommands() {
		names = append(names, c)
	}
	for _, c := range names {
		spec, w, cs := classify(c)
		wantSpec, wantW := writeCommands()[c]
		if spec != wantSpec || w != wantW || cs != connStateCommands()[c] {
			t.Errorf("%s: classify = %v %v %v, tables say %v %v %v", c, spec, w, cs, wantSpec, wantW, connStateCommands()[c])
		}
		if code, _, _, ok := hotClass(c); ok && code != fastpath.CmdOf(c) {
			t.Errorf("%s: hotClass names it %d, fastpath.CmdOf %d", c, code, fastpath.CmdOf(c))
		}
	}
}

// go-redis opens every connection with HELLO 2: that must not keep the
// connection off the fast path (a harness run of redsync would spend its
// time in Lua); HELLO 3 still does.
func TestHelloTwoKeepsFastPath(t *testing.T) {
	ts := newTestStore(t)
	ts.do(0, "HELLO", "2")
	ts.do(0, "SET", "k", "A", "NX", "PX", "1000")
	ts.do(0, "EVAL", ScriptRedsyncDelete, "1", "k", "A")
	if !ts.s.FastAnswered() {
		t.Errorf("after HELLO 2, redsync's release went to Lua")
	}
	if !keepsRESP2("HELLO", []string{"HELLO"}) || keepsRESP2("HELLO", []string{"HELLO", "3"}) ||
		keepsRESP2("HELLO", []string{"HELLO", "2", "AUTH", "u", "p"}) || keepsRESP2("AUTH", []string{"AUTH", "2"}) {
		t.Errorf("keepsRESP2 misjudges a HELLO")
	}
}

// A command sent in lower case is named for the fast path after the upper
// casing (hotClass knows only upper case): it is answered there too.
func TestLowerCaseTakesFastPath(t *testing.T) {
	ts := newTestStore(t)
	for _, cmd := range [][]string{{"set", "k", "A", "nx", "px", "1000"}, {"get", "k"}, {"pexpire", "k", "500"},
		{"eval", ScriptRelease, "1", "k", "A"}, {"setnx", "k", "B"}, {"del", "k"}} {
		ts.do(0, cmd...)
		if !ts.s.FastAnswered() {
			t.Errorf("%v went to miniredis", cmd)
		}
	}
}
