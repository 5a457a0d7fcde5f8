// Package keyhold keeps the books of holds that need several lock keys
// (lock.keys): each client's keys in the order it takes them, how far it
// got, which key it polls, and who holds each key, by the clients' own
// belief. From those it tells when clients wait for each other in a circle
// (a deadlock) and explains it. It knows nothing of Redis or of the
// simulation: the recipe in package model sends the commands and tells the
// book what happened.
package keyhold

import (
	"slices"
	"strings"
	"time"
)

// Book is the holds of one world's clients.
type Book struct {
	ttl   time.Duration     // the keys' TTL, for explanations
	holds map[string]*Hold  // by client name
	owner map[string]string // key -> the client that believes it holds it
}

// Hold is one client's progress through its keys.
type Hold struct {
	Keys     []string // in the order it takes them
	Token    string
	Taken    int           // Keys[:Taken] are held
	Attempts int           // attempts of the acquire in progress
	Since    time.Duration // by its wall clock, when it sent the first key's command
	client   string
	waiting  string // the key it polls; "" none
	reported bool   // the wait it is in was reported as a deadlock
}

// New is an empty book for keys with this TTL.
func New(ttl time.Duration) *Book {
	return &Book{ttl: ttl, holds: map[string]*Hold{}, owner: map[string]string{}}
}

// Of is client's hold, made on first use with its keys (sorted when
// sorted: the cure for opposite orders).
func (b *Book) Of(client string, keys []string, sorted bool) *Hold {
	h := b.holds[client]
	if h == nil {
		h = &Hold{Keys: slices.Clone(keys), client: client}
		if sorted {
			slices.Sort(h.Keys)
		}
		b.holds[client] = h
	}
	return h
}

// Took records that h's client took key.
func (b *Book) Took(h *Hold, key string) {
	h.Taken++
	b.owner[key] = h.client
}

// TookAll records that h's client took every key at once.
func (b *Book) TookAll(h *Hold) {
	for h.Taken < len(h.Keys) {
		b.Took(h, h.Keys[h.Taken])
	}
}

// Granted ends h's waiting: it has every key.
func (b *Book) Granted(h *Hold) { h.waiting, h.reported, h.Attempts = "", false, 0 }

// GaveBack records that h's client released its keys and starts afresh.
func (b *Book) GaveBack(h *Hold) {
	for _, k := range h.Keys[:h.Taken] {
		if b.owner[k] == h.client {
			delete(b.owner, k)
		}
	}
	h.Taken, h.Attempts, h.waiting, h.reported = 0, 0, "", false
}

// Wait records that h's client polls key while holding the keys it took.
// When that closes a circle (it waits for a key whose holder waits,
// through others, for a key it holds), Wait returns it, once per circle
// until one of them gets its keys or gives up.
func (b *Book) Wait(h *Hold, key string) (Circle, bool) {
	h.waiting = key
	if h.reported || h.Taken == 0 {
		return Circle{}, false
	}
	circle := []*Hold{h}
	for x := b.owner[key]; x != h.client; {
		hx := b.holds[x]
		if x == "" || hx == nil || hx.waiting == "" || len(circle) > len(b.holds) {
			return Circle{}, false // nobody, or somebody who is not waiting, or a circle without h
		}
		circle = append(circle, hx)
		x = b.owner[hx.waiting]
	}
	if len(circle) < 2 {
		return Circle{}, false
	}
	c := Circle{TTL: b.ttl, Links: make([]Link, len(circle))}
	for i, x := range circle {
		x.reported = true
		c.Links[i] = Link{Client: x.client, Holds: slices.Clone(x.Keys[:x.Taken]), WaitsFor: x.waiting}
	}
	return c, true
}

// Circle is clients waiting for each other's keys, in the order of the
// wait: each link's client waits for a key the next one holds, the last
// for one of the first's. It is kept as data, so that a reader can say it
// in another language; String is the English.
type Circle struct {
	Links []Link
	TTL   time.Duration // the keys' TTL, which is what frees them
}

// Link is one client of a circle: the keys it holds and the one it polls.
type Link struct {
	Client   string
	Holds    []string
	WaitsFor string
}

// HoldsText is the link's keys as a list, "k1, k2".
func (l Link) HoldsText() string { return strings.Join(l.Holds, ", ") }

// String is the "waiting for each other" sentence of the circle.
func (c Circle) String() string {
	var s strings.Builder
	names := make([]string, len(c.Links))
	for i, x := range c.Links {
		names[i] = x.Client
	}
	if len(c.Links) == 2 {
		s.WriteString(names[0] + " and " + names[1] + " are waiting for each other: ")
	} else {
		s.WriteString(strings.Join(names, ", ") + " wait in a circle: ")
	}
	for i, x := range c.Links {
		if i > 0 {
			s.WriteString("; ")
		}
		s.WriteString(x.Client + " holds " + x.HoldsText() + " and waits for " + x.WaitsFor)
	}
	s.WriteString(". Neither lets go until a key's TTL (" + c.TTL.Round(time.Millisecond).String() +
		") frees it or the retries give up; taking the keys in one order (lock.key_order: sorted) prevents it")
	return s.String()
}
