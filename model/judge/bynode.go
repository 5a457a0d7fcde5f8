package judge

// byNode maps node names to grants like a map[string]*grant, in two short
// slices searched in order: a run has a handful of nodes, and hashing the
// node's name on every lock command (a lookup and an assignment per grant,
// a delete per release) was 3 % of the counter test's time. A nil grant is
// never stored (set with nil deletes).
type byNode struct {
	names  []string
	grants []*grant
}

// get is the grant kept for node, or nil.
func (b *byNode) get(node string) *grant {
	for i, n := range b.names {
		if n == node {
			return b.grants[i]
		}
	}
	return nil
}

// set keeps g for node (nil: forgets it).
func (b *byNode) set(node string, g *grant) {
	if g == nil {
		b.del(node)
		return
	}
	for i, n := range b.names {
		if n == node {
			b.grants[i] = g
			return
		}
	}
	b.names = append(b.names, node)
	b.grants = append(b.grants, g)
}

// del forgets node's grant.
func (b *byNode) del(node string) {
	for i, n := range b.names {
		if n == node {
			last := len(b.names) - 1
			b.names[i], b.grants[i] = b.names[last], b.grants[last]
			b.names, b.grants = b.names[:last], b.grants[:last]
			b.grants[:last+1][last] = nil // drop the reference
			return
		}
	}
}
