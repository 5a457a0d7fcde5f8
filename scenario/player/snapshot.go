package player

import (
	"slices"
	"strings"
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/judge"
	"github.com/lockstep-sim/lockstep/scenario/runner"
)

// Snapshot is a plain-data copy of everything the TUI draws at one instant:
// views render from Snapshots and never touch the live world, so drawing can
// never change what the simulation does.
type Snapshot struct {
	Scenario       string
	Strategy       string
	Client         string // the lock.client profile; "" for none
	Seed           uint64
	Key            string        // the lock key
	Now            time.Duration // true time of the snapshot
	Event          int           // trace events so far
	Over           bool
	Nodes          []NodeSnap
	Clients        []ClientSnap
	Resource       ResourceSnap
	Metrics        model.Metrics
	FirstViolation string
	// FirstViolationPhrase is FirstViolation unrendered, for the TUI to
	// render in its language (zero when there is none, or in a recorded
	// trace: the TUI then shows the English).
	FirstViolationPhrase judge.Phrase
	Partitions           int      // active partitions and isolations
	Sentinels            []string // the sentinel processes (redis.sentinels), by name
	// SentinelsDown counts, per master, the sentinels that hold it down in
	// their own view; SentinelsCut tells which sentinels cannot reach every
	// master.
	SentinelsDown  []MasterDown
	SentinelsCut   []bool
	SentinelQuorum int // how many must agree for a failover
	Quorum         int // lock nodes that must hold the key for a grant to be in force
	// MultiKey: a hold needs several keys (lock.keys, a client's keys:);
	// Key is then the first of the lock's, and a client owns its grant
	// when it owns every key of its hold.
	MultiKey bool
}

// NodeSnap is one Redis node as seen at the snapshot's instant.
type NodeSnap struct {
	Name        string
	Replica     bool
	Up          bool
	Loading     bool // restarted, still answering -LOADING
	Partitioned bool // cannot reach at least one client
	ClockOffset time.Duration
	ClockRate   float64
	Keys        []KeySnap
	// Refusing: a master short of good replicas refuses writes with
	// NOREPLICAS now (min_replicas_to_write); Refused counts the commands
	// it refused so far.
	Refusing bool
	Refused  int64
}

// Role is "master" or "replica".
func (n NodeSnap) Role() string {
	if n.Replica {
		return "replica"
	}
	return "master"
}

// Status is the node's availability in one word: up, down, refusing
// (loading after a restart) or partitioned.
func (n NodeSnap) Status() string {
	switch {
	case !n.Up:
		return "down"
	case n.Loading:
		return "refusing"
	case n.Partitioned:
		return "partitioned"
	}
	return "up"
}

// KeySnap is one key on a node; TTL is by the node's own clock (-1: none).
type KeySnap struct {
	Key   string
	Type  string
	Value string
	Owner string // the client whose token the value holds; "" when none
	Lock  bool   // this is the scenario's lock key, or one of a hold's keys (lock.keys)
	TTL   time.Duration
}

// ClientSnap is one client: what it believes beside what is true.
type ClientSnap struct {
	Name        string
	State       string // idle acquiring holding working releasing thinking paused hung crashed done
	Hold, Holds int
	Believes    bool          // it believes it holds the lock
	Until       time.Duration // by its own clock; -1: no expiry
	Remaining   time.Duration // Until minus its clock's reading now (may be negative)
	Token       string
	Fence       int64
	InCS        bool // ground truth: in its critical section
	OwnsKey     bool // ground truth: its token is the lock key's value on a quorum of lock nodes
	Mismatch    bool // belief and truth disagree (believes without owning the key, or the reverse)
	Partitioned bool // cannot reach at least one node
	ClockOffset time.Duration
	ClockRate   float64
	// AwaitsRelease: it waits for Redisson's release message on pub/sub
	// (lock.notify: pubsub) between two attempts; Resends counts the
	// commands its driver sent again so far (lock.driver).
	AwaitsRelease bool
	Resends       int
}

// ResourceSnap is the fenced resource.
type ResourceSnap struct {
	Value    int64 // every counter together, when clients work on named resources
	MaxToken int64
	Accepted int64
	Rejected int64
	Fencing  bool
	Writes   []model.Write // the most recent, oldest first
	// Named are the counters of the named resources clients work on (a
	// client's resource:), in client order; nil when every client works on
	// the one counter.
	Named []Counter
	// Duplicates counts the writes refused because their job was written
	// already (resource.idempotency: job).
	Duplicates int64
}

// Counter is one named resource's counter; Name "" is the unnamed one
// (clients without a resource: beside clients with one).
type Counter struct {
	Name  string
	Value int64
}

// RecentWrites is how many of the resource's writes a snapshot keeps.
const RecentWrites = 6

