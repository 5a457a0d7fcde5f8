//go:build race

package redis

// raceEnabled: the race detector slows gopher-lua about tenfold, so the
// differential test runs fewer operations.
const raceEnabled = true
