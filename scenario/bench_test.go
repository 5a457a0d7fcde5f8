package scenario_test

import (
	"os"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/scenario/scenariotest"
)

// BenchmarkBundledFile replays every bundled scenario once per iteration.
// sim-x is simulated time over wall time for the whole file (product.md asks
// for at least 1e5 on the bundled scenarios).
func BenchmarkBundledFile(b *testing.B) {
	f := scenariotest.File(b)
	var simTime time.Duration
	for i := 0; i < b.N; i++ {
		simTime = 0
		for _, s := range f.Scenarios {
			r, err := runner.New(s, scenario.Options{}, false)
			if err != nil {
				b.Fatal(err)
			}
			r.Run()
			simTime += r.Now()
			r.Close()
		}
	}
	b.ReportMetric(float64(simTime)*float64(b.N)/float64(b.Elapsed()), "sim-x")
}

// BenchmarkEachBundledScenario reports, per scenario, how many times faster
// than wall time its simulated time runs.
func BenchmarkEachBundledScenario(b *testing.B) {
	for _, s := range scenariotest.File(b).Scenarios {
		b.Run(s.Name, func(b *testing.B) {
			var simTime time.Duration
			for b.Loop() {
				r, err := runner.New(s, scenario.Options{}, false)
				if err != nil {
					b.Fatal(err)
				}
				r.Run()
				simTime = r.Now()
				r.Close()
			}
			b.ReportMetric(float64(simTime)*float64(b.N)/float64(b.Elapsed()), "sim-x")
		})
	}
}

// benchScenario replays the bundled scenario called name once per iteration.
func benchScenario(b *testing.B, name string) { benchScenarioWith(b, name, scenario.Options{}) }

// benchScenarioWith is benchScenario with run options o.
func benchScenarioWith(b *testing.B, name string, o scenario.Options) {
	f := scenariotest.File(b)
	for _, s := range f.Scenarios {
		if s.Name != name {
			continue
		}
		b.ReportAllocs()
		var steps, events int
		for b.Loop() {
			r, err := runner.New(s, o, false)
			if err != nil {
				b.Fatal(err)
			}
			r.Run()
			steps, events = r.World().K.Steps(), r.EventCount()
			r.Close()
		}
		// Per-event cost: what the "engine overhead per event"
		// target is about.
		b.ReportMetric(float64(steps), "kernel-events/op")
		b.ReportMetric(float64(events), "trace-events/op")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(steps), "ns/kernel-event")
		return
	}
	b.Skipf("no bundled scenario %q", name)
}

// BenchmarkCounterScenario is the counter test of 《第 11 章 分布式锁（含 Redlock 争议）》 alone (30 clients x
// 200 holds, 6000 grants): the scenario the 50x target is about.
func BenchmarkCounterScenario(b *testing.B) { benchScenario(b, "counter-30x200") }

// BenchmarkCounterLoopback is the same test in the conditions of the seed's
// demo (loopback latency, no work between the read and the write): the one
// timed beside the demo on a real redis-server in BENCHMARKS.md.
func BenchmarkCounterLoopback(b *testing.B) { benchScenario(b, "counter-30x200-loopback") }

// BenchmarkCounterLoopbackNoHash is the same run as `lockstep run -s
// counter-30x200-loopback` makes it: a text report, which shows no trace
// hash (Options.NoHash).
func BenchmarkCounterLoopbackNoHash(b *testing.B) {
	benchScenarioWith(b, "counter-30x200-loopback", scenario.Options{NoHash: true})
}

// BenchmarkLoadBundled is what every `lockstep run -s NAME` pays before its
// run: reading, decoding and validating the whole bundled scenarios.yaml.
func BenchmarkLoadBundled(b *testing.B) {
	data, err := os.ReadFile("../scenarios.yaml")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := scenario.Load("scenarios.yaml", data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadSelected is what `lockstep run -s counter-30x200-loopback`
// pays for its scenario: the bundled file with the other scenarios blanked.
func BenchmarkLoadSelected(b *testing.B) {
	data, err := os.ReadFile("../scenarios.yaml")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := scenario.LoadSelected("scenarios.yaml", data, []string{"counter-30x200-loopback"}); err != nil {
			b.Fatal(err)
		}
	}
}
