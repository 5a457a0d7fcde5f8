package faults

import (
	"fmt"
	"strings"
	"time"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/model"
	"github.com/lockstep-sim/lockstep/sim"
)

// Partition stops all traffic between groups of processes for a while.
const Partition Kind = "partition"

var partitionSpec = Spec{
	Kind:   Partition,
	Doc:    "no traffic between `groups` for `for`",
	Fields: []*Field{FieldGroups, FieldFor},
	Check: func(c Checker, f Fault, _ bool) {
		checkGroups(c, f)
		requireFor(c, f)
	},
	Describe: func(f Fault) []sim.Arg {
		return []sim.Arg{sim.S("fault", "fault-desc-partition"), sim.S("fault_kind", string(f.Kind)),
			sim.S("fault_groups", groupsText(f.Groups)), sim.I("fault_for_ns", int64(f.For))}
	},
	Untargeted: partition,
	Generate: func(g *Gen) Fault {
		return Fault{Groups: g.split(g.Names.Net()), For: g.Long()}
	},
	Prompt: &Prompt{
		Label:   func(bool) string { return string(Partition) + ": groups split by |, then for" },
		Default: func(t string) string { return t + " | rest 10s" },
		Wide:    true,
		Parse:   parsePartition,
	},
}

// checkGroups checks the groups: at least two, none empty, every name
// known, no name in two groups. It stops at the first problem: groups and
// members are in file order, and a huge list of bad names must not build a
// huge list of messages.
func checkGroups(c Checker, f Fault) {
	gp := FieldGroups.Name
	if !c.Required(gp, i18n.M("%s.%s (e.g. %s: [[A, redis-1], [B, redis-2]])", f.Kind, gp, gp)) {
		return
	}
	if len(f.Groups) < 2 {
		c.Errorf(gp, "%s needs at least two groups (got %d); to cut off one process use %s", f.Kind, len(f.Groups), Isolate)
		return
	}
	all := c.Names().Net()
	known := map[string]bool{}
	for _, n := range all {
		known[n] = true
	}
	for _, n := range c.Names().Resource {
		known[n] = true
	}
	where := map[string]int{}
	for g, group := range f.Groups {
		if len(group) == 0 {
			c.Errorf(fmt.Sprintf("%s[%d]", gp, g), "%s group %d is empty", f.Kind, g+1)
			return
		}
		for m, name := range group {
			mp := fmt.Sprintf("%s[%d][%d]", gp, g, m)
			prev, dup := where[name]
			switch {
			case !known[name]:
				c.Errorf(mp, "unknown process %s in %s group %d (known: %s)", c.Quote(name), f.Kind, g+1, c.List(all))
			case dup && prev == g:
				c.Errorf(mp, "%s appears twice in %s group %d", c.Quote(name), f.Kind, g+1)
			case dup:
				c.Errorf(mp, "%s is in %s groups %d and %d; groups must not overlap", c.Quote(name), f.Kind, prev+1, g+1)
			default:
				where[name] = g
				continue
			}
			return
		}
	}
}

// partition cuts the groups apart. Partitions always compose: a link is up
// only while no partition on separates its ends, so a heal says when
// another partition is still on.
func partition(w *model.World, f Fault) {
	end := w.Now() + f.For
	w.Tell("net", "fault", "partition", desc(f)...)
	w.Cover(string(Partition), "").Begin(end)
	id := w.Net.Partition(f.Groups)
	w.K.After(f.For, func() {
		if last, until := w.Cover(string(Partition), "").End(end); !last {
			w.Tell("net", "heal", "partition-end-nested", sim.S("fault", string(f.Kind)), sim.I("for_ns", int64(f.For)), sim.I("until_ns", int64(until)))
		} else {
			w.Tell("net", "heal", "partition-end", sim.S("fault", string(f.Kind)), sim.I("for_ns", int64(f.For)))
		}
		w.Net.Heal(id)
	})
}

// parsePartition reads "A redis-1 | B redis-2 [for]": groups of process
// names split by |, the word rest standing for every process not named
// elsewhere, and how long (default 10s). Unknown names are left to the
// scenario check, which lists the known ones.
func parsePartition(v string, procs []string, f *Fault) error {
	f.Target, f.For = "", 10*time.Second
	parts := strings.Split(v, "|")
	last := strings.Fields(parts[len(parts)-1])
	if n := len(last); n > 0 {
		if d, err := time.ParseDuration(last[n-1]); err == nil {
			if d <= 0 {
				return refuse("a %s needs a positive duration", f.Kind)
			}
			f.For = d
			parts[len(parts)-1] = strings.Join(last[:n-1], " ")
		}
	}
	named := map[string]bool{}
	rest := -1
	for i, part := range parts {
		g := strings.Fields(strings.ReplaceAll(part, ",", " "))
		if len(g) == 1 && g[0] == "rest" {
			if rest >= 0 {
				return refuse("rest can stand for one group only")
			}
			rest = i
		}
		for _, n := range g {
			named[n] = true
		}
		f.Groups = append(f.Groups, g)
	}
	if len(f.Groups) < 2 {
		return refuse("give two groups or more, split by | (e.g. A redis-1 | rest 10s)")
	}
	if rest < 0 {
		return nil
	}
	var others []string
	for _, n := range procs {
		if !named[n] {
			others = append(others, n)
		}
	}
	if len(others) == 0 {
		return refuse("rest is empty: every process is in another group")
	}
	f.Groups[rest] = others
	return nil
}
