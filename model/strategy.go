package model

import (
	"fmt"
)

// Strategy is a lock algorithm as a client runs it. Each method is
// straight-line code on a client thread, like the recipes in the seeds.
type Strategy interface {
	// Name is the strategy's name in the scenario format.
	Name() string
	// Acquire makes one attempt to take the lock with l.Token. On success it
	// fills in what the client now believes (l.Until, l.Fence, l.Nodes).
	Acquire(t *Thread, l *Lease) bool
	// Release gives the lock back (once per Acquire, nested ones included).
	Release(t *Thread, l *Lease)
	// Renew extends the lease (the watchdog); false means it could not: the
	// key is no longer ours, or the renewal went unanswered.
	Renew(t *Thread, l *Lease) bool
	// Quorum is how many nodes must hold the key for a grant to be in force.
	Quorum(w *World) int
	// LockNodes are the nodes that can hold the lock key, now.
	LockNodes(w *World) []*Node
}

// Strategy names, as spelled in the scenario format.
const (
	StrategySetnxDel    = "setnx-del"
	StrategySetnxExpire = "setnx-expire"
	StrategySetDel      = "set-del"
	StrategyLuaRelease  = "lua-release"
	StrategyRedlock     = "redlock"
)

// Strategies lists the strategy names in the order help texts show them.
var Strategies = []string{StrategySetnxDel, StrategySetnxExpire, StrategySetDel, StrategyLuaRelease, StrategyRedlock}

// strategyFactories are the strategies linked into the program, by name
// (RegisterStrategy). Looked up only; its order never reaches output.
var strategyFactories = map[string]func(LockConfig) Strategy{}

// RegisterStrategy makes a strategy available by name. The recipes live in
// packages of their own (model/recipe: the single-instance ones;
// model/redlock) and register themselves from their init, so a program has
// them when it links those packages (the scenario layer does,
// scenario/build.go).
// Which designs are legal is not decided here but in scenario/design.go.
// A name registered twice is a programming error (two packages claiming one
// strategy) and panics at start-up, before any world is built.
func RegisterStrategy(name string, f func(LockConfig) Strategy) {
	if _, dup := strategyFactories[name]; dup {
		panic("model: strategy " + name + " registered twice")
	}
	strategyFactories[name] = f
}

func newStrategy(c LockConfig) (Strategy, error) {
	if c.Custom != nil {
		return c.Custom, nil
	}
	f, ok := strategyFactories[c.Strategy]
	if !ok {
		return nil, fmt.Errorf("unknown strategy %q (a strategy of its own package is there only if the program imports it, as scenario/build.go does)", c.Strategy)
	}
	return f(c), nil
}

func toString(v any) string { return fmt.Sprint(v) }
