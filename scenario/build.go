package scenario

import (
	"context"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/model"
	// The strategies with a package of their own register themselves with
	// model when linked; this is the one place that links them
	// (TestStrategiesLinked).
	_ "github.com/lockstep-sim/lockstep/model/recipe"
	_ "github.com/lockstep-sim/lockstep/model/redlock"
)

// Options change how a scenario is run without changing the file: the
// comparison's strategy, the TUI's injected faults.
type Options struct {
	Strategy    string         // "" = the scenario's own
	Seed        *uint64        // nil = the scenario's own
	ExtraFaults []faults.Fault // appended to the schedule (live injection)
	// LuaInterpreted runs every script through miniredis's Lua interpreter
	// instead of the Go fast path; the outcome is the same, only slower.
	LuaInterpreted bool
	// EventBudget bounds the kernel events of one run; 0 means
	// DefaultEventBudget. A run that spends it ends at once with
	// Report.BudgetExhausted, never hangs.
	EventBudget int64
	// Context, when set, cancels the run: the runner looks at it once every
	// CancelCheckEvery kernel events and ends the run with Report.Cancelled.
	Context context.Context
	// Custom, when set, is the strategy every client runs instead of the
	// file's (package harness: a real lock library); see model.LockConfig.
	Custom model.Strategy
	// NoHash runs without the trace hash (sim.Trace.StopHashing): a line
	// no sink reads is never formatted, and Report.TraceHash is "". The
	// verdict, the metrics and the event counts are those of a hashed run;
	// explore's searches and shrinks use it and hash the one run they
	// report.
	NoHash bool
}

// DefaultEventBudget is the number of kernel events a run may take unless
// Options.EventBudget says otherwise (the CLI's --budget). The largest
// bundled scenario takes about 1.2e5; a run that needs more than 1e7 is
// almost always a configuration that never advances time (a zero-latency
// network with a 1ns watchdog, a billion retries without delay).
const DefaultEventBudget = 10_000_000

// MaxEventBudget bounds --budget: at ~100 ns an event it is minutes of work.
const MaxEventBudget = 2_000_000_000

// CancelCheckEvery is how many kernel events pass between two looks at
// Options.Context: cheap enough to be invisible (a few µs of work), often
// enough that ctrl+c stops a run within a millisecond.
const CancelCheckEvery = 1024

// Budget is the run's event budget: EventBudget, or DefaultEventBudget
// when that is not set.
func (o Options) Budget() int64 {
	if o.EventBudget <= 0 {
		return DefaultEventBudget
	}
	return o.EventBudget
}

// ModelConfig converts a scenario into the model's configuration, with the
// options applied.
func ModelConfig(s *Scenario, o Options) model.Config {
	l, strategy := designFor(s.Lock, o.Strategy)
	cfg := model.Config{
		Seed:     s.Seed,
		Duration: s.Duration,
		Latency:  s.Network.Latency,
		Jitter:   s.Network.Jitter,
		Links:    simLinks(s.Network.Links),
		Nodes: model.NodesConfig{
			Masters:        s.Redis.Nodes,
			Replicas:       s.Redis.Replicas,
			ReplicationLag: s.Redis.ReplicationLag,
			FailoverAfter:  s.Redis.FailoverAfter,
			Sentinels:      s.Redis.Sentinels,
			Persistence:    s.Redis.Persistence,
			RestartDelay:   s.Redis.RestartDelay,
			Monotonic:      s.Redis.Clock == "monotonic",
			LuaInterpreted: o.LuaInterpreted,
		},
		Lock:         lockConfig(l),
		ClusterSlots: s.Redis.Cluster,
		Clients:      clientConfigs(s.Clients, len(l.Keys) > 0),
	}
	if o.Seed != nil {
		cfg.Seed = *o.Seed
	}
	cfg.Lock.Custom = o.Custom
	if strategy != "" {
		cfg.Lock.Strategy = strategy
	}
	cfg.Nodes.Masters = NodesFor(cfg.Lock.Strategy, cfg.Nodes.Masters)
	if r := s.Resource; r != nil {
		cfg.Resource = model.ResourceConfig{WritesOnly: r.Check == "writes", StartToken: int64(r.StartToken),
			Idempotency: r.Idempotency}
	}
	redisSideConfig(s, &cfg, l)
	return cfg
}

