// Package model is lockstep's simulated world: Redis nodes (miniredis, each
// with its own clock, role and persistence), lock clients and their
// strategies, the fenced resource they update, and the safety checker that
// judges the run from true time. It knows nothing of YAML or terminals.
package model

import (
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// Config is everything needed to build a World. Package scenario fills it
// from a scenario file; tests fill it directly.
type Config struct {
	Seed     uint64
	Duration time.Duration
	Latency  time.Duration // one-way network latency
	Jitter   time.Duration
	Links    []sim.Link // per-link extra latency and loss (network.links)
	Nodes    NodesConfig
	Lock     LockConfig
	Clients  []ClientConfig
}

// LockConfig is the lock design under test.
type LockConfig struct {
	Key         string
	Strategy    string
	TTL         time.Duration
	Timeout     time.Duration // per request
	Watchdog    *WatchdogConfig
	Reentrant   bool
	Fair        bool
	Fencing     string // none | token | cas
	Retry       *RetryConfig
	DriftFactor float64       // redlock
	NodeTimeout time.Duration // redlock request_timeout
	Parallel    bool          // redlock
	Knobs       ClientKnobs   // the real clients' runtime behaviours (knobs.go)
	// WaitReplicas: WAIT after a single-instance grant (wait_replicas.go).
	WaitReplicas *WaitReplicasConfig
	// Custom, when set, is the strategy every client runs instead of
	// Strategy's (the harness: a real lock library driven from outside).
	Custom Strategy
}

// WaitReplicasConfig is lock.wait_replicas: after a grant the client sends
// WAIT Replicas Timeout and releases the lock if fewer replicas acked.
type WaitReplicasConfig struct {
	Replicas int
	Timeout  time.Duration
}

// WatchdogConfig is lease renewal every Every, at most MaxRenewals times (0: no limit).
type WatchdogConfig struct {
	Every       time.Duration
	MaxRenewals int
	// RetryOnFailure keeps renewing after a renewal that got no answer or
	// an error (Redisson); only "the key is not ours" stops it. false: any
	// failed renewal stops it (today's behaviour).
	RetryOnFailure bool
}

// RetryConfig is how a client retries a failed acquire.
type RetryConfig struct {
	Attempts int // total attempts, the first included
	Delay    time.Duration
	Backoff  float64
	MaxDelay time.Duration
	Jitter   float64
}

// ClientConfig is one client's workload.
type ClientConfig struct {
	Name   string
	Start  time.Duration
	Holds  int
	Work   time.Duration
	Think  time.Duration
	Nested int
}
