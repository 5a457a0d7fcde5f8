package scenario

import "github.com/lockstep-sim/lockstep/model"

// The real clients' runtime knobs (model.ClientKnobs): how the file's lock:
// fields become the model's, and their checks.

// WatchdogOnFailure lists lock.watchdog.on_failure's values, in documented
// order.
var WatchdogOnFailure = []string{WatchdogStop, WatchdogRetry}

// NotifyModes lists lock.notify's values, in documented order.
var NotifyModes = []string{NotifyPoll, model.NotifyPubSub}

// NotifyPoll is lock.notify's default: a waiter polls with retry.delay.
const NotifyPoll = "poll"

// The values of lock.watchdog.on_failure.
const (
	WatchdogStop  = "stop"   // a failed renewal ends renewal (the default)
	WatchdogRetry = keyRetry // Redisson: only "the key is not ours" ends it (the word of lock.retry, spelled once)
)

// knobs checks the knobs of lock: (paths as the file writes them).
func (c *checker) knobs(l Lock) {
	at := func(key string) string { return dot(keyLock, key) }
	c.nonNegative(at(keyWait), at(keyWait), l.Wait)
	if l.Notify != "" {
		c.oneOf(at(keyNotify), at(keyNotify), l.Notify, NotifyModes)
	}
	if l.Wait > 0 && l.Retry == nil && l.Notify != model.NotifyPubSub {
		c.errorf(at(keyWait), "%s bounds the retries of %s: without %s there is one attempt and nothing to bound (set %s: {%s: 1000, %s: 100ms}, or %s: %s)",
			at(keyWait), at(keyRetry), keyRetry, keyRetry, keyAttempts, keyDelay, at(keyNotify), model.NotifyPubSub)
	}
	c.nonNegative(at(keyFairTimeout), at(keyFairTimeout), l.FairTimeout)
	c.nonNegative(at(keyHoldAtLeast), at(keyHoldAtLeast), l.HoldAtLeast)
	if l.HoldAtLeast > l.TTL && l.TTL > 0 {
		c.errorf(at(keyHoldAtLeast), "%s %s is longer than %s %s: ShedLock's lockAtLeastFor must not exceed lockAtMostFor (the TTL)",
			at(keyHoldAtLeast), fmtDur(l.HoldAtLeast), at(keyTTL), fmtDur(l.TTL))
	}
	if l.FairTimeout > 0 && !l.Fair {
		c.errorf(at(keyFairTimeout), "%s is the place of a waiter of a fair lock: set %s: true, or drop it", at(keyFairTimeout), at(keyFair))
	}
	if w := l.Watchdog; w != nil && w.OnFailure != "" {
		c.oneOf(dot(at(keyWatchdog), keyOnFailure), dot(keyWatchdog, keyOnFailure), w.OnFailure, WatchdogOnFailure)
	}
	if d := l.Driver; d != nil {
		rp := dot(at(keyDriver), keyRetries)
		if c.required(rp, dot(keyDriver, keyRetries)) {
			c.intRange(rp, dot(keyDriver, keyRetries), d.Retries, 0, MaxDriverRetries)
		}
	}
}
