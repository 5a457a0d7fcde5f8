package redis

import (
	"fmt"
	"strings"

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
	switch {
	case policy == "" || policy == PolicyNoEviction:
		return "maxmemory-policy noeviction never evicts: over maxmemory Redis refuses writes with OOM instead"
	case strings.HasPrefix(policy, "volatile-") && !hasTTL:
		return fmt.Sprintf("maxmemory-policy %s evicts only keys with an expiry, and this one has none", policy)
	}
	return ""
}

// Evict removes key from master n now as memory pressure under its
// maxmemory-policy would: the key is deleted and the deletion replicated (a
// master propagates an eviction to its replicas as a DEL), whatever
// min_replicas_to_write says (an eviction is not a client's write). It
// returns why not ("" when it evicted): a down node, a replica (replicas
// ignore maxmemory, replica-ignore-maxmemory yes), a missing key, or a
// policy that would not pick it.
func (w *Cluster) Evict(n *Node, key string) string {
	now := w.Now()
	switch {
	case !n.Up():
		return n.Name() + " is down"
	case n.replica:
		return n.Name() + " is a replica: replicas ignore maxmemory (replica-ignore-maxmemory yes) and evict only what their master's DELs tell them"
	}
	n.advance(now)
	k := n.KeyState(key)
	if k.Deleted {
		return fmt.Sprintf("%s holds no key %s", n.Name(), key)
	}
	if why := EvictionRefusal(w.Cfg.MaxmemoryPolicy, k.Expires); why != "" {
		return why
	}
	refusing := n.st.NoReplicas()
	n.st.SetNoReplicas(false)
	_, _, err := n.st.Exec(now, "maxmemory", "", []string{"DEL", key})
	n.st.SetNoReplicas(refusing)
	if err != nil {
		return err.Error()
	}
	n.keep()
	w.Tell(n.Name(), "evicted", "evicted", sim.S("node", n.Name()), sim.S("key", key), sim.S("policy", w.Cfg.MaxmemoryPolicy))
	w.Ship(n, n.TakeEffects())
	return ""
}
