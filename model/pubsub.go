package model

import (
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// Redisson's release notification (lock.notify: pubsub). A waiter does not
// poll: after its first failed attempt it subscribes to the lock's channel
// (RedissonLock.tryLock: subscribe(threadId)) and waits on a latch for a
// release message, at most the key's remaining TTL and what is left of
// lock.wait ("if (ttl >= 0 && ttl < time) latch.tryAcquire(ttl) else
// latch.tryAcquire(time)"), then tries again. The holder's unlock script
// publishes on the channel when it deletes the key (LockPubSub.UNLOCK_MESSAGE);
// an expiry publishes nothing. The message is a message on the simulated
// network from the node to each subscriber, so a partition or a lossy link
// drops it and the waiter falls back to its TTL-bounded wait.
//
// Simplifications: the subscription is in place at once (Redisson's
// SUBSCRIBE is a round trip of its own), the remaining TTL is asked with a
// PTTL after the failed attempt (Redisson's acquire script returns it), and
// every subscriber is told (Redisson's fair lock tells the next waiter only).

// NotifyPubSub is LockConfig.Knobs.Notify for Redisson's release
// notification; "" polls with retry.delay.
const NotifyPubSub = "pubsub"

// minNotifyWait is the shortest wait for a notification: a key about to
// expire (PTTL 0) must not make a waiter spin at one instant.
const minNotifyWait = time.Millisecond

// subscription is a waiter's place on the lock's channel, for one acquire.
type subscription struct {
	// pending: a release message came while the waiter was trying again;
	// like the latch's permit it ends the next wait at once.
	pending bool
	wake    func() // set while the waiter waits
}

// awaitRelease is the pause between two attempts under notify: pubsub;
// false when lock.wait ran out.
func (c *Client) awaitRelease(t *Thread, wait waitBound) bool {
	if c.sub == nil {
		c.sub = &subscription{}
	}
	d := c.remainingTTL(t)
	if wait.total > 0 {
		left := wait.until - t.Wall()
		if left <= 0 {
			return false
		}
		d = min(d, left)
	}
	if c.sub.pending {
		c.sub.pending = false
	} else {
		c.parkForRelease(t, max(d, minNotifyWait))
	}
	return wait.total == 0 || wait.until-t.Wall() > 0
}

// remainingTTL is the lock key's PTTL on the lock's node: how long the
// waiter may wait for a message (no expiry, or no answer: until lock.wait
// ends, or for ever).
func (c *Client) remainingTTL(t *Thread) time.Duration {
	r, err := t.Call(t.master(0), OpOther, "PTTL", c.w.Cfg.Lock.Key)
	ms, ok := r.(int)
	switch {
	case err != nil || !ok || ms == -1:
		return maxNotifyWait
	case ms < 0: // -2: the key is gone; try again at once
		return 0
	}
	return time.Duration(ms) * time.Millisecond
}

// maxNotifyWait is the wait for a message when nothing bounds it.
const maxNotifyWait = 24 * time.Hour

// parkForRelease waits d by the client's monotonic clock (Java's
// Semaphore.tryAcquire) or until a release message arrives.
func (c *Client) parkForRelease(t *Thread, d time.Duration) {
	tk := t.p.Arm()
	sub := c.sub
	timer := c.afterLocal(d, func() {
		sub.wake = nil
		c.w.Tell(c.Name, "notify-timeout", "notify-timeout", sim.I("within_ns", int64(d)))
		tk.Wake(nil)
	})
	sub.wake = func() { timer.Stop(); tk.Wake(nil) }
	t.p.Park()
	sub.wake = nil
}

// AwaitsRelease reports whether the client waits now for a release message
// on the lock's channel (lock.notify: pubsub), between two attempts.
func (c *Client) AwaitsRelease() bool { return c.sub != nil && c.sub.wake != nil }

// unsubscribe ends the waiter's subscription (the acquire is over).
func (c *Client) unsubscribe() { c.sub = nil }

// publishRelease is the unlock script's PUBLISH: node n tells every
// subscribed client, in client order, over the network. A message the
// partition stops is said so here (the network's own drop line would call
// it a lost reply); one lost on a lossy link is the network's reply-lost.
func (w *World) publishRelease(n *Node) {
	b := append(w.line(), "publishes the release of "...)
	b = append(append(b, w.Cfg.Lock.Key...), " to"...)
	subs := len(b)
	for _, c := range w.Clients {
		if c.sub != nil && !c.group.Dead() {
			b = append(append(b, ' '), c.Name...)
		}
	}
	if len(b) == subs {
		return
	}
	w.sayLine(n.Name(), "publish", "publish", b, sim.S("key", w.Cfg.Lock.Key), sim.S("clients", string(b[subs+1:])))
	for _, c := range w.Clients {
		switch {
		case c.sub == nil || c.group.Dead():
		case !w.Net.Connected(n.Name(), c.Name):
			w.Tell(n.Name(), "notify-lost", "notify-lost", sim.S("client", c.Name))
		default:
			w.Net.Send(n.Name(), c.Name, c.releaseMessage)
		}
	}
}

// releaseMessage is the arrival of a release message at the client.
func (c *Client) releaseMessage() {
	sub := c.sub
	if sub == nil || c.group.Dead() {
		return // no longer waiting: the message is ignored
	}
	c.w.Tell(c.Name, "notified", "notified")
	if sub.wake != nil {
		sub.wake()
		return
	}
	sub.pending = true
}

// releasedKey reports whether the release reply of call deleted the lock
// key on its node: what makes the unlock script publish.
func (w *World) releasedKey(n *Node, reply any) bool {
	return reply == 1 && !n.Exists(w.Now(), w.Cfg.Lock.Key)
}
