package judge

import "testing"

// A lock value names its owner: "<client>-<hold>", client names may
// contain dashes, and anything else (another client's name, a value no
// client writes) has no owner.
func TestTokenOwner(t *testing.T) {
	j := New(Config{Nodes: []string{"redis-1"}, Clients: []string{"A", "client-a"}, Quorum: 1})
	for v, want := range map[string]string{
		"A-1": "A", "A-12": "A", "client-a-3": "client-a",
		"client-3": "", "B-1": "", "A-": "", "-1": "", "A-1x": "", "A": "", "": "", "redis-1-1": "",
	} {
		got, ok := j.tokenOwner(v)
		if got != want || ok != (want != "") {
			t.Errorf("tokenOwner(%q) = %q, %v; want %q", v, got, ok, want)
		}
	}
}
