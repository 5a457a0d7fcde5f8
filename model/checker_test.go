package model

import "testing"

// A lock value names its owner: "<client>-<hold>", client names may
// contain dashes, and anything else (another client's name, a value no
// client writes) has no owner.
func TestTokenOwner(t *testing.T) {
	w, err := NewWorld(Config{Seed: 1, Nodes: NodesConfig{Masters: 1},
		Lock:    LockConfig{Key: "lock", Strategy: StrategyLuaRelease, TTL: 1000000000},
		Clients: []ClientConfig{{Name: "A", Holds: 1}, {Name: "client-a", Holds: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for v, want := range map[string]string{
		"A-1": "A", "A-12": "A", "client-a-3": "client-a",
		"client-3": "", "B-1": "", "A-": "", "-1": "", "A-1x": "", "A": "", "": "", "redis-1-1": "",
	} {
		got, ok := w.Chk.tokenOwner(v)
		if got != want || ok != (want != "") {
			t.Errorf("tokenOwner(%q) = %q, %v; want %q", v, got, ok, want)
		}
	}
}
