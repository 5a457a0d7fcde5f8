// Package redlock is the Redlock family: the multi-master lock of the
// redis.io distributed-locks page (redlock.go) and the knobs in which the
// libraries that implement it differ (family.go), its command cache
// (args.go), what an attempt looked like for its observers (attempt.go,
// trace.go) and node-redlock's abortable work (using.go).
//
// It is a model.Strategy written against the recipe API of package model
// (Thread's calls, sleeps and clocks, the trace, the lease) and registers
// itself with model.RegisterStrategy when linked; scenario/build.go links
// it. Which designs are legal is decided in scenario/design.go, not here.
package redlock
