package faults

import (
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/sim"
)

const (
	ms = time.Millisecond
	s  = time.Second
)

// world builds a world of one master (and whatever mod adds) with no
// clients unless mod adds them, and records its trace.
func world(t *testing.T, mod func(*model.Config)) (*model.World, *[]sim.Event) {
	t.Helper()
	cfg := model.Config{
		Seed: 1, Duration: 10 * time.Minute, Latency: ms,
		Nodes: model.NodesConfig{Masters: 1, ReplicationLag: 10 * ms},
		Lock:  model.LockConfig{Key: "lock:x", Strategy: model.StrategyLuaRelease, TTL: 30 * s, Timeout: s},
	}
	if mod != nil {
		mod(&cfg)
	}
	w, err := model.NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	var events []sim.Event
	w.K.Trace().Subscribe(func(e sim.Event) { events = append(events, e) })
	return w, &events
}

// at runs fn at true time t.
func at(w *model.World, t time.Duration, fn func()) { w.K.At(t, fn) }

// cmd schedules a command on node name at t and fails the test on an error.
func cmd(t *testing.T, w *model.World, when time.Duration, node string, args ...string) {
	t.Helper()
	at(w, when, func() {
		if _, err := w.Command(w.Node(node), "c", args...); err != nil {
			t.Errorf("%v on %s at %v: %v", args, node, when, err)
		}
	})
}

// pttlAt runs the world to t and returns the key's PTTL on node (-2: gone).
func pttlAt(w *model.World, t time.Duration, node, key string) time.Duration {
	w.K.RunUntil(t)
	return w.Node(node).PTTL(t, key)
}

