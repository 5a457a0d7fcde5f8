package views

import (
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/model"
)

// e makes the selected master evict the lock key; with a client selected
// it is refused with the reason, and nothing is injected.
func TestInjectEvict(t *testing.T) {
	m := openFeature(t, "evicted-lock-volatile-lru", 120, 36)
	r := m.Run()
	press(m, "e")
	if r.statusOK || !strings.Contains(r.status, "select a master") || len(r.Player().Injected()) != 0 {
		t.Fatalf("evict on a client: status %q, injected %v", r.status, r.Player().Injected())
	}
	stepTo(t, m, 10)
	press(m, "tab", "e") // Nodes: redis-1, the master
	inj := r.Player().Injected()
	if len(inj) != 1 || inj[0].Kind != faults.Evict || inj[0].Target != "redis-1" {
		t.Fatalf("e on redis-1: injected %v, status %q", inj, r.status)
	}
	if !r.statusOK {
		t.Fatalf("evict refused: %q", r.status)
	}
}

// The resource is a fault target: tab to it, and i, s and P cut it off or
// slow its links; a fault that is not a network one is refused with why.
func TestInjectOnTheResource(t *testing.T) {
	for _, w := range []int{100, 80} { // the panel, and the line of a narrow view
		m := openModel(t, "gc-pause-wrong-delete", w, 30)
		r := m.Run()
		stepTo(t, m, 5)
		press(m, "tab", "tab") // Resource
		if name, _ := r.selected(); name != model.ResourceName {
			t.Fatalf("%d cols: selected %q after two tabs", w, name)
		}
		if v := m.View(); !strings.Contains(v, "›resource:") && !strings.Contains(v, "›Resource") {
			t.Fatalf("%d cols: the view does not show the resource selected:\n%s", w, v)
		}
		press(m, "p")
		if r.prompt != nil || r.statusOK || !strings.Contains(r.status, "does not apply to the resource") {
			t.Fatalf("%d cols: pause on the resource: prompt %v, status %q", w, r.prompt != nil, r.status)
		}
		press(m, "i", "5", "s", "enter")
		inj := r.Player().Injected()
		if len(inj) != 1 || inj[0].Kind != faults.Isolate || inj[0].Target != model.ResourceName {
			t.Fatalf("%d cols: i on the resource: injected %v, status %q", w, inj, r.status)
		}
		press(m, "P", "enter") // the default: the resource against the rest
		inj = r.Player().Injected()
		if len(inj) != 2 || inj[1].Kind != faults.Partition || inj[1].Groups[0][0] != model.ResourceName {
			t.Fatalf("%d cols: P on the resource: injected %v, status %q, prompt %+v", w, inj, r.status, r.prompt)
		}
	}
}

// Every kind of the faults table has a key that injects it, and the help
// page lists it: a new kind without one fails here.
func TestEveryFaultKindHasAKey(t *testing.T) {
	k := DefaultKeys()
	have := map[faults.Kind]bool{}
	for _, fk := range k.faultKeys() {
		have[fk.kind] = true
	}
	for _, kind := range faults.Kinds {
		if !have[kind] {
			t.Errorf("fault kind %s has no key in the TUI", kind)
		}
	}
}
