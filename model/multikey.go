package model

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lockstep-sim/lockstep/model/slot"
	"github.com/lockstep-sim/lockstep/model/store"
)

// multiKey is a hold that needs several keys (lock.keys): the tutorials'
// Redis Cluster section, where an order touches lock:order:1 and
// lock:order:2. Each key is a lua-release lock of its own (SET NX PX, the
// check-and-delete release). With MultiKey "each" the keys are taken one
// by one in the client's order, and a key that is held is polled with the
// retry delays while the keys taken so far stay held: two clients taking
// them in opposite orders wait for each other until a TTL frees one or
// their retries give up (multikey_wait.go). With "script" one Lua script
// takes all of them or none; on a cluster (Config.ClusterSlots) the node
// refuses it with CROSSSLOT unless a hash tag puts the keys in one slot.
type multiKey struct {
	cfg    LockConfig
	ttl    string
	script bool
	holds  map[*Client]*keyHold
	owner  map[string]*Client // key -> the client that believes it holds it
}

// keyHold is one client's progress through its keys.
type keyHold struct {
	keys     []string // in the order it takes them
	token    string
	taken    int           // keys[:taken] are held
	attempts int           // attempts of the acquire in progress
	since    time.Duration // by its wall clock, when it sent the first key's SET
	waiting  string        // the key it polls; "" none
	reported bool          // the wait it is in was reported as a deadlock
}

// MultiKeyScript is MultiKey's all-or-none mode.
const MultiKeyScript = "script"

// multiAcquireScript takes every key or none: 0 when one is held.
const multiAcquireScript = `for i = 1, #KEYS do
    if redis.call("exists", KEYS[i]) == 1 then return 0 end
end
for i = 1, #KEYS do
    redis.call("set", KEYS[i], ARGV[1], "PX", ARGV[2])
end
return 1`

func newMultiKey(c LockConfig) Strategy {
	return &multiKey{cfg: c, ttl: msArg(c.TTL), script: c.MultiKey == MultiKeyScript,
		holds: map[*Client]*keyHold{}, owner: map[string]*Client{}}
}

func (m *multiKey) Name() string               { return m.cfg.Strategy }
func (m *multiKey) Quorum(*World) int          { return 1 }
func (m *multiKey) LockNodes(w *World) []*Node { return []*Node{w.Shards[0].Master} }

// Renew: the design table refuses a watchdog with several keys.
func (m *multiKey) Renew(*Thread, *Lease) bool { return false }

// hold is c's progress, made on its first acquire: its keys in the order
// it takes them.
func (m *multiKey) hold(c *Client) *keyHold {
	h := m.holds[c]
	if h == nil {
		keys := c.Cfg.Keys
		if len(keys) == 0 {
			keys = m.cfg.Keys
		}
		keys = slices.Clone(keys)
		if m.cfg.SortKeys {
			slices.Sort(keys)
		}
		h = &keyHold{keys: keys}
		m.holds[c] = h
	}
	return h
}

// op is what a command on key means to the judge, which follows the lock's
// first key (LockConfig.Key) only.
func (m *multiKey) op(keys []string, op Op) Op {
	if slices.Contains(keys, m.cfg.Key) {
		return op
	}
	return OpOther
}

// Acquire is one attempt. When the last attempt of the retry budget fails,
// the keys taken so far are given back, as a finally block would.
func (m *multiKey) Acquire(t *Thread, l *Lease) bool {
	h := m.hold(t.c)
	if h.token != l.Token {
		h.token, h.taken, h.attempts = l.Token, 0, 0
	}
	h.attempts++
	n := t.master(0)
	l.Nodes = append(l.Nodes[:0], n)
	var ok bool
	if m.script {
		ok = m.takeAll(t, n, h)
	} else {
		ok = m.takeEach(t, n, h)
	}
	if ok {
		l.Until = h.since + m.cfg.TTL // the first key's lease ends first
		h.waiting, h.reported, h.attempts = "", false, 0
		return true
	}
	if r := m.cfg.Retry; r == nil || h.attempts >= r.Attempts {
		m.giveBack(t, n, h)
	}
	return false
}

// takeEach takes the keys not yet held one by one; false at the first
// that is held by someone else.
func (m *multiKey) takeEach(t *Thread, n *Node, h *keyHold) bool {
	for h.taken < len(h.keys) {
		k := h.keys[h.taken]
		if h.taken == 0 {
			h.since = t.Wall()
		}
		r, err := t.Call(n, m.op(h.keys[h.taken:h.taken+1], OpAcquire), "SET", k, h.token, "NX", "PX", m.ttl)
		if err != nil || r == nil {
			m.wait(t, h, k)
			return false
		}
		h.taken++
		m.owner[k] = t.c
	}
	return true
}

// takeAll is the one script over every key.
func (m *multiKey) takeAll(t *Thread, n *Node, h *keyHold) bool {
	h.since = t.Wall()
	args := make([]string, 0, 5+len(h.keys))
	args = append(append(args, "EVAL", multiAcquireScript, strconv.Itoa(len(h.keys))), h.keys...)
	r, err := t.Call(n, m.op(h.keys, OpAcquire), append(args, h.token, m.ttl)...)
	if err != nil || r != 1 {
		return false
	}
	h.taken = len(h.keys)
	for _, k := range h.keys {
		m.owner[k] = t.c
	}
	return true
}

// Release gives back every key of the hold.
func (m *multiKey) Release(t *Thread, l *Lease) { m.giveBack(t, t.master(0), m.hold(t.c)) }

// giveBack releases the keys taken, the last taken first.
func (m *multiKey) giveBack(t *Thread, n *Node, h *keyHold) {
	for i := h.taken - 1; i >= 0; i-- {
		k := h.keys[i]
		t.Call(n, m.op(h.keys[i:i+1], OpRelease), "EVAL", store.ScriptRelease, "1", k, h.token)
		if m.owner[k] == t.c {
			delete(m.owner, k)
		}
	}
	h.taken, h.attempts, h.waiting, h.reported = 0, 0, "", false
}

// crossSlot reports whether a command names keys in more than one hash
// slot. Of the commands the clients send only EVAL names several keys
// (its numkeys after the script).
func crossSlot(args []string) bool {
	if len(args) < 3 || !strings.EqualFold(args[0], "EVAL") {
		return false
	}
	n, err := strconv.Atoi(args[2])
	if err != nil || n < 2 || n > len(args)-3 {
		return false
	}
	_, same := slot.Same(args[3 : 3+n])
	return !same
}
