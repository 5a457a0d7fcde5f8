package sim

import (
	"fmt"
	"math"
	"time"
)

// Clock is a process's own clock as a function of true time: a wall reading
// that can jump and drift, and a monotonic reading that drifts but never jumps.
//
// Both readings share one piecewise-linear "base" reading: it starts equal to
// true time and advances rate× true speed, the rate changing only at the
// instants passed to SetRate. The monotonic reading is the base; the wall
// reading is the base plus the sum of all jumps. Keeping jumps as a separate
// additive term means a jump never rebases the drift segment, so it cannot
// introduce rounding.
//
// The zero value is a perfect clock: Wall(t) == Mono(t) == t.
type Clock struct {
	segStart time.Duration // true time at which the current rate took effect
	segBase  time.Duration // base reading at segStart
	rate     float64       // 0 means 1: the zero value is a perfect clock
	jumped   time.Duration // total of all wall jumps
}

// Rate is how many local nanoseconds pass per true nanosecond (1 unless
// SetRate changed it).
func (c *Clock) Rate() float64 {
	if c.rate == 0 {
		return 1
	}
	return c.rate
}

// scale converts a true duration since the segment start into local time.
// rate 1 stays in integer arithmetic so a perfect clock never accumulates
// float error; otherwise the product is rounded to the nearest nanosecond,
// which is deterministic (IEEE 754) and monotone in d, so readings never run
// backwards. Segments are measured from segStart rather than accumulated step
// by step, so the error stays below 1 ns however long the run.
func (c *Clock) scale(d time.Duration) time.Duration {
	if c.rate == 0 || c.rate == 1 {
		return d
	}
	return time.Duration(math.Round(c.rate * float64(d)))
}

// base is the drifted, never-jumping reading at true time now. A clock
// never drifted answers inline; the rest is out of line, so that base, Wall
// and Mono stay small enough to be inlined: every command's expiry and
// every timer reads a clock, nearly always a perfect one.
func (c *Clock) base(now time.Duration) time.Duration {
	if c.rate == 0 { // SetRate never ran: segStart and segBase are 0
		return now
	}
	return c.scaledBase(now)
}

// scaledBase is base for a clock SetRate has set.
//
//go:noinline
func (c *Clock) scaledBase(now time.Duration) time.Duration {
	return c.segBase + c.scale(now-c.segStart)
}

// Wall is the wall-clock reading at true time now: what the process would
// print as the time of day, or a Redis node compares key expiry with.
func (c *Clock) Wall(now time.Duration) time.Duration {
	return c.base(now) + c.jumped
}

// Mono is the monotonic reading at true time now: it drifts with the rate but
// ignores jumps.
func (c *Clock) Mono(now time.Duration) time.Duration {
	return c.base(now)
}

// Jump steps the wall reading by `by` (negative: backwards) at true time now,
// as an NTP step would. The monotonic reading is unaffected. now is accepted
// for symmetry with SetRate and for callers' traces; the jump is additive and
// does not depend on it.
func (c *Clock) Jump(now, by time.Duration) {
	c.jumped += by
}

// SetRate makes both readings advance rate× true speed from true time now on,
// keeping the readings at now unchanged. rate must be positive and finite; a
// stopped or backwards-running clock is not a clock fault we model.
func (c *Clock) SetRate(now time.Duration, rate float64) {
	if !(rate > 0) || math.IsInf(rate, 0) {
		panic(fmt.Sprintf("sim: clock rate must be positive and finite, got %v", rate))
	}
	c.segBase = c.base(now)
	c.segStart = now
	c.rate = rate
}

// Offset is Wall(now) - now: how far the wall clock is from true time, for
// display ("+20s", "-1.2s").
func (c *Clock) Offset(now time.Duration) time.Duration {
	return c.Wall(now) - now
}

// Never is an instant no run reaches (2^62 ns, 146 years): a wait that would
// end later ends there, which keeps every sum of times clear of overflow.
const Never = time.Duration(1 << 62)

// TrueAfter is the true duration from now until the monotonic reading has
// advanced by localDelta, rounded up to the nanosecond: a client that sleeps
// "30s by its own clock" wakes after TrueAfter(now, 30s) of true time. It
// assumes the current rate holds; a later SetRate does not move a wake-up
// already computed (a real sleeping thread would not notice either until it
// woke, which is close enough for a simulator that reschedules on faults).
// localDelta <= 0 gives 0; a wake-up beyond Never is at Never.
//
// A perfect clock's answer is small enough to be inlined into the callers
// (every request's timeout and every sleep asks): only a drifted clock
// pays for the call.
func (c *Clock) TrueAfter(now, localDelta time.Duration) time.Duration {
	if c.rate == 0 { // never drifted; 0 for no wait or a now past Never, as trueAfter
		return max(min(localDelta, Never-now), 0)
	}
	return c.trueAfter(now, localDelta)
}

// trueAfter is TrueAfter for any clock.
func (c *Clock) trueAfter(now, localDelta time.Duration) time.Duration {
	if localDelta <= 0 || now >= Never {
		return 0
	}
	limit := Never - now
	r := c.Rate()
	if r == 1 {
		return min(localDelta, limit)
	}
	start := c.base(now)
	if localDelta >= Never-start {
		return limit
	}
	target := start + localDelta
	// Estimate with float, then find the exact answer, the smallest dt with
	// base(now+dt) >= target, against the reading function itself.
	est := math.Ceil(float64(localDelta) / r)
	if !(est < float64(limit)) {
		return limit
	}
	return c.firstAt(now, target, max(time.Duration(est), 0), limit)
}

// firstAt is the smallest dt in [0, limit] with base(now+dt) >= target (limit
// if none), searched from the estimate dt0: base is monotone, so it steps
// away from dt0 in doubling strides until it has the answer between two
// readings, then bisects. The estimate is off by a few nanoseconds, so this
// takes a few readings, and however wrong it is, at most ~128.
func (c *Clock) firstAt(now, target, dt0, limit time.Duration) time.Duration {
	reached := func(dt time.Duration) bool { return c.base(now+dt) >= target }
	var lo, hi time.Duration // the answer is in [lo, hi], and reached(hi)
	if dt0 >= limit {
		return limit
	}
	if reached(dt0) {
		hi = dt0
		for step := time.Duration(1); ; step *= 2 {
			lo = max(dt0-step, 0)
			if lo == 0 || !reached(lo) {
				break
			}
			hi = lo
		}
	} else {
		lo = dt0 + 1
		for step := time.Duration(1); ; step *= 2 {
			hi = min(dt0+step, limit)
			if reached(hi) {
				break
			}
			if hi == limit {
				return limit
			}
			lo = hi + 1
		}
	}
	for lo < hi {
		mid := lo + (hi-lo)/2
		if reached(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}
