// Package build turns a loaded, checked scenario into the model's
// configuration (ModelConfig) and its fault schedule (FaultSchedule): the
// one place where the format's fields meet model.Config, and the one
// place that links the strategies with packages of their own
// (model/recipe, model/redlock). The format never needs it: what both
// use (Options, NodesFor, Link.Directions) is the format's.
package build

import (
	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/sim"

	// The strategies with a package of their own register themselves with
	// model when linked; this is the one place that links them
	// (TestStrategiesLinked).
	_ "github.com/lockstep-sim/lockstep/model/recipe"
	_ "github.com/lockstep-sim/lockstep/model/redlock"
)

// ModelConfig converts a scenario into the model's configuration, with the
// options applied.
func ModelConfig(s *scenario.Scenario, o scenario.Options) model.Config {
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
	cfg.Nodes.Masters = scenario.NodesFor(cfg.Lock.Strategy, cfg.Nodes.Masters)
	if r := s.Resource; r != nil {
		cfg.Resource = model.ResourceConfig{WritesOnly: r.Check == "writes", StartToken: int64(r.StartToken),
			Idempotency: r.Idempotency}
	}
	redisSideConfig(s, &cfg, l)
	return cfg
}

// designFor is the lock design a run under strategy (a strategy, a client
// profile, or "" for the scenario's own) runs, and the strategy it names.
func designFor(l scenario.Lock, strategy string) (scenario.Lock, string) {
	if scenario.IsProfile(strategy) {
		// A comparison column named by a client profile (scenario.ProfileLock).
		if pl, _, err := scenario.ProfileLock(strategy, l); err == nil {
			l = pl
		}
		strategy = l.Strategy
	}
	if strategy != "" && strategy != l.Strategy {
		// Another strategy runs the design as far as it can (scenario.DesignFor,
		// the loader's own rules): what it cannot run is dropped, never run
		// half-supported. Compare lists what was dropped.
		if dl, _, err := scenario.DesignFor(strategy, l); err == nil {
			l = dl
		}
	}
	return l, strategy
}

// lockConfig is the model's form of lock design l.
func lockConfig(l scenario.Lock) model.LockConfig {
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
	if len(l.Keys) > 0 { // several keys per hold; dropped with them by scenario.DesignFor
		c.Keys, c.MultiKey, c.SortKeys = l.Keys, l.MultiKey, l.KeyOrder == "sorted"
	}
	return c
}

// clientConfigs are the model's form of the clients; multiKey: the design
// takes several keys per hold, so a client's own keys: count.
func clientConfigs(cs []scenario.Client, multiKey bool) []model.ClientConfig {
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
func redlockFamily(c *model.LockConfig, r scenario.Redlock) {
	c.Deadline, c.TimeoutFactor = r.Deadline, r.TimeoutFactor
	c.FirstQuorum = r.Decide == scenario.DecideFirstQuorum
	c.NoValidityCheck, c.NoDriftSlack = r.NoValidityCheck, r.NoDriftSlack
	c.MonotonicElapsed = r.Elapsed == scenario.ElapsedMonotonic
	c.LeaseFromReply = r.LeaseFrom == scenario.LeaseFromReply
	c.ExtendLate, c.ExtendSetMissing = r.ExtendLate, r.ExtendSetMissing
	c.ReleaseAtEnd = r.ReleaseFailed == scenario.ReleaseFaileds[1]
}

// FaultSchedule is the scenario's faults in file order, followed by the
// options' extra faults.
func FaultSchedule(s *scenario.Scenario, o scenario.Options) []faults.Fault {
	out := make([]faults.Fault, 0, len(s.Faults)+len(o.ExtraFaults))
	return append(append(out, s.Faults...), o.ExtraFaults...)
}

// simLinks are the directed links of a scenario's network.links, in file
// order.
func simLinks(ls []scenario.Link) []sim.Link {
	var out []sim.Link
	for _, l := range ls {
		out = append(out, l.Directions()...)
	}
	return out
}
