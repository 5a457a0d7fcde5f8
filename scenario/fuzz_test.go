package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

// errorForm is the shape every load error must have: FILE:LINE:COL: message.
var errorForm = regexp.MustCompile(`^[^:]+:\d+:\d+: `)

// FuzzLoad checks that Load never panics, that every error it returns has
// the FILE:LINE:COL form, and that whatever it accepts really is valid.
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob("../testdata/*/*.yaml")
	for _, path := range files {
		// Each run of this one walks a million aliased nodes (~60ms); as a
		// seed it stalls the fuzzer's minimizer. TestBadFiles covers it.
		if filepath.Base(path) == "billion-laughs.yaml" {
			continue
		}
		if data, err := os.ReadFile(path); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{
		base,
		base + "    faults: [{at: 1s, partition: {groups: [[A], [redis-1]], for: 1s}}]\n",
		base + "    expect: {safe: true, max_wait: \"<= 2s\", violations: \">= 1\"}\n",
		head + "    lock: &l {key: k, strategy: redlock, ttl: 5s, <<: *l}\n" + clientsOK,
		head + "    lock: {<<: [{key: k}, {strategy: redlock}], ttl: 1s}\n" + clientsOK,
		"version: 1\nscenarios: [\n",
		"version: 1\nscenarios:\n\t- name: s\n",
		"a: &a [x, *a]\n",
		"version: !!int x\n",
		"? [a]\n: 1\n",
		"--- 1\n--- 2\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Load("fuzz.yaml", data)
		if err != nil {
			var le *LoadError
			if !errors.As(err, &le) || le.Pos.Line < 1 || le.Pos.Col < 1 {
				t.Fatalf("error is not a positioned *LoadError: %#v", err)
			}
			if !errorForm.MatchString(err.Error()) {
				t.Fatalf("error %q is not FILE:LINE:COL: message", err)
			}
			return
		}
		if file == nil || len(file.Scenarios) == 0 || len(file.Scenarios) > MaxScenarios {
			t.Fatalf("accepted a file with no or too many scenarios: %+v", file)
		}
		for _, s := range file.Scenarios {
			if err := s.Validate(); err != nil {
				t.Fatalf("accepted an invalid scenario: %v", err)
			}
			checkInvariants(t, s)
		}
	})
}

// checkInvariants restates a few rules independently of validate, so a bug
// there (a check skipped, a condition inverted) is caught too.
func checkInvariants(t *testing.T, s *Scenario) {
	t.Helper()
	switch {
	case s.Name == "" || s.Duration <= 0 || s.Duration > MaxDuration:
		t.Fatalf("bad name or duration: %q %v", s.Name, s.Duration)
	case s.Redis.Nodes < 1 || s.Redis.Nodes > MaxNodes || s.Redis.Replicas < 0 || s.Redis.Replicas > MaxReplicas:
		t.Fatalf("bad redis: %+v", s.Redis)
	case s.Lock.TTL <= 0 || s.Lock.Timeout <= 0 || !slices.Contains(Strategies, s.Lock.Strategy):
		t.Fatalf("bad lock: %+v", s.Lock)
	case len(s.Clients) < 1 || len(s.Clients) > MaxClients || len(s.Faults) > MaxFaults:
		t.Fatalf("bad counts: %d clients, %d faults", len(s.Clients), len(s.Faults))
	}
	for _, c := range s.Clients {
		if c.Holds < 1 || c.Holds > MaxHolds || c.Work < 0 || c.Start < 0 || c.Pos.Line < 1 {
			t.Fatalf("bad client: %+v", c)
		}
	}
	for _, f := range s.Faults {
		if f.At < 0 || f.At >= s.Duration || !slices.Contains(FaultKinds, f.Kind) || f.Pos.Line < 1 {
			t.Fatalf("bad fault: %+v", f)
		}
	}
	for _, x := range s.Expect {
		if !slices.Contains(MetricNames, x.Metric) || x.Value < 0 || x.Pos.Line < 1 {
			t.Fatalf("bad expectation: %+v", x)
		}
	}
}
