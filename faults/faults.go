// Package faults turns the scenario's fault schedule into actions on a
// model.World: each fault kind is plain data, and Apply says what it does.
package faults

import (
	"fmt"
	"slices"
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

// Drift rates outside [MinRate, MaxRate] are refused (skipped, with a trace
// line): beyond them a clock's readings overflow int64 nanoseconds within a
// run, and no real clock is that wrong. The loader refuses them too.
const (
	MinRate = 0.001
	MaxRate = 1000.0
)

// Apply carries out a fault now, scheduling its end where it has a duration.
// The fault itself is one trace line (kind "fault"); each of its effects
// follows as its own line (a key expiring early, a write lost in the
// replication window, a replica promoted, ...). A fault on a target the
// world lacks is reported in the trace and skipped (compare runs one
// schedule against worlds of different sizes).
func Apply(w *model.World, f Fault) {
	if f.Kind == ClockDrift && !(f.Rate >= MinRate && f.Rate <= MaxRate) {
		w.Emit(f.Target, "skipped", "%s skipped: a drift rate must be between %g and %g", f, MinRate, float64(MaxRate))
		return
	}
	if c := w.Client(f.Target); c != nil {
		applyClient(w, c, f)
		return
	}
	if n := w.Node(f.Target); n != nil {
		applyNode(w, n, f)
		return
	}
	if slices.Contains(w.Sentinels, f.Target) {
		// A sentinel holds no data: only the network faults reach it.
		switch f.Kind {
		case Isolate:
			isolate(w, f)
		case Slow:
			slow(w, f)
		default:
			w.Emit(f.Target, "skipped", "%s does not apply to a sentinel", f)
		}
		return
	}
	switch f.Kind {
	case Partition:
		partition(w, f)
		return
	}
	w.Emit("net", "skipped", "%s skipped: no process %q in this world", f, f.Target)
}

func applyClient(w *model.World, c *model.Client, f Fault) {
	switch f.Kind {
	case Pause:
		pause(w, c, f)
	case Hang:
		hang(w, c, f)
	case Crash:
		if c.State() == model.StateCrashed {
			w.Emit(c.Name, "fault", "%s has already crashed: nothing more to crash", c.Name)
			return
		}
		c.Crash()
		w.Emit(c.Name, "fault", "%s crashes: no release, no renewal", c.Name)
	case ClockJump:
		w.Emit(c.Name, "fault", "%s clock %s (clock_jump)", c.Name, signed(f.By))
		c.JumpClock(f.By)
	case ClockDrift:
		w.Emit(c.Name, "fault", "%s clock drift: rate %s (clock_drift)", c.Name, strconv.FormatFloat(f.Rate, 'g', -1, 64))
		c.SetClockRate(f.Rate)
	case Isolate:
		isolate(w, f)
	case Slow:
		slow(w, f)
	default:
		w.Emit(c.Name, "skipped", "%s does not apply to a client", f)
	}
}

func applyNode(w *model.World, n *model.Node, f Fault) {
	switch f.Kind {
	case Crash:
		if !crashNode(w, n, f) {
			return
		}
		if f.RestartAfter > 0 {
			end := w.Now() + f.RestartAfter
			w.K.After(f.RestartAfter, func() {
				if last, until := w.Cover(string(Crash), n.Name()).End(end); !last {
					w.Emit(n.Name(), "fault-end", "%s does not restart after %s: %s", n.Name(), f.RestartAfter, stillOn("another crash keeps it down", until))
					return
				}
				if n.Up() {
					return
				}
				w.RestartNode(n)
				now := w.Now()
				msg := fmt.Sprintf("%s restarts after %s with %d key(s) (persistence %s)", n.Name(), f.RestartAfter, len(n.Keys(now)), persistence(n))
				if d := n.Config().RestartDelay; d > 0 {
					msg += fmt.Sprintf("; it answers -LOADING until %s (restart_delay %s)", sim.FormatTime(now+d), d)
				}
				w.Emit(n.Name(), "restart", "%s", msg)
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
			w.Emit(n.Name(), "skipped", "%s skipped: %s is not a master now", f, n.Name())
			return
		}
		w.Emit(n.Name(), "fault", "failover of %s", n.Name())
		if _, err := w.Failover(i); err != nil {
			w.Emit(n.Name(), "skipped", "failover skipped: %v", err)
		}
	case ClockJump:
		w.Emit(n.Name(), "fault", "%s clock %s (clock_jump): its wall clock now reads %s", n.Name(), signed(f.By),
			sim.FormatTime(n.Clock().Wall(w.Now())+f.By))
		w.JumpNodeClock(n, f.By)
	case ClockDrift:
		w.Emit(n.Name(), "fault", "%s clock drift: rate %s (clock_drift)", n.Name(), strconv.FormatFloat(f.Rate, 'g', -1, 64))
		w.DriftNodeClock(n, f.Rate)
	case Isolate:
		isolate(w, f)
	case Slow:
		slow(w, f)
	default:
		w.Emit(n.Name(), "skipped", "%s does not apply to a node", f)
	}
}

// Overlapping faults of one kind on one target nest (docs/scenario-format.md,
// "Overlapping faults"): the target is under the fault while any of them
// covers it, a start while one is on only extends it, and only the last end
// lifts it. model.Cover keeps the count; these functions say in the trace
// what a start or end did.

func pause(w *model.World, c *model.Client, f Fault) {
	end := w.Now() + f.For
	if first, until := w.Cover(string(Pause), c.Name).Begin(end); !first {
		w.Emit(c.Name, "fault", "GC pause begins (%s) while %s is already paused: it stays paused until %s", f.For, c.Name, sim.FormatTime(max(until, end)))
	} else {
		c.Pause()
		w.Emit(c.Name, "fault", "GC pause begins (%s): every thread of %s stops", f.For, c.Name)
	}
	w.K.After(f.For, func() {
		if last, until := w.Cover(string(Pause), c.Name).End(end); !last {
			w.Emit(c.Name, "fault-end", "GC pause ends after %s; %s stays paused (another pause until %s)", f.For, c.Name, sim.FormatTime(until))
			return
		}
		c.Unpause()
		w.Emit(c.Name, "fault-end", "GC pause ends after %s", f.For)
	})
}

func hang(w *model.World, c *model.Client, f Fault) {
	end := w.Now() + f.For
	if first, until := w.Cover(string(Hang), c.Name).Begin(end); !first {
		w.Emit(c.Name, "fault", "work thread hangs for %s while already hung: it stays hung until %s", f.For, sim.FormatTime(max(until, end)))
	} else {
		c.Hang()
		w.Emit(c.Name, "fault", "work thread hangs for %s (watchdog keeps running)", f.For)
	}
	w.K.After(f.For, func() {
		if last, until := w.Cover(string(Hang), c.Name).End(end); !last {
			w.Emit(c.Name, "fault-end", "a hang of %s ends after %s; the work thread stays hung (another hang until %s)", c.Name, f.For, sim.FormatTime(until))
			return
		}
		c.Unhang()
		w.Emit(c.Name, "fault-end", "work thread resumes")
	})
}

// crashNode crashes n, or, when n is already down, only counts the crash
// (its restart, if any, comes no earlier than the others'). It reports
// whether the crash is on (false: skipped).
func crashNode(w *model.World, n *model.Node, f Fault) bool {
	end := model.Forever
	if f.RestartAfter > 0 {
		end = w.Now() + f.RestartAfter
	}
	cov := w.Cover(string(Crash), n.Name())
	if !n.Up() && !cov.On() {
		w.Emit(n.Name(), "skipped", "%s skipped: %s is down", f, n.Name())
		return false
	}
	if first, until := cov.Begin(end); !first {
		w.Emit(n.Name(), "fault", "%s crashes while already down: %s", n.Name(), stillOn("it stays down", max(until, end)))
		return true
	}
	w.Emit(n.Name(), "fault", "%s crashes (persistence %s)", n.Name(), persistence(n))
	w.CrashNode(n)
	return true
}

// stillOn is what until says: "<what> until <time>", or "<what> for good".
func stillOn(what string, until time.Duration) string {
	if until == model.Forever {
		return what + " for good (a crash without restart_after)"
	}
	return what + " until " + sim.FormatTime(until)
}

func isolate(w *model.World, f Fault) {
	end := w.Now() + f.For
	if first, until := w.Cover(string(Isolate), f.Target).Begin(end); !first {
		w.Emit(f.Target, "fault", "%s is cut off from everyone for %s while already cut off: it stays cut off until %s", f.Target, f.For, sim.FormatTime(max(until, end)))
	} else {
		w.Emit(f.Target, "fault", "%s is cut off from everyone for %s", f.Target, f.For)
	}
	id := w.Net.Isolate(f.Target)
	w.K.After(f.For, func() {
		if last, until := w.Cover(string(Isolate), f.Target).End(end); !last {
			w.Emit(f.Target, "heal", "an isolation of %s ends after %s; it stays cut off (another isolation until %s)", f.Target, f.For, sim.FormatTime(until))
		} else {
			w.Emit(f.Target, "heal", "%s reconnected", f.Target)
		}
		w.Net.Heal(id)
	})
}

// partition cuts the groups apart. Partitions always compose: a link is up
// only while no partition on separates its ends, so a heal says when
// another partition is still on.
func partition(w *model.World, f Fault) {
	end := w.Now() + f.For
	w.Emit("net", "fault", "%s", f)
	w.Cover(string(Partition), "").Begin(end)
	id := w.Net.Partition(f.Groups)
	w.K.After(f.For, func() {
		if last, until := w.Cover(string(Partition), "").End(end); !last {
			w.Emit("net", "heal", "partition healed after %s; another partition is on until %s", f.For, sim.FormatTime(until))
		} else {
			w.Emit("net", "heal", "partition healed after %s", f.For)
		}
		w.Net.Heal(id)
	})
}

func slow(w *model.World, f Fault) {
	end := w.Now() + f.For
	first, until := w.Cover(string(Slow), f.Target).Begin(end)
	id := w.Net.AddSlow(f.Target, f.Latency, f.Loss)
	if first {
		w.Emit(f.Target, "fault", "links of %s slow: +%s, loss %g, for %s", f.Target, f.Latency, f.Loss, f.For)
	} else {
		lat, loss := w.Net.Slow(f.Target)
		w.Emit(f.Target, "fault", "links of %s slow: +%s, loss %g, for %s, on top of the slow already on until %s: +%s, loss %s in all",
			f.Target, f.Latency, f.Loss, f.For, sim.FormatTime(until), lat, combinedLoss(loss))
	}
	w.K.After(f.For, func() {
		w.Net.EndSlow(id)
		if last, until := w.Cover(string(Slow), f.Target).End(end); !last {
			lat, loss := w.Net.Slow(f.Target)
			w.Emit(f.Target, "heal", "a slow of %s ends after %s; its links stay slow: +%s, loss %s (another slow until %s)",
				f.Target, f.For, lat, combinedLoss(loss), sim.FormatTime(until))
			return
		}
		w.Emit(f.Target, "heal", "links of %s back to normal", f.Target)
	})
}

// combinedLoss is a loss rate that slow faults add up to, as the trace
// prints it: six digits, so that 0.1 and 0.5 make 0.55, not 0.5499999999999999.
func combinedLoss(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

func persistence(n *model.Node) string { return n.Config().Persistence }

func signed(d time.Duration) string {
	if d >= 0 {
		return "+" + d.String()
	}
	return d.String()
}
