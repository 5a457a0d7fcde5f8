package model

import "time"

// QueueTimeouts makes w queue every request's timeout as it is armed, the
// order that held timeouts must reproduce (TestHeldTimeoutsKeepTheOrder).
func QueueTimeouts(w *World) { w.queueTimeouts = true }

// ResetLease is (*Lease).reset, what retry does to the lease before each
// attempt.
func ResetLease(l *Lease, token string, start time.Duration) { l.reset(token, start) }
