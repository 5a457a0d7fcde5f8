package player

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/scenario/scenariotest"
)

// stepTimes plays s to the end and returns the true time after each step
// (a step is one Runner.Step: what the TUI's n and b move by).
func stepTimes(t testing.TB, s *scenario.Scenario, o scenario.Options) []time.Duration {
	t.Helper()
	r, err := runner.New(s, o, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	times := []time.Duration{0}
	for {
		n := r.EventCount()
		more := r.Step()
		if r.EventCount() > n {
			times = append(times, r.Now())
		}
		if !more {
			return times
		}
	}
}

// freshSnapshot is the snapshot a runner built from scratch shows at step i.
func freshSnapshot(t testing.TB, s *scenario.Scenario, i int, at time.Duration) Snapshot {
	t.Helper()
	r, err := runner.New(s, scenario.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for p := 0; p < i; p++ {
		r.Step()
	}
	return At(r, at)
}

// TestSeekerShowsTheSameWorld: whatever mix of checkpoints, cached windows
// and the live runner serves a seek, the snapshot is the one a fresh run
// stepped to that point shows, between steps too.
func TestSeekerShowsTheSameWorld(t *testing.T) {
	for _, name := range []string{"fair-fifo", "sentinel-split-brain"} {
		s := scenariotest.Scenario(t, name)
		times := stepTimes(t, s, scenario.Options{})
		sk, err := NewSeeker(s, scenario.Options{}, times)
		if err != nil {
			t.Fatal(err)
		}
		last := len(times) - 1
		rng := rand.New(rand.NewPCG(7, 11))
		seeks := []int{last, last - 1, last - 2, 0, last / 2, last/2 - 1, last/2 + 1}
		for range 12 {
			seeks = append(seeks, rng.IntN(last+1))
		}
		for n, i := range seeks {
			at := times[i]
			if n%3 == 2 && i < last {
				at += (times[i+1] - times[i]) / 2 // between two steps
			}
			got := sk.Snapshot(i, at)
			if want := freshSnapshot(t, s, i, at); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: seek %d to step %d at %v differs from a fresh run:\n got %+v\nwant %+v", name, n, i, at, got, want)
			}
		}
		sk.Close()
	}
}

// TestSeekReexecutesAtMostKPlusDistance counts, it does not time: on the
// largest bundled scenario, b at the end and a jump back from the end each
// re-execute at most K steps; b inside a cached window re-executes none; a
// forward seek re-executes at most its distance; memory stays bounded.
func TestSeekReexecutesAtMostKPlusDistance(t *testing.T) {
	name := "counter-30x200"
	if raceEnabled {
		name = "fair-fifo" // views' TestHoldBackAtTheEndOfALongRun still holds b on counter-30x200
	}
	s := scenariotest.Scenario(t, name)
	times := stepTimes(t, s, scenario.Options{})
	last := len(times) - 1
	sk, err := NewSeeker(s, scenario.Options{}, times)
	if err != nil {
		t.Fatal(err)
	}
	defer sk.Close()
	k := sk.Spacing()
	if k > last/4 {
		t.Fatalf("spacing %d for %d steps: too few checkpoints to test", k, last)
	}
	sk.Settle()
	seek := func(from, to int) int64 {
		t.Helper()
		sk.Settle()
		before := sk.Stats().Steps
		sk.Snapshot(to, times[to])
		return sk.Stats().Steps - before
	}
	abs := func(d int) int64 { return int64(max(d, -d)) }
	// Forward, to the end: never more than the distance.
	if n := seek(0, last); n > int64(k)+abs(last) {
		t.Fatalf("0 -> %d re-executed %d steps, K+distance = %d", last, n, k+last)
	}
	// b held at the end, and held across a checkpoint (where the steps
	// before come from the checkpoint below).
	presses := 0
	for _, from := range []int{last, last/k*k - k + SeekWindow/2} {
		seek(0, from)
		cur := from
		for range SeekWindow + 2 {
			if n := seek(cur, cur-1); n > int64(k)+1 {
				t.Fatalf("b at step %d re-executed %d steps, K+distance = %d", cur, n, k+1)
			}
			cur--
			presses++
		}
	}
	// Most presses are served from the cache.
	if f, want := sk.Stats().Fills, int64(presses/SeekWindow+4); f > want {
		t.Fatalf("%d b presses filled %d windows, want at most %d", presses, f, want)
	}
	// Random jumps back from the end (a goto), and forward again.
	rng := rand.New(rand.NewPCG(1, 2))
	cur := last
	for range 3 {
		seek(cur, last)
		cur = last
		to := rng.IntN(last)
		if n := seek(cur, to); n > int64(k)+abs(cur-to) {
			t.Fatalf("%d -> %d re-executed %d steps, K+distance = %d", cur, to, n, int64(k)+abs(cur-to))
		}
		cur = to
	}
	// Bounded memory: at most one parked runner per checkpoint, and the
	// cached windows.
	sk.Settle()
	parked := 0
	for _, r := range sk.parked {
		if r != nil {
			parked++
		}
	}
	cached := 0
	for _, w := range sk.windows {
		cached += len(w.snaps)
	}
	if parked > SeekCheckpoints+1 || cached > seekWindows*SeekWindow {
		t.Fatalf("%d parked runners (bound %d), %d cached snapshots (bound %d)", parked, SeekCheckpoints+1, cached, seekWindows*SeekWindow)
	}
}

// TestSeekBetweenStepsIsBounded: a snapshot between two steps (the play
// loop, the compare view's shared cursor) needs a runner standing at the
// step; it comes from the nearest checkpoint, at most 2K steps away.
func TestSeekBetweenStepsIsBounded(t *testing.T) {
	s := scenariotest.Scenario(t, "fair-fifo")
	times := stepTimes(t, s, scenario.Options{})
	last := len(times) - 1
	sk, err := NewSeeker(s, scenario.Options{}, times)
	if err != nil {
		t.Fatal(err)
	}
	defer sk.Close()
	k := sk.Spacing()
	sk.Settle()
	sk.Snapshot(last, times[last])
	for _, i := range []int{last - 3, last/2 + 7, 5} {
		sk.Snapshot(i, times[i]) // fills i's block
		sk.Settle()
		before := sk.Stats().Steps
		sk.Snapshot(i, times[i]+(times[i+1]-times[i])/2)
		if n := sk.Stats().Steps - before; n > int64(2*k) {
			t.Fatalf("between steps %d and %d: %d steps re-executed, bound 2K = %d", i, i+1, n, 2*k)
		}
	}
}
