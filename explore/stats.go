package explore

import (
	"math"
	"slices"

	"github.com/lockstep-sim/lockstep/faults"
)

// z95 is the standard normal quantile of a two-sided 95% interval.
const z95 = 1.959963984540054

// Rate is a proportion of runs with its Wilson 95% confidence interval.
type Rate struct {
	Count int     `json:"count"` // runs with the property
	Runs  int     `json:"runs"`
	Rate  float64 `json:"rate"` // Count / Runs; 0 when there were no runs
	Low   float64 `json:"low"`  // Wilson 95% interval
	High  float64 `json:"high"`
}

// NewRate is count of runs as a Rate. The Wilson score interval stays inside
// [0, 1] and is honest at the extremes: 0 violations in 1000 runs gives
// [0, 0.38%], not the normal approximation's [0, 0].
func NewRate(count, runs int) Rate {
	r := Rate{Count: count, Runs: runs}
	if runs <= 0 {
		return r
	}
	n := float64(runs)
	p := float64(count) / n
	z2 := z95 * z95
	den := 1 + z2/n
	center := (p + z2/(2*n)) / den
	// half is rounded before center±half (the conversion): where the
	// compiler may fuse a multiply with the next add (arm64 by default,
	// GOAMD64=v3), the interval's ends would otherwise differ in the last
	// digit, and the report must be the same on every machine.
	half := float64(z95 / den * math.Sqrt(p*(1-p)/n+z2/(4*n*n)))
	r.Rate = p
	r.Low = max(0, center-half)
	r.High = min(1, center+half)
	return r
}

// Outcome is what one run measured, kept small: a search holds one per run.
type Outcome struct {
	Done              bool  // false: the search stopped before this run
	Violations        int64 // overlapping critical-section episodes
	LostUpdates       int64
	FencingRejections int64
	WrongReleases     int64
	UnheldReleases    int64 // releases by a client that held nothing
	RefusedWrites     int64 // writes refused for want of replicas
	DuplicateWrites   int64 // writes refused as already done (idempotency)
	Deadlocks         int64
	Throughput        int64 // thousandths of a hold per simulated second
	Stuck             bool
	BudgetExhausted   bool   // the run spent its event budget: cut short, judged only up to there
	Skipped           int    // faults the world skipped
	Faults            int    // faults in the schedule
	Kinds             uint16 // bit i: the schedule has faults.Kinds[i]
}

// kindBits is the set of kinds in a schedule, as Outcome.Kinds holds it.
func kindBits(fs []faults.Fault) uint16 {
	var b uint16
	for _, f := range fs {
		if i := slices.Index(faults.Kinds, f.Kind); i >= 0 {
			b |= 1 << i
		}
	}
	return b
}

// KindCount is how many violating runs had at least one fault of a kind.
type KindCount struct {
	Kind string `json:"kind"`
	Runs int    `json:"runs"`
}

// Stats are one strategy's aggregates over the runs that completed.
type Stats struct {
	Runs        int  `json:"runs"`
	Violations  Rate `json:"violating_runs"`   // runs with at least one violation
	LostUpdates Rate `json:"lost_update_runs"` // runs with at least one lost update
	Stuck       Rate `json:"stuck_runs"`       // runs that ended stuck
	// BudgetExhausted counts the runs cut short by the event budget: they
	// are never counted as safe (no violation until the cut says nothing
	// about the rest), and never become a counterexample.
	BudgetExhausted   Rate  `json:"budget_exhausted_runs"`
	FencingRejections int64 `json:"fencing_rejections"` // total over all runs
	WrongReleases     int64 `json:"wrong_releases"`     // total over all runs
	UnheldReleases    int64 `json:"unheld_releases"`    // total over all runs
	RefusedWrites     int64 `json:"refused_writes"`     // total over all runs
	DuplicateWrites   int64 `json:"duplicate_writes"`   // total over all runs
	Deadlocks         int64 `json:"deadlocks"`          // total over all runs
	// Throughput is the mean over the runs of each run's throughput,
	// holds per simulated second (a run's own is in thousandths: its mean
	// is exact in float).
	Throughput    float64 `json:"throughput"`
	SkippedFaults int     `json:"skipped_faults"` // total; 0 unless a target was missing
	// KindsInViolations counts, per fault kind, the violating runs whose
	// schedule had that kind, in the format's kind order; kinds that appear
	// in no violating run are left out.
	KindsInViolations []KindCount `json:"kinds_in_violations"`
}

// Aggregate sums outcomes (the result does not depend on their order).
func Aggregate(outs []Outcome) Stats {
	var t Tally
	for _, o := range outs {
		t.Add(o)
	}
	return t.Stats()
}

// Tally sums outcomes one at a time, in constant memory: a search of any
// length keeps one per strategy. Every field is a sum or a count, so the
// order outcomes arrive in (which worker finished first) cannot change it.
type Tally struct {
	runs, viol, lost, stuck, exhausted int
	fencing, wrong                     int64
	unheld, refused, dup, deadlocks    int64
	throughput                         int64 // sum of the runs' thousandths
	skipped                            int
	perKind                            [16]int // by faults.Kinds index; Outcome.Kinds is 16 bits
}

// Add counts one outcome; one the search did not finish (!Done) is left out.
func (t *Tally) Add(o Outcome) {
	if !o.Done {
		return
	}
	t.runs++
	if o.Violations > 0 {
		t.viol++
		for i := range faults.Kinds {
			if o.Kinds&(1<<i) != 0 {
				t.perKind[i]++
			}
		}
	}
	if o.LostUpdates > 0 {
		t.lost++
	}
	if o.Stuck {
		t.stuck++
	}
	if o.BudgetExhausted {
		t.exhausted++
	}
	t.fencing += o.FencingRejections
	t.wrong += o.WrongReleases
	t.unheld += o.UnheldReleases
	t.refused += o.RefusedWrites
	t.dup += o.DuplicateWrites
	t.deadlocks += o.Deadlocks
	t.throughput += o.Throughput
	t.skipped += o.Skipped
}

// Stats are the aggregates of what was added.
func (t *Tally) Stats() Stats {
	st := Stats{Runs: t.runs, FencingRejections: t.fencing, WrongReleases: t.wrong, SkippedFaults: t.skipped,
		UnheldReleases: t.unheld, RefusedWrites: t.refused, DuplicateWrites: t.dup, Deadlocks: t.deadlocks}
	if t.runs > 0 {
		st.Throughput = float64(t.throughput) / 1000 / float64(t.runs)
	}
	st.Violations = NewRate(t.viol, t.runs)
	st.LostUpdates = NewRate(t.lost, t.runs)
	st.Stuck = NewRate(t.stuck, t.runs)
	st.BudgetExhausted = NewRate(t.exhausted, t.runs)
	st.KindsInViolations = []KindCount{}
	for i, n := range t.perKind[:len(faults.Kinds)] {
		if n > 0 {
			st.KindsInViolations = append(st.KindsInViolations, KindCount{string(faults.Kinds[i]), n})
		}
	}
	return st
}
