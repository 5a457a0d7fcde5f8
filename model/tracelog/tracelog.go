// Package tracelog is lockstep's trace file format (docs/trace-format.md)
// and the history format `lockstep check` reads (docs/history-format.md):
// JSON lines, a header record first (the format version and the world:
// nodes, clients, lock key, strategy, duration), then trace events (the
// English message beside a message id and its arguments) interleaved with
// the history the judge read (typed events: what clients did and believed,
// what commands did to the lock key on each node, what the resource
// accepted), and an end record with the trace hash.
//
// Writing and reading are both here so that the two cannot drift apart: a
// run (scenario), the real-client harness and any other producer write with
// Writer; the TUI's trace player and `lockstep check` read with Scan.
package tracelog

import "time"

// Format is the value of the header's "format" field.
const Format = "lockstep-trace"

// Version is the trace format version this package writes, and the only
// one it reads: a reader refuses any other, since a field whose meaning
// changed would be judged wrongly rather than fail.
const Version = 1

// Record types (the "type" field of every line).
const (
	TypeHeader  = "header"
	TypeEvent   = "event"
	TypeHistory = "history"
	TypeEnd     = "end"
)

// The bounds a reader enforces, so that a hostile or broken file costs a
// clear message, not the machine's memory.
const (
	// MaxLineBytes is the longest line, newline excluded.
	MaxLineBytes = 1 << 20
	// MaxLines is the most lines of one file.
	MaxLines = 20_000_000
	// MaxNodes is the most nodes of a header (masters and replicas).
	MaxNodes = 64
	// MaxClients is the most clients of a header.
	MaxClients = 1024
	// MaxSentinels is the most sentinels of a header.
	MaxSentinels = 16
	// MaxNameLen is the longest name (scenario, node, client, sentinel,
	// strategy, key), in bytes.
	MaxNameLen = 256
	// MaxTitleLen is the longest title, in bytes.
	MaxTitleLen = 1024
	// MaxDuration bounds every time and length in a file: 1000 hours,
	// room for any recorded system's history, far inside int64 nanoseconds.
	MaxDuration = 1000 * time.Hour
)
