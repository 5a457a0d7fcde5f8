package faults

import (
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/sim"
)

// sentinelWorld is one master with a replica watched by three sentinels,
// failover_after 2s.
func sentinelWorld(t *testing.T) (*model.World, *[]sim.Event) {
	t.Helper()
	return world(t, func(c *model.Config) {
		c.Nodes.Replicas = 1
		c.Nodes.FailoverAfter = 2 * s
		c.Nodes.Sentinels = 3
	})
}

func promotedAt(events []sim.Event) (time.Duration, bool) {
	for _, e := range events {
		if e.Kind == "promoted" {
			return e.At, true
		}
	}
	return 0, false
}

// A replica, or a minority of the sentinels, cut off from the master
// changes nothing: a failover needs a majority that can talk.
func TestSentinelsNeedAMajority(t *testing.T) {
	w, ev := sentinelWorld(t)
	Schedule(w, []Fault{
		{At: 1 * s, Kind: Isolate, Target: "redis-1-r1", For: 3 * s},
		// One sentinel loses the master but can reach the replica: it alone
		// must not fail over.
		{At: 5 * s, Kind: Partition, Groups: [][]string{{"redis-1", "sentinel-2", "sentinel-3"}, {"sentinel-1", "redis-1-r1"}}, For: 5 * s},
		// Two sentinels lose the master but not each other... only for a
		// moment shorter than failover_after.
		{At: 12 * s, Kind: Partition, Groups: [][]string{{"redis-1"}, {"sentinel-2", "sentinel-3", "redis-1-r1"}}, For: time.Second},
		// Two sentinels lose the master and each other: no majority agrees.
		{At: 20 * s, Kind: Partition, Groups: [][]string{{"redis-1", "sentinel-1"}, {"sentinel-2"}, {"sentinel-3", "redis-1-r1"}}, For: 10 * s},
	})
	w.K.RunUntil(40 * s)
	if at, ok := promotedAt(*ev); ok {
		dumpTrace(t, *ev)
		t.Fatalf("promoted at %v without a majority of sentinels", at)
	}
	if !traced(*ev, "sdown", "sentinel-1 cannot reach redis-1") || !traced(*ev, "odown-end", "no failover") {
		dumpTrace(t, *ev)
		t.Fatal("the trace should show sentinel-1's view and the short majority that ended")
	}
}

// The majority side promotes the replica it can reach, failover_after after
// the master became unreachable for the majority; the old master, cut off,
// stays a stale master until it can reach the new one.
func TestSentinelsPromoteOnTheMajoritySide(t *testing.T) {
	w, ev := sentinelWorld(t)
	Schedule(w, []Fault{{At: 1 * s, Kind: Partition,
		Groups: [][]string{{"redis-1", "sentinel-1"}, {"redis-1-r1", "sentinel-2", "sentinel-3"}}, For: 5 * s}})
	w.K.RunUntil(4 * s)
	if at, ok := promotedAt(*ev); !ok || at != 3*s || w.Shards[0].Master.Name() != "redis-1-r1" {
		dumpTrace(t, *ev)
		t.Fatalf("promoted at %v (%v), master %s; want redis-1-r1 at 3s", at, ok, w.Shards[0].Master.Name())
	}
	if !traced(*ev, "odown", "leader sentinel-2") {
		t.Error("the leader should be the first sentinel of the majority, sentinel-2")
	}
	w.K.RunUntil(7 * s)
	if old := w.Node("redis-1"); !old.IsReplica() {
		t.Error("after the heal the old master should rejoin as a replica")
	}
}

// A master that crashes with its only replica down is failed over as soon
// as the replica is back, not before, and not twice.
func TestSentinelsWaitForAReplica(t *testing.T) {
	w, ev := sentinelWorld(t)
	Schedule(w, []Fault{
		{At: 1 * s, Kind: Crash, Target: "redis-1-r1", RestartAfter: 9 * s},
		{At: 2 * s, Kind: Crash, Target: "redis-1"},
	})
	w.K.RunUntil(30 * s)
	at, ok := promotedAt(*ev)
	if !ok || at != 10*s {
		dumpTrace(t, *ev)
		t.Fatalf("promoted at %v (%v), want 10s, when redis-1-r1 restarts", at, ok)
	}
	waits := 0
	for _, e := range *ev {
		if e.Kind == "failover-wait" {
			waits++
		}
	}
	if waits != 1 {
		t.Errorf("%d failover-wait lines, want 1", waits)
	}
}

// Faults that need data do not apply to a sentinel; network faults do.
func TestSentinelTargets(t *testing.T) {
	w, ev := sentinelWorld(t)
	Schedule(w, []Fault{
		{At: 1 * s, Kind: Slow, Target: "sentinel-2", Latency: 50 * ms, For: s},
		{At: 1 * s, Kind: Crash, Target: "sentinel-3"},
	})
	w.K.RunUntil(3 * s)
	if !traced(*ev, "fault", "links of sentinel-2 slow") || !traced(*ev, "skipped", "does not apply to a sentinel") {
		dumpTrace(t, *ev)
		t.Fatal("slow should apply to a sentinel and crash be skipped")
	}
}
