package sim

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

func TestClockZeroValueIsPerfect(t *testing.T) {
	var c Clock
	for _, now := range []time.Duration{0, 1, time.Millisecond, 90 * time.Second, 10 * time.Hour} {
		if c.Wall(now) != now || c.Mono(now) != now || c.Offset(now) != 0 {
			t.Fatalf("now=%v: wall=%v mono=%v offset=%v", now, c.Wall(now), c.Mono(now), c.Offset(now))
		}
	}
	if c.Rate() != 1 {
		t.Fatalf("rate = %v", c.Rate())
	}
	if got := c.TrueAfter(5*time.Second, 30*time.Second); got != 30*time.Second {
		t.Fatalf("TrueAfter = %v", got)
	}
}

func TestClockJumpMovesWallOnly(t *testing.T) {
	var c Clock
	c.Jump(6*time.Second, 20*time.Second)
	if got := c.Wall(6 * time.Second); got != 26*time.Second {
		t.Fatalf("wall after +20s jump = %v", got)
	}
	if got := c.Mono(6 * time.Second); got != 6*time.Second {
		t.Fatalf("mono after jump = %v", got)
	}
	c.Jump(10*time.Second, -25*time.Second)
	if got := c.Wall(10 * time.Second); got != 5*time.Second {
		t.Fatalf("wall after -25s jump = %v", got)
	}
	if got := c.Offset(10 * time.Second); got != -5*time.Second {
		t.Fatalf("offset = %v", got)
	}
	// Calling again for the same instant gives the same reading.
	first := c.Wall(10 * time.Second)
	if again := c.Wall(10 * time.Second); again != first {
		t.Fatalf("not idempotent: %v then %v", first, again)
	}
}

func TestClockDriftExactInstants(t *testing.T) {
	var c Clock
	c.SetRate(10*time.Second, 1.1)
	if got := c.Mono(10 * time.Second); got != 10*time.Second {
		t.Fatalf("SetRate changed the reading at now: %v", got)
	}
	if got := c.Mono(20 * time.Second); got != 21*time.Second {
		t.Fatalf("1.1x for 10s: mono = %v, want 21s", got)
	}
	if got := c.Wall(20 * time.Second); got != 21*time.Second {
		t.Fatalf("1.1x for 10s: wall = %v, want 21s", got)
	}
	c.SetRate(20*time.Second, 0.5)
	if got := c.Mono(30 * time.Second); got != 26*time.Second {
		t.Fatalf("0.5x for 10s after 21s: %v, want 26s", got)
	}
	c.Jump(30*time.Second, time.Second)
	if got, want := c.Wall(40*time.Second), 32*time.Second; got != want {
		t.Fatalf("wall = %v, want %v", got, want)
	}
	if c.Rate() != 0.5 {
		t.Fatalf("rate = %v", c.Rate())
	}
}

func TestClockDriftNoAccumulatedErrorOverHours(t *testing.T) {
	var c Clock
	c.SetRate(0, 1.0001)
	// Read at many instants (as a simulation would); a reading depends only
	// on the instant, never on how often the clock was read.
	var prev time.Duration
	for now := time.Duration(0); now <= 10*time.Hour; now += 997 * time.Millisecond {
		got := c.Mono(now)
		if got < prev {
			t.Fatalf("mono ran backwards at %v", now)
		}
		prev = got
	}
	if got, want := c.Mono(10*time.Hour), 10*time.Hour+3600*time.Millisecond; got != want {
		t.Fatalf("10h at 1.0001x = %v, want %v", got, want)
	}
}

func TestClockMonotoneNanoseconds(t *testing.T) {
	for _, rate := range []float64{0.7, 0.999, 1.1, 3} {
		var c Clock
		c.SetRate(0, rate)
		prev := c.Mono(0)
		for now := time.Duration(1); now < 5000; now++ {
			got := c.Mono(now)
			if got < prev {
				t.Fatalf("rate %v: mono ran backwards at %v", rate, now)
			}
			prev = got
		}
	}
}

