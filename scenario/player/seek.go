package player

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
)

// Seek tuning. A world cannot be copied (clients are coroutines, nodes are
// miniredis instances), so a checkpoint is a parked live Runner, and
// stepping it forward uses it up. Measured on counter-30x200 (2-core): a
// step costs ~0.9 µs, a Snapshot ~5 µs, a parked world ~220 KB (heap and
// its 30 coroutines' stacks).
const (
	// SeekCheckpoints is how many parked runners a Seeker keeps at most:
	// the memory bound (~3.5 MB for the largest bundled world). Building
	// them all costs SeekCheckpoints/2 replays of the run, in the
	// background; a backward seek at most K = steps/SeekCheckpoints steps
	// (counter-30x200: 4,048 steps, ~4 ms).
	SeekCheckpoints = 16
	// SeekMinSpacing is the smallest checkpoint spacing K, in steps; a
	// longer run spaces its SeekCheckpoints checkpoints wider.
	SeekMinSpacing = 256
	// SeekWindow is how many snapshots one cached window holds: the steps
	// before a backward seek's target, so that b held down is served from
	// the cache (a window lasts seconds of key repeat, long enough for the
	// builder to rebuild the checkpoint the window used up).
	SeekWindow = 128
	// SeekBuildSteps bounds the background work of building every
	// checkpoint (about half the checkpoints times the run's steps): a very
	// long run, one that spends its event budget, gets fewer and wider
	// checkpoints rather than minutes of replays competing with the UI for
	// the CPU. counter-30x200 needs an eighth of it.
	SeekBuildSteps = 1 << 22
	// seekWindows is how many windows stay cached: two, so that going back
	// and forth across a checkpoint does not refill a block every key.
	seekWindows = 2
)

// Seeker serves the world's Snapshot at any step of a run whose length is
// known (from a run played to the end once): a seek re-executes at most K +
// distance steps, where K is Spacing.
//
// It keeps parked runners every K steps (at most SeekCheckpoints of them),
// one live runner, and up to seekWindows windows of SeekWindow cached
// snapshots. A backward seek to step i takes the nearest runner at or
// before i and steps it to i, caching the snapshots of the steps just
// before i, so that the next presses of "back" cost nothing. A
// background goroutine rebuilds the checkpoints that seeks use up (a fresh
// runner stepped to the checkpoint; the simulation is deterministic, so it
// is the same world); a seek never waits for it.
//
// Snapshot, Close and Stats must be called from one goroutine.
type Seeker struct {
	s     *scenario.Scenario
	o     scenario.Options
	times []time.Duration // true time at each step; len = last+1
	k     int

	cancel context.CancelFunc
	done   chan struct{}
	wake   chan struct{}

	mu       sync.Mutex
	cond     *sync.Cond
	parked   []*runner.Runner // parked[j] is at step j*k; nil: missing (slot 0 is always a fresh runner)
	cursor   int              // the last step asked for: the builder works nearest it first
	building bool
	closed   bool
	stopped  bool // the builder gave up: Settle must not wait for it

	live    *runner.Runner // the runner at the cursor, or nil
	liveAt  int
	windows []window // most recently filled first
	stats   SeekStats
}

// window is a run of cached snapshots, of steps from .. from+len(snaps)-1.
type window struct {
	from  int
	snaps []Snapshot
}

// SeekStats counts the work seeks did on the caller's goroutine.
type SeekStats struct {
	Steps        int64 // Runner.Step calls (trace steps re-executed)
	KernelEvents int64 // kernel events those steps ran
	Fills        int64 // windows filled
}

