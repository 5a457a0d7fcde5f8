// Package explore searches random fault schedules for safety violations of
// a lock strategy: it runs a scenario's world many times, each time under a
// fresh schedule drawn from a seed and the run's index, counts how often
// each strategy breaks (with a Wilson 95% interval), shrinks the first
// violating schedule to a minimal counterexample and writes it as a
// scenario file that `lockstep run -f` replays.
//
// Everything but the progress display is deterministic: the same scenario,
// seed, kinds and run count give the same report, whatever the number of
// workers.
package explore

import (
	"context"
	"time"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
)

// World is the shape of one strategy's world: the scenario with the
// strategy applied and its own faults and expectations removed, and the
// process names a schedule may target. A strategy that needs more nodes than
// the scenario has gets them (scenario.NodesFor), so Redlock explored on a
// single-instance scenario runs on five masters and its faults strike those.
type World struct {
	Strategy string
	Base     *scenario.Scenario // what every run of this strategy starts from

	// Names are the processes: Clients in file order, Masters redis-1 ..
	// redis-N, Replicas redis-K-rJ, Sentinels sentinel-1 .. sentinel-N.
	faults.Names

	// Budget is the kernel events one run may take (0: the default).
	Budget int64

	TTL      time.Duration // the lock's TTL: the unit of fault magnitudes
	Duration time.Duration // the scenario's duration
	Horizon  time.Duration // faults strike in [0, Horizon): see horizon

	// Dropped are the modifiers of the scenario's design that Strategy
	// cannot run, which its runs therefore go without (as in compare).
	Dropped []scenario.Dropped
	err     error // the design cannot run under Strategy (see check)
}

// NewWorld is s's world under strategy: the design as that strategy can
// run it (scenario.ForStrategy, the rules the loader and compare use). A
// design that cannot run at all is reported by check.
func NewWorld(s *scenario.Scenario, strategy string) *World {
	under, dropped, err := scenario.ForStrategy(s, strategy)
	if err != nil {
		under = s
	}
	base := *under
	base.Faults = nil
	base.Expect = nil
	if !scenario.IsProfile(strategy) { // a profile's strategy is its own (scenario.ProfileLock)
		base.Lock.Strategy = strategy
	}
	base.Redis.Nodes = scenario.NodesFor(base.Lock.Strategy, s.Redis.Nodes)
	w := &World{Strategy: strategy, Base: &base, TTL: s.Lock.TTL, Duration: s.Duration, Dropped: dropped, err: err}
	var clients []string
	for _, c := range s.Clients {
		clients = append(clients, c.Name)
	}
	w.Names = faults.NamesFor(clients, base.Redis.Nodes, base.Redis.Replicas, base.Redis.Sentinels)
	if w.TTL <= 0 {
		// A lock without a TTL (setnx-del) still needs a scale for faults.
		w.TTL = max(s.Duration/10, time.Second)
	}
	w.Horizon = horizon(s, w.TTL)
	return w
}

// options are the run options of one run under sched; ctx may be nil.
// The run hashes nothing (scenario.Options.NoHash): a search or a shrink
// needs only the verdict, and the one run whose hash is reported is run
// again with it (withHash).
func (w *World) options(ctx context.Context, sched []faults.Fault) scenario.Options {
	return scenario.Options{ExtraFaults: sched, EventBudget: w.Budget, Context: ctx, NoHash: true}
}

// check builds the world once without running it: a world that cannot be
// built is a configuration error, found before the search.
func (w *World) check() error {
	if w.err != nil {
		return w.err
	}
	r, err := runner.New(w.Base, w.options(context.Background(), nil), false)
	if err != nil {
		return err
	}
	r.Close()
	return nil
}

// Nodes are every node of the world, masters then replicas.
func (w *World) Nodes() []string {
	return append(append([]string(nil), w.Masters...), w.Replicas...)
}

// Processes are every client and node: the targets of faults that take any.
func (w *World) Processes() []string {
	return append(append([]string(nil), w.Clients...), w.Nodes()...)
}

// NetProcesses are every process on the network, sentinels included: the
// targets of network faults (partition, isolate, slow).
func (w *World) NetProcesses() []string {
	return append(w.Processes(), w.Sentinels...)
}

// horizon bounds fault times to when something can still happen: the run
// plays to its duration, but a fault after the workload rarely changes a
// verdict (a late restart that brings a lock back can), so the search
// spends its faults where the clients are.
// The workload's span is estimated as if every hold ran one after another
// (the lock serialises them), plus 2×TTL of slack for waits and expiries;
// it never exceeds the scenario's duration.
func horizon(s *scenario.Scenario, ttl time.Duration) time.Duration {
	var start, busy time.Duration
	for _, c := range s.Clients {
		start = max(start, c.Start)
		busy += time.Duration(c.Holds) * (c.Work + c.Think)
	}
	h := start + busy + 2*ttl
	if h <= 0 || h > s.Duration {
		h = s.Duration
	}
	return max(h, time.Millisecond)
}