func TestClockTrueAfter(t *testing.T) {
	cases := []struct {
		rate  float64
		local time.Duration
	}{
		{1.1, 30 * time.Second},
		{0.9, 30 * time.Second},
		{1.1, 7},
		{0.7, 1},
		{3, 10 * time.Millisecond},
		{0.999, time.Hour},
	}
	for _, tc := range cases {
		var c Clock
		c.Jump(0, 5*time.Second) // jumps must not matter: TrueAfter is monotonic
		c.SetRate(3*time.Second, tc.rate)
		now := 4*time.Second + 123
		dt := c.TrueAfter(now, tc.local)
		if adv := c.Mono(now+dt) - c.Mono(now); adv < tc.local {
			t.Errorf("rate %v local %v: after %v mono advanced only %v", tc.rate, tc.local, dt, adv)
		}
		if adv := c.Mono(now+dt-1) - c.Mono(now); adv >= tc.local {
			t.Errorf("rate %v local %v: %v is not the earliest (1ns earlier advanced %v)", tc.rate, tc.local, dt, adv)
		}
	}
	var c Clock
	c.SetRate(0, 1.1)
	if got := c.TrueAfter(0, 11*time.Second); got != 10*time.Second {
		t.Fatalf("TrueAfter(11s local at 1.1x) = %v, want 10s", got)
	}
	if got := c.TrueAfter(0, 0); got != 0 {
		t.Fatalf("TrueAfter(0) = %v", got)
	}
}

func TestClockSetRateRejectsNonPositive(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("SetRate(0) did not panic")
		}
	}()
	var c Clock
	c.SetRate(0, 0)
}

// walkTrueAfter is TrueAfter as it was first written, walking a nanosecond
// at a time from the estimate: the reference the search must agree with
// wherever the walk finishes (the bundled traces depend on every answer).
func walkTrueAfter(c *Clock, now, localDelta time.Duration) time.Duration {
	if localDelta <= 0 {
		return 0
	}
	if c.Rate() == 1 {
		return localDelta
	}
	target := c.base(now) + localDelta
	dt := time.Duration(math.Ceil(float64(localDelta) / c.Rate()))
	for dt > 0 && c.base(now+dt-1) >= target {
		dt--
	}
	for c.base(now+dt) < target {
		dt++
	}
	return dt
}

// TestTrueAfterMatchesTheWalk: the search gives the walk's answer on
// random clocks and waits.
func TestTrueAfterMatchesTheWalk(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var c Clock
		seg := time.Duration(r.Int64N(int64(time.Hour)))
		c.SetRate(seg, math.Exp(r.Float64()*math.Log(1e6))/1000) // 0.001 .. 1000
		now := seg + time.Duration(r.Int64N(int64(time.Hour)))
		d := time.Duration(r.Int64N(int64(time.Duration(1) << r.IntN(45))))
		if got, want := c.TrueAfter(now, d), walkTrueAfter(&c, now, d); got != want {
			t.Fatalf("rate %g now %d wait %d: TrueAfter %d, the walk %d", c.Rate(), now, d, got, want)
		}
	}
}

// TestTrueAfterNeverRunsAway: waits whose end overflows, or lies past
// Never, end at Never instead of hanging the event that computes them (a
// 1e17ns wait on a clock at 0.001x was 1e20ns, which overflowed and walked
// for ever).
func TestTrueAfterNeverRunsAway(t *testing.T) {
	for _, rate := range []float64{0.001, 0.0013, 0.7, 1, 999.9, 1000} {
		for _, d := range []time.Duration{1e17, 1e18, 4e18, math.MaxInt64} {
			var c Clock
			c.SetRate(12345, rate)
			now := time.Duration(1e12)
			got := c.TrueAfter(now, d)
			if got < 0 || got > Never-now {
				t.Errorf("rate %g wait %d: TrueAfter %d, want within [0, Never-now]", rate, d, got)
			}
			if now+got < Never && c.Mono(now+got)-c.Mono(now) < d {
				t.Errorf("rate %g wait %d: TrueAfter %d ends before the wait", rate, d, got)
			}
		}
	}
}

// TestPerfectClockTrueAfter: the inlined answer of a clock never drifted
// is the general one's (trueAfter) at the edges too: no wait, a wait
// before now, a wait past Never, and a now at or past Never.
func TestPerfectClockTrueAfter(t *testing.T) {
	nows := []time.Duration{0, 1, 1e12, Never - 1, Never, Never + 5}
	waits := []time.Duration{math.MinInt64, -1, 0, 1, 30 * time.Second, Never, math.MaxInt64}
	for _, now := range nows {
		for _, d := range waits {
			var c Clock
			if got, want := c.TrueAfter(now, d), c.trueAfter(now, d); got != want {
				t.Errorf("now %d wait %d: TrueAfter %d, trueAfter %d", now, d, got, want)
			}
		}
	}
}