// MasterDown is how many sentinels hold a master down in their own view.
type MasterDown struct {
	Master string
	Down   int
}

// Of copies the world of r at the runner's true time.
func Of(r *runner.Runner) Snapshot { return At(r, r.Now()) }

// At copies the world of r as it looks at true time t, which must not be
// before Now and should not pass the next kernel event (the play loop draws
// between events, so TTLs and beliefs count down smoothly). It only observes.
func At(r *runner.Runner, t time.Duration) Snapshot {
	w := r.World()
	if t < w.Now() {
		t = w.Now()
	}
	st := w.Strategy()
	s := Snapshot{
		Scenario: r.S.Name, Strategy: st.Name(), Client: r.Client(), Seed: w.Cfg.Seed, Key: w.Cfg.Lock.Key,
		Now: t, Event: r.EventCount(), Over: r.Over(),
		Metrics: w.Chk.Metrics(), FirstViolation: w.Chk.FirstViolation(), FirstViolationPhrase: w.Chk.FirstViolationPhrase(),
		Partitions: len(w.Net.Partitions()), Quorum: st.Quorum(w), Sentinels: w.Sentinels,
	}
	owned := s.snapNodes(w, t, st.LockNodes(w))
	s.snapClients(w, t, owned)
	s.snapResource(w)
	s.snapSentinels(w)
	return s
}

// snapNodes adds every node, and returns how many lock nodes' keys hold each
// client's token, by the client's index in w.Clients.
func (s *Snapshot) snapNodes(w *model.World, t time.Duration, lock []*model.Node) []int {
	owned := make([]int, len(w.Clients)) // client -> lock nodes whose key holds its token
	lockNodes := map[*model.Node]bool{}
	for _, n := range lock {
		lockNodes[n] = true
	}
	holdKeys := multiKeys(w)
	s.MultiKey = holdKeys != nil
	// Sized once: the view snapshots every frame, and growing by appends
	// cost an allocation per doubling.
	s.Nodes = make([]NodeSnap, 0, len(w.Nodes))
	for _, n := range w.Nodes {
		ns := NodeSnap{Name: n.Name(), Replica: n.IsReplica(), Up: n.Up(), Loading: n.Loading(t),
			ClockOffset: n.Clock().Offset(t), ClockRate: n.Clock().Rate(),
			Refusing: n.RefusingWrites(), Refused: n.RefusedWrites()}
		for _, c := range w.Clients {
			if s.Partitions > 0 && !w.Net.Connected(n.Name(), c.Name) {
				ns.Partitioned = true
				break
			}
		}
		keys := n.Keys(t)
		if len(keys) > 0 {
			ns.Keys = make([]KeySnap, 0, len(keys))
		}
		for _, k := range keys {
			ks := KeySnap{Key: k.Key, Type: k.Type, Value: k.Value, TTL: k.TTL, Lock: k.Key == s.Key || holdKeys[k.Key]}
			if ks.Lock {
				i := ownerIndex(w, k.Value)
				if i >= 0 {
					ks.Owner = w.Clients[i].Name
					if lockNodes[n] && k.Key == s.Key {
						owned[i]++
					}
				}
			}
			ns.Keys = append(ns.Keys, ks)
		}
		s.Nodes = append(s.Nodes, ns)
	}
	return owned
}

// ownsEvery reports whether c's token is the value of every key its hold
// needs on the lock's node (several keys per hold live on one master).
func (s *Snapshot) ownsEvery(w *model.World, c *model.Client) bool {
	keys := c.Cfg.Keys
	if len(keys) == 0 {
		keys = w.Cfg.Lock.Keys
	}
	if len(keys) == 0 || len(s.Nodes) == 0 {
		return false
	}
	lock := w.Strategy().LockNodes(w)
	if len(lock) == 0 {
		return false
	}
	for _, ns := range s.Nodes {
		if ns.Name != lock[0].Name() {
			continue
		}
		for _, k := range keys {
			if !slices.ContainsFunc(ns.Keys, func(x KeySnap) bool { return x.Key == k && x.Owner == c.Name }) {
				return false
			}
		}
		return true
	}
	return false
}

// multiKeys is the set of keys a hold needs with several keys per hold
// (lock.keys, a client's keys:); nil without. The map is only looked up.
func multiKeys(w *model.World) map[string]bool {
	var keys map[string]bool
	add := func(ks []string) {
		for _, k := range ks {
			if keys == nil {
				keys = map[string]bool{}
			}
			keys[k] = true
		}
	}
	add(w.Cfg.Lock.Keys)
	for _, c := range w.Cfg.Clients {
		add(c.Keys)
	}
	return keys
}

