package scenario

import (
	"context"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/model"
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
