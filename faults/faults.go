// Package faults turns the scenario's fault schedule into actions on a
// model.World: each fault kind is plain data, and Apply says what it does.
package faults

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/sim"
)

// Kind names a fault, as spelled in the scenario format.
type Kind string

// The fault kinds.
const (
	Pause      Kind = "pause"       // stop-the-world pause of a client process (GC): every thread, watchdog included
	Hang       Kind = "hang"        // the client's work thread stalls; its watchdog keeps running
	Crash      Kind = "crash"       // a client dies, or a node dies and optionally restarts
	Failover   Kind = "failover"    // promote a master's first replica; unreplicated writes are lost
	ClockJump  Kind = "clock_jump"  // a node's or client's wall clock steps by By
	ClockDrift Kind = "clock_drift" // from now on a clock runs Rate× true speed
	Partition  Kind = "partition"   // no traffic between Groups for For
	Isolate    Kind = "isolate"     // cut one process off from everyone for For
	Slow       Kind = "slow"        // extra Latency and Loss on a process's links for For
)

// Kinds lists every fault kind in the order the format documents them.
var Kinds = []Kind{Pause, Hang, Crash, Failover, ClockJump, ClockDrift, Partition, Isolate, Slow}

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

// String is the fault as a line of the trace or the TUI.
func (f Fault) String() string {
	switch f.Kind {
	case Pause, Hang, Isolate:
		return fmt.Sprintf("%s %s for %s", f.Kind, f.Target, f.For)
	case Crash:
		if f.RestartAfter > 0 {
			return fmt.Sprintf("crash %s, restart after %s", f.Target, f.RestartAfter)
		}
		return "crash " + f.Target
	case Failover:
		return "failover " + f.Target
	case ClockJump:
		sign := "+"
		if f.By < 0 {
			sign = ""
		}
		return fmt.Sprintf("clock_jump %s %s%s", f.Target, sign, f.By)
	case ClockDrift:
		return fmt.Sprintf("clock_drift %s rate %s", f.Target, strconv.FormatFloat(f.Rate, 'g', -1, 64))
	case Partition:
		gs := make([]string, len(f.Groups))
		for i, g := range f.Groups {
			gs[i] = "[" + strings.Join(g, " ") + "]"
		}
		return fmt.Sprintf("partition %s for %s", strings.Join(gs, " | "), f.For)
	case Slow:
		return fmt.Sprintf("slow %s +%s loss %s for %s", f.Target, f.Latency, strconv.FormatFloat(f.Loss, 'g', -1, 64), f.For)
	}
	return string(f.Kind)
}

// Schedule arranges for every fault to be applied at its time.
func Schedule(w *model.World, fs []Fault) {
	for _, f := range fs {
		f := f
		w.K.At(f.At, func() { Apply(w, f) })
	}
}

// Apply carries out a fault now, scheduling its end where it has a duration.
// A fault on a target the world lacks is reported in the trace and skipped
// (compare runs one schedule against worlds of different sizes).
func Apply(w *model.World, f Fault) {
	if c := w.Client(f.Target); c != nil {
		applyClient(w, c, f)
		return
	}
	if n := w.Node(f.Target); n != nil {
		applyNode(w, n, f)
		return
	}
	switch f.Kind {
	case Partition:
		id := w.Net.Partition(f.Groups)
		w.Emit("net", "fault", "%s", f)
		w.K.After(f.For, func() { w.Net.Heal(id); w.Emit("net", "heal", "partition healed") })
		return
	}
	w.Emit("net", "skipped", "%s skipped: no process %q in this world", f, f.Target)
}

