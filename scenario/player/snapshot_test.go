package player

import (
	"reflect"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/scenario/scenariotest"
)

// At the first violation of gc-pause-wrong-delete the snapshot shows the
// story's picture: A paused and still believing, B owning the key.
func TestSnapshotAtViolation(t *testing.T) {
	r, err := runner.New(scenariotest.Scenario(t, "gc-pause-wrong-delete"), scenario.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for r.Metrics().Violations == 0 && r.Step() {
	}
	s := Of(r)
	if s.Event != r.EventCount() || s.Now != r.Now() || s.Quorum != 1 {
		t.Fatalf("header fields: %+v", s)
	}
	a, b := s.Clients[0], s.Clients[1]
	if a.State != "paused" || !a.Believes || a.OwnsKey || !a.InCS || !a.Mismatch || a.Remaining >= 0 {
		t.Errorf("A: %+v", a)
	}
	if !b.Believes || !b.OwnsKey || b.Mismatch || b.Token != "B-1" {
		t.Errorf("B: %+v", b)
	}
	n := s.Nodes[0]
	if n.Status() != "up" || n.Role() != "master" || len(n.Keys) != 1 {
		t.Fatalf("node: %+v", n)
	}
	if k := n.Keys[0]; !k.Lock || k.Owner != "B" || k.TTL <= 29*time.Second || k.TTL > 30*time.Second {
		t.Errorf("lock key: %+v", k)
	}
	if s.FirstViolation == "" || s.Metrics.Violations != 1 {
		t.Errorf("violation: %q %+v", s.FirstViolation, s.Metrics)
	}
}

// Snapshots only observe: taking them at every step (and between steps)
// leaves the trace unchanged.
func TestSnapshotDoesNotPerturb(t *testing.T) {
	s := scenariotest.Scenario(t, "gc-pause-wrong-delete")
	plain, _ := runner.New(s, scenario.Options{}, false)
	defer plain.Close()
	want := plain.Run()
	r, _ := runner.New(s, scenario.Options{}, false)
	defer r.Close()
	for r.Step() {
		Of(r)
		At(r, r.Now()+time.Millisecond/2)
	}
	if got := r.Report(); got.TraceHash != want.TraceHash {
		t.Fatalf("trace changed by snapshots: %s vs %s", got.TraceHash, want.TraceHash)
	}
}

// At between events counts TTLs and leases down.
func TestSnapshotAtCountsDown(t *testing.T) {
	r, _ := runner.New(scenariotest.Scenario(t, "gc-pause-wrong-delete"), scenario.Options{}, false)
	defer r.Close()
	for r.EventCount() < 3 && r.Step() {
	}
	s0, s1 := Of(r), At(r, r.Now()+5*time.Second)
	d := s0.Nodes[0].Keys[0].TTL - s1.Nodes[0].Keys[0].TTL
	if d != 5*time.Second {
		t.Fatalf("TTL fell by %v over 5s", d)
	}
	if s0.Clients[0].Remaining-s1.Clients[0].Remaining != 5*time.Second {
		t.Fatalf("lease remaining: %v then %v", s0.Clients[0].Remaining, s1.Clients[0].Remaining)
	}
}

func TestHistoryLanes(t *testing.T) {
	r, _ := runner.New(scenariotest.Scenario(t, "gc-pause-wrong-delete"), scenario.Options{}, false)
	defer r.Close()
	h := Record(r)
	r.Run()
	h.Close(r.Now())
	a := h.Clients[0].Spans
	if len(a) != 1 || a[0].Label != "A-1" || a[0].From != 2*time.Millisecond || a[0].To != 36004*time.Millisecond {
		t.Errorf("A's belief: %+v", a)
	}
	node := h.Nodes[0].Spans
	if len(node) < 3 || node[0].Label != "A" || node[0].To != 30001*time.Millisecond || node[1].Label != "B" {
		t.Errorf("redis-1 key lane: %+v", node)
	}
	if len(h.Faults) != 1 || len(h.Violations) != 2 {
		t.Errorf("marks: %d faults, %d violations", len(h.Faults), len(h.Violations))
	}
	// Recording observes only.
	plain, _ := runner.New(r.S, scenario.Options{}, false)
	defer plain.Close()
	if plain.Run().TraceHash != r.Report().TraceHash {
		t.Fatal("recording changed the trace")
	}
}

// The sentinels' views reach the snapshot: cut off from redis-1, all three
// hold it down; after the failover they watch the new master, which they
// reach.
func TestSnapshotSentinels(t *testing.T) {
	r, err := runner.New(scenariotest.Scenario(t, "sentinel-split-brain"), scenario.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.RunUntil(2 * time.Second)
	s := Of(r)
	if !reflect.DeepEqual(s.SentinelsDown, []MasterDown{{"redis-1", 3}}) || !reflect.DeepEqual(s.SentinelsCut, []bool{true, true, true}) {
		t.Fatalf("at %v: down %+v, cut %v", s.Now, s.SentinelsDown, s.SentinelsCut)
	}
	r.RunUntil(4 * time.Second)
	s = Of(r)
	if !reflect.DeepEqual(s.SentinelsDown, []MasterDown{{"redis-1-r1", 0}}) || !reflect.DeepEqual(s.SentinelsCut, []bool{false, false, false}) {
		t.Fatalf("at %v: down %+v, cut %v", s.Now, s.SentinelsDown, s.SentinelsCut)
	}
}
