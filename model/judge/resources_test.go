package judge

import (
	"testing"
	"time"
)

// Overlapping critical sections violate the lock only on a shared
// resource; holds completed per second count every resource.
func TestResourcesAndThroughput(t *testing.T) {
	run := func(res map[string]string) Metrics {
		j := New(Config{Nodes: []string{"redis-1"}, Clients: []string{"A", "B"}, Quorum: 1, Resources: res})
		for _, e := range []Event{
			{At: 0, Kind: EnterCS, Client: "A"},
			{At: time.Millisecond, Kind: EnterCS, Client: "B"},
			{At: 2 * time.Millisecond, Kind: ResourceWrite, Client: "A", Value: 1, OK: true},
			{At: 3 * time.Millisecond, Kind: ResourceWrite, Client: "B", Value: 1, OK: true},
			{At: time.Second, Kind: LeaveCS, Client: "A"},
			{At: 2 * time.Second, Kind: LeaveCS, Client: "B"},
		} {
			j.Feed(&e)
		}
		return j.Metrics()
	}
	if m := run(map[string]string{"A": "s1", "B": "s2"}); m.Violations != 0 || m.LostUpdates != 0 || m.Throughput != 1000 {
		t.Errorf("different resources: %+v", m)
	}
	for _, res := range []map[string]string{nil, {"A": "s1", "B": "s1"}} {
		if m := run(res); m.Violations != 1 || m.LostUpdates != 1 || m.Throughput != 1000 {
			t.Errorf("resources %v: %+v, want one violation, one lost update, 2 holds in 2s", res, m)
		}
	}
}
