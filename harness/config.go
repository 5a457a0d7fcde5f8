package harness

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/scenario"
)

// Config says which scenario to run the user's lock in.
type Config struct {
	// File is a scenarios.yaml; "" means lockstep's bundled scenarios.
	File string
	// Scenario is the name of the scenario in File.
	Scenario string
	// Seed is the run's seed; 0 means the scenario's own.
	Seed uint64
	// Expect is what the user's lock should achieve, in the syntax of a
	// scenario's expect: block ("violations: 0\nwrong_releases: 0"); each
	// unmet expectation is one t.Errorf. The scenario's own expect:
	// describes lockstep's built-in recipe and is ignored.
	Expect string
	// Quorum is how many masters must hold the lock key for a grant to be
	// in force (the judge's explanations and stuck); 0 means a majority of
	// the masters (1 of 1; 3 of 5, as Redlock). A lock on one node of
	// several (redislock on Nodes()[0]) sets 1.
	Quorum int
}

// MaxStagger bounds the seeded start offset each client gets: goroutines
// woken at one instant run in parallel, so clients that start together
// would draw from crypto/rand and math/rand in the scheduler's order.
const MaxStagger = time.Millisecond

// Bounds on a Config.
const (
	// MaxQuorum is the largest Quorum (a scenario has at most this many masters).
	MaxQuorum = 64
)

// ignoredLock names the lock fields of s that describe lockstep's
// built-in recipe, which the user's Locker replaces.
func ignoredLock(s *scenario.Scenario) []string {
	l := s.Lock
	out := []string{"strategy " + l.Strategy}
	for _, f := range []struct {
		set  bool
		name string
	}{
		{l.TTL > 0, "ttl " + l.TTL.String()}, {l.Retry != nil, "retry"}, {l.Watchdog != nil, "watchdog"},
		{l.Reentrant, "reentrant"}, {l.Fair, "fair"},
		{slices.ContainsFunc(s.Clients, func(c scenario.Client) bool { return c.Nested > 0 }), "nested"},
	} {
		if f.set {
			out = append(out, f.name)
		}
	}
	return out
}

// load finds the scenario and prepares it for a harness run: client starts
// staggered, the built-in recipe's lock fields dropped.
func load(cfg Config) (*scenario.Scenario, error) {
	path := cfg.File
	if path == "" {
		p, err := bundledPath()
		if err != nil {
			return nil, err
		}
		path = p
	}
	f, err := scenario.LoadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := f.Find(cfg.Scenario)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if cfg.Quorum < 0 || cfg.Quorum > MaxQuorum {
		return nil, fmt.Errorf("Config.Quorum is %d: it must be 0 (a majority) to %d", cfg.Quorum, MaxQuorum)
	}
	if err := refuseClientClocks(path, s); err != nil {
		return nil, err
	}
	return s, nil
}

// prepare is a copy of s for a harness run with seed (0: s's own).
func prepare(s *scenario.Scenario, seed uint64) *scenario.Scenario {
	c := *s
	if seed != 0 {
		c.Seed = seed
	}
	c.Lock.Watchdog, c.Lock.Retry = nil, nil
	c.Clients = append(c.Clients[:0:0], s.Clients...)
	rng := rand.New(rand.NewPCG(c.Seed, 0x5eed))
	for i := range c.Clients {
		c.Clients[i].Start += time.Duration(rng.Int64N(int64(MaxStagger)))
		c.Clients[i].Nested = 0
	}
	c.Expect = nil
	return &c
}

// refuseClientClocks refuses clock faults on a client: a Go client
// measures intervals with the monotonic clock (time.Since, timers,
// context deadlines), which no wall-clock step or drift reaches, and the
// harness cannot slow a goroutine's notion of time.
func refuseClientClocks(path string, s *scenario.Scenario) error {
	for i, f := range s.Faults {
		if f.Kind != faults.ClockJump && f.Kind != faults.ClockDrift {
			continue
		}
		for _, c := range s.Clients {
			if c.Name == f.Target {
				at := ""
				if i < len(s.FaultPos) {
					at = fmt.Sprintf(":%d:%d", s.FaultPos[i].Line, s.FaultPos[i].Col)
				}
				return fmt.Errorf("%s%s: scenario %s: fault %d (%s on client %s): the harness cannot apply clock faults to a Go client, which measures time with the monotonic clock; put the fault on a node, or use a scenario without it",
					path, at, s.Name, i+1, f.Kind, f.Target)
			}
		}
	}
	return nil
}

// bundledPath is lockstep's scenarios.yaml, found beside this package's
// source (the module cache holds it for every user of the module).
func bundledPath() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) || strings.HasPrefix(file, "github.com/") {
		return "", errors.New("lockstep harness: the bundled scenarios are not found (built with -trimpath?): set Config.File to a scenarios.yaml")
	}
	return filepath.Join(filepath.Dir(filepath.Dir(file)), "scenarios.yaml"), nil
}