// NewSeeker serves snapshots of s under o, whose run has a step at each of
// times (times[0] = 0, at the start; times[i] is the true time after i
// Runner.Steps). The builder goroutine starts at once; Close stops it.
func NewSeeker(s *scenario.Scenario, o scenario.Options, times []time.Duration) (*Seeker, error) {
	if len(times) == 0 {
		return nil, fmt.Errorf("scenario %s: a run has at least its start", s.Name)
	}
	last := len(times) - 1
	ctx, cancel := context.WithCancel(context.Background())
	o.Context = ctx
	n := SeekCheckpoints
	if last > 0 {
		n = max(2, min(n, 2*SeekBuildSteps/last))
	}
	sk := &Seeker{s: s, o: o, times: times, cancel: cancel,
		k:    max(SeekMinSpacing, (last+n-1)/n),
		done: make(chan struct{}), wake: make(chan struct{}, 1)}
	sk.cond = sync.NewCond(&sk.mu)
	sk.parked = make([]*runner.Runner, last/sk.k+1)
	// Step 0's runner is built here, so that an error surfaces now: every
	// later runner is the same world, built the same way.
	r, err := runner.New(s, o, false)
	if err != nil {
		cancel()
		return nil, err
	}
	sk.live = r
	go sk.build(ctx)
	return sk, nil
}

// Spacing is K, the steps between checkpoints.
func (sk *Seeker) Spacing() int { return sk.k }

// Stats is the work seeks have done so far.
func (sk *Seeker) Stats() SeekStats { return sk.stats }

// Snapshot is the world after step i (clamped to the run), as it looks at
// true time t (from times[i] up to the next step's time).
func (sk *Seeker) Snapshot(i int, t time.Duration) Snapshot {
	i = max(0, min(i, len(sk.times)-1))
	sk.mu.Lock()
	sk.cursor = i
	sk.mu.Unlock()
	atStep := t == sk.times[i]
	if atStep {
		if s, ok := sk.cached(i); ok {
			return s
		}
	}
	if sk.live != nil && sk.liveAt == i {
		return At(sk.live, t)
	}
	if atStep && (sk.live == nil || sk.liveAt > i) {
		// Going back: fill i's block, so the next steps back are free.
		sk.fill(i)
		if s, ok := sk.cached(i); ok {
			return s
		}
	}
	sk.runnerAt(i)
	return At(sk.live, t)
}

func (sk *Seeker) cached(i int) (Snapshot, bool) {
	for _, w := range sk.windows {
		if i >= w.from && i < w.from+len(w.snaps) {
			return w.snaps[i-w.from], true
		}
	}
	return Snapshot{}, false
}

// source takes the runner nearest at or before step i: the live one, a
// parked one (which leaves its slot missing, for the builder), or a fresh
// one at step 0. It reports the runner and its step.
func (sk *Seeker) source(i int) (*runner.Runner, int) {
	sk.mu.Lock()
	j := min(i/sk.k, len(sk.parked)-1)
	for j > 0 && sk.parked[j] == nil {
		j--
	}
	if sk.live != nil && sk.liveAt <= i && sk.liveAt >= j*sk.k {
		sk.mu.Unlock()
		r, at := sk.live, sk.liveAt
		sk.live = nil
		return r, at
	}
	if j > 0 {
		r := sk.parked[j]
		sk.parked[j] = nil
		sk.mu.Unlock()
		sk.wakeBuilder()
		return r, j * sk.k
	}
	sk.mu.Unlock()
	r, err := runner.New(sk.s, sk.o, false)
	if err != nil {
		// The same scenario built the run being sought; it cannot fail now.
		panic(fmt.Sprintf("seek: rebuilding %s: %v", sk.s.Name, err))
	}
	return r, 0
}

// advance steps r from step from to step to, counting the work.
func (sk *Seeker) advance(r *runner.Runner, from, to int, each func(int)) {
	k0 := r.KernelSteps()
	for p := from; p < to; p++ {
		r.Step()
		sk.stats.Steps++
		if each != nil {
			each(p + 1)
		}
	}
	sk.stats.KernelEvents += r.KernelSteps() - k0
}

// runnerAt makes the live runner stand at step i.
func (sk *Seeker) runnerAt(i int) {
	r, at := sk.source(i)
	sk.advance(r, at, i, nil)
	sk.retire()
	sk.live, sk.liveAt = r, i
}