func applyClient(w *model.World, c *model.Client, f Fault) {
	now := w.Now()
	switch f.Kind {
	case Pause:
		c.Pause()
		w.Emit(c.Name, "fault", "GC pause begins (%s): every thread of %s stops", f.For, c.Name)
		w.K.After(f.For, func() { c.Unpause(); w.Emit(c.Name, "fault-end", "GC pause ends after %s", f.For) })
	case Hang:
		c.Hang()
		w.Emit(c.Name, "fault", "work thread hangs for %s (watchdog keeps running)", f.For)
		w.K.After(f.For, func() { c.Unhang(); w.Emit(c.Name, "fault-end", "work thread resumes") })
	case Crash:
		c.Crash()
		w.Emit(c.Name, "fault", "%s crashes: no release, no renewal", c.Name)
	case ClockJump:
		c.Clock().Jump(now, f.By)
		w.Emit(c.Name, "fault", "clock %s: %s's wall clock now reads %s", signed(f.By), c.Name, sim.FormatTime(c.Clock().Wall(now)))
	case ClockDrift:
		c.Clock().SetRate(now, f.Rate)
		w.Emit(c.Name, "fault", "clock drift: %s's clock now runs %gx true speed", c.Name, f.Rate)
	case Isolate:
		isolate(w, f)
	case Slow:
		slow(w, f)
	default:
		w.Emit(c.Name, "skipped", "%s does not apply to a client", f)
	}
}

func applyNode(w *model.World, n *model.Node, f Fault) {
	now := w.Now()
	switch f.Kind {
	case Crash:
		w.CrashNode(n)
		w.Emit(n.Name(), "fault", "%s crashes (persistence %s)", n.Name(), persistence(n))
		if f.RestartAfter > 0 {
			w.K.After(f.RestartAfter, func() {
				w.RestartNode(n)
				w.Emit(n.Name(), "restart", "%s restarts with %d key(s)", n.Name(), len(n.Keys(w.Now())))
			})
		}
	case Failover:
		i := -1
		for _, sh := range w.Shards {
			if sh.Master == n {
				i = sh.Index
			}
		}
		if i < 0 {
			w.Emit(n.Name(), "skipped", "%s skipped: %s is not a master", f, n.Name())
			return
		}
		w.Emit(n.Name(), "fault", "failover of %s", n.Name())
		if _, err := w.Failover(i); err != nil {
			w.Emit(n.Name(), "skipped", "failover skipped: %v", err)
		}
	case ClockJump:
		exp := n.JumpClock(now, f.By)
		w.Emit(n.Name(), "fault", "clock %s: %s's wall clock now reads %s", signed(f.By), n.Name(), sim.FormatTime(n.Clock().Wall(now)))
		for _, e := range exp {
			w.Emit(n.Name(), "expired", "%s clock %s: %s expired %s early", n.Name(), signed(f.By), e.Key, sim.FormatTime(e.Early))
		}
	case ClockDrift:
		n.SetClockRate(now, f.Rate)
		w.Emit(n.Name(), "fault", "clock drift: %s's clock now runs %gx true speed", n.Name(), f.Rate)
	case Isolate:
		isolate(w, f)
	case Slow:
		slow(w, f)
	default:
		w.Emit(n.Name(), "skipped", "%s does not apply to a node", f)
	}
}

func isolate(w *model.World, f Fault) {
	id := w.Net.Isolate(f.Target)
	w.Emit(f.Target, "fault", "%s is cut off from everyone for %s", f.Target, f.For)
	w.K.After(f.For, func() { w.Net.Heal(id); w.Emit(f.Target, "heal", "%s reconnected", f.Target) })
}

func slow(w *model.World, f Fault) {
	w.Net.SetSlow(f.Target, f.Latency, f.Loss)
	w.Emit(f.Target, "fault", "links of %s slow: +%s, loss %g, for %s", f.Target, f.Latency, f.Loss, f.For)
	w.K.After(f.For, func() { w.Net.SetSlow(f.Target, 0, 0); w.Emit(f.Target, "heal", "links of %s back to normal", f.Target) })
}

func persistence(n *model.Node) string { return n.Config().Persistence }

func signed(d time.Duration) string {
	if d >= 0 {
		return "+" + d.String()
	}
	return d.String()
}
