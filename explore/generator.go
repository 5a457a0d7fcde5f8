package explore

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/sim"
)

// DefaultKinds are the fault kinds explored when none are named: the four
// the Kleppmann–antirez debate turns on (a GC pause, an NTP clock step, a
// network partition, a crash). Each works in any world; failover needs
// replicas, so it is asked for by name.
var DefaultKinds = []faults.Kind{faults.Pause, faults.ClockJump, faults.Partition, faults.Crash}

// DefaultMaxFaults is the most faults a schedule holds unless told otherwise.
const DefaultMaxFaults = 4

// ParseKinds reads a comma-separated list of fault kinds as the scenario
// format spells them.
func ParseKinds(list string) ([]faults.Kind, error) {
	var out []faults.Kind
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		k := faults.Kind(name)
		if !slices.Contains(faults.Kinds, k) {
			return nil, fmt.Errorf("unknown fault kind %q (kinds: %s)", name, kindList(faults.Kinds))
		}
		if slices.Contains(out, k) {
			return nil, fmt.Errorf("fault kind %q named twice", name)
		}
		out = append(out, k)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no fault kinds (kinds: %s)", kindList(faults.Kinds))
	}
	return out, nil
}

func kindList(ks []faults.Kind) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}

// Generator draws random fault schedules over one world.
type Generator struct {
	W         *World
	Kinds     []faults.Kind
	MaxFaults int // 1..MaxFaults faults per schedule
	Seed      uint64
}

// Check reports a kind the world cannot take: failover needs a replica to
// promote.
func (g *Generator) Check() error {
	if len(g.Kinds) == 0 {
		return fmt.Errorf("no fault kinds to explore")
	}
	if slices.Contains(g.Kinds, faults.Failover) && len(g.W.Replicas) == 0 {
		return fmt.Errorf("fault kind failover needs replicas: scenario %s has redis.replicas: 0", g.W.Base.Name)
	}
	if g.MaxFaults < 1 {
		return fmt.Errorf("at most %d faults per schedule: must be at least 1", g.MaxFaults)
	}
	return nil
}

// Schedule is run i's fault schedule: a function of the seed and i alone
// (and the world), so any run can be redrawn on its own.
func (g *Generator) Schedule(i int) []faults.Fault {
	return g.Draw(sim.NewRand(g.Seed, fmt.Sprintf("explore/%d", i)))
}

// Draw draws a schedule from r: 1..MaxFaults faults of the generator's
// kinds, times uniform in [0, Horizon), magnitudes scaled by the TTL (pauses,
// partitions and jumps up to 2×TTL) so that a lease can be outlived. The
// faults are in time order.
func (g *Generator) Draw(r *rand.Rand) []faults.Fault {
	n := 1 + r.IntN(max(g.MaxFaults, 1))
	out := make([]faults.Fault, 0, n)
	for range n {
		k := g.Kinds[r.IntN(len(g.Kinds))]
		f := g.fault(r, k)
		f.At = ms(time.Duration(r.Int64N(int64(g.W.Horizon))))
		out = append(out, f)
	}
	sortByTime(out)
	return out
}

// fault draws one fault of kind k, all but its time.
func (g *Generator) fault(r *rand.Rand, k faults.Kind) faults.Fault {
	w := g.W
	f := faults.Fault{Kind: k}
	long := func() time.Duration { return g.span(r, w.TTL/10, 2*w.TTL) }
	switch k {
	case faults.Pause, faults.Hang:
		f.Target = pick(r, w.Clients)
		f.For = long()
	case faults.Crash:
		f.Target = pick(r, w.Processes())
		if !slices.Contains(w.Clients, f.Target) && r.IntN(2) == 0 {
			f.RestartAfter = long()
		}
	case faults.Failover:
		f.Target = pick(r, w.Masters)
	case faults.ClockJump:
		f.Target = pick(r, w.Processes())
		f.By = long()
		if r.IntN(2) == 0 {
			f.By = -f.By
		}
	case faults.ClockDrift:
		f.Target = pick(r, w.Processes())
		// 0.5x .. 2x true speed, never (nearly) 1.
		u := 0.05 + r.Float64()*0.95
		if r.IntN(2) == 0 {
			u = -u / 2
		}
		f.Rate = round2(1 + u)
	case faults.Partition:
		f.Groups = split(r, w.NetProcesses())
		f.For = long()
	case faults.Isolate:
		f.Target = pick(r, w.NetProcesses())
		f.For = long()
	case faults.Slow:
		f.Target = pick(r, w.NetProcesses())
		f.Latency = g.span(r, time.Millisecond, w.TTL/2)
		if r.IntN(2) == 0 {
			f.Loss = round2(r.Float64() / 2)
		}
		f.For = long()
	}
	return f
}

// span is a duration uniform in [lo, hi], rounded to the millisecond and at
// least 1ms.
func (g *Generator) span(r *rand.Rand, lo, hi time.Duration) time.Duration {
	if hi <= lo {
		return max(ms(lo), time.Millisecond)
	}
	return max(ms(lo+time.Duration(r.Int64N(int64(hi-lo)+1))), time.Millisecond)
}

func pick(r *rand.Rand, names []string) string { return names[r.IntN(len(names))] }

// split puts every process into one of two groups, neither empty.
func split(r *rand.Rand, names []string) [][]string {
	side := make([]bool, len(names))
	n := 0
	for i := range names {
		if r.IntN(2) == 0 {
			side[i] = true
			n++
		}
	}
	if n == 0 || n == len(names) { // all on one side: move one across
		i := r.IntN(len(names))
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

// ms truncates d to whole milliseconds: schedules read well in YAML.
func ms(d time.Duration) time.Duration { return d.Truncate(time.Millisecond) }

func round2(x float64) float64 { return math.Round(x*100) / 100 }
