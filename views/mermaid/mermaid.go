// Package mermaid writes a run as a Mermaid sequenceDiagram: what
// `lockstep run --mermaid` prints and the run view's m key writes. It
// reads a runner's events and a snapshot's process names, and draws
// nothing on a terminal.
package mermaid

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lockstep-sim/lockstep/internal/termtext"
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/player"
	"github.com/lockstep-sim/lockstep/scenario/runner"
	"github.com/lockstep-sim/lockstep/sim"
)

// Run is a Mermaid sequenceDiagram of the run so far: clients, nodes and
// the resource as participants, commands and resource calls as arrows,
// grants, faults and violations as notes. r must keep its events
// (runner.New with keep = true).
func Run(r *runner.Runner) string {
	return Events(r.S.Name, Participants(player.Of(r)), r.Events())
}

// Scenario plays s under o to the end and returns its diagram; this is
// what `lockstep run --mermaid` prints.
func Scenario(s *scenario.Scenario, o scenario.Options) (string, error) {
	r, err := runner.New(s, o, true)
	if err != nil {
		return "", err
	}
	defer r.Close()
	r.Run()
	return Run(r), nil
}

// Participants are a snapshot's processes in diagram order: clients, nodes,
// then the resource.
func Participants(s player.Snapshot) []string {
	var ps []string
	for _, c := range s.Clients {
		ps = append(ps, c.Name)
	}
	for _, n := range s.Nodes {
		ps = append(ps, n.Name)
	}
	return append(ps, model.ResourceName)
}

// Events draws events between participants as a sequenceDiagram.
func Events(title string, participants []string, events []sim.Event) string {
	var b strings.Builder
	b.WriteString("sequenceDiagram\n")
	fmt.Fprintf(&b, "    %%%% lockstep: %s\n", mtext(title))
	known := map[string]bool{}
	for _, p := range participants {
		known[p] = true
		if id := mid(p); id != p {
			fmt.Fprintf(&b, "    participant %s as %s\n", id, mtext(p))
		} else {
			fmt.Fprintf(&b, "    participant %s\n", id)
		}
	}
	all := mid(participants[0]) + "," + mid(participants[len(participants)-1])
	note := func(over, at, text string) {
		fmt.Fprintf(&b, "    Note over %s: %s %s\n", over, at, mtext(text))
	}
	for _, e := range events {
		at := sim.FormatTime(e.At)
		over := all
		if known[e.Proc] {
			over = mid(e.Proc)
		}
		switch {
		case e.Kind == "cmd" && known[e.Proc]:
			// "A: SET k v NX PX 30000 => OK"
			client, rest, ok1 := strings.Cut(e.Msg, ": ")
			cmd, reply, ok2 := strings.Cut(rest, " => ")
			if ok1 && ok2 && known[client] {
				fmt.Fprintf(&b, "    %s->>%s: %s\n", mid(client), mid(e.Proc), mtext(cmd))
				fmt.Fprintf(&b, "    %s-->>%s: %s %s\n", mid(e.Proc), mid(client), at, mtext(reply))
				continue
			}
			note(over, at, e.Msg)
		case e.Proc == model.ResourceName:
			if c := firstClient(e.Msg, known); c != "" {
				fmt.Fprintf(&b, "    %s->>%s: %s %s\n", mid(c), mid(e.Proc), at, mtext(e.Msg))
				continue
			}
			note(over, at, e.Msg)
		case e.Kind == "fault":
			note(over, at, "FAULT: "+e.Msg)
		case e.Kind == "VIOLATION", e.Kind == "WRONG-RELEASE", e.Kind == "UNHELD-RELEASE":
			note(over, at, e.Kind+": "+e.Msg)
		default:
			note(over, at, e.Msg)
		}
	}
	return b.String()
}

// firstClient finds the first participant (not the resource) named in msg.
func firstClient(msg string, known map[string]bool) string {
	for _, w := range strings.Fields(msg) {
		if known[w] && w != model.ResourceName {
			return w
		}
	}
	return ""
}

// mid makes a process name safe as a Mermaid participant id: letters,
// digits and _ only (anything else, a control character included, is _).
func mid(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return r
		}
		return '_'
	}, s)
}

// mtextReplacer keeps Mermaid from misparsing message text: no statement
// separators, no HTML, no entity starts, no line breaks, no comment starts.
var mtextReplacer = strings.NewReplacer("#", "no.", ";", ",", "<", "#lt;", ">", "#gt;", "\n", " ", "\r", " ", "%%", "%")

// mtext makes text safe inside a Mermaid message and on a terminal: control
// characters are escaped first (termtext), then what Mermaid would misparse
// is replaced.
func mtext(s string) string {
	return mtextReplacer.Replace(termtext.Escape(s))
}
