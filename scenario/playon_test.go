package scenario_test

import (
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
)

// playOnYAML holds two runs whose outcome is decided after every client is
// done: a run that ended then (as runs once did) would miss it.
const playOnYAML = `version: 1
scenarios:
  - name: late-write
    title: A write in flight lands after everyone is done
    story: |
      A's links slow to +10s at 0.5s, so its write (sent at 1s) reaches the
      resource at 11s, long after A timed out, its lease expired, and B read
      0, wrote 1 and finished (4.1s). Landing at 11s it writes 1 again.
    duration: 30s
    lock:
      key: lock
      strategy: lua-release
      ttl: 3s
      timeout: 1s
      retry: {attempts: 20, delay: 500ms}
    clients:
      - name: A
        work: 1s
      - name: B
        start: 100ms
        work: 1s
    faults:
      - at: 500ms
        slow: {target: A, latency: 10s, for: 5s}
  - name: late-restart
    title: A restart after the workload brings a persisted lock back
    story: |
      redis-1 (appendfsync always) crashes at 1s with A's lock, whose TTL is
      2m; A's release finds it down and A finishes at 3s. At 11s redis-1
      restarts with the lock, which outlives the run: stuck.
    duration: 60s
    redis:
      persistence: always
    lock:
      key: lock
      strategy: lua-release
      ttl: 2m
      timeout: 1s
    clients:
      - name: A
        work: 2s
    faults:
      - at: 1s
        crash: {target: redis-1, restart_after: 10s}
`

// playOn runs scenario name of playOnYAML and returns its report, with the
// metrics as they stood when the last client finished.
func playOn(t *testing.T, name string) (atDone model.Metrics, final *runner.Report) {
	t.Helper()
	f, err := scenario.Load("playon.yaml", []byte(playOnYAML))
	if err != nil {
		t.Fatal(err)
	}
	var s *scenario.Scenario
	for _, x := range f.Scenarios {
		if x.Name == name {
			s = x
		}
	}
	r := newRunnerT(t, s, scenario.Options{})
	defer r.Close()
	for !r.World().Done() && r.Step() {
	}
	if r.Over() {
		t.Fatalf("%s: the run ended before its clients were done", name)
	}
	return r.Metrics(), r.Run()
}

// TestRunPlaysOnLateWrite: a write still in flight when every client is done
// lands before the duration and is counted as the lost update it is.
func TestRunPlaysOnLateWrite(t *testing.T) {
	atDone, rep := playOn(t, "late-write")
	if atDone.LostUpdates != 0 {
		t.Fatalf("lost updates when the clients were done = %d, want 0 (the write is still in flight)", atDone.LostUpdates)
	}
	if rep.Metrics.LostUpdates != 1 || !rep.Metrics.Safe {
		t.Errorf("final: lost_updates %d safe %v, want 1 and true (no overlap, a late write)", rep.Metrics.LostUpdates, rep.Metrics.Safe)
	}
	if rep.SimTimeMS != 30_000 {
		t.Errorf("run ended at %dms, want its duration, 30000ms", rep.SimTimeMS)
	}
}

// TestRunPlaysOnLateRestart: a restart scheduled after the workload brings
// a persisted lock back, and stuck is judged at the end of the run.
func TestRunPlaysOnLateRestart(t *testing.T) {
	_, rep := playOn(t, "late-restart")
	if !rep.Metrics.Stuck {
		t.Fatal("not stuck: the restarted node's persisted lock was not judged")
	}
	if want := "at 60.000s the lock is still granted to A, which is finished"; rep.StuckReason != want {
		t.Errorf("stuck reason %q, want %q", rep.StuckReason, want)
	}
	if !strings.Contains(rep.Verdict(), "STUCK") {
		t.Errorf("verdict %q does not say STUCK", rep.Verdict())
	}
}

// TestIdleTailIsFree: once the workload is over nothing periodic keeps the
// world busy (watchdog, replication, sentinels, failure detection all
// quiet down), so playing to a long duration costs no kernel events: the
// kernel jumps from the last event to the end.
func TestIdleTailIsFree(t *testing.T) {
	const doc = `version: 1
scenarios:
  - name: idle-tail
    title: a short workload in a long run
    story: everything that could tick is on
    duration: 30s
    redis: {replicas: 2, failover_after: 2s, sentinels: 3}
    lock: {key: lock, strategy: lua-release, ttl: 3s, watchdog: {every: 1s}, retry: {attempts: 5, delay: 200ms}}
    clients:
      - {name: A, work: 2s}
      - {name: B, start: 100ms, work: 1s}
    faults:
      - at: 500ms
        partition: {groups: [[A, redis-1], [B, redis-1-r1, redis-1-r2]], for: 1s}
`
	steps := map[string]int64{}
	for _, d := range []string{"30s", "24h"} {
		f, err := scenario.Load("idle.yaml", []byte(strings.Replace(doc, "duration: 30s", "duration: "+d, 1)))
		if err != nil {
			t.Fatal(err)
		}
		r := newRunnerT(t, f.Scenarios[0], scenario.Options{})
		rep := r.Run()
		r.Close()
		if rep.BudgetExhausted {
			t.Fatalf("%s: budget exhausted", d)
		}
		steps[d] = rep.KernelSteps
	}
	if steps["30s"] != steps["24h"] {
		t.Errorf("kernel events: %d for 30s, %d for 24h: something keeps an idle world busy", steps["30s"], steps["24h"])
	}
}
