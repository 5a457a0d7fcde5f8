package scenario_test

import (
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/scenario"
)

// unheldYAML: A's 10s GC pause outlasts its 5s lease; B takes the lock at
// 5.1s, C after B's release at 9.2s. A wakes at 10.5s and releases a lock
// it does not hold: with Lua that deletes nothing; with a blind DEL
// (set-del) it deletes C's lock, so it is a wrong release as well.
const unheldYAML = `version: 1
scenarios:
  - name: unheld-lua
    title: A releases after its lease ran out (Lua release)
    story: the release of a lock you no longer hold
    duration: 30s
    lock: {key: lock, strategy: lua-release, ttl: 5s, retry: {attempts: 100, delay: 500ms}}
    clients:
      - {name: A, work: 1s}
      - {name: B, start: 100ms, work: 4s}
      - {name: C, start: 200ms, work: 3s}
    faults:
      - at: 500ms
        pause: {target: A, for: 10s}
    expect: {unheld_releases: 1, wrong_releases: 0}
  - name: unheld-del
    title: A releases after its lease ran out (blind DEL)
    story: the release of a lock you no longer hold deletes another's
    duration: 30s
    lock: {key: lock, strategy: set-del, ttl: 5s, retry: {attempts: 100, delay: 500ms}}
    clients:
      - {name: A, work: 1s}
      - {name: B, start: 100ms, work: 4s}
      - {name: C, start: 200ms, work: 3s}
    faults:
      - at: 500ms
        pause: {target: A, for: 10s}
    expect: {unheld_releases: ">= 1", wrong_releases: 1}
  - name: unheld-expected-none
    title: the same run, expecting no unheld release
    story: expect can test the metric
    duration: 30s
    lock: {key: lock, strategy: lua-release, ttl: 5s, retry: {attempts: 100, delay: 500ms}}
    clients:
      - {name: A, work: 1s}
      - {name: B, start: 100ms, work: 4s}
      - {name: C, start: 200ms, work: 3s}
    faults:
      - at: 500ms
        pause: {target: A, for: 10s}
    expect: {unheld_releases: 0}
`

// TestUnheldReleaseIsCountedAndTraced: a release by a client whose lease
// expired is an UNHELD-RELEASE line of its own and the unheld_releases
// metric, which expect: tests; it is a wrong release only when it deleted
// another client's key.
func TestUnheldReleaseIsCountedAndTraced(t *testing.T) {
	f, err := scenario.Load("unheld.yaml", []byte(unheldYAML))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		ok   bool
	}{{"unheld-lua", true}, {"unheld-del", true}, {"unheld-expected-none", false}} {
		s, err := f.Find(c.name)
		if err != nil {
			t.Fatal(err)
		}
		r := newRunnerT(t, s, scenario.Options{})
		rep := r.Run()
		var lines []string
		for _, e := range r.Events() {
			if e.Kind == "UNHELD-RELEASE" {
				lines = append(lines, e.Proc+": "+e.Msg)
			}
		}
		r.Close()
		if rep.OK != c.ok {
			t.Errorf("%s: ok %v, want %v: %+v", c.name, rep.OK, c.ok, rep.Expectations)
		}
		if len(lines) == 0 || !strings.HasPrefix(lines[0], "A: A releases a lock it does not hold (its lease on redis-1 expired at 5.") {
			t.Errorf("%s: UNHELD-RELEASE lines %q, want A's first", c.name, lines)
		}
		if int64(len(lines)) != rep.UnheldReleases {
			t.Errorf("%s: %d UNHELD-RELEASE lines, metric %d", c.name, len(lines), rep.UnheldReleases)
		}
	}
}
