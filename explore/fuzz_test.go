package explore

import (
	"encoding/binary"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/scenario"
)

// byteSource feeds the generator from the fuzzer's bytes, 8 at a time, so
// mutations of the input map onto nearby schedules; once the bytes run out
// it continues with a PCG seeded from them.
type byteSource struct {
	data []byte
	rest *rand.PCG
}

func newByteSource(data []byte) *byteSource {
	h := fnv.New64a()
	h.Write(data)
	return &byteSource{data: data, rest: rand.NewPCG(h.Sum64(), uint64(len(data)))}
}

func (b *byteSource) Uint64() uint64 {
	if len(b.data) >= 8 {
		v := binary.LittleEndian.Uint64(b.data)
		b.data = b.data[8:]
		return v
	}
	return b.rest.Uint64()
}

// fuzzWorlds are the worlds FuzzSchedule draws over: a small one, and one
// with a replica (so failover applies) under its own strategy and Redlock.
var fuzzWorlds = []struct{ scenario, strategy string }{
	{"small", "lua-release"},
	{"small", "set-del"},
	{"single-failover", "lua-release"},
	{"single-failover", "redlock"},
}

// FuzzSchedule runs random fault schedules, every kind allowed: no panic,
// the schedule is a valid scenario, the metrics are consistent, and the
// same schedule gives the same trace twice.
func FuzzSchedule(f *testing.F) {
	f.Add([]byte("pause"), uint8(0))
	f.Add([]byte("a partition and a clock jump"), uint8(2))
	f.Add([]byte{0xff, 0, 0x80, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, uint8(3))
	worlds := map[string]*scenario.Scenario{}
	for _, w := range fuzzWorlds {
		worlds[w.scenario] = testScenario(f, w.scenario)
	}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		fw := fuzzWorlds[int(which)%len(fuzzWorlds)]
		w := NewWorld(worlds[fw.scenario], fw.strategy)
		kinds := faults.Kinds
		if len(w.Replicas) == 0 {
			kinds = slices.DeleteFunc(slices.Clone(kinds), func(k faults.Kind) bool { return k == faults.Failover })
		}
		g := &Generator{W: w, Kinds: kinds, MaxFaults: 6}
		sched := g.Draw(rand.New(newByteSource(data)))
		checkSchedule(t, w, sched)
	})
}

// checkSchedule runs sched on w twice and checks what FuzzSchedule promises.
func checkSchedule(t *testing.T, w *World, sched []faults.Fault) {
	t.Helper()
	sc := *w.Base
	sc.Faults = append(sc.Faults, sched...)
	if err := sc.Validate(); err != nil {
		t.Fatalf("drawn schedule is not a valid scenario: %v\n%v", err, faultLines(sched))
	}
	rep, err := runOnce(t.Context(), w, sched)
	if err != nil {
		t.Fatal(err)
	}
	// The same schedule again, hashed: withHash fails on any difference.
	if _, err := withHash(w, slices.Clone(sched), rep); err != nil {
		t.Fatalf("not deterministic: %v\n%v", err, faultLines(sched))
	}
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf(format+"\nschedule (%s on %s):\n%v", append(args, w.Strategy, w.Base.Name, faultLines(sched))...)
	}
	m := rep.Metrics
	switch {
	case m.Safe != (m.Violations == 0):
		fail("safe %t with %d violations", m.Safe, m.Violations)
	case m.Violations < 0 || m.LostUpdates < 0 || m.WrongReleases < 0 || m.FencingRejections < 0 || m.Acquired < 0:
		fail("a negative metric: %+v", m)
	case m.Violations > m.Acquired:
		fail("%d violations but only %d grants", m.Violations, m.Acquired)
	case m.FencingRejections > 0 && w.Base.Lock.Fencing == "":
		fail("%d fencing rejections without fencing", m.FencingRejections)
	case m.LostUpdates > 0 && m.Violations == 0 && !explainsLostUpdate(sched):
		fail("%d lost update(s) without a violation, and no fault delays a write", m.LostUpdates)
	case m.WrongReleases > 0 && (w.Strategy == "lua-release" || w.Strategy == "redlock"):
		fail("%d wrong release(s) under %s, whose release checks the owner", m.WrongReleases, w.Strategy)
	}
}

// explainsLostUpdate reports whether a schedule can lose an update without
// two clients ever overlapping: a write that times out for its sender but
// still lands later, after the next holder has read. Only faults that delay
// messages without dropping them do that.
func explainsLostUpdate(sched []faults.Fault) bool {
	return slices.ContainsFunc(sched, func(f faults.Fault) bool { return f.Kind == faults.Slow })
}
