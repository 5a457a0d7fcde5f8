package redis

import (
	"strings"

	"github.com/lockstep-sim/lockstep/model/tracemsg"
	"github.com/lockstep-sim/lockstep/sim"
)

// The maxmemory-policy values (redis.maxmemory_policy). noeviction, Redis's
// default, never evicts: over maxmemory it answers writes with OOM instead.
const (
	PolicyNoEviction     = "noeviction"
	PolicyAllKeysLRU     = "allkeys-lru"
	PolicyAllKeysLFU     = "allkeys-lfu"
	PolicyAllKeysRandom  = "allkeys-random"
	PolicyVolatileLRU    = "volatile-lru"
	PolicyVolatileLFU    = "volatile-lfu"
	PolicyVolatileRandom = "volatile-random"
	PolicyVolatileTTL    = "volatile-ttl"
)

// MaxmemoryPolicies are the policies in redis.conf's order.
var MaxmemoryPolicies = []string{
	PolicyVolatileLRU, PolicyAllKeysLRU, PolicyVolatileLFU, PolicyAllKeysLFU,
	PolicyVolatileRandom, PolicyAllKeysRandom, PolicyVolatileTTL, PolicyNoEviction,
}

// EvictionRefusal says why policy would not evict a key (hasTTL: it has an
// expiry), "" when it may: noeviction evicts nothing, the volatile-*
// policies only keys with an expiry (every lock key with a TTL), the
// allkeys-* policies any key. Which key of several a policy picks first
// (least recently used, soonest to expire...) is not modelled: the fault
// says that memory pressure picked the lock key.
func EvictionRefusal(policy string, hasTTL bool) string {
	return whyText(evictionRefusal(policy, hasTTL))
}

// evictionRefusal is EvictionRefusal as the arguments of its piece.
func evictionRefusal(policy string, hasTTL bool) []sim.Arg {
	switch {
	case policy == "" || policy == PolicyNoEviction:
		return []sim.Arg{sim.S("why", "evict-noeviction")}
	case strings.HasPrefix(policy, "volatile-") && !hasTTL:
		return []sim.Arg{sim.S("why", "evict-volatile"), sim.S("policy", policy)}
	}
	return nil
}

// whyText is a reason given as the arguments of its piece (the "why"
// argument naming it) in English; "" for none.
func whyText(why []sim.Arg) string {
	if len(why) == 0 {
		return ""
	}
	s, _ := tracemsg.Render(why[0].Str, why)
	return s
}

// Evict removes key from master n now as memory pressure under its
// maxmemory-policy would: the key is deleted and the deletion replicated (a
// master propagates an eviction to its replicas as a DEL), whatever
// min_replicas_to_write says (an eviction is not a client's write). It
// returns why not ("" when it evicted): a down node, a replica (replicas
// ignore maxmemory, replica-ignore-maxmemory yes), a missing key, or a
// policy that would not pick it.
func (w *Cluster) Evict(n *Node, key string) string { return whyText(w.EvictWhy(n, key)) }

// EvictWhy is Evict with why not as the arguments of its piece of the
// trace's catalogue (the "why" argument naming it: evict-node-down,
// evict-replica, evict-no-key, evict-noeviction, evict-volatile,
// evict-error), for a trace line to carry; nil when it evicted.
func (w *Cluster) EvictWhy(n *Node, key string) []sim.Arg {
	now := w.Now()
	switch {
	case !n.Up():
		return []sim.Arg{sim.S("why", "evict-node-down"), sim.S("node", n.Name())}
	case n.replica:
		return []sim.Arg{sim.S("why", "evict-replica"), sim.S("node", n.Name())}
	}
	n.advance(now)
	k := n.KeyState(key)
	if k.Deleted {
		return []sim.Arg{sim.S("why", "evict-no-key"), sim.S("node", n.Name()), sim.S("key", key)}
	}
	if why := evictionRefusal(w.Cfg.MaxmemoryPolicy, k.Expires); why != nil {
		return why
	}
	refusing := n.st.NoReplicas()
	n.st.SetNoReplicas(false)
	_, _, err := n.st.Exec(now, "maxmemory", "", []string{"DEL", key})
	n.st.SetNoReplicas(refusing)
	if err != nil {
		return []sim.Arg{sim.S("why", "evict-error"), sim.S("error", err.Error())}
	}
	n.keep()
	w.Tell(n.Name(), "evicted", "evicted", sim.S("node", n.Name()), sim.S("key", key), sim.S("policy", w.Cfg.MaxmemoryPolicy))
	w.Ship(n, n.TakeEffects())
	return nil
}
