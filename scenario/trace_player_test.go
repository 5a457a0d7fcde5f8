package scenario

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/faults"
)

// traceView is what a snapshot shows, as one comparable string.
func traceView(s Snapshot) string {
	var b strings.Builder
	fmt.Fprintf(&b, "t=%d ev=%d %+v %q res=%d/%d/%d\n", s.Now, s.Event, s.Metrics, s.FirstViolation, s.Resource.Value, s.Resource.Accepted, s.Resource.Rejected)
	for _, c := range s.Clients {
		fmt.Fprintf(&b, "%s %s hold=%d believes=%v %s fence=%d until=%d incs=%v owns=%v\n", c.Name, c.State, c.Hold, c.Believes, c.Token, c.Fence, c.Until, c.InCS, c.OwnsKey)
	}
	for _, n := range s.Nodes {
		fmt.Fprintf(&b, "%s %s up=%v", n.Name, n.Role(), n.Up)
		for _, k := range n.Keys {
			if k.Lock {
				fmt.Fprintf(&b, " %s owner=%s ttl=%d", k.Key, k.Owner, k.TTL.Milliseconds())
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// A recorded trace played back shows what the live run showed, at every
// step: clients' belief and truth, the lock key on every node (its owner and
// TTL), the resource, the metrics; and it refuses faults and export. The
// default set covers every feature family; LOCKSTEP_TRACE_ALL=1 plays every
// bundled scenario.
func TestTracePlayerMatchesTheRun(t *testing.T) {
	names := []string{"gc-pause-wrong-delete", "fencing-token-kleppmann", "node-crash-everysec", "failover-before-replication",
		"redlock-k3-clock-jump", "sentinel-split-brain", "watchdog-hung-capped", "node-clock-drift-fast", "partitioned-holder-watchdog-fenced",
		"failover-after-replication", "reentrant-nested", "node-crash-restart-delay",
		// One of every later feature family: eviction, min_replicas,
		// wait_replicas, links, client profiles, pub/sub notify, a driver's
		// resend, redis.version, named resources, several keys a hold,
		// idempotency.
		"evicted-lock-volatile-lru", "min-replicas-split-brain", "wait-replicas-failover", "redlock-split-vote",
		"node-redlock-negative-validity", "redislock-no-retry", "redisson-notify-lost", "driver-resend-setnx",
		"replica-clock-ahead-redis6", "replica-clock-ahead-redis7", "granularity-key-per-resource", "multikey-deadlock",
		"idempotency-job-key"}
	if os.Getenv("LOCKSTEP_TRACE_ALL") != "" {
		names = nil
		for _, s := range loadBundled(t).Scenarios {
			names = append(names, s.Name)
		}
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			data, _ := recordTrace(t, name)
			tp, err := OpenTrace(name+".jsonl", bytes.NewReader(data), "")
			if err != nil {
				t.Fatal(err)
			}
			live, err := Open(bundledScenario(t, name), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer live.Close()
			if tp.Total() != live.Total() || tp.End() != live.End() || tp.Final().Metrics != live.Final().Metrics {
				t.Fatalf("trace: %d events to %s %+v; run: %d to %s %+v", tp.Total(), tp.End(), tp.Final().Metrics, live.Total(), live.End(), live.Final().Metrics)
			}
			diffs := 0
			for i := 0; i <= live.Steps() && diffs < 3; i++ {
				live.Seek(i)
				tp.Seek(live.Event())
				if a, b := traceView(live.Snapshot()), traceView(tp.Snapshot()); a != b {
					t.Errorf("step %d:\nrun:\n%s\ntrace:\n%s", i, a, b)
					diffs++
				}
			}
			if _, _, err := tp.WithFault(faults.Fault{Kind: faults.Pause, Target: "A"}); err == nil {
				t.Error("a recorded trace took a fault")
			}
		})
	}
}