// snapClients adds every client; owned is from snapNodes.
func (s *Snapshot) snapClients(w *model.World, t time.Duration, owned []int) {
	s.Clients = make([]ClientSnap, 0, len(w.Clients))
	for ci, c := range w.Clients {
		cs := ClientSnap{Name: c.Name, State: string(c.State()), Hold: c.Hold(), Holds: c.Cfg.Holds,
			InCS: c.InCriticalSection(), ClockOffset: c.Clock().Offset(t), ClockRate: c.Clock().Rate(), Until: -1,
			AwaitsRelease: c.AwaitsRelease() && c.State() != model.StateCrashed, Resends: c.Resends()}
		switch {
		case c.State() == model.StateCrashed || c.State() == model.StateDone:
		case c.Paused():
			cs.State = "paused"
		case c.Hung():
			cs.State = "hung"
		}
		if l := c.Lease(); l != nil && c.State() != model.StateCrashed {
			cs.Believes, cs.Token, cs.Fence, cs.Until = true, l.Token, l.Fence, l.Until
			if l.Until >= 0 {
				cs.Remaining = l.Until - c.Clock().Wall(t)
			}
		}
		cs.OwnsKey = s.Quorum > 0 && owned[ci] >= s.Quorum
		if s.MultiKey {
			cs.OwnsKey = s.ownsEvery(w, c)
		}
		cs.Mismatch = cs.Believes != cs.OwnsKey
		for _, n := range w.Nodes {
			if s.Partitions > 0 && !w.Net.Connected(n.Name(), c.Name) {
				cs.Partitioned = true
				break
			}
		}
		s.Clients = append(s.Clients, cs)
	}
}

// snapResource adds the protected resource and its latest writes.
func (s *Snapshot) snapResource(w *model.World) {
	res := w.Res
	s.Resource = ResourceSnap{Value: res.Total(), MaxToken: res.MaxToken, Accepted: res.Accepted(),
		Rejected: res.Rejected(), Fencing: w.Cfg.Lock.Fencing == "token", Duplicates: res.Duplicates()}
	s.Resource.Named = namedCounters(w)
	ws := res.Writes
	if len(ws) > RecentWrites {
		ws = ws[len(ws)-RecentWrites:]
	}
	s.Resource.Writes = append([]model.Write(nil), ws...)
}

// namedCounters lists the counters of the named resources in the order the
// clients name them (the unnamed one where a client names none), or nil
// when no client names one.
func namedCounters(w *model.World) []Counter {
	// Checked first: the view snapshots every frame, and a run without
	// named resources should not allocate for them.
	if !slices.ContainsFunc(w.Cfg.Clients, func(c model.ClientConfig) bool { return c.Resource != "" }) {
		return nil
	}
	var out []Counter
	for _, c := range w.Cfg.Clients {
		if !slices.ContainsFunc(out, func(x Counter) bool { return x.Name == c.Resource }) {
			out = append(out, Counter{Name: c.Resource, Value: w.Res.Counter(c.Resource)})
		}
	}
	return out
}

// snapSentinels adds the sentinels' votes and which of them are cut off.
func (s *Snapshot) snapSentinels(w *model.World) {
	if len(w.Sentinels) == 0 {
		return
	}
	s.SentinelQuorum = w.SentinelMajority()
	s.SentinelsCut = make([]bool, len(w.Sentinels))
	for i := range w.Shards {
		down := 0
		for _, d := range w.SentinelViews(i) {
			if d {
				down++
			}
		}
		s.SentinelsDown = append(s.SentinelsDown, MasterDown{w.Shards[i].Master.Name(), down})
	}
	for j, name := range w.Sentinels {
		for _, sh := range w.Shards {
			if !w.Net.Connected(name, sh.Master.Name()) {
				s.SentinelsCut[j] = true
			}
		}
	}
}

// ownerOf names the client whose token ("A-1") a lock key's value holds:
// the plain value of a string lock, the holder field of a reentrant hash.
func ownerOf(w *model.World, value string) string {
	if i := ownerIndex(w, value); i >= 0 {
		return w.Clients[i].Name
	}
	return ""
}

// ownerIndex is ownerOf as an index into w.Clients; -1 when none.
func ownerIndex(w *model.World, value string) int {
	if i := strings.Index(value, "holder="); i >= 0 {
		value = value[i+len("holder="):]
		if j := strings.IndexByte(value, ' '); j >= 0 {
			value = value[:j]
		}
	}
	best := -1
	for i, c := range w.Clients {
		if len(value) > len(c.Name) && value[len(c.Name)] == '-' && strings.HasPrefix(value, c.Name) &&
			(best < 0 || len(c.Name) > len(w.Clients[best].Name)) {
			best = i
		}
	}
	return best
}
