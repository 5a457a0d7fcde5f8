package scenario_test

import (
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/scenario/scenariotest"
)

// runVariant runs bundled scenario name after change has altered a copy of
// it, and returns the report and the trace's messages.
func runVariant(t *testing.T, name string, change func(s *scenario.Scenario)) (*runner.Report, string) {
	t.Helper()
	s, err := scenariotest.File(t).Find(name)
	if err != nil {
		t.Fatal(err)
	}
	c := *s
	if s.Resource != nil {
		r := *s.Resource
		c.Resource = &r
	}
	c.Faults = append([]faults.Fault(nil), s.Faults...)
	c.Clients = append([]scenario.Client(nil), s.Clients...)
	change(&c)
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	r, err := runner.New(&c, scenario.Options{}, true)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rep := r.Run()
	var b strings.Builder
	for _, e := range r.Events() {
		b.WriteString(e.Proc + " " + e.Kind + ": " + e.Msg + "\n")
	}
	return rep, b.String()
}

// Each resource setting decides its scenario's outcome: the bundled run
// against the same world with the setting at its default.
func TestResourceSettingsMatter(t *testing.T) {
	cases := []struct {
		name         string
		change       func(s *scenario.Scenario)
		lost, fenced int64
		dup          int64
	}{
		{"fencing-writes-only", func(*scenario.Scenario) {}, 1, 0, 0},
		// Reads checked: client2's read raises the highest token to 34, so
		// client1's late write with 33 is refused.
		{"fencing-writes-only", func(s *scenario.Scenario) { s.Resource.Check = "all" }, 0, 1, 0},
		{"idempotency-job-key", func(*scenario.Scenario) {}, 0, 0, 2},
		// Without the key it is gc-pause-lua-release: B overwrites A's increment.
		{"idempotency-job-key", func(s *scenario.Scenario) { s.Resource.Idempotency = "none" }, 1, 0, 0},
		{"resource-delayed-write", func(*scenario.Scenario) {}, 1, 0, 0},
		// The resource's link is what delays the write: without the fault
		// A's write lands at once.
		{"resource-delayed-write", func(s *scenario.Scenario) { s.Faults = nil }, 0, 0, 0},
	}
	for _, c := range cases {
		rep, _ := runVariant(t, c.name, c.change)
		m := rep.Metrics
		if m.LostUpdates != c.lost || m.FencingRejections != c.fenced || m.DuplicateWrites != c.dup {
			t.Errorf("%s variant: lost %d fenced %d duplicates %d, want %d %d %d",
				c.name, m.LostUpdates, m.FencingRejections, m.DuplicateWrites, c.lost, c.fenced, c.dup)
		}
	}
}

// start_token sets where the lock's fencing counter starts: the grants
// carry 33 and 34, and the trace says so before anything else.
func TestStartToken(t *testing.T) {
	_, tr := runVariant(t, "fencing-token-33", func(*scenario.Scenario) {})
	for _, want := range []string{"with fencing token 33", "with fencing token 34", "token 33 refused: token 34 already seen"} {
		if !strings.Contains(tr, want) {
			t.Errorf("trace lacks %q", want)
		}
	}
	if !strings.HasPrefix(tr, "net setup: the fencing counter") {
		t.Errorf("the trace does not open with the counter's setup:\n%.300s", tr)
	}
	_, tr = runVariant(t, "fencing-token-33", func(s *scenario.Scenario) { s.Resource.StartToken = 1 })
	if !strings.Contains(tr, "with fencing token 1,") || strings.Contains(tr, "setup") {
		t.Errorf("start_token 1 is not the counter of old:\n%.300s", tr)
	}
}

