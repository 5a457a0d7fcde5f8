package explore

import (
	"fmt"
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
		return fmt.Errorf("fault kind %s needs replicas: scenario %s has redis.replicas: 0", faults.Failover, g.W.Base.Name)
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
// partitions and jumps up to 2×TTL) so that a lease can be outlived; each
// kind draws its own fields (faults.Spec.Generate). The faults are in time
// order.
func (g *Generator) Draw(r *rand.Rand) []faults.Fault {
	n := 1 + r.IntN(max(g.MaxFaults, 1))
	out := make([]faults.Fault, 0, n)
	gen := &faults.Gen{R: r, Names: g.W.Names, TTL: g.W.TTL}
	for range n {
		k := g.Kinds[r.IntN(len(g.Kinds))]
		f := faults.Generate(gen, k)
		f.At = ms(time.Duration(r.Int64N(int64(g.W.Horizon))))
		out = append(out, f)
	}
	sortByTime(out)
	return out
}

// ms truncates d to whole milliseconds: schedules read well in YAML.
func ms(d time.Duration) time.Duration { return faults.Millis(d) }
