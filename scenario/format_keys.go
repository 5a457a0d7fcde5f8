package scenario

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// Multi-key holds in the format: lock.keys and a client's keys are lists
// of key names (the checks are validate_keys.go's).

// readKeyList reads a list of keys, recording each one's position.
func readKeyList(p *parser, e entry, path string, pt posTable) []string {
	var out []string
	for i, n := range p.List(e.V, path, MaxKeysPerHold) {
		at := fmt.Sprintf("%s[%d]", path, i)
		pt.add(at, nil, n)
		out = append(out, p.Str(n, at))
	}
	return out
}

// readLockKeys reads lock.keys; lock.key, unless the file gives it, is the
// first of them (the key the judge follows and the TUI shows).
func readLockKeys(p *parser, e entry, l *Lock, path string, pt posTable) {
	l.Keys = readKeyList(p, e, path, pt)
	key := dot(keyLock, keyKey)
	if len(l.Keys) > 0 && !pt.has(key) {
		l.Key = l.Keys[0]
		pt[key] = pt[path+"[0]"]
	}
}

func writeKeys(keys []string) *yaml.Node {
	ns := make([]*yaml.Node, len(keys))
	for i, k := range keys {
		ns[i] = str(k)
	}
	n := seq(ns...)
	n.Style = yaml.FlowStyle
	return n
}

// keysPerHold is how many keys each of c's holds takes and gives back: 1
// without lock.keys (PlannedEvents counts a command per key).
func keysPerHold(s *Scenario, c Client) float64 {
	switch {
	case len(s.Lock.Keys) == 0:
		return 1
	case len(c.Keys) > 0:
		return float64(len(c.Keys))
	}
	return float64(len(s.Lock.Keys))
}
