package model

// QueueTimeouts makes w queue every request's timeout as it is armed, the
// order that held timeouts must reproduce (TestHeldTimeoutsKeepTheOrder).
func QueueTimeouts(w *World) { w.queueTimeouts = true }
