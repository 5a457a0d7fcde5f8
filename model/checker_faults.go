package model

import (
	"fmt"
	"strings"
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// The checker's view of node faults: each hook judges the grant of the lock
// key on the node the fault hit, so that the first violation's explanation
// can name the fault that ended (or undermined) the earlier holder's grant.

// clockNote is a clock fault on a node, to name in an explanation.
type clockNote struct {
	at    time.Duration
	what  string // "redis-1's clock jumped -20s at 5.000s"
	drift bool   // a rate change (matters whenever it was in force), not a jump (matters only after the TTL was set)
}

// splitBrain describes a grant of owner still in force on a node that a
// failover replaced; "" when there is none.
func (ch *Checker) splitBrain(owner string) string {
	for _, n := range ch.w.Nodes {
		if g := ch.grants[n.Name()]; g != nil && g.owner == owner && g.lostBy != "" {
			return fmt.Sprintf("its lock is on %s, and %s", n.Name(), g.lostBy)
		}
	}
	return ""
}

// setExpiry records the lock key's TTL on n now and when it will expire.
func (ch *Checker) setExpiry(n *Node, g *grant) {
	ch.setExpiryFrom(n, g, n.PTTL(ch.w.Now(), ch.w.Cfg.Lock.Key))
}

// setExpiryFrom is setExpiry with the key's PTTL on n now already known.
func (ch *Checker) setExpiryFrom(n *Node, g *grant, pttl time.Duration) {
	g.set = ch.w.Now()
	g.ttl = pttl
	g.expires = ch.expiryAt(n, pttl)
}

// expiredHow says how grant g on n ran out, naming the clock faults in force
// while it lived.
func (ch *Checker) expiredHow(n *Node, g *grant) string {
	how := fmt.Sprintf("its lease on %s expired at %s", n.Name(), sim.FormatTime(g.expires))
	var notes []string
	for _, cn := range ch.clockNotes[n.Name()] {
		if cn.at <= g.expires && (cn.drift || cn.at >= g.set) {
			notes = append(notes, cn.what)
		}
	}
	if len(notes) > 0 && g.ttl > 0 && g.expires >= 0 {
		how += fmt.Sprintf(", %s after its %s TTL was set, because %s",
			shortDur(g.expires-g.set), shortDur(g.ttl), strings.Join(notes, " and "))
	}
	return how
}

// restarted judges the grant on n after a restart: kept (persistence),
// expired while the node was down, or lost with the crash. A crash itself
// changes no grant: a down node's grant is judged when it restarts, or when
// a failover replaces it.
func (ch *Checker) restarted(n *Node) {
	now := ch.w.Now()
	name := n.Name()
	g := ch.grants[name]
	if g == nil {
		return
	}
	key := ch.w.Cfg.Lock.Key
	if n.Exists(now, key) && n.lockValue(key) == g.value {
		g.expires = ch.expiry(n) // the same absolute expiry, from the log
		return
	}
	if g.expires >= 0 && g.expires <= now {
		ch.end(name, g, g.expires, ch.expiredHow(n, g)+" (while "+name+" was down)")
		return
	}
	mode := n.Config().Persistence
	detail := "persistence " + mode
	if mode == PersistEverysec {
		detail = fmt.Sprintf("persistence everysec: its write at %s was within the last second before the crash, not yet fsynced",
			sim.FormatTime(g.set))
	}
	ch.end(name, g, now, fmt.Sprintf("its lease on %s was lost when %s crashed at %s and restarted at %s without it (%s)",
		name, name, sim.FormatTime(n.crashedAt), sim.FormatTime(now), detail))
}

// failedOver moves or ends the grant on old when promoted replaced it.
func (ch *Checker) failedOver(old, promoted *Node) {
	now := ch.w.Now()
	key := ch.w.Cfg.Lock.Key
	if g := ch.grants[old.Name()]; g != nil {
		if promoted.Exists(now, key) && promoted.lockValue(key) == g.value {
			ng := *g
			ng.expires = ch.expiry(promoted)
			ch.grants[promoted.Name()] = &ng
			delete(ch.grants, old.Name())
			return
		}
		lost := fmt.Sprintf("%s failed over to %s at %s before replicating it", old.Name(), promoted.Name(), sim.FormatTime(now))
		if old.Up() {
			// Still there, and its owner may still reach it: split brain
			// until old learns it was replaced.
			g.lostBy = lost + "; cut off, " + old.Name() + " still holds it: split brain"
		} else {
			ch.end(old.Name(), g, now, "its lease on "+old.Name()+" was lost when "+lost)
		}
	}
	ch.adopt(promoted)
}

// adopt records a lock key that n holds without a grant on record (it came
// by replication), for the client whose token it is.
func (ch *Checker) adopt(n *Node) {
	now := ch.w.Now()
	key := ch.w.Cfg.Lock.Key
	if ch.grants[n.Name()] != nil || !n.Exists(now, key) {
		return
	}
	v := n.lockValue(key)
	owner, ok := ch.tokenOwner(v)
	if !ok {
		return
	}
	g := &grant{owner: owner, at: now, value: v}
	ch.setExpiry(n, g)
	ch.grants[n.Name()] = g
}

// tokenOwner is the client whose token v is. A client writes only its own
// tokens into the lock key, "<name>-<hold>" (Client.run), so the value
// names its owner: a key that reappears on another node (a promoted
// replica) has a known owner without a table of every token ever granted,
// which would grow with the run.
func (ch *Checker) tokenOwner(v string) (string, bool) {
	i := strings.LastIndexByte(v, '-')
	if i <= 0 || i == len(v)-1 {
		return "", false
	}
	for _, r := range v[i+1:] {
		if r < '0' || r > '9' {
			return "", false
		}
	}
	if _, ok := ch.w.byName[v[:i]].(*Client); !ok {
		return "", false
	}
	return v[:i], true
}

// resynced judges the grant on r after a full resync made it a copy of m:
// a grant it held that m lacks is discarded.
func (ch *Checker) resynced(r, m *Node) {
	now := ch.w.Now()
	key := ch.w.Cfg.Lock.Key
	g := ch.grants[r.Name()]
	if g == nil {
		return
	}
	if r.Exists(now, key) && r.lockValue(key) == g.value {
		delete(ch.grants, r.Name()) // now a replica's copy of m's key
		return
	}
	how := fmt.Sprintf("its lease on %s was discarded when %s rejoined as a replica of %s at %s",
		r.Name(), r.Name(), m.Name(), sim.FormatTime(now))
	if g.lostBy != "" {
		how += " (" + g.lostBy + ")"
	}
	ch.end(r.Name(), g, now, how)
}

// clockJumped notes a jump of n's wall clock and judges the grant on n:
// expired early at once, or expiring at a new instant.
func (ch *Checker) clockJumped(n *Node, by time.Duration, expired []Expiry) {
	now := ch.w.Now()
	what := fmt.Sprintf("%s's clock jumped %s at %s", n.Name(), signedDur(by), sim.FormatTime(now))
	if n.Config().Monotonic {
		what += " (wall clock only: keys expire by its monotonic clock)"
	}
	ch.clockNotes[n.Name()] = append(ch.clockNotes[n.Name()], clockNote{at: now, what: what})
	g := ch.grants[n.Name()]
	if g == nil {
		return
	}
	for _, e := range expired {
		if e.Key == ch.w.Cfg.Lock.Key {
			ch.end(n.Name(), g, now, fmt.Sprintf("its lease on %s expired %s early because %s",
				n.Name(), shortDur(e.Early), what))
			return
		}
	}
	if n.Up() && n.Exists(now, ch.w.Cfg.Lock.Key) {
		g.expires = ch.expiry(n)
	}
}

// clockDrifted notes a new rate of n's clock and moves the expected expiry
// of the grant on n.
func (ch *Checker) clockDrifted(n *Node, rate float64) {
	now := ch.w.Now()
	what := fmt.Sprintf("%s's clock runs %sx true speed since %s", n.Name(), fmtRate(rate), sim.FormatTime(now))
	ch.clockNotes[n.Name()] = append(ch.clockNotes[n.Name()], clockNote{at: now, what: what, drift: true})
	if g := ch.grants[n.Name()]; g != nil && n.Up() && n.Exists(now, ch.w.Cfg.Lock.Key) {
		g.expires = ch.expiry(n)
	}
}

// cutOff names the partition that kept owner from its node while grant g
// ran out: it could neither renew nor see the lease go.
func (ch *Checker) cutOff(owner, node string, g *grant) string {
	since, ok := ch.w.CutOffSince(owner, node)
	if !ok || since > g.endedAt || !strings.Contains(g.how, "expired") {
		return ""
	}
	what := "renew it"
	if ch.w.Cfg.Lock.Watchdog != nil {
		what = "let its watchdog renew it"
	}
	return fmt.Sprintf("; %s has been cut off from %s by the network since %s, which did not %s", owner, node, sim.FormatTime(since), what)
}

// clientClockNote names a clock fault on client o that bears on what it
// measured: a drifting clock times its work and timeouts wrongly; a jumped
// wall clock misjudges its lease.
func clientClockNote(o *Client, now time.Duration) string {
	var parts []string
	if r := o.clock.Rate(); r != 1 {
		parts = append(parts, fmt.Sprintf("%s's clock runs %sx true speed, so its waits last %s per second it measures",
			o.Name, fmtRate(r), shortDur(o.clock.TrueAfter(now, time.Second))))
	}
	if off := o.clock.Wall(now) - o.clock.Mono(now); off != 0 {
		parts = append(parts, fmt.Sprintf("%s's wall clock was stepped %s", o.Name, signedDur(off)))
	}
	return strings.Join(parts, "; ")
}
