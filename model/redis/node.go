package redis

import (
	"errors"
	"fmt"
	"time"

	"github.com/lockstep-sim/lockstep/model/store"
	"github.com/lockstep-sim/lockstep/sim"
)

// Persistence modes of NodeConfig.Persistence (redis.persistence).
const (
	PersistNone     = "none"
	PersistEverysec = "everysec"
	PersistAlways   = "always"
)

// ErrDown is what Do returns when the node has crashed. The network layer
// turns it into silence: a client of a dead node sees a timeout, not an error.
var ErrDown = errors.New("node is down")

// NodeConfig describes one Redis node.
type NodeConfig struct {
	Name         string        // "redis-1", "redis-1-r1"
	Monotonic    bool          // redis.clock: monotonic — key expiry ignores wall jumps (drift still applies)
	Persistence  string        // "none" (or "") | "everysec" | "always"
	RestartDelay time.Duration // after restart, answer every command with -LOADING for this long
	// LuaInterpreted turns the fast path off (--lua=interpreted): every
	// script then runs in miniredis's gopher-lua, 100x slower, and every
	// plain command goes through miniredis's dispatcher. The replies and
	// data are the same either way (see fastpath.go, fastpath_plain.go).
	LuaInterpreted bool
	// MinReplicasToWrite > 0: as a master, refuse writes (NOREPLICAS) unless
	// that many replicas acked within MinReplicasMaxLag (acks.go).
	MinReplicasToWrite int
	MinReplicasMaxLag  time.Duration
	// Version is the Redis major version, 6 or 7 (0: 7). It decides how a
	// master's expiries reach its replicas (version.go).
	Version int
}

// Node is a simulated Redis server: a store (the data, on the node's clock)
// plus what a server is around it: its own clock, its role, its
// append-only log, its up/down state and its replication links. It is not
// safe for concurrent use; the simulator runs one process at a time, which
// is also what makes Lua scripts atomic.
type Node struct {
	cfg   NodeConfig
	id    int // its place in its cluster's Nodes (0 outside a cluster)
	clock sim.Clock
	st    *store.Store // the data; a restart boots a new one

	up           bool
	loadingUntil time.Duration // true time until which commands get -LOADING
	replica      bool

	outbox []Effect // effects not yet taken by TakeEffects
	aof    appendLog

	// Replication and failure detection (replication_stream.go, sentinel.go).
	upstream   *replStream   // the stream feeding this replica; nil for a master
	downstream []*replStream // the streams this master feeds, in attach order
	watch      sentinelWatch // the replica's view of its master's health
	replacedBy *Node         // a stale master: the replica promoted in its place
	replacedAt time.Duration // when that happened
	crashedAt  time.Duration // the last crash, for explanations

	// What a master knows from its replicas' acks, and the WAITs blocked
	// on it (acks.go, wait.go); emit traces (set by the cluster).
	offset int64 // commands shipped to replicas: the replication offset
	acks   []ackRecord
	// refused counts the commands answered NOREPLICAS (RefusedWrites).
	refused int64
	waits   []*waiter
	emit    func(proc, kind, format string, args ...any)
	tell    func(proc, kind, id string, args ...sim.Arg) // Cluster.Tell
}

// NewNode starts a node that is up, empty, and a master.
func NewNode(cfg NodeConfig) *Node {
	switch cfg.Persistence {
	case "":
		cfg.Persistence = PersistNone
	case PersistNone, PersistEverysec, PersistAlways:
	default:
		// The scenario loader validates this; reaching here is a bug.
		panic(fmt.Sprintf("model: unknown persistence %q", cfg.Persistence))
	}
	n := &Node{cfg: cfg, aof: appendLog{mode: cfg.Persistence}}
	n.boot(0)
	return n
}

// boot starts a fresh, empty store at true time now. A restart gets a new
// instance on purpose: the script cache and all connection state are lost,
// exactly as on a real restart (EVALSHA answers NOSCRIPT afterwards).
func (n *Node) boot(now time.Duration) {
	n.st = store.New(&n.clock, n.cfg.Monotonic, !n.cfg.LuaInterpreted, now)
	n.st.SetReadOnly(n.replica)
	n.up = true
	n.acks = nil // a restarted master has heard from no replica yet
	if n.emit != nil {
		n.refreshGood(now) // a restart (not the first boot, before any replica)
	}
}

// ID is the node's place in its cluster's Nodes.
func (n *Node) ID() int { return n.id }

// Name is the node's name ("redis-1").
func (n *Node) Name() string { return n.cfg.Name }

// Config is the configuration the node was created with.
func (n *Node) Config() NodeConfig { return n.cfg }

// Clock is the node's own clock. Change it through JumpClock and SetClockRate
// so that keys expire at the moment of the fault.
func (n *Node) Clock() *sim.Clock { return &n.clock }

// Up reports whether the node is running (crashed nodes are down).
func (n *Node) Up() bool { return n.up }

// Loading reports whether a restarted node is still refusing commands with
// -LOADING at true time now.
func (n *Node) Loading(now time.Duration) bool { return n.up && now < n.loadingUntil }

// Do runs one command at true time now on connection conn (created on first
// use). The reply has the types server.ParseReply gives: nil, string, int,
// []any, server.Simple. A Redis error reply comes back as (nil, RedisError);
// a crashed node gives (nil, ErrDown).
//
// Before the command runs the node's time is advanced to now, so keys whose
// expiry has passed by the node's clock are gone (their deletions become
// effects, as Redis propagates a DEL when a key expires). After a write, the
// post-state of every key it changed is appended to the log and to the
// effects that TakeEffects returns.
func (n *Node) Do(now time.Duration, conn string, args ...string) (any, error) {
	r, _, err := n.DoTracked(now, conn, "", args)
	return r, err
}

