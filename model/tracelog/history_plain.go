package tracelog

import (
	"fmt"
	"time"

	"github.com/lockstep-sim/lockstep/model/judge"
)

// judgeable turns plain history records into judge events, in time order,
// and names the world's nodes and clients from them unless a world record
// did.
func (hf *HistoryFile) judgeable(file string, recs []History, lines []int, world bool) error {
	implicit := true
	for _, h := range recs {
		if h.Op == "enter" || h.Op == "leave" {
			implicit = false
		}
	}
	seenN, seenC := map[string]bool{}, map[string]bool{}
	last := time.Duration(-1)
	for i := range recs {
		h := &recs[i]
		fail := func(format string, a ...any) error { return &Error{file, lines[i], fmt.Sprintf(format, a...)} }
		e, ok, err := h.Judge(implicit)
		if err != nil {
			return fail("%v", err)
		}
		if e.At < last {
			return fail("at_ms %g is before the record above it: a history is in time order", h.AtMS)
		}
		last = e.At
		if !world {
			if err := hf.learn(h, seenN, seenC); err != nil {
				return fail("%v", err)
			}
		}
		hf.Records++
		hf.End = e.At
		if ok {
			hf.Events = append(hf.Events, e)
		}
	}
	if !world {
		hf.Header.Quorum = len(hf.Header.Nodes)/2 + 1
	}
	if len(hf.Events) == 0 || hf.Events[len(hf.Events)-1].Kind != judge.Final {
		hf.Events = append(hf.Events, hf.final())
	}
	return nil
}

// learn adds the node and client a record names to the header.
func (hf *HistoryFile) learn(h *History, nodes, clients map[string]bool) error {
	for _, n := range append([]string{h.Node, h.Other}, h.Holding...) {
		if n != "" && !nodes[n] {
			if len(nodes) == MaxNodes {
				return fmt.Errorf("more than %d nodes", MaxNodes)
			}
			nodes[n] = true
			hf.Header.Nodes = append(hf.Header.Nodes, Node{Name: n, Role: "master", Lock: true})
		}
	}
	if c := h.Client; c != "" && !clients[c] {
		if len(clients) == MaxClients {
			return fmt.Errorf("more than %d clients", MaxClients)
		}
		clients[c] = true
		hf.Header.Clients = append(hf.Header.Clients, Client{Name: c})
	}
	return nil
}

// final is the end of a plain history without a final record: which
// nodes hold the lock key then is not known, so nothing is judged stuck.
func (hf *HistoryFile) final() judge.Event {
	return judge.Event{At: hf.End, Kind: judge.Final, KeyKnown: true, Key: judge.KeyState{TTL: -2, Expires: -1}, Detail: &judge.Detail{Early: -1}}
}
