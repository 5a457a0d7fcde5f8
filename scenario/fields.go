package scenario

import (
	"fmt"
	"slices"
	"time"

	"gopkg.in/yaml.v3"
)

// The keys of the format's mappings (except faults', which the faults
// package's table names, and expect's, which are the metric names). Each is
// spelled here once; the loader's allowed keys and decoder, the exporter
// and the validator's paths and messages all use these.
const (
	keyVersion   = "version"
	keyScenarios = "scenarios"

	keyName     = "name" // a scenario's and a client's
	keyTitle    = "title"
	keyStory    = "story"
	keySeed     = "seed"
	keyDuration = "duration"
	keyNetwork  = "network"
	keyRedis    = "redis"
	keyLock     = "lock"
	keyClients  = "clients"
	keyFaults   = "faults"
	keyExpect   = "expect"

	keyLatency = "latency"
	keyJitter  = "jitter" // network.jitter and retry.jitter

	keyNodes          = "nodes"
	keyReplicas       = "replicas"
	keyReplicationLag = "replication_lag"
	keyFailoverAfter  = "failover_after"
	keySentinels      = "sentinels"
	keyPersistence    = "persistence"
	keyRestartDelay   = "restart_delay"
	keyClock          = "clock"

	keyKey       = "key"
	keyStrategy  = "strategy"
	keyTTL       = "ttl"
	keyTimeout   = "timeout"
	keyWatchdog  = "watchdog"
	keyReentrant = "reentrant"
	keyFair      = "fair"
	keyFencing   = "fencing"
	keyRetry     = "retry"
	keyRedlock   = "redlock"

	keyEvery       = "every"
	keyMaxRenewals = "max_renewals"

	keyAttempts = "attempts"
	keyDelay    = "delay"
	keyBackoff  = "backoff"
	keyMaxDelay = "max_delay"

	keyDriftFactor    = "drift_factor"
	keyRequestTimeout = "request_timeout"
	keyParallel       = "parallel"

	keyStart  = "start"
	keyHolds  = "holds"
	keyWork   = "work"
	keyThink  = "think"
	keyNested = "nested"

	// The real clients' runtime knobs (lock:, lock.watchdog:, lock.driver:).
	keyWait             = "wait"
	keyDriver           = "driver"
	keyFairTimeout      = "fair_timeout"
	keyCheckBeforeWrite = "check_before_write"
	keyOnFailure        = "on_failure"
	keyRetries          = "retries"
	keyLockCommands     = "lock_commands"
	keyNotify           = "notify"
	keyRegrant          = "regrant"
	keyHoldAtLeast      = "hold_at_least" // ShedLock's lockAtLeastFor (profile shedlock)
	// network.links (links.go)
	keyLinks  = "links"
	keyFrom   = "from"
	keyTo     = "to"
	keyLoss   = "loss"
	keyOneway = "oneway"

	// issue 13's Redis-side mitigations (redisside.go)
	keyMinReplicasToWrite = "min_replicas_to_write"
	keyMinReplicasMaxLag  = "min_replicas_max_lag"
	keyWaitReplicas       = "wait_replicas"
	keyMaxmemoryPolicy    = "maxmemory_policy"

	keyResource    = "resource"
	keyCheck       = "check"
	keyStartToken  = "start_token"
	keyIdempotency = "idempotency"

	keyKeys     = "keys" // lock.keys and a client's
	keyMultiKey = "multi_key"
	keyKeyOrder = "key_order"
	keyCluster  = "cluster"
)

// KeyNodes is redis.nodes' key: scenario/run's comparison names its
// node-count row with it.
const KeyNodes = keyNodes

