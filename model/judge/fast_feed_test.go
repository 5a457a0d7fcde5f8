package judge

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// fastFeedHistory is a history over two nodes and two clients that ends
// grants every way the hot paths see: released, expired, taken over by a
// wrong release, and a release of a lock no longer held, with grants on
// both nodes at once. Each event is fed by feed, which chooses how.
func fastFeedHistory(feed func(e Event)) {
	ms := time.Millisecond
	key := func(owner string, at, ttl time.Duration) KeyState {
		return KeyState{Held: true, Owner: owner, TTL: ttl, Expires: at + ttl}
	}
	for _, e := range []Event{
		{At: 1 * ms, Kind: Command, Op: OpAcquire, Client: "A", Node: "redis-2", After: true, KeyKnown: true, Key: key("A-1", 1*ms, 10*ms)},
		{At: 1 * ms, Kind: EnterCS, Client: "A"},
		{At: 2 * ms, Kind: Command, Op: OpAcquire, Client: "B", Node: "redis-1", After: true, KeyKnown: true, Key: key("B-9", 2*ms, 1*ms)},
		{At: 2 * ms, Kind: Working, Client: "A"},
		{At: 3 * ms, Kind: LeaveCS, Client: "A"},
		{At: 3 * ms, Kind: Releasing, Client: "A"},
		{At: 4 * ms, Kind: Command, Op: OpRelease, Client: "A", Node: "redis-2", Before: true, KeyKnown: true},
		{At: 5 * ms, Kind: Command, Op: OpAcquire, Client: "B", Node: "redis-1", After: true, KeyKnown: true, Key: key("B-1", 5*ms, 2*ms)},
		{At: 5 * ms, Kind: EnterCS, Client: "B"},
		{At: 8 * ms, Kind: Working, Client: "B"},
		{At: 9 * ms, Kind: Command, Op: OpAcquire, Client: "A", Node: "redis-1", After: true, KeyKnown: true, Key: key("A-2", 9*ms, 10*ms)},
		{At: 9 * ms, Kind: EnterCS, Client: "A"},
		{At: 11 * ms, Kind: LeaveCS, Client: "B"},
		{At: 11 * ms, Kind: Releasing, Client: "B"},
		{At: 12 * ms, Kind: Command, Op: OpRelease, Client: "B", Node: "redis-1", Before: true, KeyKnown: true},
		{At: 13 * ms, Kind: LeaveCS, Client: "A"},
		{At: 13 * ms, Kind: Releasing, Client: "A"},
		{At: 20 * ms, Kind: Final, Detail: &Detail{}},
	} {
		feed(e)
	}
}

// The hot entry points judge a history exactly as Feed does by name: a
// Command's NodeID finds the node's books without its name, a ClientID
// the client's (and tells its grants by them), Command reads it without
// Feed's switch, and ClientLeft, ClientWorking and ClientReleasing read
// LeaveCS, Working and Releasing without an Event. The
// metrics, the explanations, the trace lines and the recorded history
// are the same either way, with and without a recorder.
func TestFastFeedJudgesAsFeed(t *testing.T) {
	nodes, clients := []string{"redis-1", "redis-2"}, []string{"A", "B"}
	run := func(fast, record bool) (Metrics, string, []string, []Event) {
		var lines []string
		var rec []Event
		j := New(Config{Nodes: nodes, Clients: clients, Quorum: 1,
			Emit: func(proc, kind, msg string) { lines = append(lines, proc+" "+kind+" "+msg) }})
		if record {
			j.Record(func(e Event) { rec = append(rec, e) })
		}
		fastFeedHistory(func(e Event) {
			if fast {
				e.ClientID = slices.Index(clients, e.Client) + 1 // 0 for a client not in the config
			}
			switch {
			case !fast:
				j.Feed(&e)
			case e.Kind == LeaveCS:
				j.ClientLeft(e.ClientID, e.At)
			case e.Kind == Working:
				j.ClientWorking(e.ClientID, e.At)
			case e.Kind == Releasing:
				j.ClientReleasing(e.ClientID, e.At)
			case e.Kind == Command:
				e.NodeID = slices.Index(nodes, e.Node) + 1
				j.Command(&e)
			default:
				j.Feed(&e)
			}
		})
		return j.Metrics(), j.FirstViolation(), lines, rec
	}
	for _, record := range []bool{false, true} {
		m, why, lines, rec := run(false, record)
		fm, fwhy, flines, frec := run(true, record)
		if m.Violations == 0 || m.WrongReleases == 0 || m.UnheldReleases == 0 || !strings.Contains(why, "B") {
			t.Fatalf("the history should hold a violation, a wrong release and an unheld release: %+v, %q", m, why)
		}
		if !reflect.DeepEqual(fm, m) || fwhy != why || !reflect.DeepEqual(flines, lines) {
			t.Errorf("record %v: fast feed judged\n%+v %q %q\nwant\n%+v %q %q", record, fm, fwhy, flines, m, why, lines)
		}
		if !reflect.DeepEqual(frec, rec) || record && len(rec) != 18 {
			t.Errorf("record %v: fast feed recorded %d events, want the %d Feed recorded, the same", record, len(frec), len(rec))
		}
	}
}
