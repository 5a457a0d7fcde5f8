package scenario

import (
	"time"

	"github.com/lockstep-sim/lockstep/model"
)

// The limits of a scenario file, in one table: docs/scenario-format.md
// ("Limits") lists the same names and values, and a test checks that the two
// agree. Every limit keeps a hostile or mistaken file (a YAML "billion
// laughs", a duration near the int64 limit, a retry loop that never lets
// simulated time advance) from exhausting memory or time, and every message
// that enforces one states it and the allowed range.
//
// The bounds are chosen so that no sum the simulation makes can overflow:
// every duration is at most MaxDuration (24h) and int64 nanoseconds hold
// about 2.5 million hours, so start + holds × (work + think) (at most
// 24h + 10000 × 48h), at + for (48h), a clock moved by every fault
// (1000 × 24h, times a drift of at most 1000) all stay far inside it.
const (
	// MaxFileSize is the most bytes of YAML a file may hold.
	MaxFileSize = 4 << 20
	// maxNodeVisits bounds the YAML nodes walked, counting every alias
	// expansion: what stops an alias bomb.
	maxNodeVisits = 1_000_000
	// maxMergeDepth bounds nested "<<:" merge keys.
	maxMergeDepth = 32

	// MaxScenarios is the most scenarios a file may hold.
	MaxScenarios = 500
	// MaxClients is the most clients of one scenario.
	MaxClients = 64
	// MaxFaults is the most faults of one scenario.
	MaxFaults = 1000
	// MaxNodes is the most masters (redis.nodes).
	MaxNodes = 9
	// MaxReplicas is the most replicas per master.
	MaxReplicas = 4
	// MaxSentinels is the most sentinel processes.
	MaxSentinels = 9
	// MaxHolds is the most holds of one client.
	MaxHolds = 10000
	// MaxNested is the deepest re-acquire nesting of one hold.
	MaxNested = 100
	// MaxTotalHolds is the most holds of all clients of a scenario.
	MaxTotalHolds = 100000
	// MaxAttempts is the most acquire attempts of retry.attempts.
	MaxAttempts = 1_000_000
	// MaxRenewals is the largest watchdog.max_renewals.
	MaxRenewals = 1_000_000
	// MaxLinks is the most entries of network.links.
	MaxLinks = 256
	// MaxBackoff is the largest retry.backoff multiplier.
	MaxBackoff = 1000.0
	// MaxDriverRetries is the largest lock.driver.retries.
	MaxDriverRetries = model.MaxDriverRetries
	// MinTimeoutFactor and MaxTimeoutFactor bound lock.redlock.timeout_factor:
	// an attempt's deadline is a positive part of the ttl, at most all of it.
	MinTimeoutFactor = 1e-9
	MaxTimeoutFactor = 1.0
	// MaxStartToken is the largest resource.start_token: room for a
	// counter that has run for years, far from int64's end after every INCR.
	MaxStartToken = 1_000_000_000
	// MaxKeysPerHold is the most keys of lock.keys or a client's keys.
	MaxKeysPerHold = 16

	// MaxDuration bounds every duration of the file: the run's duration,
	// every time (at, start), every length (work, think, for, ttl,
	// latency, delays, timeouts) and the size of a clock jump (by, either
	// sign). It also bounds the longest retry pause, delay ×
	// backoff^(attempts−1) capped at max_delay.
	MaxDuration = 24 * time.Hour
	// MinTTL is the shortest lock.ttl: Redis's PX counts whole
	// milliseconds, so a shorter TTL would be sent as PX 0, which Redis
	// refuses. lock.ttl must also be a whole number of milliseconds.
	MinTTL = time.Millisecond
	// MinCycle is the shortest watchdog or retry cycle (the period plus a
	// round trip, 2 × network.latency): a faster loop lets a client renew
	// or retry millions of times without simulated time advancing.
	MinCycle = time.Millisecond

	// MaxNameLen is the longest scenario name, in bytes: room for a bundled
	// name plus the parameters explore writes into a counterexample's name.
	MaxNameLen = 128
	// MaxClientNameLen is the longest client name, in bytes.
	MaxClientNameLen = 32
	// MaxKeyLen is the longest lock.key, in bytes.
	MaxKeyLen = 256
	// MaxTitleLen is the longest title, in characters (one line).
	MaxTitleLen = 200
	// MaxStoryLen is the longest story, in bytes.
	MaxStoryLen = 16 << 10

	supportedFormat = 1
)
