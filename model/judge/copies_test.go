package judge

import (
	"strings"
	"testing"
	"time"
)

// The failover explanation comes from the history alone (every key state
// carried in the events, no probe): A's key reached the replica, the
// replica's clock jump expired it there early, the failover promoted the
// replica without it, and B got the lock from it.
func TestFailoverExplainedFromReplicaHistory(t *testing.T) {
	const s = time.Second
	held := func(ttl, exp time.Duration) KeyState {
		return KeyState{Held: true, Owner: "A-1", TTL: ttl, Expires: exp}
	}
	gone := KeyState{TTL: -2, Expires: -1}
	for _, c := range []struct {
		name  string
		fault *Event // on the replica, between the replication and the failover
		want  string
	}{
		{"replicated, then lost in the failover", nil,
			"the lock had reached redis-1-r1 by replication at 0.011s, but it was gone from there by then"},
		{"expired early by a jump", &Event{At: 2 * s, Kind: NodeClockJumped, Node: "redis-1-r1", KeyKnown: true, Key: gone,
			Detail: &Detail{By: 40 * s, Early: 28 * s}},
			"but it expired there at 2.000s, 28s early, because redis-1-r1's clock jumped +40s at 2.000s"},
		{"forgotten by a restart", &Event{At: 2 * s, Kind: Restarted, Node: "redis-1-r1", KeyKnown: true, Key: gone,
			Detail: &Detail{Persistence: "none", CrashedAt: time.Second}},
			"but redis-1-r1 lost it when it crashed at 1.000s and restarted at 2.000s without it (persistence none)"},
		// The key reached redis-1-r2; redis-1-r1, promoted, never had it.
		{"never replicated", &Event{At: 0, Kind: Replicated, Node: "redis-1-r2", OK: true, KeyKnown: true, Key: held(30*s, 30*s),
			Detail: &Detail{Other: "redis-1", Token: "A-1"}},
			""},
	} {
		j := New(Config{Nodes: []string{"redis-1", "redis-1-r1", "redis-1-r2"}, Clients: []string{"A", "B"}, Quorum: 1})
		j.Feed(&Event{At: 0, Kind: Command, Op: OpAcquire, Client: "A", Node: "redis-1", After: true, KeyKnown: true, Key: held(30*s, 30*s)})
		j.Feed(&Event{At: 0, Kind: EnterCS, Client: "A"})
		if c.fault == nil || c.fault.Kind != Replicated {
			j.Feed(&Event{At: 11 * time.Millisecond, Kind: Replicated, Node: "redis-1-r1", OK: true, KeyKnown: true,
				Key: held(30*s-11*time.Millisecond, 30*s), Detail: &Detail{Other: "redis-1", Token: "A-1"}})
		}
		if c.fault != nil {
			j.Feed(c.fault)
		}
		j.Feed(&Event{At: 5 * s, Kind: FailedOver, Node: "redis-1", KeyKnown: true, Key: gone,
			Detail: &Detail{Other: "redis-1-r1"}})
		j.Feed(&Event{At: 6 * s, Kind: Command, Op: OpAcquire, Client: "B", Node: "redis-1-r1", After: true, KeyKnown: true,
			Key: KeyState{Held: true, Owner: "B-1", TTL: 30 * s, Expires: 36 * s}})
		j.Feed(&Event{At: 6 * s, Kind: EnterCS, Client: "B"})
		got := j.FirstViolation()
		want := c.want
		if want == "" {
			want = "redis-1 failed over to redis-1-r1 at 5.000s before replicating it)"
		}
		if !strings.Contains(got, want) {
			t.Errorf("%s: explanation\n  %s\nlacks\n  %s", c.name, got, want)
		}
	}
}
