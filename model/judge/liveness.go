package judge

import "time"

// liveness is the judge's books on progress rather than safety: clients
// that wait for each other's keys, and how fast holds get done.
type liveness struct {
	firstDeadlock string
	completed     int64         // holds that left their critical section
	lastDone      time.Duration // when the last of them did
}

// deadlock reads a Deadlock event: counted, the first one kept to explain.
func (j *Judge) deadlock(e *Event) {
	j.m.Deadlocks++
	if j.live.firstDeadlock == "" {
		j.live.firstDeadlock = e.Note
	}
}

// FirstDeadlock explains the first time clients waited for each other's
// keys; "" when they never did.
func (j *Judge) FirstDeadlock() string { return j.live.firstDeadlock }

// holdDone counts a hold leaving its critical section (a crash ends a
// hold too, but does not complete it: that is not a LeaveCS).
func (j *Judge) holdDone(at time.Duration, c *client) {
	if !c.inCS {
		return
	}
	j.live.completed++
	j.live.lastDone = at
}

// throughput is holds completed per simulated second up to the last
// completion, in thousandths; 0 before any.
func (j *Judge) throughput() int64 {
	if j.live.completed == 0 || j.live.lastDone <= 0 {
		return 0
	}
	return j.live.completed * int64(time.Second) * 1000 / int64(j.live.lastDone)
}
