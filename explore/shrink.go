package explore

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/scenario/runner"
)

// DefaultShrinkBudget bounds the runs one shrink may spend. Shrinking
// usually settles in tens of runs; the bound keeps a pathological schedule
// from holding the search hostage.
const DefaultShrinkBudget = 1000

// Shrunk is the outcome of shrinking a violating schedule.
type Shrunk struct {
	Faults []faults.Fault // the smallest schedule found; still violates
	Report *runner.Report // its run, without a trace hash (World.options)
	Runs   int            // runs spent shrinking
	// Minimal is true when no single step (see Shrink) keeps the violation:
	// the shrink ran to its end rather than out of budget or time.
	Minimal bool
}

// Shrink makes a violating schedule smaller while it keeps violating. The
// steps, tried in this order until a full pass accepts none:
//
//   - drop one fault;
//   - shorten a pause, hang, partition, isolation or slow spell, a node's
//     restart delay, or a slow link's latency (to a half, to three
//     quarters, or rounded down to 10s, 1s, 100ms or 10ms);
//   - let a crashed node stay down instead of restarting;
//   - reduce a clock jump's size the same ways (keeping its sign), bring a
//     drift rate halfway to 1, halve a loss rate or drop it;
//   - take one process out of a partition group (leaving its links alone);
//   - move a fault earlier: to 0, to half its time, or rounded down.
//
// Every accepted step strictly decreases a whole-number measure of the
// schedule (faults, milliseconds, group members, hundredths of rate), so
// shrinking ends. A schedule that does not violate is returned unchanged
// with its report. ctx stops it early with the best schedule so far.
func Shrink(ctx context.Context, w *World, sched []faults.Fault, budget int) (Shrunk, error) {
	sh := shrinker{ctx: ctx, w: w, budget: budget}
	rep, err := sh.run(sched)
	if err != nil {
		return Shrunk{}, err
	}
	best := Shrunk{Faults: sched, Report: rep}
	if rep.Violations == 0 {
		best.Runs = sh.runs
		return best, nil
	}
	for {
		changed := false
		// Drop faults, last first: later faults are more often the noise.
		for i := len(best.Faults) - 1; i >= 0 && len(best.Faults) > 1; i-- {
			ok, err := sh.try(&best, slices.Delete(slices.Clone(best.Faults), i, i+1))
			if err != nil {
				return best, err
			}
			changed = changed || ok
		}
		// Simplify each fault until none of its steps keeps the violation.
		for i := 0; i < len(best.Faults); i++ {
			for accepted := true; accepted; {
				accepted = false
				for _, f := range simpler(best.Faults[i]) {
					c := slices.Clone(best.Faults)
					c[i] = f
					ok, err := sh.try(&best, c)
					if err != nil {
						return best, err
					}
					if ok {
						accepted, changed = true, true
						break
					}
				}
			}
		}
		if sh.out() {
			break
		}
		if !changed {
			best.Minimal = true
			break
		}
	}
	best.Runs = sh.runs
	return best, nil
}

type shrinker struct {
	ctx    context.Context
	w      *World
	budget int
	runs   int
}

// out reports that the shrink must stop: budget spent or cancelled.
func (sh *shrinker) out() bool {
	return (sh.budget > 0 && sh.runs >= sh.budget) || sh.ctx.Err() != nil
}

func (sh *shrinker) run(sched []faults.Fault) (*runner.Report, error) {
	sh.runs++
	return runOnce(sh.ctx, sh.w, sched)
}

// try runs candidate c and makes it the best when it still violates.
func (sh *shrinker) try(best *Shrunk, c []faults.Fault) (bool, error) {
	if sh.out() {
		return false, nil
	}
	sortByTime(c)
	rep, err := sh.run(c)
	// A run cut short (cancelled, or out of event budget) proves nothing.
	if err != nil || rep.Violations == 0 || rep.Cancelled || rep.BudgetExhausted {
		return false, err
	}
	best.Faults, best.Report = c, rep
	return true, nil
}

// simpler lists the one-step simplifications of f, boldest first: those of
// its kind's fields (faults.Simpler), then earlier times.
func simpler(f faults.Fault) []faults.Fault {
	out := faults.Simpler(f)
	for _, at := range earlier(f.At) {
		g := f.Clone()
		g.At = at
		out = append(out, g)
	}
	return out
}

// earlier are the earlier times to try for a fault at t: 0, half of t, then
// t rounded down.
func earlier(t time.Duration) []time.Duration {
	var out []time.Duration
	add := func(v time.Duration) {
		if v >= 0 && v < t && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	add(0)
	add(ms(t / 2))
	for _, unit := range faults.Roundings() {
		add(t.Truncate(unit))
	}
	return out
}

// sortByTime keeps a schedule in time order (stable, so faults at the same
// time keep theirs): the order the file lists them in and the kernel applies
// them in.
func sortByTime(fs []faults.Fault) {
	slices.SortStableFunc(fs, func(a, b faults.Fault) int { return cmp.Compare(a.At, b.At) })
}
