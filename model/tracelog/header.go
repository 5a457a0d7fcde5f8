package tracelog

import (
	"fmt"
	"time"
)

// Header is the first record of a trace: what world the events happened
// in. The TUI's trace player draws its panels' rows from it, and the judge
// takes its configuration (nodes, clients, quorum) from it.
type Header struct {
	Type     string `json:"type"`    // "header"
	Format   string `json:"format"`  // "lockstep-trace"
	Version  int    `json:"version"` // Version
	Scenario string `json:"scenario"`
	Title    string `json:"title,omitempty"`
	Seed     uint64 `json:"seed"`
	Strategy string `json:"strategy"`
	Key      string `json:"key"`
	// TTLMS is the lock's TTL in milliseconds (0: none or not known).
	TTLMS float64 `json:"ttl_ms,omitempty"`
	// DurationMS is the run's duration in milliseconds.
	DurationMS float64 `json:"duration_ms"`
	// Quorum is how many lock nodes must hold a grant for it to be in force.
	Quorum         int      `json:"quorum"`
	Watchdog       bool     `json:"watchdog,omitempty"`
	Fencing        bool     `json:"fencing,omitempty"`
	Nodes          []Node   `json:"nodes"`
	Sentinels      []string `json:"sentinels,omitempty"`
	SentinelQuorum int      `json:"sentinel_quorum,omitempty"`
	Clients        []Client `json:"clients"`
}

// Node is one Redis node of the world.
type Node struct {
	Name string `json:"name"`
	// Role is "master" or "replica" at the start of the run.
	Role string `json:"role"`
	// Master names a replica's master; "" for a master.
	Master string `json:"master,omitempty"`
	// Lock: the node is one the lock strategy writes the lock key to.
	Lock bool `json:"lock,omitempty"`
}

// Client is one lock client of the world.
type Client struct {
	Name  string `json:"name"`
	Holds int    `json:"holds,omitempty"`
	// Resource names the resource the client's work reads and writes when
	// clients work on different ones (lock.granularity); "": the one
	// resource every client shares.
	Resource string `json:"resource,omitempty"`
}

// Duration is the header's duration.
func (h *Header) Duration() time.Duration { return msDur(h.DurationMS) }

// NewHeader is a header of the current format with the fields given.
func NewHeader() Header { return Header{Type: TypeHeader, Format: Format, Version: Version} }

// check validates a header against the format and the bounds.
func (h *Header) check() error {
	switch {
	case h.Format != Format:
		return fmt.Errorf("not a lockstep trace: the header's format is %q, want %q", clip(h.Format), Format)
	case h.Version != Version:
		return fmt.Errorf("trace format version %d is not supported: this lockstep reads version %d (write the trace again with this version)", h.Version, Version)
	case len(h.Nodes) > MaxNodes:
		return fmt.Errorf("%d nodes: at most %d", len(h.Nodes), MaxNodes)
	case len(h.Clients) == 0:
		return fmt.Errorf("the header names no clients")
	case len(h.Clients) > MaxClients:
		return fmt.Errorf("%d clients: at most %d", len(h.Clients), MaxClients)
	case len(h.Sentinels) > MaxSentinels:
		return fmt.Errorf("%d sentinels: at most %d", len(h.Sentinels), MaxSentinels)
	case len(h.Title) > MaxTitleLen:
		return fmt.Errorf("title of %d bytes: at most %d", len(h.Title), MaxTitleLen)
	case h.Quorum < 0 || h.Quorum > MaxNodes:
		return fmt.Errorf("quorum %d: must be 0..%d", h.Quorum, MaxNodes)
	}
	if err := checkMS("duration_ms", h.DurationMS); err != nil {
		return err
	}
	if err := checkMS("ttl_ms", h.TTLMS); err != nil {
		return err
	}
	names := []string{h.Scenario, h.Strategy, h.Key}
	for _, n := range h.Nodes {
		names = append(names, n.Name, n.Master)
		if n.Role != "master" && n.Role != "replica" {
			return fmt.Errorf("node %q: role %q, want master or replica", clip(n.Name), clip(n.Role))
		}
	}
	for _, c := range h.Clients {
		names = append(names, c.Name, c.Resource)
		if c.Name == "" {
			return fmt.Errorf("a client without a name")
		}
	}
	names = append(names, h.Sentinels...)
	for _, n := range names {
		if len(n) > MaxNameLen {
			return fmt.Errorf("name %q of %d bytes: at most %d", clip(n), len(n), MaxNameLen)
		}
	}
	return nil
}

// ClientNames are the header's client names, in order.
func (h *Header) ClientNames() []string {
	out := make([]string, len(h.Clients))
	for i, c := range h.Clients {
		out[i] = c.Name
	}
	return out
}

// Resources maps each client to the resource it works on, as the judge
// takes it (judge.Config.Resources): nil when no client names one.
func (h *Header) Resources() map[string]string {
	var m map[string]string
	for _, c := range h.Clients {
		if c.Resource != "" {
			m = map[string]string{}
			break
		}
	}
	if m == nil {
		return nil
	}
	for _, c := range h.Clients {
		m[c.Name] = c.Resource
	}
	return m
}

// NodeNames are the header's node names, in order.
func (h *Header) NodeNames() []string {
	out := make([]string, len(h.Nodes))
	for i, n := range h.Nodes {
		out[i] = n.Name
	}
	return out
}

// clip shortens a value quoted in an error message.
func clip(s string) string {
	const n = 40
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// msDur is milliseconds as a duration (rounded to the nanosecond). The
// product is rounded before the half is added (the conversion), so a
// machine that fuses a multiply and an add (arm64) reads the same trace.
func msDur(ms float64) time.Duration {
	return time.Duration(float64(ms*float64(time.Millisecond)) + 0.5*sign(ms))
}

func sign(f float64) float64 {
	if f < 0 {
		return -1
	}
	return 1
}

// checkMS bounds a time or length in milliseconds.
func checkMS(field string, ms float64) error {
	if ms != ms || ms < -float64(MaxDuration/time.Millisecond) || ms > float64(MaxDuration/time.Millisecond) {
		return fmt.Errorf("%s %g: must be within ±%s", field, ms, MaxDuration)
	}
	return nil
}
