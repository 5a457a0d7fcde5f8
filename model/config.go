// Package model is lockstep's simulated world: Redis nodes (miniredis, each
// with its own clock, role and persistence), lock clients with their
// threads, RPC and timers, the fenced resource they update, and the safety
// checker that judges the run from true time. The lock recipes the clients
// run are Strategies in packages of their own (model/recipe, model/redlock),
// written against the recipe API (recipe_api.go). It knows nothing of YAML
// or terminals.
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
	Resource ResourceConfig // the zero value is the resource of old: every request checked, no keys
	// ClusterSlots: a command over keys in different hash slots is refused
	// with CROSSSLOT, as a Redis Cluster node refuses it (model/slot). Only
	// the check is modelled: every key still lives on one node.
	ClusterSlots bool
}

// ResourceConfig is how the protected resource checks what reaches it
// (model/resource). The zero value checks fencing tokens on reads and writes,
// starts the fencing counter at 1 and keeps no idempotency keys.
type ResourceConfig struct {
	// WritesOnly: fencing tokens are checked on writes only, and reads
	// do not raise the highest token seen (Kleppmann's storage).
	WritesOnly bool
	// StartToken is the first fencing token the lock hands out; 0 or 1:
	// the counter starts empty (the first INCR gives 1).
	StartToken int64
	// Idempotency is the key each write carries: "" or "none" none, "job"
	// the job the hold runs (its index), which the resource accepts once.
	Idempotency string
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
	// Redlock-family behaviours (model/redlock/family.go). The zero values are the
	// redis.io recipe lockstep has always run; the client profiles
	// (scenario/profiles.go) set them as each library behaves.
	Deadline         string  // "" or DeadlineNode, DeadlineAttempt, DeadlineNone
	TimeoutFactor    float64 // DeadlineAttempt: the attempt's deadline is TTL × this
	FirstQuorum      bool    // decide once a quorum has answered either way
	NoValidityCheck  bool    // a quorum grants whatever the validity
	NoDriftSlack     bool    // drift is TTL × DriftFactor, without redis.io's 2 ms
	MonotonicElapsed bool    // elapsed on the client's monotonic clock, not its wall clock
	LeaseFromReply   bool    // the lease ends validity after the count, not after the attempt's start
	ExtendLate       string  // "" or ExtendLateRefuse, ExtendLateAllow, ExtendLateError
	ExtendSetMissing bool    // a renewal SETs the key again where it is gone (redsync's setNXOnExtend)
	ReleaseAtEnd     bool    // a failed attempt leaves its keys; only the last failed try releases
	// Keys: a hold needs every one of these keys (model/recipe/multikey.go); empty: the
	// one Key. Key is then the first, the key the judge follows.
	Keys     []string
	MultiKey string // each (one SET NX PX per key, in order) | script (one Lua script over all)
	SortKeys bool   // take the keys in sorted order, whatever order a client lists them in

	Knobs ClientKnobs // the real clients' runtime behaviours (knobs.go)
	// WaitReplicas: WAIT after a single-instance grant (model/recipe/wait_replicas.go).
	WaitReplicas *WaitReplicasConfig
	// Custom, when set, is the strategy every client runs instead of
	// Strategy's (the harness: a real lock library driven from outside).
	Custom Strategy
}

// The values of LockConfig.Deadline (the Redlock family, model/redlock).
const (
	DeadlineNode    = "node"    // each request bounded by NodeTimeout (the default)
	DeadlineAttempt = "attempt" // the whole attempt bounded by TTL × TimeoutFactor
	DeadlineNone    = "none"    // each request bounded only by Timeout, the driver's read timeout
)

// The values of LockConfig.ExtendLate: what a renewal does about a lease
// that has already run out by the client's clock.
const (
	ExtendLateRefuse = "refuse" // the default: an extension read after the old lease ended does not count
	ExtendLateAllow  = "allow"  // redsync's ExtendContext: a quorum of touches and a positive validity suffice
	ExtendLateError  = "error"  // node-redlock's extend(): it throws before sending anything (node-redlock#283)
)

// DefaultNodeTimeout is how long Redlock waits for one node's reply when
// LockConfig.NodeTimeout is not set (the format's
// lock.redlock.request_timeout default).
const DefaultNodeTimeout = 50 * time.Millisecond

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
	// AbortWork: a refused renewal stops the work before its write, as
	// node-redlock's using() aborts its routine (Redlock only).
	AbortWork bool
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
	Keys   []string // the keys its holds need, when not LockConfig.Keys
	// Resource names the resource its work reads and writes, when clients
	// work on different ones (lock granularity); "": the one counter.
	Resource string
}
