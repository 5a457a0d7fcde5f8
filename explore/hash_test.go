package explore

import (
	"context"
	"strings"
	"testing"
)

// Searches and shrinks run without the trace hash; the reported run is run
// again with it (withHash), which must be the same run: same report but the
// hash. A report that differs from the hashed replay in anything the hash
// cannot change is a determinism bug, and withHash says so.
func TestWithHashIsTheSameRunOrAnError(t *testing.T) {
	w := NewWorld(testScenario(t, "redlock-5x3"), "redlock")
	g := &Generator{W: w, Kinds: parseKinds(t, "pause,clock_jump,partition"), MaxFaults: 3, Seed: 5}
	sched := g.Schedule(2)
	bare, err := runOnce(context.Background(), w, sched)
	if err != nil {
		t.Fatal(err)
	}
	if bare.TraceHash != "" {
		t.Fatalf("a search run has a trace hash %q", bare.TraceHash)
	}
	hashed, err := withHash(w, sched, bare)
	if err != nil {
		t.Fatal(err)
	}
	if hashed.TraceHash == "" || hashed.Events != bare.Events || hashed.KernelSteps != bare.KernelSteps {
		t.Fatalf("hashed replay: hash %q, %d/%d events, want %d/%d", hashed.TraceHash,
			hashed.Events, hashed.KernelSteps, bare.Events, bare.KernelSteps)
	}
	for name, mutate := range map[string]func(){
		"events":          func() { bare.Events++ },
		"metrics":         func() { bare.Violations++ },
		"first violation": func() { bare.FirstViolation += "!" },
		"kernel events":   func() { bare.KernelSteps-- },
	} {
		saved := *bare
		mutate()
		if _, err := withHash(w, sched, bare); err == nil || !strings.Contains(err.Error(), "determinism bug") {
			t.Errorf("%s differ: withHash said %v", name, err)
		}
		*bare = saved
	}
}
