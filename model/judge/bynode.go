package judge

// byNode keeps the judge's books of each node's lock key: the grant in
// force there and the last one that ended there, in one short slice of
// slots searched in order, like a map from node names. A run has a
// handful of nodes, and hashing the node's name on every lock command was
// 3 % of the counter test's time; one slot holding both grants lets a
// lock command find everything it changes with one search (a release
// used to search four times: the grant, the ended one, set and delete).
// A node's slot, once made, stays: the slots are made for Config.Nodes
// up front, and a node the config does not name gets one when it is
// first written.
type byNode struct {
	slots []nodeSlot
}

// nodeSlot is one node's books.
type nodeSlot struct {
	name  string
	grant *grant // in force there; nil: none
	ended *grant // the last that ended there; nil: none yet
}

// newByNode has an empty slot for each of nodes (distinct names), in
// their order: slot i is nodes[i]'s.
func newByNode(nodes []string) byNode {
	b := byNode{slots: make([]nodeSlot, len(nodes))}
	for i, n := range nodes {
		b.slots[i].name = n
	}
	return b
}

// slotOf is the slot of e's node: e.NodeID's, when the feeder gave it,
// which is the same slot as by name (the first slots are Config.Nodes',
// in order, and stay there); nil when it did not (then at(e.Node) finds
// it). Small enough to be inlined into the judging of every lock command.
func (b *byNode) slotOf(e *Event) *nodeSlot {
	if i := e.NodeID - 1; i >= 0 && i < len(b.slots) {
		return &b.slots[i]
	}
	return nil
}

// slot is node's slot, or nil.
func (b *byNode) slot(node string) *nodeSlot {
	for i := range b.slots {
		if b.slots[i].name == node {
			return &b.slots[i]
		}
	}
	return nil
}

// at is node's slot, made if it has none. The pointer is valid until the
// next at that makes one.
func (b *byNode) at(node string) *nodeSlot {
	if s := b.slot(node); s != nil {
		return s
	}
	b.slots = append(b.slots, nodeSlot{name: node})
	return &b.slots[len(b.slots)-1]
}

// grant is the grant in force on node, or nil.
func (b *byNode) grant(node string) *grant {
	if s := b.slot(node); s != nil {
		return s.grant
	}
	return nil
}

// ended is the last grant that ended on node, or nil.
func (b *byNode) ended(node string) *grant {
	if s := b.slot(node); s != nil {
		return s.ended
	}
	return nil
}

// setGrant makes g the grant in force on node (nil: none).
func (b *byNode) setGrant(node string, g *grant) {
	if g == nil {
		b.delGrant(node)
		return
	}
	b.at(node).grant = g
}

// delGrant forgets the grant in force on node.
func (b *byNode) delGrant(node string) {
	if s := b.slot(node); s != nil {
		s.grant = nil
	}
}
