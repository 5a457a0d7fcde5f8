package scenario

import (
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

const linksFile = `version: 1
scenarios:
  - name: s
    duration: 10s
    network:
      links:
        - {from: A, to: redis-1, latency: 30ms, oneway: true}
        - {from: B, to: redis-1, loss: 0.25}
    lock: {key: k, strategy: lua-release, ttl: 5s}
    clients: [{name: A, work: 1s}, {name: B, work: 1s}]
`

// A one-way link slows its direction only; a two-way one both; export
// writes both back.
func TestLinksLoadBuildExport(t *testing.T) {
	f, err := Load("links.yaml", []byte(linksFile))
	if err != nil {
		t.Fatal(err)
	}
	s := f.Scenarios[0]
	var got []sim.Link
	for _, l := range s.Network.Links {
		got = append(got, l.Directions()...)
	}
	if len(got) != 3 || got[0].From != "A" || got[0].Latency != 30*time.Millisecond ||
		got[1].From != "B" || got[2].From != "redis-1" || got[2].To != "B" || got[2].Loss != 0.25 {
		t.Fatalf("directed links %+v", got)
	}
	data, err := Export(s, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Load("x.yaml", data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	bl := back.Scenarios[0].Network.Links
	if len(bl) != 2 || !bl[0].Oneway || bl[1].Oneway || bl[0].Latency != 30*time.Millisecond || bl[1].Loss != 0.25 {
		t.Fatalf("links after export %+v\n%s", bl, data)
	}
}

// A link to itself and a directed link given twice are refused where written.
func TestLinksRefused(t *testing.T) {
	for _, c := range []struct{ links, want string }{
		{"[{from: A, to: A, latency: 1ms}]", "6:29: link from \"A\" to itself"},
		{"[{from: A, to: redis-1}, {from: redis-1, to: A, oneway: true}]", "6:39: the link redis-1 -> A is given twice (network.links[0] and [1])"},
		{"[{to: redis-1}]", "6:15: link from (a process name, e.g. from: A) is required"},
	} {
		y := strings.Replace(linksFile, "\n        - {from: A, to: redis-1, latency: 30ms, oneway: true}\n        - {from: B, to: redis-1, loss: 0.25}", " "+c.links, 1)
		_, err := Load("l.yaml", []byte(y))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %s", c.links, err, c.want)
		}
	}
}
