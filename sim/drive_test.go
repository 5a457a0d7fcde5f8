package sim

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// pingWorld runs three clients that each send requests to a server over a
// jittered network and sleep between them, a fourth thread that sleeps,
// a freeze and a kill, and returns what happened, in order, with the
// times and the kernel's step count. arm arms the clients' parks: Arm lets
// a Proc drive the kernel's loop while it waits, ArmShared never does,
// which is how every Park behaved before drive.go.
func pingWorld(arm func(*Proc) Ticket, run func(k *Kernel)) string {
	k := NewKernel(7)
	n := k.NewNetwork(50*time.Microsecond, 20*time.Microsecond)
	var log []string
	say := func(f string, a ...any) { log = append(log, fmt.Sprintf("%v ", k.Now())+fmt.Sprintf(f, a...)) }
	groups := map[string]*Group{}
	for i, name := range []string{"A", "B", "C"} {
		g := k.NewGroup(name)
		groups[name] = g
		g.Spawn(name, time.Duration(i)*time.Microsecond, func(p *Proc) {
			for j := 0; j < 20; j++ {
				tk := arm(p)
				n.Send(name, "srv", func() {
					say("srv got %s%d", name, j)
					n.Send("srv", name, func() { tk.Wake(j) })
				})
				say("%s woke with %v", name, p.Park())
				if j%5 == 4 {
					p.Sleep(time.Millisecond)
				}
			}
		})
	}
	k.NewGroup("D").Spawn("D", 0, func(p *Proc) {
		for j := 0; j < 5; j++ {
			p.Sleep(700 * time.Microsecond)
			say("D slept")
		}
	})
	k.At(time.Millisecond, func() { groups["B"].Pause(); say("B paused") })
	k.At(2*time.Millisecond, func() { groups["B"].Resume(); say("B resumed") })
	k.At(3*time.Millisecond, func() { groups["C"].Kill(); say("C killed") })
	run(k)
	log = append(log, fmt.Sprintf("steps %d", k.Steps())) // RunUntil(Never) leaves the clock at Never
	k.Close()
	return strings.Join(log, "\n")
}

func runAll(k *Kernel) { k.RunUntil(Never) }

func stepAll(k *Kernel) {
	for k.Step() {
	}
}

// The kernel's loop run by the Procs that wait (drive.go) runs the same
// events in the same order as the kernel's own, and each Proc's code at
// the same point between them: a world driven by its Procs writes the log
// that it writes when no Proc drives (ArmShared), and when the kernel is
// stepped one event at a time.
func TestDrivingKeepsTheOrder(t *testing.T) {
	shared := func(p *Proc) Ticket { return p.ArmShared() }
	armed := func(p *Proc) Ticket { return p.Arm() }
	want := pingWorld(shared, runAll)
	if !strings.Contains(want, "C killed") || !strings.Contains(want, "B resumed") {
		t.Fatalf("the world did not run its faults:\n%s", want)
	}
	for name, got := range map[string]string{
		"driven": pingWorld(armed, runAll), "stepped": pingWorld(armed, stepAll),
	} {
		if got != want {
			t.Errorf("%s: the log differs from the undriven one\ngot:\n%s\nwant:\n%s", name, got, want)
		}
	}
}

