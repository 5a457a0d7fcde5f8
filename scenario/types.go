// Package scenario reads scenarios.yaml (format version 1), builds a simulated
// world from a scenario, and runs it: step, run, snapshot, rewind, report.
package scenario

import (
	"time"

	"github.com/lockstep-sim/lockstep/faults"
)

// Pos is a place in a scenario file, for error messages (FILE:LINE:COL).
type Pos struct {
	Line, Col int
}

// File is a parsed scenarios.yaml.
type File struct {
	Path      string // as given to Load; used in error messages
	Version   int
	Scenarios []*Scenario
}

// Scenario is one world, workload and fault schedule. Durations are
// simulated time; every default of the format has been applied by Load.
type Scenario struct {
	Pos      Pos
	Name     string
	Title    string
	Story    string
	Seed     uint64
	Duration time.Duration
	Network  Network
	Redis    Redis
	Lock     Lock
	Clients  []Client
	Faults   []faults.Fault // the kinds and their fields are the faults package's table
	FaultPos []Pos          // where each of Faults is written (loaded files only)
	Expect   []Expectation  // in file order
}

// Network is the default link behaviour between every pair of processes.
type Network struct {
	Latency time.Duration // one way; default 1ms
	Jitter  time.Duration // uniform extra delay in [0, Jitter)
	Links   []Link        // per-link extra latency and loss (links.go)
}

// Redis describes the nodes of the world.
type Redis struct {
	Nodes          int           // independent masters redis-1..redis-N; default 1
	Replicas       int           // async replicas per master, redis-K-rJ
	ReplicationLag time.Duration // default 10ms
	FailoverAfter  time.Duration // 0: failover only by fault
	Sentinels      int           // > 0: sentinel-1..N decide failovers by majority; 0: each replica watches its master
	Persistence    string        // none | everysec | always; default none
	RestartDelay   time.Duration
	Clock          string // wall | monotonic; default wall
	// MinReplicasToWrite > 0: masters refuse writes (NOREPLICAS) without
	// that many replicas acked within MinReplicasMaxLag (default 10s).
	MinReplicasToWrite int
	MinReplicasMaxLag  time.Duration
	MaxmemoryPolicy    string // noeviction (default) | allkeys-lru | volatile-lru | ... (redis.MaxmemoryPolicies)
	Version            int    // 6 | 7; 0: 7 (how expiries reach replicas)
}

// Lock is the lock design under test.
type Lock struct {
	Key       string
	Strategy  string // setnx-del | setnx-expire | set-del | lua-release | redlock
	TTL       time.Duration
	Timeout   time.Duration // per-request client timeout; default 1s (added field)
	Watchdog  *Watchdog     // nil: no renewal
	Reentrant bool
	Fair      bool
	Fencing   string // none | token | cas; default none
	Retry     *Retry // nil: a single attempt
	Redlock   Redlock
	// WaitReplicas: WAIT after each grant; nil: none (redisside.go).
	WaitReplicas *WaitReplicas

	// The real clients' runtime knobs (model.ClientKnobs); zero: off.
	Wait             time.Duration // tryLock's waitTime: the whole acquire's bound
	Driver           *Driver       // nil: the driver never resends
	FairTimeout      time.Duration // a fair-lock waiter's place; 0: the default
	CheckBeforeWrite bool          // skip the write once the lease ran out
	Notify           string        // poll | pubsub; "" = poll
	Regrant          bool          // the acquire also grants our own key again (redislock)
}

// Driver is the Redis driver's resend of a command whose reply timed out.
type Driver struct {
	Retries      int  // resends of one command
	LockCommands bool // the acquire and release commands are resent too; default true
}

// Watchdog is Redisson-style lease renewal.
type Watchdog struct {
	Every       time.Duration
	MaxRenewals int    // 0 = unlimited
	OnFailure   string // stop | retry; "" = stop
}

// Retry governs acquire attempts.
type Retry struct {
	Attempts int
	Delay    time.Duration
	Backoff  float64 // multiplier per attempt; default 1.0 (constant)
	MaxDelay time.Duration
	Jitter   float64 // fraction of the delay drawn at random, in [0,1]
}

// Redlock holds the parameters of strategy redlock.
type Redlock struct {
	DriftFactor    float64       // default 0.01
	RequestTimeout time.Duration // default 50ms
	Parallel       bool
}

// Client is one simulated lock client process and its workload.
type Client struct {
	Pos    Pos
	Name   string
	Start  time.Duration
	Holds  int // default 1
	Work   time.Duration
	Think  time.Duration
	Nested int
}

// Expectation is one entry of `expect:`.
type Expectation struct {
	Pos    Pos
	Metric string // safe | stuck | violations | lost_updates | ... (format names)
	Op     string // "==" ">=" "<=" ">" "<" ; booleans use "=="
	Value  int64  // for booleans: 1 true, 0 false
	Bool   bool   // the metric is boolean (safe, stuck)
	Raw    string // as written, for reports: "true", ">= 1", "0"
}
