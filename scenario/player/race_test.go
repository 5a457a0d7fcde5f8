//go:build race

package player

// raceEnabled: the race detector slows the simulator about tenfold, so the
// seek-counting test counts on a smaller scenario.
const raceEnabled = true
