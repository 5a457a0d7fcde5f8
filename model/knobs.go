package model

import "time"

// ClientKnobs are the runtime behaviours in which the real lock libraries
// differ from the idealised recipes (issue 13, docs/scenario-format.md).
// The zero value is the idealised client of the seeds: every knob off.
type ClientKnobs struct {
	// Wait bounds the whole acquire, attempts and pauses together, by the
	// client's wall clock: Redisson's tryLock(waitTime, leaseTime) gives up
	// once waitTime has passed (RedissonLock.tryLock: "time -=
	// System.currentTimeMillis() - current; if (time <= 0) acquireFailed").
	// 0: no bound beyond retry.attempts.
	Wait time.Duration
	// DriverRetries is how many times the Redis driver sends a command again
	// whose reply did not come in time, before the recipe sees the timeout
	// (go-redis: MaxRetries 3, a read timeout is retried; Redisson:
	// retryAttempts 4). Each resend reaches Redis: the command runs again.
	DriverRetries int
	// DriverSkipsLock: the driver does not resend the acquire and release
	// commands (Redisson since 3.36 sends its lock and unlock scripts with
	// evalWriteSyncedNoRetryAsync; renewals are still retried).
	DriverSkipsLock bool
	// FairTimeout is how long a fair-lock waiter keeps its place in the
	// queue without polling (Redisson's threadWaitTime); 0: the default of
	// placeTimeout (model/recipe/fair.go).
	FairTimeout time.Duration
	// CheckBeforeWrite: the client compares its lease with its clock just
	// before its write and skips the write when the lease has run out.
	CheckBeforeWrite bool
	// Notify is how a waiter learns of a release: "" polls (retry.delay);
	// NotifyPubSub waits for Redisson's release message (pubsub.go).
	Notify string
	// Regrant: the acquire also grants when the key already holds our
	// token (bsm/redislock's obtain.lua), for set-del and lua-release
	// without a variant; a resent acquire is then harmless.
	Regrant bool
	// HoldAtLeast is ShedLock's lockAtLeastFor: a release sooner than this
	// after the acquire began (by the client's wall clock) keeps the key
	// and sets its TTL to what is left (model/recipe/hold_at_least.go); 0: off.
	HoldAtLeast time.Duration
}

// MaxDriverRetries bounds ClientKnobs.DriverRetries (the scenario format's
// limit says the same).
const MaxDriverRetries = 16
