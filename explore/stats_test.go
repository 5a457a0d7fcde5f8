package explore

import (
	"math"
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
		{Done: true, Stuck: true, Kinds: both, WrongReleases: 1},
		{Done: false, Violations: 5, Kinds: both}, // never ran: ignored
	})
	if st.Runs != 3 || st.Violations.Count != 2 || st.LostUpdates.Count != 1 || st.Stuck.Count != 1 {
		t.Errorf("counts: %+v", st)
	}
	if st.FencingRejections != 3 || st.WrongReleases != 1 {
		t.Errorf("totals: fencing %d wrong %d", st.FencingRejections, st.WrongReleases)
	}
	want := []KindCount{{"pause", 2}, {"partition", 1}}
	if len(st.KindsInViolations) != 2 || st.KindsInViolations[0] != want[0] || st.KindsInViolations[1] != want[1] {
		t.Errorf("kinds in violations = %v, want %v", st.KindsInViolations, want)
	}
}
