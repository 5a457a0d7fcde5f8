package judge

import "time"

// Event is one entry of the history the judge reads: what a client did or
// believed, what a command did to the lock key on a node, what a fault did
// to a node, what the resource accepted. One flat type (rather than an
// interface per kind) so that feeding one costs no allocation: a run feeds
// one for every lock command. Which fields matter depends on Kind.
type Event struct {
	At   time.Duration // true time
	Kind Kind
	Op   Op // Command: what the command means to the lock

	Before, After bool // Command: the lock key existed just before / right after
	OK            bool // FailedOver: the old master is up; resource events: accepted
	KeyKnown      bool // Key holds the lock key's state (see Key)

	Client string // the client (client, command and resource events)
	Node   string // the node (command and node events)
	// NodeID, when not 0, is Node's place in Config.Nodes, from 1: the
	// judge then finds the node's books by it instead of by name (a live
	// run gives it with every lock command). A recorded history leaves it 0.
	NodeID int
	// ClientID, when not 0, is Client's place in Config.Clients, from 1:
	// the judge then finds the client's books by it instead of by name (a
	// live run gives it with every client event and lock command). A
	// recorded history leaves it 0.
	ClientID int

	Wait  time.Duration // EnterCS, AcquireFailed: how long the acquire took
	Value int64         // ResourceWrite: the value written
	Note  string        // Command creating a grant on a stale master: why it does not count

	// Key is the lock key's state (on Node; FailedOver: on Other), when
	// KeyKnown; otherwise the judge asks Probe, only if it needs it, and at
	// most once. A recorded history fills Key; a live run gives a Probe,
	// since reading a key can cost more than the judge's whole step.
	Key   KeyState
	Probe Probe

	// *Detail is what the rarer kinds carry (faults, the end of the run);
	// nil for the events of every lock command, which stay small.
	*Detail
}

// Detail is the part of an Event that only faults and the end carry.
type Detail struct {
	Other string        // FailedOver: the promoted node; Resynced: the master
	By    time.Duration // ClientClockJumped, NodeClockJumped: the step
	Rate  float64       // ClientClockRate, NodeClockRate: the new rate
	// NodeClockJumped: the lock key expired at once, Early before its
	// expiry by the node's clock; -1: it did not.
	Early       time.Duration
	Monotonic   bool          // NodeClockJumped: keys expire by the monotonic clock
	Persistence string        // Restarted: the node's persistence mode
	CrashedAt   time.Duration // Restarted: its last crash
	// Final: the lock nodes that hold the lock key at the end, in order.
	Holding []string
	// FailedOver: the old master is up but cannot reach the promoted one,
	// so it does not know it was replaced (split brain until it can).
	Cut bool
	// Replicated: the lock key's value the master wrote (its owner's token).
	Token string
}

// Kind is what an Event records.
type Kind uint8

// Event kinds.
const (
	// A client's acquire gave up (retries included) after Wait.
	AcquireFailed Kind = iota + 1
	NestedFailed       // a re-entry inside a hold failed
	EnterCS            // the client got the lock after Wait and believes it holds it
	Working            // the client's work, or its release, began
	LeaveCS            // the client left its critical section (before releasing)
	Crashed            // the client process died
	Paused             // a GC pause froze the client
	Resumed            // the pause ended
	Hung               // the client's work thread stalled
	Unhung             // it runs again
	ClientClockJumped
	ClientClockRate
	CutOff      // the network separates Client from Node
	Reconnected // they can talk again

	Command         // a lock command ran on Node for Client
	Restarted       // Node restarted (with what its persistence kept)
	FailedOver      // Node's shard failed over to Other
	Resynced        // Node became a copy of Other (full resync)
	NodeClockJumped // Node's wall clock stepped By
	NodeClockRate   // Node's clock runs at Rate
	ResourceRead    // Client read the resource (OK: admitted)
	ResourceWrite   // Client wrote Value (OK: accepted)
	Final           // the end of the run
	// Replicated: replica Node applied a write of the lock key from master
	// Other (OK: it set or changed the key, Token its value; false: it
	// deleted it); Key is the key on Node right after.
	Replicated
	// Releasing: Client begins to release the lock (a hold's release, or
	// one after an acquire that failed); the judge checks it holds it.
	Releasing

	WriteRefused // Node refused Client's lock write: NOREPLICAS (min_replicas_to_write)
	Evicted      // Node evicted the lock key under memory pressure (Note: the policy)
	// ClientState: Client's state is now Note (idle, acquiring, holding,
	// working, releasing, thinking, crashed, done), in hold Value. Not
	// judged: the world writes it only to a recorded history (World.Tap),
	// for a trace reader to show each client's state.
	ClientState
	// ResourceDuplicate: the resource refused Client's write of Value
	// because its idempotency key (its job) had been written already.
	ResourceDuplicate

	// Deadlock: Client waits for a key whose holder waits, through others,
	// for a key Client holds (several keys per hold); Note explains it.
	Deadlock
)

// Op says what a command means to the lock, so the judge can keep ground
// truth without parsing Lua.
type Op uint8

// Command meanings.
const (
	OpOther   Op = iota
	OpAcquire    // may create the lock key
	OpRelease    // may delete the lock key
	OpRenew      // may extend the lock key
)

// KeyState is the lock key on one node at one instant.
type KeyState struct {
	Held    bool          // the key exists
	Owner   string        // the token it holds
	TTL     time.Duration // by the node's clock (PTTL: -1 none, -2 missing)
	Expires time.Duration // true time it expires if nothing changes; -1 never
}

// Probe reads the lock key on a node when the judge needs it.
type Probe interface {
	// LockKey is the lock key's state on the event's node (FailedOver:
	// the promoted one) at true time now: right after the command just run
	// (afterCommand), or as the node holds it.
	LockKey(afterCommand bool, now time.Duration) KeyState
}

// key is e's lock key state, read from its Probe on first use.
func (e *Event) key() KeyState {
	if !e.KeyKnown {
		e.Key, e.KeyKnown = e.Probe.LockKey(e.Kind == Command, e.At), true
	}
	return e.Key
}