// retire puts away the live runner: parked if it stands on a missing
// checkpoint, closed otherwise.
func (sk *Seeker) retire() {
	if sk.live == nil {
		return
	}
	r, at := sk.live, sk.liveAt
	sk.live = nil
	if !sk.park(r, at) {
		r.Close()
	}
}

// park puts r, at step at, in its checkpoint slot if that slot is missing.
func (sk *Seeker) park(r *runner.Runner, at int) bool {
	sk.mu.Lock()
	defer sk.mu.Unlock()
	j := at / sk.k
	if sk.closed || at == 0 || at%sk.k != 0 || j >= len(sk.parked) || sk.parked[j] != nil {
		return false
	}
	sk.parked[j] = r
	return true
}

// fill caches the snapshots of the SeekWindow steps up to i, from the
// nearest runner at or before i (at most K steps back, when the checkpoint
// is parked), which then stands at i as the live runner: n and the play
// loop go on from there, and the next b presses come from the cache.
func (sk *Seeker) fill(i int) {
	r, at := sk.source(i)
	lo := max(at, i-SeekWindow+1)
	snaps := make([]Snapshot, 0, i-lo+1)
	take := func(p int) {
		if p >= lo {
			snaps = append(snaps, At(r, sk.times[p]))
		}
	}
	take(at)
	sk.advance(r, at, i, take)
	sk.stats.Fills++
	sk.windows = append([]window{{from: lo, snaps: snaps}}, sk.windows...)
	if len(sk.windows) > seekWindows {
		sk.windows = sk.windows[:seekWindows]
	}
	sk.retire()
	sk.live, sk.liveAt = r, i
}

func (sk *Seeker) wakeBuilder() {
	select {
	case sk.wake <- struct{}{}:
	default:
	}
}

// build rebuilds missing checkpoints, nearest the cursor first, until Close.
func (sk *Seeker) build(ctx context.Context) {
	defer close(sk.done)
	for {
		sk.mu.Lock()
		j := sk.missing()
		sk.building = j > 0
		if j <= 0 {
			sk.cond.Broadcast()
		}
		sk.mu.Unlock()
		if j <= 0 {
			select {
			case <-sk.wake:
				continue
			case <-ctx.Done():
				return
			}
		}
		r, err := runner.New(sk.s, sk.o, false)
		if err != nil { // cannot happen: NewSeeker built the same world
			sk.mu.Lock()
			sk.building, sk.stopped = false, true
			sk.cond.Broadcast()
			sk.mu.Unlock()
			return
		}
		for p := 0; p < j*sk.k && ctx.Err() == nil; p++ {
			r.Step()
		}
		if ctx.Err() != nil || !sk.park(r, j*sk.k) {
			r.Close()
		}
		if ctx.Err() != nil {
			return
		}
	}
}

// missing is the missing slot nearest the cursor, or 0 when none is.
// Called with mu held.
func (sk *Seeker) missing() int {
	best, bestD := 0, 0
	for j := 1; j < len(sk.parked); j++ {
		if sk.parked[j] != nil {
			continue
		}
		d := j*sk.k - sk.cursor
		if d < 0 {
			d = -d
		}
		if best == 0 || d < bestD {
			best, bestD = j, d
		}
	}
	return best
}

// Settle waits until every checkpoint is parked (tests and benchmarks: a
// user's seek never waits for the builder).
func (sk *Seeker) Settle() {
	sk.mu.Lock()
	defer sk.mu.Unlock()
	for !sk.closed && !sk.stopped && (sk.building || sk.missing() > 0) {
		sk.cond.Wait()
	}
}

// Close stops the builder and closes every runner.
func (sk *Seeker) Close() {
	sk.cancel()
	<-sk.done
	sk.mu.Lock()
	sk.closed = true
	parked := sk.parked
	sk.parked = nil
	sk.cond.Broadcast()
	sk.mu.Unlock()
	for _, r := range parked {
		if r != nil {
			r.Close()
		}
	}
	if sk.live != nil {
		sk.live.Close()
		sk.live = nil
	}
	sk.windows = nil
}
