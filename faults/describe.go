package faults

import (
	"strings"

	"github.com/lockstep-sim/lockstep/model/tracemsg"
	"github.com/lockstep-sim/lockstep/sim"
)

// A fault's description is a piece of the trace's catalogue
// (model/tracemsg, the fault-desc- ids) and its arguments, so that the
// trace lines naming a fault carry it as language-neutral values and a
// reader renders it in its language; Fault.String is its English, as the
// trace has always written it. The arguments are prefixed fault_ so as not
// to meet the line's own (fault-no-target's quoted target).

// describe is the arguments of piece id for f: its kind and target, then
// more.
func describe(id string, f Fault, more ...sim.Arg) []sim.Arg {
	return append([]sim.Arg{sim.S("fault", id), sim.S("fault_kind", string(f.Kind)), sim.S("fault_target", f.Target)}, more...)
}

// targetDescribe is "KIND TARGET".
func targetDescribe(f Fault) []sim.Arg { return describe("fault-desc", f) }

// forDescribe is "KIND TARGET for DURATION".
func forDescribe(f Fault) []sim.Arg {
	return describe("fault-desc-for", f, sim.I("fault_for_ns", int64(f.For)))
}

// groupsText is a partition's groups as the trace writes them: "[A B] | [C]".
func groupsText(groups [][]string) string {
	gs := make([]string, len(groups))
	for i, g := range groups {
		gs[i] = "[" + strings.Join(g, " ") + "]"
	}
	return strings.Join(gs, " | ")
}

// DescArgs is f's description as the arguments of its piece of the
// catalogue, the first ("fault") naming the piece; a kind not in the
// table is named alone.
func (f Fault) DescArgs() []sim.Arg {
	if s := Lookup(f.Kind); s != nil {
		return s.Describe(f)
	}
	return []sim.Arg{sim.S("fault", "fault-desc-kind"), sim.S("fault_kind", string(f.Kind))}
}

// StringIn is f's description in language lang ("en": String).
func (f Fault) StringIn(lang string) string {
	args := f.DescArgs()
	if s, ok := tracemsg.RenderIn(lang, args[0].Str, args); ok {
		return s
	}
	return f.String()
}

// String is the fault as a line of the trace or the TUI, in English.
func (f Fault) String() string {
	args := f.DescArgs()
	s, _ := tracemsg.Render(args[0].Str, args)
	return s
}

// describer is how desc reaches DescArgs: through an interface, since a
// direct call would make the fault table's initialisation refer to itself.
type describer interface{ DescArgs() []sim.Arg }

// desc is a fault as its trace lines name it: the arguments of its piece,
// which the lines' templates render with {fault:msg}; more are the line's
// own arguments.
func desc(f Fault, more ...sim.Arg) []sim.Arg {
	var d describer = f
	return append(d.DescArgs(), more...)
}
