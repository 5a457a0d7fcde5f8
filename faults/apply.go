package faults

import (
	"slices"
	"strconv"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/sim"
)

// Schedule arranges for every fault to be applied at its time.
func Schedule(w *model.World, fs []Fault) {
	for _, f := range fs {
		f := f
		w.K.At(f.At, func() { Apply(w, f) })
	}
}

// Apply carries out a fault now, scheduling its end where it has a duration.
// The fault itself is one trace line (kind "fault"); each of its effects
// follows as its own line (a key expiring early, a write lost in the
// replication window, a replica promoted, ...). A fault on a target the
// world lacks is reported in the trace and skipped (compare runs one
// schedule against worlds of different sizes); so is a fault that its kind
// does not apply to the target's sort of process.
func Apply(w *model.World, f Fault) {
	s := Lookup(f.Kind)
	if s == nil {
		s = &Spec{}
	}
	if s.Skip != nil && s.Skip(w, f) {
		return
	}
	if c := w.Client(f.Target); c != nil {
		if s.OnClient == nil {
			w.Tell(c.Name, "skipped", "fault-not-client", desc(f)...)
			return
		}
		s.OnClient(w, c, f)
		return
	}
	if n := w.Node(f.Target); n != nil {
		if s.OnNode == nil {
			w.Tell(n.Name(), "skipped", "fault-not-node", desc(f)...)
			return
		}
		s.OnNode(w, n, f)
		return
	}
	if slices.Contains(w.Sentinels, f.Target) {
		// A sentinel holds no data: only the network faults reach it.
		if s.OnSentinel == nil {
			w.Tell(f.Target, "skipped", "fault-not-sentinel", desc(f)...)
			return
		}
		s.OnSentinel(w, f)
		return
	}
	if f.Target == model.ResourceName {
		// Like a sentinel, the resource is only a process on the network.
		if s.OnSentinel == nil {
			w.Tell(f.Target, "skipped", "fault-not-resource", desc(f)...)
			return
		}
		s.OnSentinel(w, f)
		return
	}
	if s.Untargeted != nil {
		s.Untargeted(w, f)
		return
	}
	w.Tell("net", "skipped", "fault-no-target", desc(f, sim.S("target", strconv.Quote(f.Target)))...)
}

// Overlapping faults of one kind on one target nest (docs/scenario-format.md,
// "Overlapping faults"): the target is under the fault while any of them
// covers it, a start while one is on only extends it, and only the last end
// lifts it. model.Cover keeps the count; the kinds say in the trace what a
// start or end did.

// net hooks: a network fault strikes a client, a node or a sentinel alike.
func netClient(apply func(*model.World, Fault)) func(*model.World, *model.Client, Fault) {
	return func(w *model.World, _ *model.Client, f Fault) { apply(w, f) }
}

func netNode(apply func(*model.World, Fault)) func(*model.World, *model.Node, Fault) {
	return func(w *model.World, _ *model.Node, f Fault) { apply(w, f) }
}

// formatRate prints a rate or a loss as written: 1.5, not 1.500000.
func formatRate(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func persistence(n *model.Node) string { return n.Config().Persistence }
