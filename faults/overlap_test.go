package faults

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/sim"
)

// holder is a world with one client A that takes the lock at once and works
// 2s inside it.
func holder(t *testing.T) (*model.World, *[]sim.Event) {
	return world(t, func(c *model.Config) {
		c.Clients = []model.ClientConfig{{Name: "A", Holds: 1, Work: 2 * s}}
	})
}

// releasedAt is when A released the lock, or -1.
func releasedAt(events []sim.Event) time.Duration {
	for _, e := range events {
		if e.Proc == "A" && e.Kind == "released" {
			return e.At
		}
	}
	return -1
}

// TestOverlappingPausesNest is the reported bug: a 2s pause inside a 20s
// one ended at 5s and let A release at 5.008s while its outer pause was
// still on. A stays paused until the last pause ends, whichever order they
// end in, and the trace says why it stays paused.
func TestOverlappingPausesNest(t *testing.T) {
	for _, tc := range []struct {
		name   string
		faults []Fault
		until  time.Duration
		inner  string // the trace line of the end that does not resume A
	}{
		{"inner ends first", []Fault{
			{At: 1 * s, Kind: Pause, Target: "A", For: 20 * s},
			{At: 3 * s, Kind: Pause, Target: "A", For: 2 * s},
		}, 21 * s, "GC pause ends after 2s; A stays paused (another pause until 21.000s)"},
		{"outer ends first", []Fault{
			{At: 1 * s, Kind: Pause, Target: "A", For: 5 * s},
			{At: 3 * s, Kind: Pause, Target: "A", For: 10 * s},
		}, 13 * s, "GC pause ends after 5s; A stays paused (another pause until 13.000s)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, ev := holder(t)
			Schedule(w, tc.faults)
			w.K.RunUntil(tc.until - ms)
			a := w.Client("A")
			if !a.Paused() || a.PausedSince() != 1*s {
				t.Errorf("just before %s: paused %t since %s, want paused since 1s (the first pause)", tc.until, a.Paused(), a.PausedSince())
			}
			w.K.RunUntil(time.Minute)
			if got := releasedAt(*ev); got < tc.until {
				dumpTrace(t, *ev)
				t.Fatalf("A released at %s, while paused until %s", got, tc.until)
			}
			if !traced(*ev, "A fault-end "+tc.inner) {
				dumpTrace(t, *ev)
				t.Errorf("no trace line %q", tc.inner)
			}
			if !traced(*ev, "A fault GC pause begins", "while A is already paused: it stays paused until "+sim.FormatTime(tc.until)) {
				t.Error("the second pause's start does not say A is already paused")
			}
		})
	}
}

// TestOverlappingHangsNest: the work thread stays hung while any hang
// covers it.
func TestOverlappingHangsNest(t *testing.T) {
	w, ev := holder(t)
	Schedule(w, []Fault{
		{At: 1 * s, Kind: Hang, Target: "A", For: 20 * s},
		{At: 3 * s, Kind: Hang, Target: "A", For: 2 * s},
	})
	w.K.RunUntil(20 * s)
	if !w.Client("A").Hung() {
		t.Error("A's work thread resumed at the inner hang's end")
	}
	w.K.RunUntil(time.Minute)
	if got := releasedAt(*ev); got < 21*s {
		dumpTrace(t, *ev)
		t.Fatalf("A released at %s, while hung until 21s", got)
	}
	if !traced(*ev, "A fault-end a hang of A ends after 2s; the work thread stays hung (another hang until 21.000s)") {
		dumpTrace(t, *ev)
		t.Error("the inner hang's end does not say the thread stays hung")
	}
}