// designFor is the lock design a run under strategy (a strategy, a client
// profile, or "" for the scenario's own) runs, and the strategy it names.
func designFor(l Lock, strategy string) (Lock, string) {
	if IsProfile(strategy) {
		// A comparison column named by a client profile (ProfileLock).
		if pl, _, err := ProfileLock(strategy, l); err == nil {
			l = pl
		}
		strategy = l.Strategy
	}
	if strategy != "" && strategy != l.Strategy {
		// Another strategy runs the design as far as it can (DesignFor,
		// the loader's own rules): what it cannot run is dropped, never run
		// half-supported. Compare lists what was dropped.
		if dl, _, err := DesignFor(strategy, l); err == nil {
			l = dl
		}
	}
	return l, strategy
}

// lockConfig is the model's form of lock design l.
func lockConfig(l Lock) model.LockConfig {
	c := model.LockConfig{
		Key:         l.Key,
		Strategy:    l.Strategy,
		TTL:         l.TTL,
		Timeout:     l.Timeout,
		Reentrant:   l.Reentrant,
		Fair:        l.Fair,
		Fencing:     l.Fencing,
		DriftFactor: l.Redlock.DriftFactor,
		NodeTimeout: l.Redlock.RequestTimeout,
		Parallel:    l.Redlock.Parallel,
		Knobs:       clientKnobs(l),
		Watchdog:    watchdogConfig(l.Watchdog),
	}
	redlockFamily(&c, l.Redlock)
	if l.Retry != nil {
		r := *l.Retry
		c.Retry = &model.RetryConfig{Attempts: r.Attempts, Delay: r.Delay, Backoff: r.Backoff, MaxDelay: r.MaxDelay, Jitter: r.Jitter}
	}
	if len(l.Keys) > 0 { // several keys per hold; dropped with them by DesignFor
		c.Keys, c.MultiKey, c.SortKeys = l.Keys, l.MultiKey, l.KeyOrder == "sorted"
	}
	return c
}

// clientConfigs are the model's form of the clients; multiKey: the design
// takes several keys per hold, so a client's own keys: count.
func clientConfigs(cs []Client, multiKey bool) []model.ClientConfig {
	out := make([]model.ClientConfig, 0, len(cs))
	for _, c := range cs {
		mc := model.ClientConfig{Name: c.Name, Start: c.Start, Holds: c.Holds, Work: c.Work, Think: c.Think,
			Nested: c.Nested, Resource: c.Resource}
		if multiKey {
			mc.Keys = c.Keys
		}
		out = append(out, mc)
	}
	return out
}

// redlockFamily sets the Redlock-family knobs of lock.redlock.
func redlockFamily(c *model.LockConfig, r Redlock) {
	c.Deadline, c.TimeoutFactor = r.Deadline, r.TimeoutFactor
	c.FirstQuorum = r.Decide == DecideFirstQuorum
	c.NoValidityCheck, c.NoDriftSlack = r.NoValidityCheck, r.NoDriftSlack
	c.MonotonicElapsed = r.Elapsed == ElapsedMonotonic
	c.LeaseFromReply = r.LeaseFrom == LeaseFromReply
	c.ExtendLate, c.ExtendSetMissing = r.ExtendLate, r.ExtendSetMissing
	c.ReleaseAtEnd = r.ReleaseFailed == ReleaseFaileds[1]
}

// FaultSchedule is the scenario's faults in file order, followed by the
// options' extra faults.
func FaultSchedule(s *Scenario, o Options) []faults.Fault {
	out := make([]faults.Fault, 0, len(s.Faults)+len(o.ExtraFaults))
	return append(append(out, s.Faults...), o.ExtraFaults...)
}

// Redlock's node count when the file gives too few (see NodesFor).
const (
	// RedlockNodes is how many masters Redlock gets then: the redis.io
	// deployment.
	RedlockNodes = 5
	// MinRedlockNodes is the fewest masters whose majority still tolerates
	// a failed node.
	MinRedlockNodes = 3
)

// NodesFor is the number of masters a strategy runs on in a world whose file
// says nodes: a strategy needing more gets them (scenario-format.md,
// "Comparison"): Redlock with fewer than 3 masters has no useful majority,
// so it gets 5; the single-instance strategies use redis-1 of any number.
func NodesFor(strategy string, nodes int) int {
	if strategy == model.StrategyRedlock && nodes < MinRedlockNodes {
		return RedlockNodes
	}
	return nodes
}
