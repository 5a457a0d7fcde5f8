package scenario_test

import (
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/scenario"
)

// explainYAML holds one run per cause of a first violation, each built so
// that B's grant overlaps A's critical section for that cause alone.
const explainYAML = `version: 1
scenarios:
  - name: replica-jump
    title: explanation case
    story: a cause of a first violation
    duration: 60s
    redis: {replicas: 1, replication_lag: 10ms}
    lock: {key: lock, strategy: lua-release, ttl: 30s, retry: {attempts: 100, delay: 500ms}}
    clients:
      - {name: A, work: 25s}
      - {name: B, start: 100ms, work: 1s}
    faults:
      - at: 1s
        clock_jump: {target: redis-1-r1, by: 10s}
      - at: 22s
        failover: {target: redis-1}
  - name: replica-jump-before
    title: explanation case
    story: a cause of a first violation
    duration: 60s
    redis: {replicas: 1, replication_lag: 10ms}
    lock: {key: lock, strategy: lua-release, ttl: 5s, retry: {attempts: 100, delay: 500ms}}
    clients:
      - {name: A, start: 1s, work: 4s}
      - {name: B, start: 1100ms, work: 1s}
    faults:
      - at: 0s
        clock_jump: {target: redis-1-r1, by: 10s}
      - at: 2s
        failover: {target: redis-1}
  - name: replica-drift
    title: explanation case
    story: a cause of a first violation
    duration: 60s
    redis: {replicas: 1, replication_lag: 10ms}
    lock: {key: lock, strategy: lua-release, ttl: 30s, retry: {attempts: 100, delay: 500ms}}
    clients:
      - {name: A, work: 25s}
      - {name: B, start: 100ms, work: 1s}
    faults:
      - at: 1s
        clock_drift: {target: redis-1-r1, rate: 2}
      - at: 22s
        failover: {target: redis-1}
  - name: replica-restart
    title: explanation case
    story: a cause of a first violation
    duration: 60s
    redis: {replicas: 1, replication_lag: 10ms}
    lock: {key: lock, strategy: lua-release, ttl: 30s, retry: {attempts: 100, delay: 500ms}}
    clients:
      - {name: A, work: 25s}
      - {name: B, start: 100ms, work: 1s}
    faults:
      - at: 1s
        crash: {target: redis-1-r1, restart_after: 1s}
      - at: 1500ms
        crash: {target: redis-1}
      - at: 3s
        failover: {target: redis-1}
  - name: replica-jump-now
    title: explanation case
    story: a cause of a first violation
    duration: 60s
    redis: {replicas: 1, replication_lag: 10ms}
    lock: {key: lock, strategy: lua-release, ttl: 30s, retry: {attempts: 100, delay: 500ms}}
    clients:
      - {name: A, work: 25s}
      - {name: B, start: 100ms, work: 1s}
    faults:
      - at: 10s
        clock_jump: {target: redis-1-r1, by: 25s}
      - at: 12s
        failover: {target: redis-1}
  - name: not-replicated
    title: explanation case
    story: a cause of a first violation
    duration: 60s
    redis: {replicas: 1, replication_lag: 1s}
    lock: {key: lock, strategy: lua-release, ttl: 30s, retry: {attempts: 100, delay: 500ms}}
    clients:
      - {name: A, work: 5s}
      - {name: B, start: 100ms, work: 1s}
    faults:
      - at: 200ms
        failover: {target: redis-1}
  - name: not-replicated-cut
    title: explanation case
    story: a cause of a first violation
    duration: 60s
    redis: {replicas: 1, replication_lag: 1s}
    lock: {key: lock, strategy: lua-release, ttl: 30s, retry: {attempts: 100, delay: 500ms}}
    clients:
      - {name: A, work: 5s}
      - {name: B, start: 100ms, work: 1s}
    faults:
      - at: 150ms
        partition: {groups: [[A, redis-1], [B, redis-1-r1]], for: 10s}
      - at: 200ms
        failover: {target: redis-1}
  - name: master-jump
    title: explanation case
    story: a cause of a first violation
    duration: 60s
    lock: {key: lock, strategy: lua-release, ttl: 30s, retry: {attempts: 100, delay: 500ms}}
    clients:
      - {name: A, work: 25s}
      - {name: B, start: 100ms, work: 1s}
    faults:
      - at: 5s
        clock_jump: {target: redis-1, by: 28s}
  - name: master-drift
    title: explanation case
    story: a cause of a first violation
    duration: 60s
    lock: {key: lock, strategy: lua-release, ttl: 30s, retry: {attempts: 100, delay: 500ms}}
    clients:
      - {name: A, work: 25s}
      - {name: B, start: 100ms, work: 1s}
    faults:
      - at: 1s
        clock_drift: {target: redis-1, rate: 2}
  - name: master-restart
    title: explanation case
    story: a cause of a first violation
    duration: 60s
    redis: {persistence: none}
    lock: {key: lock, strategy: lua-release, ttl: 30s, retry: {attempts: 100, delay: 500ms}}
    clients:
      - {name: A, work: 10s}
      - {name: B, start: 100ms, work: 1s}
    faults:
      - at: 2s
        crash: {target: redis-1, restart_after: 1s}
  - name: gc-pause
    title: explanation case
    story: a cause of a first violation
    duration: 60s
    lock: {key: lock, strategy: lua-release, ttl: 5s, retry: {attempts: 100, delay: 500ms}}
    clients:
      - {name: A, work: 1s}
      - {name: B, start: 100ms, work: 1s}
    faults:
      - at: 500ms
        pause: {target: A, for: 10s}
  - name: kept-then-early
    title: explanation case
    story: a cause of a first violation
    duration: 60s
    redis: {replicas: 1, replication_lag: 10ms}
    lock: {key: lock, strategy: lua-release, ttl: 30s, retry: {attempts: 100, delay: 500ms}}
    clients:
      - {name: A, start: 1s, work: 27s}
      - {name: B, start: 1100ms, work: 1s}
    faults:
      - at: 0s
        clock_jump: {target: redis-1-r1, by: 10s}
      - at: 5s
        failover: {target: redis-1}
  - name: kept-then-drift
    title: explanation case
    story: a cause of a first violation
    duration: 60s
    redis: {replicas: 1, replication_lag: 10ms}
    lock: {key: lock, strategy: lua-release, ttl: 30s, retry: {attempts: 100, delay: 500ms}}
    clients:
      - {name: A, start: 1s, work: 27s}
      - {name: B, start: 1100ms, work: 1s}
    faults:
      - at: 0s
        clock_drift: {target: redis-1-r1, rate: 1.5}
      - at: 5s
        failover: {target: redis-1}
`

