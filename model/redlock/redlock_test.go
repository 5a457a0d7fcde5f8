package redlock_test

import (
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/redlock"
	"github.com/lockstep-sim/lockstep/sim"
)

const key = "lock:test"

// redlockConfig is a world of n masters and one client A that holds the
// Redlock once for `work`. Latency is 1ms one way, so a reachable node
// answers in 2ms and a dead one costs the 50ms request timeout.
func redlockConfig(n int, work time.Duration) model.Config {
	return model.Config{
		Seed:     1,
		Duration: time.Minute,
		Latency:  time.Millisecond,
		Nodes:    model.NodesConfig{Masters: n},
		Lock: model.LockConfig{
			Key: key, Strategy: model.StrategyRedlock, TTL: 30 * time.Second, Timeout: time.Second,
			DriftFactor: 0.01, NodeTimeout: 50 * time.Millisecond,
			Retry: &model.RetryConfig{Attempts: 1, Backoff: 1},
		},
		Clients: []model.ClientConfig{{Name: "A", Holds: 1, Work: work}},
	}
}

func newWorld(t *testing.T, cfg model.Config) *model.World {
	t.Helper()
	w, err := model.NewWorld(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	redlock.WatchAttempts(w) // before the run, so that attempt() sees every attempt
	return w
}

// runUntil steps the world's kernel up to true time end.
func runUntil(w *model.World, end time.Duration) {
	for {
		at, ok := w.K.Next()
		if !ok || at > end {
			return
		}
		w.K.Step()
	}
}

func attempt(t *testing.T, w *model.World, client string) redlock.Attempt {
	t.Helper()
	a, ok := redlock.WatchAttempts(w).Last(client)
	if !ok {
		t.Fatalf("%s made no Redlock attempt", client)
	}
	return a
}

// holds reports which masters hold the lock key with value token.
func holds(w *model.World, token string) []bool {
	out := make([]bool, len(w.Shards))
	for i, sh := range w.Shards {
		n := sh.Master
		if !n.Up() {
			continue
		}
		r, err := n.Do(w.Now(), "test", "GET", key)
		out[i] = err == nil && r == token
	}
	return out
}

func TestValidityArithmetic(t *testing.T) {
	for _, c := range []struct {
		ttl, elapsed time.Duration
		drift        float64
		want         time.Duration
	}{
		// redis.io: drift = ttl × factor + 2 ms.
		{30 * time.Second, 106 * time.Millisecond, 0.01, 30*time.Second - 106*time.Millisecond - 302*time.Millisecond},
		{10 * time.Second, 0, 0, 10*time.Second - 2*time.Millisecond},
		{time.Second, 500 * time.Millisecond, 0.1, 398 * time.Millisecond},
		// Used up: the caller must refuse a lock with validity <= 0.
		{time.Second, 988 * time.Millisecond, 0.01, 0},
		{time.Second, 2 * time.Second, 0.01, -time.Second - 12*time.Millisecond},
	} {
		if got := redlock.Validity(c.ttl, c.elapsed, c.drift); got != c.want {
			t.Errorf("Validity(%s, %s, %g) = %s, want %s", c.ttl, c.elapsed, c.drift, got, c.want)
		}
	}
}

func TestRedlockSequentialGrant(t *testing.T) {
	w := newWorld(t, redlockConfig(5, time.Second))
	runUntil(w, 20*time.Millisecond)
	a := attempt(t, w, "A")
	// Five round trips of 2 ms one after another.
	if !a.OK || a.Granted != 5 || a.Quorum != 3 || a.Elapsed != 10*time.Millisecond {
		t.Fatalf("attempt = %+v, want 5 of 5 granted in 10ms", a)
	}
	l := w.Client("A").Lease()
	if l == nil || len(l.Nodes) != 5 || l.Until != l.Start+redlock.Validity(30*time.Second, 10*time.Millisecond, 0.01) {
		t.Fatalf("lease = %+v", l)
	}
	for i, o := range a.Nodes {
		if o.Outcome != redlock.OutcomeOK || o.Node != w.Shards[i].Master.Name() {
			t.Errorf("node %d: %+v", i, o)
		}
	}
}

func TestRedlockParallelIsOneRoundTrip(t *testing.T) {
	cfg := redlockConfig(5, time.Second)
	cfg.Lock.Parallel = true
	w := newWorld(t, cfg)
	runUntil(w, 20*time.Millisecond)
	if a := attempt(t, w, "A"); !a.OK || a.Elapsed != 2*time.Millisecond {
		t.Fatalf("attempt = %+v, want granted in one 2ms round trip", a)
	}
}

// The client measures elapsed time with its own clock: a clock running fast
// shortens the validity it computes, a slow one lengthens it (the hazard the
// drift factor is there to absorb).
func TestRedlockElapsedOnDriftingClientClock(t *testing.T) {
	for _, c := range []struct {
		rate float64
		want time.Duration
	}{{2, 20 * time.Millisecond}, {0.5, 5 * time.Millisecond}} {
		w := newWorld(t, redlockConfig(5, time.Second))
		w.Client("A").Clock().SetRate(0, c.rate)
		runUntil(w, 30*time.Millisecond)
		a := attempt(t, w, "A")
		if a.Elapsed != c.want || a.Validity != redlock.Validity(30*time.Second, c.want, 0.01) {
			t.Errorf("rate %g: elapsed %s validity %s, want elapsed %s", c.rate, a.Elapsed, a.Validity, c.want)
		}
		if l := w.Client("A").Lease(); l == nil || l.Until != l.Start+a.Validity {
			t.Errorf("rate %g: lease %+v does not end at start+validity", c.rate, l)
		}
	}
}

func TestRedlockQuorumExactlyHalfPlusOne(t *testing.T) {
	for _, c := range []struct {
		masters, down int
		ok            bool
	}{
		{5, 2, true},  // 3 of 5
		{5, 3, false}, // 2 of 5
		{4, 1, true},  // 3 of 4
		{4, 2, false}, // 2 of 4: half is not a majority
		{3, 1, true},  // 2 of 3
	} {
		w := newWorld(t, redlockConfig(c.masters, time.Second))
		for i := 0; i < c.down; i++ {
			w.CrashNode(w.Shards[i].Master)
		}
		runUntil(w, 500*time.Millisecond)
		a := attempt(t, w, "A")
		if a.OK != c.ok || a.Quorum != c.masters/2+1 || a.Granted != c.masters-c.down {
			t.Errorf("%d masters, %d down: %+v, want ok=%v", c.masters, c.down, a, c.ok)
		}
		if got := w.Strategy().Quorum(w); got != c.masters/2+1 {
			t.Errorf("Quorum = %d", got)
		}
		for i := 0; i < c.down; i++ {
			if o := a.Nodes[i].Outcome; o != redlock.OutcomeTimeout {
				t.Errorf("dead node %d: outcome %s, want timeout", i, o)
			}
		}
	}
}

// On failure the client releases on every node, also those that answered
// nothing: a SET whose reply was lost did run.
func TestRedlockLostReplyIsStillReleased(t *testing.T) {
	w := newWorld(t, redlockConfig(5, time.Second))
	// Another client holds redis-4 and redis-5, so A can reach at most 3.
	for _, i := range []int{3, 4} {
		w.Shards[i].Master.Do(0, "other", "SET", key, "other-1", "PX", "30000")
	}
	// redis-1 stores A's key at 1ms; its reply leaves at 1ms and is lost.
	w.K.At(1500*time.Microsecond, func() {
		id := w.Net.Isolate("redis-1")
		w.K.After(40*time.Millisecond, func() { w.Net.Heal(id) })
	})
	// 50ms timeout on redis-1, then four 2ms round trips: the verdict at
	// 58ms; the release reaches redis-1 at 59ms.
	runUntil(w, 58500*time.Microsecond)
	a := attempt(t, w, "A")
	if a.OK || a.Granted != 2 || a.Nodes[0].Outcome != redlock.OutcomeTimeout {
		t.Fatalf("attempt = %+v, want refused with a timeout on redis-1", a)
	}
	if h := holds(w, "A-1"); !h[0] {
		t.Fatal("redis-1 should hold A's key: the SET ran, only its reply was lost")
	}
	runUntil(w, 200*time.Millisecond)
	h := holds(w, "A-1")
	for i := range h {
		if h[i] {
			t.Errorf("%s still holds A's key after the release on failure", w.Shards[i].Master.Name())
		}
	}
	// The compare-and-delete leaves the other client's keys alone.
	if o := holds(w, "other-1"); !o[3] || !o[4] {
		t.Errorf("the release deleted another client's key: %v", o)
	}
	if m := w.Chk.Metrics(); m.WrongReleases != 0 || m.FailedAcquires != 1 {
		t.Errorf("metrics %+v", m)
	}
}

// The validity is computed after the replies: a pause while they are in
// flight (K4) turns a 5-of-5 answer into a refusal, and the keys are released.
func TestRedlockPauseWithRepliesInFlight(t *testing.T) {
	for _, parallel := range []bool{false, true} {
		cfg := redlockConfig(5, time.Second)
		cfg.Lock.TTL = time.Second
		cfg.Lock.Parallel = parallel
		w := newWorld(t, cfg)
		c := w.Client("A")
		w.K.At(time.Millisecond, c.Pause)
		w.K.At(time.Second-10*time.Millisecond, c.Unpause)
		// The replies are read at 990ms (sequential: the rest of the
		// round trips end at 998ms); the keys would expire at 1.001s.
		runUntil(w, 998500*time.Microsecond)
		a := attempt(t, w, "A")
		if a.OK || !a.Done || a.Granted != 5 || a.Validity > 0 {
			t.Fatalf("parallel=%v: attempt = %+v, want 5 of 5 refused for used-up validity", parallel, a)
		}
		if c.InCriticalSection() {
			t.Fatalf("parallel=%v: A entered its critical section", parallel)
		}
		if parallel {
			for i, h := range holds(w, "A-1") {
				if h {
					t.Errorf("redis-%d still holds A's key: the refused attempt was not released", i+1)
				}
			}
		}
	}
}

// With no retry block Redlock retries by itself: 3 attempts, each after a
// random delay in [0, 200ms).
func TestRedlockDefaultRetry(t *testing.T) {
	cfg := redlockConfig(5, time.Second)
	cfg.Lock.Retry = nil
	w := newWorld(t, cfg)
	for _, sh := range w.Shards {
		sh.Master.Do(0, "other", "SET", key, "other-1", "PX", "30000")
	}
	kinds := map[string]int{}
	w.K.Trace().Subscribe(func(e sim.Event) { kinds[e.Kind]++ })
	runUntil(w, 2*time.Second)
	if kinds["refused"] != 3 || kinds["retry"] != 2 || kinds["gave-up"] != 1 {
		t.Fatalf("events %v, want 3 refusals, 2 retries, 1 give-up", kinds)
	}
	// Each attempt is 10ms of SETs and 10ms of releases; the delays add < 400ms.
	if m := w.Chk.Metrics(); m.FailedAcquires != 1 || m.MaxWait < 60*time.Millisecond || m.MaxWait >= 460*time.Millisecond {
		t.Fatalf("metrics %+v", m)
	}
}

// fencing: token is the largest per-node INCR among the nodes that granted.
func TestRedlockMaxIncrToken(t *testing.T) {
	cfg := redlockConfig(5, time.Second)
	cfg.Lock.Fencing = "token"
	w := newWorld(t, cfg)
	w.Shards[1].Master.Do(0, "x", "SET", key+":fence", "6")
	w.Shards[4].Master.Do(0, "x", "SET", key+":fence", "41")
	w.CrashNode(w.Shards[4].Master) // its 42 would not count: it grants nothing
	runUntil(w, 100*time.Millisecond)
	l := w.Client("A").Lease()
	if l == nil || l.Fence != 7 {
		t.Fatalf("lease %+v, want fencing token 7 = max(1, 7, 1, 1)", l)
	}
}

// The watchdog's extension counts only with a quorum.
func TestRedlockRenewNeedsQuorum(t *testing.T) {
	cfg := redlockConfig(5, 10*time.Second)
	cfg.Lock.TTL = 3 * time.Second
	cfg.Lock.Watchdog = &model.WatchdogConfig{Every: time.Second}
	w := newWorld(t, cfg)
	c := w.Client("A")
	runUntil(w, 2500*time.Millisecond)
	if c.Renewals() != 2 {
		t.Fatalf("renewals = %d, want 2 by 2.5s", c.Renewals())
	}
	for i := 0; i < 3; i++ {
		w.CrashNode(w.Shards[i].Master)
	}
	runUntil(w, 5*time.Second)
	if c.Renewals() != 2 {
		t.Fatalf("renewals = %d: a renewal counted without a quorum", c.Renewals())
	}
}

func TestRedlockLockNodesFollowFailover(t *testing.T) {
	cfg := redlockConfig(3, time.Second)
	cfg.Nodes.Replicas = 1
	w := newWorld(t, cfg)
	if _, err := w.Failover(0); err != nil {
		t.Fatal(err)
	}
	got := w.Strategy().LockNodes(w)
	if len(got) != 3 || got[0].Name() != "redis-1-r1" || got[1].Name() != "redis-2" {
		t.Fatalf("LockNodes after failover = %v", got)
	}
}
