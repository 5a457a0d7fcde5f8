// Package tracefmt is how the trace and the judge's explanations write
// durations and clock rates, so that every package of the model writes
// them the same way.
package tracefmt

import (
	"fmt"
	"time"
)

// Rate is a clock rate: "1.5".
func Rate(r float64) string { return fmt.Sprintf("%g", r) }

// Dur renders a duration rounded to the millisecond ("19.1s", "-2ms").
func Dur(d time.Duration) string { return d.Round(time.Millisecond).String() }

// SignedDur is Dur with a "+" on a non-negative duration.
func SignedDur(d time.Duration) string {
	if d >= 0 {
		return "+" + Dur(d)
	}
	return Dur(d)
}
