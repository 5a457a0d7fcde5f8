package scenario

import (
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/faults"
)

// The limits keep every sum the simulation makes inside int64 nanoseconds:
// the worst case of each, computed exactly, is far from the edge.
func TestLimitsCannotOverflow(t *testing.T) {
	d := big.NewInt(int64(MaxDuration))
	mul := func(a *big.Int, k float64) *big.Int {
		f, _ := new(big.Float).Mul(new(big.Float).SetInt(a), big.NewFloat(k)).Int(nil)
		return f
	}
	add := func(xs ...*big.Int) *big.Int {
		s := new(big.Int)
		for _, x := range xs {
			s.Add(s, x)
		}
		return s
	}
	limit := big.NewInt(math.MaxInt64 / 4) // and a margin of 4x
	for name, v := range map[string]*big.Int{
		// A client's last hold ends by start + holds × (work + think + the
		// longest retry pause × attempts)... the pauses are bounded by the
		// run's duration, so start + holds × (work + think) dominates.
		"start + holds × (work + think)": add(d, mul(add(d, d), MaxHolds)),
		"at + for":                       add(d, d),
		// Every fault a clock jump, each of 24h, on a clock drifting at
		// the fastest rate for the whole run.
		"a clock moved by every fault": add(mul(d, float64(MaxFaults)), mul(d, faults.MaxRate)),
		// A node's expiry time: its clock plus the longest TTL.
		"expiry on a moved clock": add(mul(d, float64(MaxFaults)), mul(d, faults.MaxRate), d),
		// The fair lock keeps waiters' places for 3 × max_delay.
		"fair lock place timeout": mul(d, 3),
	} {
		if v.Cmp(limit) > 0 {
			t.Errorf("%s can reach %v ns, beyond a quarter of int64", name, v)
		}
	}
	if longestPause(&Retry{Attempts: MaxAttempts, Delay: MaxDuration, Backoff: MaxBackoff, MaxDelay: MaxDuration}) != float64(MaxDuration) {
		t.Error("max_delay does not cap the longest pause")
	}
	if p := longestPause(&Retry{Attempts: MaxAttempts, Delay: time.Nanosecond, Backoff: MaxBackoff}); !math.IsInf(p, 1) {
		t.Errorf("an uncapped backoff should be +Inf (and refused), got %g", p)
	}
}
