// Package faults is the table of fault kinds. Each kind lives in one file
// (pause.go, crash.go, ...) as a Spec: its name in the scenario format, its
// fields, the processes it may strike, how it is validated, applied to a
// model.World, described in the trace and the TUI, written back to YAML,
// drawn and shrunk by explore, and asked for by the TUI's prompt. The
// loader, validator, exporter, explorer and TUI read the table; none of them
// names a kind's fields itself.
package faults

import (
	"slices"
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/sim"
)

// Kind names a fault, as spelled in the scenario format.
type Kind string

// Fault is one scheduled fault. Only the fields its kind uses are set.
type Fault struct {
	At           time.Duration
	Kind         Kind
	Target       string
	For          time.Duration
	RestartAfter time.Duration
	By           time.Duration
	Rate         float64
	Groups       [][]string
	Latency      time.Duration
	Loss         float64
}

// Spec is one fault kind: everything the rest of lockstep knows about it.
type Spec struct {
	Kind Kind
	Doc  string // one line, for docs and help
	// Fields are the keys the kind's mapping may hold, in the order the
	// format documents them (and exports write them).
	Fields []*Field
	// Targets are the processes the kind may strike; nil for a kind that
	// takes no target (partition). Need describes them when they are not
	// every process ("" when they are).
	Targets func(Names) []string
	Need    string
	// Check validates the kind's fields; Validate checks the target against
	// Targets first and says whether it is acceptable (targetOK).
	Check func(c Checker, f Fault, targetOK bool)
	// Describe is the fault as one line of the trace or the TUI: the
	// arguments of its piece of the trace's catalogue, the first ("fault")
	// the piece's id (describe.go; Fault.String renders them in English).
	Describe func(f Fault) []sim.Arg
	// How the fault is carried out, by what its target is (see Apply);
	// a nil hook means the kind does not apply to such a process.
	Skip       func(w *model.World, f Fault) bool // refuses the fault before it strikes
	OnClient   func(w *model.World, c *model.Client, f Fault)
	OnNode     func(w *model.World, n *model.Node, f Fault)
	OnSentinel func(w *model.World, f Fault)
	Untargeted func(w *model.World, f Fault) // a kind without a target
	// Generate draws one fault of the kind, all but its time (explore).
	Generate func(g *Gen) Fault
	// Refuse says why the TUI cannot strike the selected process (node:
	// a node is selected, else a client) with this kind; "" when it can.
	Refuse func(node bool) string
	// Prompt is what the TUI asks before injecting the fault; nil: nothing.
	Prompt *Prompt
}

// table is every kind in the order the format documents them. A new kind is
// a new file defining its Spec, and one entry here.
var table = []*Spec{
	&pauseSpec, &hangSpec, &crashSpec, &failoverSpec, &clockJumpSpec,
	&clockDriftSpec, &partitionSpec, &isolateSpec, &slowSpec,
	&evictSpec,
}

// Specs is the table of fault kinds, in documented order.
func Specs() []*Spec { return table }

// Kinds lists every fault kind in the order the format documents them.
var Kinds = func() []Kind {
	out := make([]Kind, len(table))
	for i, s := range table {
		out[i] = s.Kind
	}
	return out
}()

// Lookup returns the spec of kind k, or nil when there is no such kind.
func Lookup(k Kind) *Spec {
	i := slices.IndexFunc(table, func(s *Spec) bool { return s.Kind == k })
	if i < 0 {
		return nil
	}
	return table[i]
}

// KindNames is every kind as the format spells it, in documented order.
func KindNames() []string {
	out := make([]string, len(table))
	for i, s := range table {
		out[i] = string(s.Kind)
	}
	return out
}

// Uses reports whether the kind's mapping holds field fd.
func (s *Spec) Uses(fd *Field) bool { return slices.Contains(s.Fields, fd) }
