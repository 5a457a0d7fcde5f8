package judge

import (
	"strings"
	"testing"
	"time"
)

// releaseJudge is a judge of one node whose trace lines go to lines.
func releaseJudge(lines *[]string) *Judge {
	return New(Config{Nodes: []string{"redis-1"}, Clients: []string{"A", "B"}, Quorum: 1,
		Emit: func(proc, kind, msg string) { *lines = append(*lines, proc+" "+kind+" "+msg) }})
}

// grantTo feeds client c's grant on redis-1 at t, with a TTL of ttl.
func grantTo(j *Judge, c string, t, ttl time.Duration) {
	j.Feed(&Event{At: t, Kind: Command, Op: OpAcquire, Client: c, Node: "redis-1", After: true, KeyKnown: true,
		Key: KeyState{Held: true, Owner: c + "-1", TTL: ttl, Expires: t + ttl}})
	j.Feed(&Event{At: t, Kind: EnterCS, Client: c})
}

// A release is unheld when the releaser's grant is not in force by true
// time: it expired (even if no command has seen the key go yet), or the
// client never got the lock. A release of a lock still held is not.
func TestUnheldReleases(t *testing.T) {
	for _, c := range []struct {
		name    string
		feed    func(j *Judge)
		unheld  int64
		because string
	}{
		{"held", func(j *Judge) {
			grantTo(j, "A", 0, 10*time.Second)
			j.Feed(&Event{At: 5 * time.Second, Kind: LeaveCS, Client: "A"})
			j.Feed(&Event{At: 5 * time.Second, Kind: Releasing, Client: "A"})
		}, 0, ""},
		{"expired", func(j *Judge) {
			grantTo(j, "A", 0, 10*time.Second)
			j.Feed(&Event{At: 12 * time.Second, Kind: LeaveCS, Client: "A"})
			j.Feed(&Event{At: 12 * time.Second, Kind: Releasing, Client: "A"})
		}, 1, "A releases a lock it does not hold (its lease on redis-1 expired at 10.000s)"},
		{"expired, then taken by B", func(j *Judge) {
			grantTo(j, "A", 0, 10*time.Second)
			grantTo(j, "B", 11*time.Second, 10*time.Second) // B's SET saw the key gone: A's grant ended
			j.Feed(&Event{At: 12 * time.Second, Kind: LeaveCS, Client: "A"})
			j.Feed(&Event{At: 12 * time.Second, Kind: Releasing, Client: "A"})
		}, 1, "A releases a lock it does not hold (its lease on redis-1 expired at 10.000s)"},
		{"acquire failed", func(j *Judge) {
			j.Feed(&Event{At: time.Second, Kind: AcquireFailed, Client: "A"})
			j.Feed(&Event{At: time.Second, Kind: Releasing, Client: "A"})
		}, 1, "A releases a lock it does not hold (its acquire failed)"},
	} {
		var lines []string
		j := releaseJudge(&lines)
		c.feed(j)
		if got := j.Metrics().UnheldReleases; got != c.unheld {
			t.Errorf("%s: unheld releases %d, want %d", c.name, got, c.unheld)
		}
		if c.because == "" {
			if len(lines) > 0 {
				t.Errorf("%s: trace %q, want nothing", c.name, lines)
			}
			continue
		}
		want := "A UNHELD-RELEASE " + c.because
		if len(lines) == 0 || !strings.Contains(strings.Join(lines, "\n"), want) {
			t.Errorf("%s: trace %q, want a line %q", c.name, lines, want)
		}
		if j.Metrics().WrongReleases != 0 {
			t.Errorf("%s: an unheld release that deleted nothing is not a wrong release", c.name)
		}
	}
}
