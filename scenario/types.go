// Package scenario is the format of scenarios.yaml (format version 1):
// loading (strict, every error at FILE:LINE:COL, over scenario/yamlfile),
// the limits, the checks, the legal designs, the client profiles and
// export. scenario/build turns a scenario into a world's configuration;
// scenario/runner runs it.
package scenario

import (
	"time"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/scenario/yamlfile"
)

// Pos is a place in a scenario file, for error messages (FILE:LINE:COL).
type Pos = yamlfile.Pos

// LoadError is a problem with a scenario file: "FILE:LINE:COL: message",
// or "FILE: message" when the file could not be read at all.
type LoadError = yamlfile.Error

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
	I18n     *I18n // the title and story in other languages (i18n.go); nil: English only
	Seed     uint64
	Duration time.Duration
	Network  Network
	Redis    Redis
	Lock     Lock
	Resource *Resource // nil: the resource block is absent (every default)
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
	Cluster            bool   // commands over keys in different hash slots fail with CROSSSLOT
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
	Client    string // a client profile (profiles.go); "": none
	// WaitReplicas: WAIT after each grant; nil: none (redisside.go).
	WaitReplicas *WaitReplicas
	Keys         []string // several keys per hold; Key is then one of them (default the first)
	MultiKey     string   // each | script; "" = each
	KeyOrder     string   // given | sorted; "" = given

	// The real clients' runtime knobs (model.ClientKnobs); zero: off.
	Wait             time.Duration // tryLock's waitTime: the whole acquire's bound
	Driver           *Driver       // nil: the driver never resends
	FairTimeout      time.Duration // a fair-lock waiter's place; 0: the default
	CheckBeforeWrite bool          // skip the write once the lease ran out
	Notify           string        // poll | pubsub; "" = poll
	Regrant          bool          // the acquire also grants our own key again (redislock)
	// HoldAtLeast is ShedLock's lockAtLeastFor: a release earlier than this
	// after the acquire began shortens the key's TTL to what is left
	// instead of deleting it; 0: off.
	HoldAtLeast time.Duration
}

// Resource is how the protected resource checks what reaches it.
type Resource struct {
	Check       string // all | writes: which requests have their fencing token checked; default all
	StartToken  int    // the first fencing token the lock hands out; default 1
	Idempotency string // none | job: the key each write carries; default none
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
	AbortWork   bool   // a refused renewal stops the work (node-redlock using()); redlock only
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
	// The Redlock-family behaviours (model/redlock/family.go); the zero
	// values are the redis.io recipe.
	Deadline         string  // node | attempt | none; default node
	TimeoutFactor    float64 // deadline attempt: ttl × this; default 0.05
	Decide           string  // all | first-quorum; default all
	NoValidityCheck  bool    // validity_check: false
	NoDriftSlack     bool    // drift_slack: false
	Elapsed          string  // wall | monotonic; default wall
	LeaseFrom        string  // attempt | reply; default attempt
	ExtendLate       string  // refuse | allow | error; default refuse
	ExtendSetMissing bool    // extend_sets_missing: redsync's setNXOnExtend
	ReleaseFailed    string  // attempt | end; default attempt
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
	Keys   []string // its own keys per hold (lock.keys when empty)
	// Resource is the resource its work reads and writes; "": the one
	// counter every client shares.
	Resource string
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