// A partition between a client and the resource cuts its read off: the
// hold is abandoned, nothing is written.
func TestResourcePartition(t *testing.T) {
	rep, tr := runVariant(t, "resource-delayed-write", func(s *scenario.Scenario) {
		s.Faults = []faults.Fault{{Kind: faults.Partition, Groups: [][]string{{"A"}, {"resource"}}, For: 10e9}}
	})
	if !strings.Contains(tr, "read of the resource failed") {
		t.Errorf("A's read was not cut off:\n%s", tr)
	}
	if rep.Metrics.LostUpdates != 0 {
		t.Errorf("lost %d updates", rep.Metrics.LostUpdates)
	}
}

// The multi-key settings decide their scenarios: the slot check, the hash
// tag, the key order, each against the bundled run.
func TestMultiKeySettingsMatter(t *testing.T) {
	cases := []struct {
		name                       string
		change                     func(s *scenario.Scenario)
		acquired, failed, deadlock int64
		safe                       bool
	}{
		{"multikey-crossslot", func(*scenario.Scenario) {}, 0, 2, 0, true},
		// Without the cluster's slot check A's script takes both keys (B's
		// three tries fall inside A's hold).
		{"multikey-crossslot", func(s *scenario.Scenario) { s.Redis.Cluster = false }, 1, 1, 0, true},
		{"multikey-hash-tag", func(*scenario.Scenario) {}, 2, 0, 0, true},
		// Without the hash tags the keys fall in different slots again.
		{"multikey-hash-tag", func(s *scenario.Scenario) {
			s.Lock.Keys = []string{"lock:order:1", "lock:order:2"}
			s.Lock.Key = s.Lock.Keys[0]
		}, 0, 2, 0, true},
		{"multikey-deadlock", func(*scenario.Scenario) {}, 2, 0, 1, false},
		{"multikey-deadlock", func(s *scenario.Scenario) { s.Lock.KeyOrder = "sorted" }, 2, 0, 0, true},
		// One key per hold cannot deadlock.
		{"multikey-deadlock", func(s *scenario.Scenario) {
			s.Lock.Keys = s.Lock.Keys[:1]
			s.Clients[1].Keys = nil
		}, 2, 0, 0, true},
	}
	for i, c := range cases {
		rep, _ := runVariant(t, c.name, c.change)
		m := rep.Metrics
		if m.Acquired != c.acquired || m.FailedAcquires != c.failed || m.Deadlocks != c.deadlock || m.Safe != c.safe {
			t.Errorf("case %d (%s): acquired %d failed %d deadlocks %d safe %v, want %d %d %d %v", i, c.name,
				m.Acquired, m.FailedAcquires, m.Deadlocks, m.Safe, c.acquired, c.failed, c.deadlock, c.safe)
		}
		if (m.Deadlocks > 0) != strings.Contains(rep.FirstDeadlock, "waiting for each other") {
			t.Errorf("case %d (%s): deadlocks %d, explanation %q", i, c.name, m.Deadlocks, rep.FirstDeadlock)
		}
	}
}

// Clients on different resources do not violate the lock by working at
// once; on the same resource they do, and each resource keeps its own
// count of lost updates.
func TestResourcesJudgedApart(t *testing.T) {
	rep, _ := runVariant(t, "granularity-key-per-resource", func(*scenario.Scenario) {})
	// B, C and D release keys the judge does not follow: not unheld.
	if m := rep.Metrics; m.Violations != 0 || m.LostUpdates != 0 || m.Throughput < 3900 || m.UnheldReleases != 0 {
		t.Errorf("key per resource: %+v", m)
	}
	for _, same := range []string{"stock-1", ""} {
		rep, _ = runVariant(t, "granularity-key-per-resource", func(s *scenario.Scenario) {
			for i := range s.Clients {
				s.Clients[i].Resource = same
			}
		})
		if m := rep.Metrics; m.Violations == 0 || m.LostUpdates == 0 {
			t.Errorf("all on %q: %+v, want violations and lost updates", same, m)
		}
	}
	rep, _ = runVariant(t, "granularity-global-lock", func(*scenario.Scenario) {})
	if m := rep.Metrics; m.Throughput > 1100 || m.Acquired != 12 {
		t.Errorf("global lock: %+v", m)
	}
}
