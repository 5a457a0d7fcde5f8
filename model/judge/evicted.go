package judge

import "github.com/lockstep-sim/lockstep/sim"

// evicted ends the grant whose key node e.Node evicted: the lease is gone
// although its TTL had not run out and nobody released it.
func (j *Judge) evicted(e *Event) {
	if g := j.nodes.grant(e.Node); g != nil {
		j.end(e.Node, g, e.At, phrase("how-evicted", sim.S("node", e.Node), sim.I("at_ns", int64(e.At)), sim.S("policy", e.Note)))
	}
}
