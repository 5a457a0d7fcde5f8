package scenario

import (
	"fmt"
	"slices"

	"github.com/lockstep-sim/lockstep/internal/termtext"
	"github.com/lockstep-sim/lockstep/model"
)

// MultiKeyModes and KeyOrders are lock.multi_key's and lock.key_order's
// values, in documented order; the first is the default.
var (
	MultiKeyModes = []string{"each", model.MultiKeyScript}
	KeyOrders     = []string{"given", "sorted"}
)

// keys checks the multi-key fields: the key lists, the modes, and what a
// hold of several keys cannot be combined with (the design table says
// which strategies run it).
func (c *checker) keys() {
	l := c.s.Lock
	at := func(k string) string { return dot(keyLock, k) }
	if l.MultiKey != "" {
		c.oneOf(at(keyMultiKey), at(keyMultiKey), l.MultiKey, MultiKeyModes)
	}
	if l.KeyOrder != "" {
		c.oneOf(at(keyKeyOrder), at(keyKeyOrder), l.KeyOrder, KeyOrders)
	}
	if len(l.Keys) == 0 {
		for _, k := range []string{keyMultiKey, keyKeyOrder} {
			if c.pt != nil && c.pt.has(at(k)) {
				c.errorf(at(k), "%s needs %s (the keys a hold takes)", at(k), at(keyKeys))
			}
		}
		for i, cl := range c.s.Clients {
			if len(cl.Keys) > 0 {
				c.errorf(fmt.Sprintf("%s[%d].%s", keyClients, i, keyKeys), "a client's %s needs %s (several keys per hold)", keyKeys, at(keyKeys))
			}
		}
		return
	}
	c.keyList(at(keyKeys), l.Keys)
	if c.given(at(keyKey)) && !slices.Contains(l.Keys, l.Key) {
		c.errorf(at(keyKey), "%s %s is not one of %s; leave it out to follow the first", at(keyKey), echo(l.Key), at(keyKeys))
	}
	for i, cl := range c.s.Clients {
		p := fmt.Sprintf("%s[%d]", keyClients, i)
		c.keyList(dot(p, keyKeys), cl.Keys)
		if cl.Nested > 0 {
			c.errorf(dot(p, keyNested), "%s cannot be combined with %s: a hold of several keys is not reentrant", keyNested, at(keyKeys))
		}
	}
}

// keyList checks one list of keys: each a plain, bounded, distinct name.
func (c *checker) keyList(path string, keys []string) {
	seen := map[string]int{}
	for i, k := range keys {
		p := fmt.Sprintf("%s[%d]", path, i)
		switch j, dup := seen[k]; {
		case k == "":
			c.errorf(p, "%s is empty", p)
		case termtext.HasControl(k):
			c.errorf(p, "%s %s holds a control character or invalid UTF-8; a key is printed in traces and must be plain text", p, echo(k))
		case len(k) > MaxKeyLen:
			c.errorf(p, "%s must be at most %d bytes long (got %d)", p, MaxKeyLen, len(k))
		case dup:
			c.errorf(p, "%s repeats %s (first at %s[%d])", path, echo(k), path, j)
		default:
			seen[k] = i
		}
	}
}