// The keys of the client profiles and the Redlock-family knobs
// (profiles.go, docs/scenario-format.md "Client profiles").
const (
	keyClient = "client" // lock.client: a library's profile

	keyDeadline      = "deadline"
	keyTimeoutFactor = "timeout_factor"
	keyDecide        = "decide"
	keyValidityCheck = "validity_check"
	keyDriftSlack    = "drift_slack"
	keyElapsed       = "elapsed"
	keyLeaseFrom     = "lease_from"
	keyExtendLate    = "extend_late"
	keySetsMissing   = "extend_sets_missing"
	keyReleaseFailed = "release_failed"
	keyAbortWork     = "abort_work" // watchdog.abort_work
)

// dot joins a field path: dot("lock", "ttl") is "lock.ttl"; an empty
// parent (the scenario itself) adds nothing.
func dot(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

// field is one key of a mapping of type T (a Scenario, a Lock, ...).
// A plain value is read and written through val, whose pointer type
// (*string, *time.Duration, *int, *bool, *float64) says how; a block or a
// value with a rule of its own has read and write instead.
type field[T any] struct {
	name string
	doc  string
	val  func(x *T) any
	// read decodes the value of e into x; path is where it is written.
	read  func(p *parser, e entry, x *T, path string, pt posTable)
	write func(x *T) *yaml.Node
	// skip: the exporter leaves the field out (it is optional and absent).
	skip func(x *T) bool
	// late: the exporter writes it after the others (where exports have
	// always put it, so exported files stay byte-identical).
	late bool
	// label is how messages name the field when not section.msg+name.
	label string
}

// section is the table of one mapping of the format, in the order the
// format documents its keys (the order "unknown field" messages list).
type section[T any] struct {
	what   any    // how messages name the mapping: "unknown field x in lock" (a key, or an i18n.Msg)
	msg    string // what messages put before a field's name: "lock."
	fields []field[T]
	keys   []string
}

func newSection[T any](what any, msg string, fields ...field[T]) *section[T] {
	s := &section[T]{what: what, msg: msg, fields: fields}
	for _, f := range fields {
		s.keys = append(s.keys, f.name)
	}
	return s
}

// readSection reads the mapping n into x by the table s; path is where n is
// written ("" for a scenario, "lock.retry", "clients[2]").
func readSection[T any](p *parser, n *yaml.Node, s *section[T], x *T, path string, pt posTable) {
	for _, e := range p.Fields(n, s.what, s.keys) {
		at := dot(path, e.Key)
		pt.add(at, e.K, e.V)
		f := &s.fields[slices.Index(s.keys, e.Key)]
		if f.read != nil {
			f.read(p, e, x, at, pt)
			continue
		}
		label := f.label
		if label == "" {
			label = s.msg + f.name
		}
		p.value(e.V, label, f.val(x))
	}
}

// value reads one scalar into dst, by dst's type.
func (p *parser) value(n *yaml.Node, name string, dst any) {
	switch v := dst.(type) {
	case *string:
		*v = p.Str(n, name)
	case *time.Duration:
		*v = p.Duration(n, name)
	case *int:
		*v = p.SmallInt(n, name)
	case *bool:
		*v = p.Boolean(n, name)
	case *float64:
		*v = p.Float(n, name)
	default:
		panic(fmt.Sprintf("field %s of type %T", name, dst))
	}
}

// writeSection is x as a YAML mapping by the table s.
func writeSection[T any](s *section[T], x *T) *yaml.Node {
	n := mapping()
	for _, late := range []bool{false, true} {
		for i := range s.fields {
			f := &s.fields[i]
			if f.late != late || (f.skip != nil && f.skip(x)) {
				continue
			}
			if f.write != nil {
				add(n, f.name, f.write(x))
			} else {
				add(n, f.name, valueNode(f.val(x)))
			}
		}
	}
	return n
}

// valueNode is one scalar as YAML, by its type.
func valueNode(p any) *yaml.Node {
	switch v := p.(type) {
	case *string:
		return str(*v)
	case *time.Duration:
		return dur(*v)
	case *int:
		return intNode(*v)
	case *bool:
		return boolNode(*v)
	case *float64:
		return floatNode(*v)
	}
	panic(fmt.Sprintf("field of type %T", p))
}
