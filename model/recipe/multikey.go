package recipe

import (
	"slices"
	"strconv"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/model/keyhold"
	"github.com/lockstep-sim/lockstep/model/store"
	"github.com/lockstep-sim/lockstep/sim"
)

// multiKey is a hold that needs several keys (lock.keys): the tutorials'
// Redis Cluster section, where an order touches lock:order:1 and
// lock:order:2. Each key is a lua-release lock of its own (SET NX PX, the
// check-and-delete release). With MultiKey "each" the keys are taken one
// by one in the client's order, and a key that is held is polled with the
// retry delays while the keys taken so far stay held: two clients taking
// them in opposite orders wait for each other until a TTL frees one or
// their retries give up (the book, model/keyhold, tells it). With "script"
// one Lua script takes all of them or none; on a cluster
// (Config.ClusterSlots) the node refuses it with CROSSSLOT unless a hash
// tag puts the keys in one slot.
type multiKey struct {
	cfg    model.LockConfig
	ttl    string
	script bool
	book   *keyhold.Book
}

// multiAcquireScript takes every key or none: 0 when one is held.
const multiAcquireScript = `for i = 1, #KEYS do
    if redis.call("exists", KEYS[i]) == 1 then return 0 end
end
for i = 1, #KEYS do
    redis.call("set", KEYS[i], ARGV[1], "PX", ARGV[2])
end
return 1`

func newMultiKey(c model.LockConfig) model.Strategy {
	return &multiKey{cfg: c, ttl: msArg(c.TTL), script: c.MultiKey == model.MultiKeyScript, book: keyhold.New(c.TTL)}
}

func (m *multiKey) Name() string                           { return m.cfg.Strategy }
func (m *multiKey) Quorum(*model.World) int                { return 1 }
func (m *multiKey) LockNodes(w *model.World) []*model.Node { return []*model.Node{w.Shards[0].Master} }

// Renew: the design table refuses a watchdog with several keys.
func (m *multiKey) Renew(*model.Thread, *model.Lease) bool { return false }

// hold is c's progress through its keys (its own, or the lock's).
func (m *multiKey) hold(c *model.Client) *keyhold.Hold {
	keys := c.Cfg.Keys
	if len(keys) == 0 {
		keys = m.cfg.Keys
	}
	return m.book.Of(c.Name, keys, m.cfg.SortKeys)
}

// op is what a command on keys means to the judge, which follows the
// lock's first key (model.LockConfig.Key) only.
func (m *multiKey) op(keys []string, op model.Op) model.Op {
	if slices.Contains(keys, m.cfg.Key) {
		return op
	}
	return model.OpOther
}

// Acquire is one attempt. When the last attempt of the retry budget fails,
// the keys taken so far are given back, as a finally block would.
func (m *multiKey) Acquire(t *model.Thread, l *model.Lease) bool {
	h := m.attempt(t.Client(), l.Token)
	n := t.Master(0)
	l.Nodes = append(l.Nodes[:0], n)
	if m.take(t, n, h) {
		l.Until = h.Since + m.cfg.TTL // the first key's lease ends first
		m.book.Granted(h)
		return true
	}
	if r := m.cfg.Retry; r == nil || h.Attempts >= r.Attempts {
		m.giveBack(t, n, h)
	}
	return false
}

// attempt counts one more attempt of c's hold for token (a new token
// starts the hold afresh).
func (m *multiKey) attempt(c *model.Client, token string) *keyhold.Hold {
	h := m.hold(c)
	if h.Token != token {
		h.Token, h.Taken, h.Attempts = token, 0, 0
	}
	h.Attempts++
	return h
}

// take takes the keys not held yet: one by one, or all in one script.
func (m *multiKey) take(t *model.Thread, n *model.Node, h *keyhold.Hold) bool {
	if m.script {
		return m.takeAll(t, n, h)
	}
	return m.takeEach(t, n, h)
}

// takeEach takes the keys not yet held one by one; false at the first
// that is held by someone else, which the book is told the client polls.
func (m *multiKey) takeEach(t *model.Thread, n *model.Node, h *keyhold.Hold) bool {
	for h.Taken < len(h.Keys) {
		k := h.Keys[h.Taken]
		if h.Taken == 0 {
			h.Since = t.Wall()
		}
		r, err := t.Call(n, m.op(h.Keys[h.Taken:h.Taken+1], model.OpAcquire), "SET", k, h.Token, "NX", "PX", m.ttl)
		if err != nil || r == nil {
			if c, circle := m.book.Wait(h, k); circle {
				id, cycle, args := deadlockLine(c)
				t.Deadlock(id, cycle, args...)
			}
			return false
		}
		m.book.Took(h, k)
	}
	return true
}

// takeAll is the one script over every key.
func (m *multiKey) takeAll(t *model.Thread, n *model.Node, h *keyhold.Hold) bool {
	h.Since = t.Wall()
	args := make([]string, 0, 5+len(h.Keys))
	args = append(append(args, "EVAL", multiAcquireScript, strconv.Itoa(len(h.Keys))), h.Keys...)
	r, err := t.Call(n, m.op(h.Keys, model.OpAcquire), append(args, h.Token, m.ttl)...)
	if err != nil || r != 1 {
		return false
	}
	m.book.TookAll(h)
	return true
}

// Release gives back every key of the hold.
func (m *multiKey) Release(t *model.Thread, l *model.Lease) {
	m.giveBack(t, t.Master(0), m.hold(t.Client()))
}

// giveBack releases the keys taken, the last taken first.
func (m *multiKey) giveBack(t *model.Thread, n *model.Node, h *keyhold.Hold) {
	for i := h.Taken - 1; i >= 0; i-- {
		t.Call(n, m.op(h.Keys[i:i+1], model.OpRelease), "EVAL", store.ScriptRelease, "1", h.Keys[i], h.Token)
	}
	m.book.GaveBack(h)
}

// deadlockLine is the trace line of circle c: its message id, its English
// sentence and the args its templates need. Two clients, the usual
// circle, are told from their names and keys ("deadlock-pair"), so the
// line reads in any language; a longer circle is its English sentence
// ("deadlock").
func deadlockLine(c keyhold.Circle) (id, cycle string, args []sim.Arg) {
	if len(c.Links) != 2 {
		return "deadlock", c.String(), nil
	}
	a, b := c.Links[0], c.Links[1]
	return "deadlock-pair", c.String(), []sim.Arg{
		sim.S("client", a.Client), sim.S("client_holds", a.HoldsText()), sim.S("client_waits", a.WaitsFor),
		sim.S("other", b.Client), sim.S("other_holds", b.HoldsText()), sim.S("other_waits", b.WaitsFor),
		sim.I("ttl_ns", int64(c.TTL)),
	}
}