// DoTracked is Do that also reports whether key (unless "") existed just before
// the command ran (after the node's clock was advanced to now) and right
// after it. A down node has no keys.
func (n *Node) DoTracked(now time.Duration, conn, key string, args []string) (any, store.Presence, error) {
	return n.DoTrackedAs(now, -1, conn, key, args)
}

// DoTrackedAs is DoTracked on connection conn that the caller also numbers
// id (>= 0; -1: none), the same number for the same connection on every
// node and for good (store.Store.ExecAs): the node then finds the
// connection by its number, also after a restart.
func (n *Node) DoTrackedAs(now time.Duration, id int, conn, key string, args []string) (any, store.Presence, error) {
	if !n.up {
		return nil, store.Presence{}, ErrDown
	}
	n.st.Advance(now)
	n.keep()
	if now < n.loadingUntil {
		return nil, n.st.Unchanged(key), store.ErrLoading
	}
	reply, p, err := n.st.ExecAs(now, id, conn, key, args)
	n.keep()
	if err != nil && store.IsNoReplicas(err) {
		n.refused++
	}
	return reply, p, err
}

// RefusedWrites is how many commands this node refused with NOREPLICAS
// (min_replicas_to_write), over every restart: what the TUI's nodes panel
// shows.
func (n *Node) RefusedWrites() int64 { return n.refused }

// RefusingWrites reports whether the node refuses writes with NOREPLICAS
// now: a master short of good replicas.
func (n *Node) RefusingWrites() bool { return n.up && n.st.NoReplicas() }

// advance brings the store to true time now and keeps the deletions of the
// keys that expired.
func (n *Node) advance(now time.Duration) []Expiry {
	exp := n.st.Advance(now)
	n.keep()
	return exp
}

// keep takes the store's effects into the append-only log and, on a
// master, the outbox for replicas (a replica propagates nothing; its outbox
// would only grow). Most commands change nothing: that case is inlined.
func (n *Node) keep() {
	if len(n.st.Effects()) > 0 {
		n.keepEffects()
	}
}

func (n *Node) keepEffects() {
	// By index: an Effect is ~120 bytes, and a log without persistence
	// keeps nothing (appendLog.append would only take a copy).
	if n.aof.mode != PersistNone {
		effs := n.st.Effects()
		for i := range effs {
			n.aof.append(effs[i])
		}
	}
	switch {
	case n.replica:
		n.st.TakeEffects()
	case len(n.outbox) == 0:
		// The usual case (the world takes them after every command): the
		// store's slice becomes the outbox, without a copy, and the store
		// gets the outbox's storage, which nobody holds (nil, or what
		// Ship gave back).
		n.outbox = n.st.HandEffects(n.outbox)
	default:
		n.outbox = append(n.outbox, n.st.Effects()...)
		n.st.TakeEffects()
	}
}

// TakeEffects returns, in order, the effects produced since the previous
// call and forgets them: the writes of Do, and the expiry deletions noticed
// whenever the node's time advanced (Do, Exists, JumpClock, SetClockRate,
// ApplyEffects). The simulator calls it after every command on a master and
// delivers the result to the replicas replication_lag later. Effects
// accumulate until taken, so whoever advanced the node first, no expiry is
// lost to replication.
func (n *Node) TakeEffects() []Effect {
	out := n.outbox
	if len(out) == 0 {
		// Keep the storage: the next write's effects are handed into it
		// (keepEffects). Dropping it after every command that wrote
		// nothing (a refused SET NX) made the write after the next one
		// allocate its effects anew.
		return nil
	}
	n.outbox = nil
	return out
}

// Keys lists the keys alive at true time now, sorted by key. It only
// observes: it does not advance the node, so looking at a node (from the TUI,
// at any moment) can never change what the simulation does.
func (n *Node) Keys(now time.Duration) []KeyInfo {
	if !n.up {
		return nil
	}
	return n.st.Keys(now)
}

// view is every key's state as it stands at true time now, without
// advancing.
func (n *Node) view(now time.Duration) []Effect { return n.st.View(now) }

// KeyState reads key k's current state, with its absolute expiry by the
// node's expiry clock.
func (n *Node) KeyState(k string) Effect { return n.st.KeyState(k) }

// JumpClock steps the node's wall clock by `by` at true time now (fault
// clock_jump). With the wall expiry clock a forward jump expires every key
// with less than `by` left, immediately; those are returned sorted by key.
// A backward jump makes every key live |by| longer. With a monotonic expiry
// clock only TIME changes. The clock keeps running while the node is down,
// so a jump then still counts after restart.
func (n *Node) JumpClock(now, by time.Duration) []Expiry {
	if !n.up {
		n.clock.Jump(now, by)
		return nil
	}
	n.advance(now)
	n.clock.Jump(now, by)
	return n.advance(now)
}

// SetClockRate makes the node's clock run rate× true speed from now on
// (fault clock_drift): TTLs then run down rate× as fast in true time.
func (n *Node) SetClockRate(now time.Duration, rate float64) {
	if n.up {
		n.advance(now)
	}
	n.clock.SetRate(now, rate)
}

// Release gives the node's store back for reuse (store.Release): the
// world is over and the node must not be used again.
func (n *Node) Release() {
	if n.up {
		n.st.Release()
	}
	n.st, n.up = nil, false
}