// TestExplanationNamesTheCause: the first violation's explanation says what
// happened to A's key on the node that granted B the lock: never replicated
// there, replicated and then expired early by the replica's clock (a jump,
// at once or later, before or after the key arrived; a drift), forgotten by
// the replica's restart, kept through the failover and then expired early
// on the new master by a clock fault it had before (even one from before the
// TTL was set: the expiry is absolute), expired early on the master by its
// clock, lost in the master's restart, or simply run out (a GC pause).
func TestExplanationNamesTheCause(t *testing.T) {
	f, err := scenario.Load("explain.yaml", []byte(explainYAML))
	if err != nil {
		t.Fatal(err)
	}
	const notRepl = "before replicating it"
	for _, c := range []struct {
		name string
		want []string
		not  []string
	}{
		{"replica-jump", []string{"the lock had reached redis-1-r1 by replication at 0.011s, but it expired there at 20.001s, 10s before it would have on its master, because redis-1-r1's clock jumped +10s at 1.000s"}, []string{notRepl, "split brain"}},
		{"replica-jump-now", []string{"reached redis-1-r1 by replication at 0.011s, but it expired there at 10.000s, 20.001s early, because redis-1-r1's clock jumped +25s at 10.000s"}, []string{notRepl}},
		{"replica-jump-before", []string{"reached redis-1-r1 by replication at 1.011s, but it arrived already expired by redis-1-r1's clock (redis-1-r1's clock jumped +10s at 0.000s)"}, []string{notRepl}},
		{"replica-drift", []string{"but it expired there at 15.501s, 14.501s before it would have on its master, because redis-1-r1's clock runs 2x true speed since 1.000s"}, []string{notRepl}},
		{"replica-restart", []string{"but redis-1-r1 lost it when it crashed at 1.000s and restarted at 2.000s without it (persistence none)"}, []string{notRepl}},
		{"not-replicated", []string{"its lease on redis-1 was lost when redis-1 failed over to redis-1-r1 at 0.200s " + notRepl + ")"}, []string{"split brain", "by replication"}},
		{"not-replicated-cut", []string{"redis-1 failed over to redis-1-r1 at 0.200s " + notRepl + "; cut off, redis-1 still holds it: split brain"}, []string{"by replication"}},
		{"master-jump", []string{"its lease on redis-1 expired 25.001s early because redis-1's clock jumped +28s at 5.000s"}, []string{"failed over"}},
		{"master-drift", []string{"its lease on redis-1 expired at 15.501s, 15.5s after its 30s TTL was set, because redis-1's clock runs 2x true speed since 1.000s"}, []string{"failed over"}},
		{"master-restart", []string{"its lease on redis-1 was lost when redis-1 crashed at 2.000s and restarted at 3.000s without it (persistence none)"}, []string{"clock"}},
		{"kept-then-early", []string{"its lease on redis-1-r1 expired at 21.001s, 20s after its 30s TTL was set on redis-1, because redis-1-r1's clock jumped +10s at 0.000s"}, []string{notRepl}},
		{"kept-then-drift", []string{"its lease on redis-1-r1 expired at 20.667s, 19.666s after its 30s TTL was set on redis-1, because redis-1-r1's clock runs 1.5x true speed since 0.000s"}, []string{notRepl}},
		{"gc-pause", []string{"A (paused since 0.500s)", "(its lease on redis-1 expired at 5.001s)"}, []string{"clock", "restart", "failed over"}},
	} {
		s, err := f.Find(c.name)
		if err != nil {
			t.Fatal(err)
		}
		r := newRunnerT(t, s, scenario.Options{})
		got := r.Run().FirstViolation
		r.Close()
		if got == "" {
			t.Errorf("%s: no violation", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: explanation\n  %s\nlacks\n  %s", c.name, got, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(got, w) {
				t.Errorf("%s: explanation\n  %s\nwrongly says %q", c.name, got, w)
			}
		}
	}
}

// TestLaterViolationsNameTheCauseToo: C's grant at 9.2s overlaps A, still
// paused past its lease, after B's grant on the same node was released;
// the books of that node then hold B's grant, not A's, and the explanation
// must still say how A's lease ended (it used to say nothing).
func TestLaterViolationsNameTheCauseToo(t *testing.T) {
	f, err := scenario.Load("unheld.yaml", []byte(unheldYAML))
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.Find("unheld-lua")
	if err != nil {
		t.Fatal(err)
	}
	r := newRunnerT(t, s, scenario.Options{})
	defer r.Close()
	r.Run()
	var got []string
	for _, e := range r.Events() {
		if e.Kind == "VIOLATION" {
			got = append(got, e.Msg)
		}
	}
	const cause = "A (paused since 0.500s) still believed it held the lock (its lease on redis-1 expired at 5.001s)"
	if len(got) != 2 || !strings.HasSuffix(got[0], cause) || !strings.HasSuffix(got[1], cause) {
		t.Errorf("violations %q, want B's and C's, each ending %q", got, cause)
	}
}