// traced reports whether some trace line contains every one of parts.
func traced(events []sim.Event, parts ...string) bool {
	for _, e := range events {
		line := e.Proc + " " + e.Kind + " " + e.Msg
		ok := true
		for _, p := range parts {
			if !strings.Contains(line, p) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func dumpTrace(t *testing.T, events []sim.Event) {
	t.Helper()
	for _, e := range events {
		t.Log(e.String())
	}
}

// expiresAt checks, on worlds built by mk, that lock:x on redis-1 is present
// at exactly `when` and gone 1ns later (Redis keeps a key while now <=
// expiry), also when nobody looked at it at `when`.
func expiresAt(t *testing.T, mk func() *model.World, when time.Duration) {
	t.Helper()
	w := mk()
	if p := pttlAt(w, when, "redis-1", "lock:x"); p != 0 {
		t.Errorf("PTTL at the expiry instant %v = %v, want 0", when, p)
	}
	if p := pttlAt(w, when+1, "redis-1", "lock:x"); p != -2 {
		t.Errorf("PTTL at %v+1ns = %v, want -2 (gone)", when, p)
	}
	w = mk()
	if p := pttlAt(w, when+1, "redis-1", "lock:x"); p != -2 {
		t.Errorf("fresh world: PTTL at %v+1ns = %v, want -2 (gone)", when, p)
	}
}

// lockAt1ms: SET lock:x A PX 30000 at 1ms, so the absolute expiry is the
// node's clock reading at 1ms plus 30s.
func lockAt1ms(t *testing.T, w *model.World) {
	cmd(t, w, ms, "redis-1", "SET", "lock:x", "A", "NX", "PX", "30000")
}

func TestClockJumpForwardExpiresEarly(t *testing.T) {
	mk := func() *model.World {
		w, _ := world(t, nil)
		lockAt1ms(t, w)
		Schedule(w, []Fault{{At: 5 * s, Kind: ClockJump, Target: "redis-1", By: 20 * s}})
		return w
	}
	w := mk()
	if p := pttlAt(w, 5*s-1, "redis-1", "lock:x"); p != 25*s+ms+1 {
		t.Errorf("PTTL just before the jump = %v, want 25.001s+1ns", p)
	}
	// Expiry at node clock 30.001s; the clock reads true+20s from 5s on.
	if p := pttlAt(w, 5*s, "redis-1", "lock:x"); p != 5*s+ms {
		t.Errorf("PTTL right after +20s = %v, want 5.001s", p)
	}
	if p := pttlAt(w, 8*s, "redis-1", "lock:x"); p != 2*s+ms {
		t.Errorf("PTTL at 8s = %v, want 2.001s", p)
	}
	expiresAt(t, mk, 10*s+ms)
}

func TestClockJumpForwardPastExpiryTraced(t *testing.T) {
	w, ev := world(t, nil)
	lockAt1ms(t, w)
	Schedule(w, []Fault{{At: 5 * s, Kind: ClockJump, Target: "redis-1", By: 40 * s}})
	if p := pttlAt(w, 5*s, "redis-1", "lock:x"); p != -2 {
		t.Fatalf("PTTL after +40s = %v, want gone", p)
	}
	if !traced(*ev, "redis-1 clock +40s: lock:x expired 25.001s early") {
		dumpTrace(t, *ev)
		t.Error("no trace line for the early expiry")
	}
}

func TestClockJumpBackwardLivesLonger(t *testing.T) {
	mk := func() *model.World {
		w, _ := world(t, nil)
		lockAt1ms(t, w)
		Schedule(w, []Fault{{At: 5 * s, Kind: ClockJump, Target: "redis-1", By: -20 * s}})
		return w
	}
	w := mk()
	if p := pttlAt(w, 5*s, "redis-1", "lock:x"); p != 45*s+ms {
		t.Errorf("PTTL right after -20s = %v, want 45.001s", p)
	}
	expiresAt(t, mk, 50*s+ms)
}

func TestClockJumpMonotonicIgnored(t *testing.T) {
	mk := func() *model.World {
		w, _ := world(t, func(c *model.Config) { c.Nodes.Monotonic = true })
		lockAt1ms(t, w)
		Schedule(w, []Fault{{At: 5 * s, Kind: ClockJump, Target: "redis-1", By: 25 * s}})
		return w
	}
	w := mk()
	if p := pttlAt(w, 5*s, "redis-1", "lock:x"); p != 25*s+ms {
		t.Errorf("monotonic: PTTL after +25s = %v, want 25.001s (unchanged)", p)
	}
	expiresAt(t, mk, 30*s+ms)
}

func TestClockDriftFromStart(t *testing.T) {
	// rate 2 from 0: at 1ms the clock reads 2ms; expiry at its 30.002s,
	// which it reaches at true 15.001s.
	mk := func() *model.World {
		w, _ := world(t, nil)
		Schedule(w, []Fault{{At: 0, Kind: ClockDrift, Target: "redis-1", Rate: 2}})
		lockAt1ms(t, w)
		return w
	}
	w := mk()
	if p := pttlAt(w, 10*s, "redis-1", "lock:x"); p != 10*s+2*ms {
		t.Errorf("PTTL at 10s = %v, want 10.002s", p)
	}
	expiresAt(t, mk, 15*s+ms)
}

func TestClockDriftMidLease(t *testing.T) {
	// From 5s at rate 0.5: 25.001s of TTL left take 50.002s of true time.
	for _, mono := range []bool{false, true} {
		mk := func() *model.World {
			w, _ := world(t, func(c *model.Config) { c.Nodes.Monotonic = mono })
			lockAt1ms(t, w)
			Schedule(w, []Fault{{At: 5 * s, Kind: ClockDrift, Target: "redis-1", Rate: 0.5}})
			return w
		}
		w := mk()
		if p := pttlAt(w, 7*s, "redis-1", "lock:x"); p != 24*s+ms {
			t.Errorf("monotonic=%v: PTTL at 7s = %v, want 24.001s", mono, p)
		}
		expiresAt(t, mk, 55*s+2*ms)
	}
}

func TestClientDriftMovesPendingSleep(t *testing.T) {
	// A works 10s by its clock from 2ms (after acquire and read). At 4.002s
	// its clock starts running 2x: the remaining 6s of work take 3s.
	w, ev := world(t, func(c *model.Config) {
		c.Clients = []model.ClientConfig{{Name: "A", Holds: 1, Work: 10 * s}}
	})
	Schedule(w, []Fault{{At: 4*s + 3*ms, Kind: ClockDrift, Target: "A", Rate: 2}})
	w.K.RunUntil(time.Minute)
	var wrote time.Duration
	for _, e := range *ev {
		if e.Kind == "write" {
			wrote = e.At
		}
	}
	// The read's reply arrives at 4ms: sleep from 4ms, 3.999s at rate 1,
	// then 6.001s at rate 2 = 3.0005s: wakes at 7.0035s, the write
	// arrives 1ms later.
	if want := 7*s + 4500*time.Microsecond; wrote != want {
		dumpTrace(t, *ev)
		t.Errorf("write at %v, want %v", wrote, want)
	}
}

func TestClientJumpMovesBeliefNotTimers(t *testing.T) {
	w, ev := world(t, func(c *model.Config) {
		c.Clients = []model.ClientConfig{{Name: "A", Holds: 1, Work: 10 * s}}
	})
	Schedule(w, []Fault{{At: 5 * s, Kind: ClockJump, Target: "A", By: 20 * s}})
	w.K.RunUntil(time.Minute)
	var wrote time.Duration
	for _, e := range *ev {
		if e.Kind == "write" {
			wrote = e.At
		}
	}
	if want := 10*s + 5*ms; wrote != want {
		t.Errorf("write at %v, want %v: a jump must not move timers", wrote, want)
	}
	if !traced(*ev, "A now believes its lease on lock:x has 5s left") {
		dumpTrace(t, *ev)
		t.Error("the jump's effect on A's belief is not traced")
	}
}

// TestReplicationLossIsTheLagWindow: with a 100ms lag, a failover at 200ms
// loses exactly the writes made in (100ms, 200ms].
func TestReplicationLossIsTheLagWindow(t *testing.T) {
	for _, crash := range []bool{true, false} {
		w, ev := world(t, func(c *model.Config) {
			c.Nodes.Replicas = 1
			c.Nodes.ReplicationLag = 100 * ms
		})
		writes := map[string]time.Duration{"k1": 10 * ms, "k2": 50 * ms, "k3": 100 * ms, "k4": 101 * ms, "k5": 150 * ms, "k6": 200 * ms}
		for _, k := range []string{"k1", "k2", "k3", "k4", "k5", "k6"} {
			cmd(t, w, writes[k], "redis-1", "SET", k, "v")
		}
		fs := []Fault{{At: 200 * ms, Kind: Failover, Target: "redis-1"}}
		if crash {
			fs = append([]Fault{{At: 200 * ms, Kind: Crash, Target: "redis-1"}}, fs...)
		}
		Schedule(w, fs)
		w.K.RunUntil(time.Second)
		r := w.Node("redis-1-r1")
		if w.Shards[0].Master != r {
			t.Fatalf("crash=%v: master is %s, want redis-1-r1", crash, w.Shards[0].Master.Name())
		}
		var got []string
		for _, k := range r.Keys(w.Now()) {
			got = append(got, k.Key)
		}
		// A write made at t is applied at t+100ms; one due at the very
		// instant of the failover has arrived.
		if want := "k1 k2 k3"; strings.Join(got, " ") != want {
			dumpTrace(t, *ev)
			t.Errorf("crash=%v: promoted replica has %q, want %q", crash, strings.Join(got, " "), want)
		}
		if !traced(*ev, "repl-lost", "3 write(s)", `k4 = "v"`, `k5 = "v"`, `k6 = "v"`) {
			dumpTrace(t, *ev)
			t.Errorf("crash=%v: the lost writes are not traced", crash)
		}
		if !crash {
			// The old master was up and reachable: it rejoined as a replica
			// and its unreplicated writes are discarded.
			old := w.Node("redis-1")
			if !old.IsReplica() || len(old.Keys(w.Now())) != 3 {
				t.Errorf("old master: replica=%v keys=%v, want a replica with 3 keys", old.IsReplica(), old.Keys(w.Now()))
			}
		}
	}
}

// TestReplicationHeldByPartition: writes due while master and replica are
// partitioned are applied, in order, when the link heals.
func TestReplicationHeldByPartition(t *testing.T) {
	w, ev := world(t, func(c *model.Config) { c.Nodes.Replicas = 1 })
	Schedule(w, []Fault{{At: 5 * ms, Kind: Partition, Groups: [][]string{{"redis-1"}, {"redis-1-r1"}}, For: time.Second}})
	cmd(t, w, 10*ms, "redis-1", "SET", "k", "1")
	cmd(t, w, 20*ms, "redis-1", "SET", "k", "2")
	cmd(t, w, 30*ms, "redis-1", "DEL", "k")
	cmd(t, w, 40*ms, "redis-1", "SET", "k", "3")
	r := w.Node("redis-1-r1")
	w.K.RunUntil(time.Second)
	if n := r.ReplicationBacklog(); n != 4 {
		t.Errorf("backlog during the partition = %d, want 4", n)
	}
	if v := r.Keys(w.Now()); len(v) != 0 {
		t.Errorf("replica has %v during the partition, want nothing", v)
	}
	w.K.RunUntil(time.Second + 5*ms)
	if v := r.Keys(w.Now()); len(v) != 1 || v[0].Value != "3" {
		t.Errorf("replica after the heal has %v, want k=3", v)
	}
	if !traced(*ev, "replicated", "caught up", `k = "1"; k = "2"; k deleted; k = "3"`) {
		dumpTrace(t, *ev)
		t.Error("catch-up not traced in order")
	}
}

// TestMasterRestartForcesFullResync: the backlog dies with the master; a
// master restarting empty wipes its replica (persistence none).
func TestMasterRestartForcesFullResync(t *testing.T) {
	w, ev := world(t, func(c *model.Config) { c.Nodes.Replicas = 1 })
	cmd(t, w, 10*ms, "redis-1", "SET", "k", "1")
	Schedule(w, []Fault{{At: s, Kind: Crash, Target: "redis-1", RestartAfter: s}})
	w.K.RunUntil(1500 * ms)
	if v := w.Node("redis-1-r1").Keys(w.Now()); len(v) != 1 {
		t.Fatalf("replica before the restart has %v, want k", v)
	}
	w.K.RunUntil(3 * s)
	if v := w.Node("redis-1-r1").Keys(w.Now()); len(v) != 0 {
		t.Errorf("replica after its master restarted empty has %v, want nothing", v)
	}
	if !traced(*ev, "resync", "discards", `k = "1"`) {
		dumpTrace(t, *ev)
		t.Error("full resync not traced")
	}
}

// TestEverysecLosesExactlyTheLastSecond: a crash at 2.5s keeps writes made
// at or before 1.5s and loses the later ones.
func TestEverysecLosesExactlyTheLastSecond(t *testing.T) {
	w, _ := world(t, func(c *model.Config) { c.Nodes.Persistence = model.PersistEverysec })
	cmd(t, w, 500*ms, "redis-1", "SET", "k1", "v")
	cmd(t, w, 1500*ms, "redis-1", "SET", "k2", "v")
	cmd(t, w, 1500*ms+1, "redis-1", "SET", "k3", "v")
	cmd(t, w, 2400*ms, "redis-1", "SET", "k1", "changed")
	Schedule(w, []Fault{{At: 2500 * ms, Kind: Crash, Target: "redis-1", RestartAfter: 500 * ms}})
	w.K.RunUntil(3 * s)
	var got []string
	for _, k := range w.Node("redis-1").Keys(w.Now()) {
		got = append(got, k.Key+"="+k.Value)
	}
	if want := "k1=v k2=v"; strings.Join(got, " ") != want {
		t.Errorf("after the restart: %q, want %q", strings.Join(got, " "), want)
	}
}

func TestPersistenceAlwaysAndNone(t *testing.T) {
	for mode, want := range map[string]int{model.PersistAlways: 1, model.PersistNone: 0} {
		w, _ := world(t, func(c *model.Config) { c.Nodes.Persistence = mode })
		cmd(t, w, 2*s, "redis-1", "SET", "k", "v")
		Schedule(w, []Fault{{At: 2 * s, Kind: Crash, Target: "redis-1", RestartAfter: s}})
		w.K.RunUntil(4 * s)
		if got := len(w.Node("redis-1").Keys(w.Now())); got != want {
			t.Errorf("%s: %d key(s) after restart, want %d", mode, got, want)
		}
	}
}

// TestSentinelPromotesAfterUnreachable: failover_after counts from the
// instant the master became unreachable from the replica.
func TestSentinelPromotesAfterUnreachable(t *testing.T) {
	w, ev := world(t, func(c *model.Config) {
		c.Nodes.Replicas = 1
		c.Nodes.FailoverAfter = 2 * s
	})
	Schedule(w, []Fault{
		{At: 1 * s, Kind: Crash, Target: "redis-1", RestartAfter: 1500 * ms}, // back before 3s: no failover
		{At: 5 * s, Kind: Isolate, Target: "redis-1", For: 3 * s},
	})
	w.K.RunUntil(7 * s)
	if w.Shards[0].Master.Name() != "redis-1-r1" {
		t.Fatalf("master at 7s is %s, want redis-1-r1", w.Shards[0].Master.Name())
	}
	var promoted time.Duration
	for _, e := range *ev {
		if e.Kind == "promoted" {
			promoted = e.At
		}
	}
	if promoted != 7*s {
		dumpTrace(t, *ev)
		t.Errorf("promoted at %v, want 7s (isolated at 5s + failover_after 2s)", promoted)
	}
	if !traced(*ev, "sdown-end", "redis-1-r1 reaches its master redis-1 again") {
		t.Error("the crash shorter than failover_after should end the watch")
	}
	// At 8s the isolation ends: redis-1 learns it was replaced and rejoins.
	w.K.RunUntil(9 * s)
	if old := w.Node("redis-1"); !old.IsReplica() || old.Upstream() != w.Node("redis-1-r1") {
		t.Errorf("old master after the heal: replica=%v, want a replica of redis-1-r1", old.IsReplica())
	}
}

// TestSplitBrain: the old master, partitioned with A, keeps taking A's
// writes after the replica was promoted on B's side; B locks the new master;
// when the partition heals the old master rejoins and A's lock is discarded.
func TestSplitBrain(t *testing.T) {
	w, ev := world(t, func(c *model.Config) {
		c.Nodes.Replicas = 1
		c.Nodes.FailoverAfter = 2 * s
		c.Clients = []model.ClientConfig{
			{Name: "A", Start: 3500 * ms, Holds: 1, Work: 10 * s},
			{Name: "B", Start: 4 * s, Holds: 1, Work: 5 * s},
		}
	})
	Schedule(w, []Fault{{At: s, Kind: Partition, Groups: [][]string{{"A", "redis-1"}, {"B", "redis-1-r1"}}, For: 10 * s}})
	w.K.RunUntil(time.Minute)
	w.Finish()
	m := w.Chk.Metrics()
	if m.Violations < 1 {
		dumpTrace(t, *ev)
		t.Fatalf("violations = %d, want >= 1", m.Violations)
	}
	for _, want := range [][]string{
		{"promoted", "redis-1-r1 is now the master"},
		{"split-brain", "redis-1 accepts A's write although redis-1-r1 replaced it"},
		{"rejoined", "redis-1 rejoins as a replica of redis-1-r1"},
		{"resync", "discards", `lock:x = "A-1"`},
		{"follows", "A follows the new master of shard 1: redis-1-r1"},
	} {
		if !traced(*ev, want...) {
			dumpTrace(t, *ev)
			t.Fatalf("trace lacks %q", want)
		}
	}
	if fv := w.Chk.FirstViolation(); !strings.Contains(fv, "split brain") {
		t.Errorf("first violation %q does not name the split brain", fv)
	}
}

// TestLostRequestVsLostReply: both time out, but only after a lost reply
// did the command run.
func TestLostRequestVsLostReply(t *testing.T) {
	for _, tc := range []struct {
		isolateAt time.Duration
		kind      string
		ran       bool
	}{
		{isolateAt: 500 * time.Microsecond, kind: "request-lost", ran: false}, // SET in flight to redis-1
		{isolateAt: 1500 * time.Microsecond, kind: "reply-lost", ran: true},   // SET ran at 1ms, reply in flight
	} {
		w, ev := world(t, func(c *model.Config) {
			c.Clients = []model.ClientConfig{{Name: "A", Holds: 1, Work: s}}
		})
		Schedule(w, []Fault{{At: tc.isolateAt, Kind: Isolate, Target: "A", For: 10 * s}})
		w.K.RunUntil(500 * ms)
		if !traced(*ev, tc.kind) {
			dumpTrace(t, *ev)
			t.Errorf("isolate at %v: no %s line", tc.isolateAt, tc.kind)
		}
		w.K.RunUntil(2 * s)
		if !traced(*ev, "A timeout", "no reply from redis-1 within 1s") {
			dumpTrace(t, *ev)
			t.Errorf("isolate at %v: no timeout line", tc.isolateAt)
		}
		if got := w.Node("redis-1").Exists(w.Now(), "lock:x"); got != tc.ran {
			t.Errorf("isolate at %v: lock on redis-1 = %v, want %v", tc.isolateAt, got, tc.ran)
		}
	}
}

func TestFaultLinesPrecedeEffects(t *testing.T) {
	w, ev := world(t, nil)
	lockAt1ms(t, w)
	Schedule(w, []Fault{{At: 5 * s, Kind: ClockJump, Target: "redis-1", By: 40 * s}})
	w.K.RunUntil(6 * s)
	kinds := []string{}
	for _, e := range *ev {
		if e.Kind != "cmd" { // the setup's SET, traced like any command
			kinds = append(kinds, e.Kind)
		}
	}
	if got := strings.Join(kinds, " "); got != "fault expired" {
		dumpTrace(t, *ev)
		t.Errorf("trace kinds %q, want the fault then its effect", got)
	}
}
