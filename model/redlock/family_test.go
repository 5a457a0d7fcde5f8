package redlock_test

import (
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/redlock"
)

// Sequential and deciding at the first quorum, the client stops asking once
// the attempt is decided: three OKs of five and the last two nodes are never
// sent a SET (they stay pending).
func TestSequentialFirstQuorumStopsAsking(t *testing.T) {
	cfg := redlockConfig(5, time.Second)
	cfg.Lock.FirstQuorum = true
	w := newWorld(t, cfg)
	runUntil(w, 100*time.Millisecond)
	a := attempt(t, w, "A")
	if !a.OK || a.Granted != 3 || a.Elapsed != 6*time.Millisecond {
		t.Fatalf("attempt %+v, want granted by 3 nodes after 3 round trips", a)
	}
	for i, o := range a.Nodes[3:] {
		if o.Outcome != redlock.OutcomePending {
			t.Errorf("node %d: %s, want pending (never asked)", i+4, o.Outcome)
		}
	}
	if got := holds(w, "A-1"); got[3] || got[4] {
		t.Errorf("keys on %v: the last two nodes were asked", got)
	}
}

// One deadline for the whole sequential attempt: with two dead nodes first
// and a 60ms deadline (ttl 1.2s × 0.05), the first dead node takes the whole
// budget, the second is never asked, and so are the live ones: the attempt
// ends at 60ms, not 2 × 50ms + 3 round trips.
func TestAttemptDeadlineBoundsASequentialAttempt(t *testing.T) {
	cfg := redlockConfig(5, time.Second)
	cfg.Lock.TTL = 1200 * time.Millisecond
	cfg.Lock.Deadline, cfg.Lock.TimeoutFactor = model.DeadlineAttempt, 0.05
	w := newWorld(t, cfg)
	w.CrashNode(w.Shards[0].Master)
	w.CrashNode(w.Shards[1].Master)
	runUntil(w, 500*time.Millisecond)
	a := attempt(t, w, "A")
	if a.OK || a.Elapsed != 60*time.Millisecond || a.Granted != 0 {
		t.Fatalf("attempt %+v, want refused at the 60ms deadline with nothing granted", a)
	}
	for i, o := range a.Nodes {
		if o.Outcome != redlock.OutcomeTimeout {
			t.Errorf("node %d: %s, want timeout", i+1, o.Outcome)
		}
	}
}

// Without a validity check a quorum grants even when the validity is used
// up; with the check the same attempt is refused. The +2ms is the only
// difference drift_slack makes.
func TestValidityCheckAndSlack(t *testing.T) {
	for _, c := range []struct {
		noCheck, noSlack bool
		ok               bool
		validity         time.Duration
	}{
		{false, false, false, 10*time.Millisecond - 60*time.Millisecond - 2*time.Millisecond},
		{true, false, true, 10*time.Millisecond - 60*time.Millisecond - 2*time.Millisecond},
		{true, true, true, 10*time.Millisecond - 60*time.Millisecond},
	} {
		cfg := redlockConfig(3, time.Second)
		cfg.Lock.TTL, cfg.Lock.DriftFactor = 10*time.Millisecond, 0
		cfg.Latency = 10 * time.Millisecond // 3 nodes one after another: 60ms
		cfg.Lock.NoValidityCheck, cfg.Lock.NoDriftSlack = c.noCheck, c.noSlack
		w := newWorld(t, cfg)
		runUntil(w, 100*time.Millisecond)
		a := attempt(t, w, "A")
		if a.OK != c.ok || a.Validity != c.validity {
			t.Errorf("check=%v slack=%v: ok %v validity %s, want %v %s", !c.noCheck, !c.noSlack, a.OK, a.Validity, c.ok, c.validity)
		}
	}
}