// A Proc that drives obeys the run's bounds: RunUntil stops at its time,
// Step runs one event, and the budget stops both.
func TestDrivingKeepsTheRunsBounds(t *testing.T) {
	world := func() (*Kernel, *int) {
		k := NewKernel(1)
		woke := new(int)
		k.NewGroup("A").Spawn("A", 0, func(p *Proc) {
			for {
				tk := p.Arm()
				k.After(time.Second, func() { tk.Wake(nil) })
				p.Park()
				*woke++
			}
		})
		return k, woke
	}
	k, woke := world()
	k.RunUntil(10*time.Second + time.Second/2)
	if *woke != 10 || k.Now() != 10*time.Second+time.Second/2 || k.Steps() != 11 {
		t.Errorf("RunUntil(10.5s): %d wakes, now %v, %d steps; want 10, 10.5s, 11", *woke, k.Now(), k.Steps())
	}
	k.Step()
	if *woke != 11 || k.Steps() != 12 {
		t.Errorf("Step: %d wakes, %d steps; want 11, 12", *woke, k.Steps())
	}
	k.Close()
	k, woke = world()
	k.SetBudget(5)
	k.RunUntil(Never)
	if *woke != 4 || k.Steps() != 5 || !k.Exhausted() {
		t.Errorf("budget 5: %d wakes, %d steps, exhausted %v; want 4, 5, true", *woke, k.Steps(), k.Exhausted())
	}
	k.Close()
}

// A Proc's code that wakes a Proc driving the kernel's loop panics, naming
// it and ArmShared: the woken Proc runs under the code that wakes it and could
// only run after it.
func TestWakeOfADrivingProcByAProcPanics(t *testing.T) {
	k := NewKernel(1)
	var tk Ticket
	k.NewGroup("A").Spawn("A", 0, func(p *Proc) {
		tk = p.Arm()
		p.Park()
	})
	k.NewGroup("B").Spawn("B", time.Second, func(p *Proc) { tk.Wake(nil) })
	got := func() (r any) {
		defer func() { r = recover() }()
		k.RunUntil(Never)
		return nil
	}()
	if s, _ := got.(string); !strings.Contains(s, "woke A") || !strings.Contains(s, "ArmShared") {
		t.Fatalf("RunUntil panicked with %#v, want a panic naming A and ArmShared", got)
	}
}

// An event in a driving Proc's loop that kills its group ends it there:
// its code does not run on, the events after it do, and Close works.
func TestKillOfADrivingProc(t *testing.T) {
	k := NewKernel(1)
	g := k.NewGroup("A")
	after, later := false, false
	p := g.Spawn("A", 0, func(p *Proc) {
		k.After(time.Second, g.Kill)
		k.After(2*time.Second, func() { later = true })
		p.Sleep(time.Hour)
		after = true
	})
	k.RunUntil(Never)
	if after || p.Alive() || !later {
		t.Fatalf("after the kill: ran on %v, alive %v, later event ran %v; want false, false, true", after, p.Alive(), later)
	}
	k.Close()
}

// A handler's panic in the loop a Proc drives reaches the kernel's caller
// as it is, not as the Proc's own panic.
func TestEventPanicInADrivenLoop(t *testing.T) {
	k := NewKernel(1)
	k.NewGroup("A").Spawn("A", 0, func(p *Proc) {
		k.After(time.Second, func() { panic("boom") })
		p.Sleep(time.Hour)
	})
	got := func() (r any) {
		defer func() { r = recover() }()
		k.RunUntil(Never)
		return nil
	}()
	if got != "boom" {
		t.Fatalf("RunUntil panicked with %#v, want \"boom\"", got)
	}
	k.Close()
}

// An event that kills a driving Proc and then wakes another runs both:
// a killed Proc's code never runs again, so a wake after its kill is in
// order (only a wake after a wake of a driving Proc is not).
func TestWakeAfterAKillOfADrivingProc(t *testing.T) {
	k := NewKernel(1)
	ga := k.NewGroup("A")
	a := ga.Spawn("A", 0, func(p *Proc) { p.Sleep(time.Hour) })
	var tkB Ticket
	var woke any
	var at time.Duration
	k.NewGroup("B").Spawn("B", time.Millisecond, func(p *Proc) {
		tkB = p.Arm()
		woke = p.Park()
		at = p.Now()
	})
	k.At(time.Second, func() {
		ga.Kill()
		tkB.Wake("go")
	})
	k.RunUntil(Never)
	if a.Alive() || woke != "go" || at != time.Second {
		t.Fatalf("A alive %v; B woke with %v at %v; want false, go, 1s", a.Alive(), woke, at)
	}
	k.Close()
}
