package scenario

import (
	"fmt"
	"slices"
	"time"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/sim"
	"gopkg.in/yaml.v3"
)

// Link is one entry of network.links: extra latency and loss on the link
// between two named processes, both directions unless Oneway (then From ->
// To only). It is how a file says "A is 80 ms from redis-3" to force
// Redlock's split vote, where a slow fault would slow every link of a node.
type Link struct {
	Pos     Pos
	From    string
	To      string
	Latency time.Duration
	Loss    float64
	Oneway  bool
}

var linkSection = newSection(i18n.M("link"), keyLinks+".",
	field[Link]{name: keyFrom, doc: "a process: client, node or sentinel",
		val: func(l *Link) any { return &l.From }},
	field[Link]{name: keyTo, doc: "another process",
		val: func(l *Link) any { return &l.To }},
	field[Link]{name: keyLatency, doc: "extra one-way delay on the link, on top of network.latency",
		val: func(l *Link) any { return &l.Latency }, skip: func(l *Link) bool { return l.Latency == 0 }},
	field[Link]{name: keyLoss, doc: "probability 0..1 that a message on the link is lost",
		val: func(l *Link) any { return &l.Loss }, skip: func(l *Link) bool { return l.Loss == 0 }},
	field[Link]{name: keyOneway, doc: "true: from -> to only; default both directions",
		val: func(l *Link) any { return &l.Oneway }, skip: func(l *Link) bool { return !l.Oneway }},
)

func readLinks(p *parser, e entry, n *Network, path string, pt posTable) {
	for i, ln := range p.List(e.V, keyLinks, MaxLinks) {
		ln = p.Resolve(ln)
		at := fmt.Sprintf("%s[%d]", path, i)
		l := Link{Pos: pos(ln)}
		pt[at] = pos(ln)
		readSection(p, ln, linkSection, &l, at, pt)
		n.Links = append(n.Links, l)
	}
}

func writeLinks(n *Network) *yaml.Node {
	var ls []*yaml.Node
	for i := range n.Links {
		ls = append(ls, writeSection(linkSection, &n.Links[i]))
	}
	return seq(ls...)
}

// links checks network.links: known, distinct processes, bounded latency
// and loss, and no directed link given twice.
func (c *checker) links() {
	ls := c.s.Network.Links
	if len(ls) > MaxLinks {
		c.errorf(dot(keyNetwork, keyLinks), "too many %s: the limit is %d", keyLinks, MaxLinks)
	}
	known := c.names().Net()
	seen := map[[2]string]int{}
	for i, l := range ls {
		path := fmt.Sprintf("%s[%d]", dot(keyNetwork, keyLinks), i)
		at := func(k string) string { return dot(path, k) }
		for _, end := range []struct{ key, v string }{{keyFrom, l.From}, {keyTo, l.To}} {
			if c.required(at(end.key), i18n.M("link %s (a process name, e.g. %s: A)", end.key, end.key)) &&
				!slices.Contains(known, end.v) {
				c.errorf(at(end.key), "link %s %s names no process of this scenario (known: %s)", end.key, echo(end.v), knownList(known))
			}
		}
		if l.From == l.To && l.From != "" {
			c.errorf(at(keyTo), "link from %s to itself: a process needs no network to reach itself", echo(l.From))
			continue
		}
		c.nonNegative(at(keyLatency), "link "+keyLatency, l.Latency)
		if l.Loss < 0 || l.Loss > 1 {
			c.errorf(at(keyLoss), "link %s must be between 0 and 1 (got %g)", keyLoss, l.Loss)
		}
		for _, d := range l.Directions() {
			if j, dup := seen[[2]string{d.From, d.To}]; dup {
				c.errorf(path, "the link %s -> %s is given twice (%s[%d] and [%d]); merge them", d.From, d.To, dot(keyNetwork, keyLinks), j, i)
			}
			seen[[2]string{d.From, d.To}] = i
		}
	}
}

// Directions are the directed links l stands for: one when Oneway, else
// both.
func (l Link) Directions() []sim.Link {
	d := []sim.Link{{From: l.From, To: l.To, Latency: l.Latency, Loss: l.Loss}}
	if !l.Oneway {
		d = append(d, sim.Link{From: l.To, To: l.From, Latency: l.Latency, Loss: l.Loss})
	}
	return d
}
