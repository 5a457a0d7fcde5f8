package faults

import (
	"math"
	"slices"
	"time"
)

// Simpler lists the one-step simplifications of f in its kind's fields,
// boldest first: shorter spells and delays, a node that stays down, smaller
// clock jumps, drift rates nearer 1, lower loss, smaller partition groups
// (explore's shrinker; its time is the shrinker's business). Each step
// strictly decreases a whole-number measure of the fault, so shrinking ends.
func Simpler(f Fault) []Fault {
	s := Lookup(f.Kind)
	var out []Fault
	for _, fd := range shrinkOrder {
		if s != nil && s.Uses(fd) {
			out = append(out, fd.Shrink(f)...)
		}
	}
	return out
}

// with is f changed by set, its groups copied first so that set may edit
// them.
func with(f Fault, set func(*Fault)) Fault {
	f = f.Clone()
	set(&f)
	return f
}

func shrinkDur(f Fault, d time.Duration, set func(*Fault, time.Duration)) []Fault {
	var out []Fault
	if d > 0 {
		for _, v := range smaller(d, time.Millisecond) {
			out = append(out, with(f, func(g *Fault) { set(g, v) }))
		}
	}
	return out
}

func shrinkFor(f Fault) []Fault {
	return shrinkDur(f, f.For, func(g *Fault, d time.Duration) { g.For = d })
}

func shrinkLatency(f Fault) []Fault {
	return shrinkDur(f, f.Latency, func(g *Fault, d time.Duration) { g.Latency = d })
}

// shrinkRestart first lets the node stay down, then restarts it sooner.
func shrinkRestart(f Fault) []Fault {
	if f.RestartAfter <= 0 {
		return nil
	}
	out := []Fault{with(f, func(g *Fault) { g.RestartAfter = 0 })}
	return append(out, shrinkDur(f, f.RestartAfter, func(g *Fault, d time.Duration) { g.RestartAfter = d })...)
}

// shrinkBy makes a clock jump smaller, keeping its sign.
func shrinkBy(f Fault) []Fault {
	if f.By == 0 {
		return nil
	}
	sign := time.Duration(1)
	if f.By < 0 {
		sign = -1
	}
	return shrinkDur(f, sign*f.By, func(g *Fault, d time.Duration) { g.By = sign * d })
}

// shrinkRate brings a drift rate halfway to 1.
func shrinkRate(f Fault) []Fault {
	if r := Round2(1 + (f.Rate-1)/2); math.Abs(r-1) < math.Abs(f.Rate-1) && r != 1 {
		return []Fault{with(f, func(g *Fault) { g.Rate = r })}
	}
	return nil
}

// shrinkLoss drops the loss (when latency still slows the links) or halves it.
func shrinkLoss(f Fault) []Fault {
	if f.Loss <= 0 {
		return nil
	}
	var out []Fault
	if f.Latency > 0 {
		out = append(out, with(f, func(g *Fault) { g.Loss = 0 }))
	}
	if l := Round2(f.Loss / 2); l > 0 && l < f.Loss {
		out = append(out, with(f, func(g *Fault) { g.Loss = l }))
	}
	return out
}

// shrinkGroups takes one process out of a partition group of two or more
// (leaving its links alone).
func shrinkGroups(f Fault) []Fault {
	var out []Fault
	for gi, grp := range f.Groups {
		if len(grp) < 2 {
			continue
		}
		for mi := range grp {
			out = append(out, with(f, func(g *Fault) { g.Groups[gi] = slices.Delete(g.Groups[gi], mi, mi+1) }))
		}
	}
	return out
}

// smaller are the shorter values to try for a positive magnitude d, each at
// least floor, in decreasing boldness, without repeats: a half, three
// quarters, then d rounded down to 10s, 1s, 100ms and 10ms.
func smaller(d, floor time.Duration) []time.Duration {
	var out []time.Duration
	add := func(v time.Duration) {
		if v >= floor && v < d && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	add(Millis(d / 2))
	add(Millis(d * 3 / 4))
	for _, unit := range roundings {
		add(d.Truncate(unit))
	}
	return out
}

// roundings are the units a shrinker rounds a magnitude or a time down to.
var roundings = []time.Duration{10 * time.Second, time.Second, 100 * time.Millisecond, 10 * time.Millisecond}

// Roundings are the units a shrinker rounds down to, boldest first.
func Roundings() []time.Duration { return roundings }

// Clone is f with its partition groups copied, so that the copy may be
// edited without touching f.
func (f Fault) Clone() Fault {
	if f.Groups != nil {
		gs := make([][]string, len(f.Groups))
		for i, g := range f.Groups {
			gs[i] = slices.Clone(g)
		}
		f.Groups = gs
	}
	return f
}
