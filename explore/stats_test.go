package explore

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/faults"
)

func TestWilsonInterval(t *testing.T) {
	for _, c := range []struct {
		k, n      int
		low, high float64
	}{
		{10, 100, 0.05523, 0.17437}, // textbook values
		{0, 1000, 0, 0.00383},
		{1000, 1000, 0.99617, 1},
		{1, 2, 0.09453, 0.90547},
	} {
		r := NewRate(c.k, c.n)
		if math.Abs(r.Low-c.low) > 5e-5 || math.Abs(r.High-c.high) > 5e-5 {
			t.Errorf("NewRate(%d, %d) = [%.5f, %.5f], want [%.5f, %.5f]", c.k, c.n, r.Low, r.High, c.low, c.high)
		}
		if r.Rate < r.Low || r.Rate > r.High {
			t.Errorf("NewRate(%d, %d): rate %g outside its interval", c.k, c.n, r.Rate)
		}
	}
	if r := NewRate(0, 0); r != (Rate{}) {
		t.Errorf("NewRate(0, 0) = %+v, want zero", r)
	}
}

func TestAggregate(t *testing.T) {
	pause := kindBits([]faults.Fault{{Kind: faults.Pause}})
	both := kindBits([]faults.Fault{{Kind: faults.Pause}, {Kind: faults.Partition}})
	st := Aggregate([]Outcome{
		{Done: true, Violations: 2, LostUpdates: 1, Kinds: both},
		{Done: true, Violations: 1, Kinds: pause, FencingRejections: 3},
		{Done: true, Stuck: true, Kinds: both, WrongReleases: 1, UnheldReleases: 2, RefusedWrites: 3,
			DuplicateWrites: 4, Deadlocks: 5, Throughput: 1500},
		{Done: false, Violations: 5, Kinds: both}, // never ran: ignored
	})
	if st.Runs != 3 || st.Violations.Count != 2 || st.LostUpdates.Count != 1 || st.Stuck.Count != 1 {
		t.Errorf("counts: %+v", st)
	}
	if st.FencingRejections != 3 || st.WrongReleases != 1 {
		t.Errorf("totals: fencing %d wrong %d", st.FencingRejections, st.WrongReleases)
	}
	if st.UnheldReleases != 2 || st.RefusedWrites != 3 || st.DuplicateWrites != 4 || st.Deadlocks != 5 {
		t.Errorf("new totals: %+v", st)
	}
	if st.Throughput != 0.5 { // 1.5 holds/s in one of three runs
		t.Errorf("throughput = %g, want the mean 0.5", st.Throughput)
	}
	want := []KindCount{{"pause", 2}, {"partition", 1}}
	if len(st.KindsInViolations) != 2 || st.KindsInViolations[0] != want[0] || st.KindsInViolations[1] != want[1] {
		t.Errorf("kinds in violations = %v, want %v", st.KindsInViolations, want)
	}
}

// A search over a scenario that deadlocks tallies its deadlocks and
// duplicate writes like the other metrics, and its table lists them.
func TestExploreTalliesTheNewMetrics(t *testing.T) {
	for _, c := range []struct {
		name, column string
		got          func(st Stats) int64
	}{
		{"multikey-deadlock", "deadlocks", func(st Stats) int64 { return st.Deadlocks }},
		{"idempotency-job-key", "duplicate writes", func(st Stats) int64 { return st.DuplicateWrites }},
	} {
		s := bundled(t, c.name)
		res, err := Explore(context.Background(), Config{Scenario: s, Strategies: []string{s.Lock.Strategy},
			Runs: 2, Seed: 1, Workers: 1, MaxFaults: 1})
		if err != nil {
			t.Fatal(err)
		}
		st := res.Strategies[0].Stats
		if c.got(st) == 0 || st.Throughput <= 0 {
			t.Errorf("%s: %s %d, throughput %g: not tallied", c.name, c.column, c.got(st), st.Throughput)
		}
		var b strings.Builder
		res.WriteText(&b)
		if !strings.Contains(b.String(), c.column) || !strings.Contains(b.String(), "holds/s") {
			t.Errorf("%s: the table has no %q column:\n%s", c.name, c.column, b.String())
		}
	}
}
