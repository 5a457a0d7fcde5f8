package judge

import (
	"strings"
	"testing"
	"time"
)

// A grant made on a stale master is explained in zh by the judge's own
// record of the failover; its English is exactly the world's note. A note
// the record does not match (a hand-written history) stays English text.
func TestStaleMasterGrantInZH(t *testing.T) {
	const note = "redis-1-r1 had replaced redis-1 as master at 3.000s; cut off, redis-1 still granted it: split brain"
	for _, c := range []struct {
		name, note string
		zh         bool
	}{
		{"the world's note", note, true},
		{"another wording", "redis-1 was replaced; split brain", false},
	} {
		j := New(Config{Nodes: []string{"redis-1", "redis-1-r1"}, Clients: []string{"A", "B"}, Quorum: 1})
		j.Feed(&Event{At: 3 * time.Second, Kind: FailedOver, Node: "redis-1", OK: true, KeyKnown: true,
			Detail: &Detail{Other: "redis-1-r1", Cut: true}})
		j.Feed(&Event{At: 3500 * time.Millisecond, Kind: Command, Op: OpAcquire, Client: "A", Node: "redis-1", After: true,
			KeyKnown: true, Key: KeyState{Held: true, Owner: "A-1", TTL: 10 * time.Second, Expires: 13500 * time.Millisecond}, Note: c.note})
		j.Feed(&Event{At: 3500 * time.Millisecond, Kind: EnterCS, Client: "A"})
		grant := j.nodes.grant("redis-1")
		if grant == nil {
			t.Fatalf("%s: no grant on redis-1", c.name)
		}
		if got := grant.lostBy.String(); got != c.note {
			t.Errorf("%s: English %q, want the note %q", c.name, got, c.note)
		}
		zh := grant.lostBy.In("zh")
		if translated := !strings.Contains(zh, "cut off") && strings.Contains(zh, "脑裂"); translated != c.zh {
			t.Errorf("%s: zh %q", c.name, zh)
		}
	}
}
