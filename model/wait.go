package model

import (
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// waitBound is lock.wait: tryLock(waitTime, leaseTime)'s bound on a whole
// acquire. Redisson measures it with System.currentTimeMillis, so it runs
// on the client's wall clock (a clock jump moves it); it gives up when the
// time is over, after an attempt or after a pause, without a last attempt
// (RedissonLock.tryLock: "time -= System.currentTimeMillis() - current;
// if (time <= 0) { acquireFailed(...); return false; }"), and it never
// waits longer than what is left (the latch's tryAcquire(time)).
type waitBound struct {
	total time.Duration // 0: no bound
	until time.Duration // by the client's wall clock
}

func newWaitBound(t *Thread, total time.Duration) waitBound {
	if total <= 0 {
		return waitBound{}
	}
	return waitBound{total: total, until: t.Wall() + total}
}

// pause sleeps d, cut to what is left of the wait; false when the wait is
// over (before or after the pause): the acquire gives up.
func (b waitBound) pause(t *Thread, d time.Duration) bool {
	if b.total == 0 {
		t.Sleep(d)
		return true
	}
	left := b.until - t.Wall()
	if left <= 0 {
		return false
	}
	t.Sleep(min(d, left))
	return b.until-t.Wall() > 0
}

// stillValid is check_before_write: the tutorials' "if the lease has run
// out by now, do not write". It is checked on the client's own clock, just
// before the write is sent; what it cannot see is what happens after (the
// write's transit to the resource, a clock that runs slow), the window the
// check leaves open (TestCheckBeforeWriteWindow).
func (c *Client) stillValid(t *Thread, l *Lease) bool {
	now := t.Wall()
	if l.Until < 0 || now < l.Until {
		return true
	}
	b := append(c.w.line(), "check before write: the lease of "...)
	b = append(b, l.Token...)
	b = sim.AppendTime(append(b, " ended at "...), l.Until)
	b = sim.AppendTime(append(b, " by its clock, now "...), now)
	c.w.sayLine(c.Name, "write-skipped", "write-skipped", append(b, "; the write is skipped"...),
		sim.S("token", l.Token), sim.I("until_ns", int64(l.Until)), sim.I("now_ns", int64(now)))
	return false
}

// pauseBeforeRetry is the pause after failed attempt i: the retry delay, or
// under notify: pubsub the wait for a release message; false when lock.wait
// ran out.
func (c *Client) pauseBeforeRetry(t *Thread, wait waitBound, i int) bool {
	if c.w.Cfg.Lock.Knobs.Notify == NotifyPubSub {
		return c.awaitRelease(t, wait)
	}
	return wait.pause(t, c.retryDelay(i))
}