// TestOverlappingSlowsCompose: slow faults on one process add up while
// they overlap, and when one ends the others still apply (the link is not
// "back to normal" while a slow is on).
func TestOverlappingSlowsCompose(t *testing.T) {
	w, ev := world(t, nil)
	Schedule(w, []Fault{
		{At: 1 * s, Kind: Slow, Target: "redis-1", For: 10 * s, Latency: 10 * ms, Loss: 0.5},
		{At: 2 * s, Kind: Slow, Target: "redis-1", For: 2 * s, Latency: 20 * ms, Loss: 0.5},
	})
	for _, c := range []struct {
		at   time.Duration
		lat  time.Duration
		loss float64
	}{{1500 * ms, 10 * ms, 0.5}, {3 * s, 30 * ms, 0.75}, {5 * s, 10 * ms, 0.5}, {12 * s, 0, 0}} {
		w.K.RunUntil(c.at)
		lat, loss := w.Net.Slow("redis-1")
		if lat != c.lat || loss != c.loss {
			t.Errorf("at %s: redis-1 slow +%s loss %g, want +%s loss %g", c.at, lat, loss, c.lat, c.loss)
		}
		if got := w.Net.ExtraLatency("A", "redis-1"); got != c.lat {
			t.Errorf("at %s: extra latency %s, want %s", c.at, got, c.lat)
		}
	}
	if !traced(*ev, "redis-1 heal a slow of redis-1 ends after 2s; its links stay slow: +10ms, loss 0.5 (another slow until 11.000s)") {
		dumpTrace(t, *ev)
		t.Error("the inner slow's end does not say the links stay slow")
	}
	if !traced(*ev, "redis-1 fault", "on top of the slow already on until 11.000s: +30ms, loss 0.75 in all") {
		t.Error("the second slow's start does not say what applies in all")
	}
}

// TestOverlappingIsolationsNest: a process stays cut off while any
// isolation covers it.
func TestOverlappingIsolationsNest(t *testing.T) {
	w, ev := world(t, nil)
	Schedule(w, []Fault{
		{At: 1 * s, Kind: Isolate, Target: "redis-1", For: 10 * s},
		{At: 2 * s, Kind: Isolate, Target: "redis-1", For: 2 * s},
	})
	w.K.RunUntil(5 * s)
	if w.Net.Connected("A", "redis-1") {
		t.Error("redis-1 reconnected at the inner isolation's end")
	}
	w.K.RunUntil(12 * s)
	if !w.Net.Connected("A", "redis-1") {
		t.Error("redis-1 still cut off after every isolation ended")
	}
	if !traced(*ev, "redis-1 heal an isolation of redis-1 ends after 2s; it stays cut off (another isolation until 11.000s)") {
		dumpTrace(t, *ev)
		t.Error("the trace does not say redis-1 stays cut off")
	}
	for _, e := range *ev {
		if e.Kind == "heal" && e.Msg == "redis-1 reconnected" && e.At != 11*s {
			t.Errorf("the trace says redis-1 reconnected at %s", sim.FormatTime(e.At))
		}
	}
}

// TestOverlappingPartitionsCompose: a heal says when another partition is
// still on; each partition keeps cutting its own groups until its end.
func TestOverlappingPartitionsCompose(t *testing.T) {
	w, ev := world(t, nil)
	Schedule(w, []Fault{
		{At: 1 * s, Kind: Partition, Groups: [][]string{{"A"}, {"redis-1"}}, For: 10 * s},
		{At: 2 * s, Kind: Partition, Groups: [][]string{{"A"}, {"redis-1"}}, For: 2 * s},
	})
	w.K.RunUntil(5 * s)
	if w.Net.Connected("A", "redis-1") {
		t.Error("the inner partition's heal healed the outer one")
	}
	w.K.RunUntil(12 * s)
	if !w.Net.Connected("A", "redis-1") {
		t.Error("still cut after both partitions healed")
	}
	if !traced(*ev, "net heal partition healed after 2s; another partition is on until 11.000s") {
		dumpTrace(t, *ev)
		t.Error("the inner heal does not say another partition is on")
	}
}

