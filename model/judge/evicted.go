package judge

import (
	"fmt"

	"github.com/lockstep-sim/lockstep/sim"
)

// evicted ends the grant whose key node e.Node evicted: the lease is gone
// although its TTL had not run out and nobody released it.
func (j *Judge) evicted(e *Event) {
	if g := j.grants[e.Node]; g != nil {
		j.end(e.Node, g, e.At, fmt.Sprintf("its key on %s was evicted at %s under memory pressure (maxmemory-policy %s)",
			e.Node, sim.FormatTime(e.At), e.Note))
	}
}
