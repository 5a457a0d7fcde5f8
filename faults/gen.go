package faults

import (
	"math"
	"math/rand/v2"
	"time"
)

// Gen is what a kind's Generate draws from: a random source, the world's
// processes and the lock's TTL, which scales the magnitudes so that a lease
// can be outlived.
type Gen struct {
	R     *rand.Rand
	Names Names
	TTL   time.Duration
}

// Generate draws one fault of kind k (which must be in the table), all but
// its time.
func Generate(g *Gen, k Kind) Fault {
	f := Lookup(k).Generate(g)
	f.Kind = k
	return f
}

// Long is a duration from TTL/10 to 2×TTL: pauses, partitions and jumps.
func (g *Gen) Long() time.Duration { return g.Span(g.TTL/10, 2*g.TTL) }

// Span is a duration uniform in [lo, hi], rounded to the millisecond and at
// least 1ms.
func (g *Gen) Span(lo, hi time.Duration) time.Duration {
	if hi <= lo {
		return max(Millis(lo), time.Millisecond)
	}
	return max(Millis(lo+time.Duration(g.R.Int64N(int64(hi-lo)+1))), time.Millisecond)
}

// Pick is one of names, uniformly.
func (g *Gen) Pick(names []string) string { return names[g.R.IntN(len(names))] }

// Coin is a fair coin.
func (g *Gen) Coin() bool { return g.R.IntN(2) == 0 }

// split puts every process into one of two groups, neither empty.
func (g *Gen) split(names []string) [][]string {
	side := make([]bool, len(names))
	n := 0
	for i := range names {
		if g.Coin() {
			side[i] = true
			n++
		}
	}
	if n == 0 || n == len(names) { // all on one side: move one across
		i := g.R.IntN(len(names))
		side[i] = !side[i]
	}
	var a, b []string
	for i, name := range names {
		if side[i] {
			a = append(a, name)
		} else {
			b = append(b, name)
		}
	}
	return [][]string{a, b}
}

// Millis truncates d to whole milliseconds: schedules read well in YAML.
func Millis(d time.Duration) time.Duration { return d.Truncate(time.Millisecond) }

// Round2 rounds x to hundredths.
func Round2(x float64) float64 { return math.Round(x*100) / 100 }
