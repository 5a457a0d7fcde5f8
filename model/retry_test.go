package model

import (
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// TestRetryDelaySaturates: a backoff whose powers overflow gives the
// longest wait there is (sim.Never), not whatever the CPU makes of
// converting 1e300 to an integer (amd64: a negative delay, so no wait).
func TestRetryDelaySaturates(t *testing.T) {
	w, err := NewWorld(Config{
		Seed: 1, Duration: time.Minute, Latency: time.Millisecond,
		Nodes: NodesConfig{Masters: 1, ReplicationLag: 10 * time.Millisecond},
		Lock: LockConfig{Key: "k", Strategy: StrategyLuaRelease, TTL: time.Second, Timeout: time.Second,
			Retry: &RetryConfig{Attempts: 10, Delay: time.Millisecond, Backoff: 1e300, Jitter: 0.5}},
		Clients: []ClientConfig{{Name: "A", Holds: 1}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	c := w.Clients[0]
	if d := c.retryDelay(1); d <= 0 || d > time.Millisecond {
		t.Errorf("first delay %s, want within (0, 1ms]", d)
	}
	for i := 2; i <= 5; i++ {
		if d := c.retryDelay(i); d != sim.Never {
			t.Errorf("delay after attempt %d with backoff 1e300: %d, want sim.Never", i, d)
		}
	}
}