// TestOverlappingNodeCrashesNest: a node crashed while down stays down
// until the last of its crashes' restarts, for good if one has none.
func TestOverlappingNodeCrashesNest(t *testing.T) {
	w, ev := world(t, nil)
	Schedule(w, []Fault{
		{At: 1 * s, Kind: Crash, Target: "redis-1", RestartAfter: 10 * s},
		{At: 5 * s, Kind: Crash, Target: "redis-1", RestartAfter: 2 * s},
	})
	w.K.RunUntil(8 * s)
	if w.Node("redis-1").Up() {
		t.Error("redis-1 restarted at 7s by the inner crash while the outer keeps it down until 11s")
	}
	w.K.RunUntil(12 * s)
	if !w.Node("redis-1").Up() {
		t.Error("redis-1 still down after the last restart")
	}
	if !traced(*ev, "redis-1 fault redis-1 crashes while already down: it stays down until 11.000s") ||
		!traced(*ev, "redis-1 fault-end redis-1 does not restart after 2s: another crash keeps it down until 11.000s") {
		dumpTrace(t, *ev)
		t.Error("the trace does not say why redis-1 stays down")
	}

	w, ev = world(t, nil)
	Schedule(w, []Fault{
		{At: 1 * s, Kind: Crash, Target: "redis-1", RestartAfter: 2 * s},
		{At: 2 * s, Kind: Crash, Target: "redis-1"},
	})
	w.K.RunUntil(time.Minute)
	if w.Node("redis-1").Up() || !traced(*ev, "it stays down for good") {
		dumpTrace(t, *ev)
		t.Error("a crash without restart inside a crash with one did not keep the node down for good")
	}
}

// TestClientCrashedTwice: a second crash of a crashed client changes
// nothing and says so.
func TestClientCrashedTwice(t *testing.T) {
	w, ev := holder(t)
	Schedule(w, []Fault{{At: 1 * s, Kind: Crash, Target: "A"}, {At: 2 * s, Kind: Crash, Target: "A"}})
	w.K.RunUntil(time.Minute)
	if !traced(*ev, "A fault A has already crashed: nothing more to crash") {
		dumpTrace(t, *ev)
		t.Error("the second crash is not traced as a no-op")
	}
}

// TestRandomOverlapsAreUnions checks the rule on random overlapping
// schedules: at any instant a client is paused exactly when some pause's
// interval covers it, and a process's slow latency is the sum of the slows
// covering it.
func TestRandomOverlapsAreUnions(t *testing.T) {
	for seed := range uint64(30) {
		r := rand.New(rand.NewPCG(seed, 7))
		w, _ := world(t, func(c *model.Config) {
			c.Clients = []model.ClientConfig{{Name: "A", Holds: 3, Work: 2 * s, Think: s}}
		})
		var fs []Fault
		for range 1 + r.IntN(6) {
			at, dur := time.Duration(r.IntN(20))*s, time.Duration(1+r.IntN(10))*s
			fs = append(fs, Fault{At: at, Kind: Pause, Target: "A", For: dur},
				Fault{At: at + 500*ms, Kind: Slow, Target: "redis-1", For: dur, Latency: time.Duration(1+r.IntN(5)) * ms})
		}
		Schedule(w, fs)
		for probe := 250 * ms; probe < 40*s; probe += 500 * ms {
			w.K.RunUntil(probe)
			paused, lat := false, time.Duration(0)
			for _, f := range fs {
				if f.At <= probe && probe < f.At+f.For {
					if f.Kind == Pause {
						paused = true
					} else {
						lat += f.Latency
					}
				}
			}
			if got := w.Client("A").Paused(); got != paused {
				t.Fatalf("seed %d at %s: paused %t, want %t (faults %v)", seed, probe, got, paused, fs)
			}
			if got, _ := w.Net.Slow("redis-1"); got != lat {
				t.Fatalf("seed %d at %s: slow +%s, want +%s (faults %v)", seed, probe, got, lat, fs)
			}
		}
	}
}

// TestOverlappingClockFaults: clock faults have no duration: jumps add up,
// and a later drift replaces the earlier rate (they do not multiply).
func TestOverlappingClockFaults(t *testing.T) {
	w, _ := holder(t)
	Schedule(w, []Fault{
		{At: 1 * s, Kind: ClockJump, Target: "redis-1", By: s},
		{At: 1 * s, Kind: ClockJump, Target: "redis-1", By: 2 * s},
		{At: 1 * s, Kind: ClockDrift, Target: "A", Rate: 2},
		{At: 1 * s, Kind: ClockDrift, Target: "A", Rate: 3},
	})
	w.K.RunUntil(2 * s)
	if off := w.Node("redis-1").Clock().Offset(w.Now()); off != 3*s {
		t.Errorf("two jumps of +1s and +2s: offset %s, want +3s", off)
	}
	if r := w.Client("A").Clock().Rate(); r != 3 {
		t.Errorf("drifts 2 then 3: rate %g, want 3", r)
	}
}
