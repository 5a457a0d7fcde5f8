package model

import (
	"fmt"
	"time"

	"github.com/lockstep-sim/lockstep/sim"
)

// Metrics are the run's verdict, computed from ground truth (true time),
// never from what a client believes. The meanings are the scenario format's.
type Metrics struct {
	Safe              bool          `json:"safe"`
	Violations        int64         `json:"violations"`
	LostUpdates       int64         `json:"lost_updates"`
	FencingRejections int64         `json:"fencing_rejections"`
	WrongReleases     int64         `json:"wrong_releases"`
	Stuck             bool          `json:"stuck"`
	Acquired          int64         `json:"acquired"`
	FailedAcquires    int64         `json:"failed_acquires"`
	MaxWait           time.Duration `json:"-"`
}

// Get returns a metric by its format name as an integer (booleans 0/1,
// max_wait in milliseconds), and false for an unknown name.
func (m Metrics) Get(name string) (int64, bool) {
	b := func(v bool) int64 {
		if v {
			return 1
		}
		return 0
	}
	switch name {
	case "safe":
		return b(m.Safe), true
	case "violations":
		return m.Violations, true
	case "lost_updates":
		return m.LostUpdates, true
	case "fencing_rejections":
		return m.FencingRejections, true
	case "wrong_releases":
		return m.WrongReleases, true
	case "stuck":
		return b(m.Stuck), true
	case "acquired":
		return m.Acquired, true
	case "failed_acquires":
		return m.FailedAcquires, true
	case "max_wait":
		return m.MaxWait.Milliseconds(), true
	}
	return 0, false
}

// Checker watches the world from true time: who is in a critical section,
// who owns each lock key, how each grant ended.
type Checker struct {
	w        *World
	m        Metrics
	inCS     []*Client
	episode  bool
	first    string
	firstAt  time.Duration
	grants   map[string]*grant // node name -> the grant of the lock key in force there
	ended    map[string]*grant // node name -> the last grant that ended there
	stuckWhy string
	finished bool
	// clockNotes are the clock faults per node name, in time order.
	clockNotes map[string][]clockNote
}

// grant is the ground truth about one lock key on one node.
type grant struct {
	owner   string
	value   string // the lock key's value (the owner's token), to recognise it elsewhere
	at      time.Duration
	set     time.Duration // when its TTL was last set (grant or renewal)
	ttl     time.Duration // the TTL it was set with, by the node's clock
	expires time.Duration // true time the key expires if nothing changes; -1: never
	ended   bool
	endedAt time.Duration
	how     string // how it ended, for explanations
	// lostBy says why a grant still in force no longer counts: its node was
	// replaced by a failover it could not hear of (split brain).
	lostBy string
}

func newChecker(w *World) *Checker {
	return &Checker{w: w, grants: map[string]*grant{}, ended: map[string]*grant{},
		clockNotes: map[string][]clockNote{}}
}

// Metrics are the metrics so far (final after World.Finish).
func (ch *Checker) Metrics() Metrics {
	m := ch.m
	m.FencingRejections = ch.w.Res.Rejected()
	m.LostUpdates = ch.w.Res.Accepted() - ch.w.Res.Value
	if m.LostUpdates < 0 {
		m.LostUpdates = 0
	}
	m.Safe = m.Violations == 0
	return m
}

// FirstViolation explains the first violation in a sentence or two; "" when none.
func (ch *Checker) FirstViolation() string { return ch.first }

// StuckReason says which grant was left in force at the end; "" when none.
func (ch *Checker) StuckReason() string { return ch.stuckWhy }

// InCS lists the clients in their critical section now, in order of entry.
func (ch *Checker) InCS() []*Client { return ch.inCS }

func (ch *Checker) enterCS(c *Client) {
	c.inCS = true
	ch.m.Acquired++
	if len(ch.inCS) > 0 && !ch.episode {
		ch.episode = true
		ch.m.Violations++
		msg := ch.explain(c, ch.inCS[0])
		ch.w.Emit(c.Name, "VIOLATION", "%s", msg)
		if ch.first == "" {
			ch.first = msg
			ch.firstAt = ch.w.Now()
		}
	}
	ch.inCS = append(ch.inCS, c)
}

func (ch *Checker) leaveCS(c *Client) {
	if !c.inCS {
		return
	}
	c.inCS = false
	for i, x := range ch.inCS {
		if x == c {
			ch.inCS = append(ch.inCS[:i], ch.inCS[i+1:]...)
			break
		}
	}
	if len(ch.inCS) < 2 {
		ch.episode = false
	}
}

// explain says why c's grant overlaps o's critical section.
func (ch *Checker) explain(c, o *Client) string {
	now := ch.w.Now()
	state := "working"
	switch {
	case o.Paused():
		state = "paused since " + sim.FormatTime(o.pausedSince)
	case o.Hung():
		state = "hung since " + sim.FormatTime(o.hungSince)
	case o.state == StateHolding || o.state == StateAcquiring:
		state = "holding"
	}
	why := ch.splitBrain(o.Name)
	if why == "" {
		why = ch.lastEnd(o.Name)
	}
	if note := clientClockNote(o, now); note != "" {
		if why != "" {
			why += "; "
		}
		why += note
	}
	if why != "" {
		why = " (" + why + ")"
	}
	return fmt.Sprintf("%s: %s acquired while %s (%s) still believed it held the lock%s",
		sim.FormatTime(now), c.Name, o.Name, state, why)
}

// lastEnd describes how o's most recent grant ended, on any node.
func (ch *Checker) lastEnd(owner string) string {
	var best *grant
	var node string
	for _, n := range ch.w.Nodes {
		g := ch.ended[n.Name()]
		if g != nil && g.owner == owner && (best == nil || g.endedAt > best.endedAt) {
			best, node = g, n.Name()
		}
	}
	if best == nil {
		return ""
	}
	return best.how + ch.cutOff(owner, node, best)
}

func (ch *Checker) waited(c *Client, d time.Duration, ok bool) {
	if d > ch.m.MaxWait {
		ch.m.MaxWait = d
	}
	if !ok {
		ch.m.FailedAcquires++
	}
}

func (ch *Checker) failedNested(c *Client) { ch.m.FailedAcquires++ }

// keyChanged is called around every lock command with whether the lock key
// existed on node n before and after it ran.
func (ch *Checker) keyChanged(n *Node, client string, op Op, before, after bool) {
	now := ch.w.Now()
	name := n.Name()
	g := ch.grants[name]
	if g != nil && !before {
		// The key vanished since we last looked: it expired.
		ch.end(name, g, g.expires, ch.expiredHow(n, g))
		g = nil
	}
	switch {
	case !before && after:
		e := n.trackedState(ch.w.Cfg.Lock.Key)
		g := &grant{owner: client, at: now, value: e.Owner()}
		ch.setExpiryFrom(n, g, n.pttl(e))
		ch.grants[name] = g
		if n.Stale() {
			g.lostBy = fmt.Sprintf("%s had replaced %s as master at %s; cut off, %s still granted it: split brain",
				n.replacedBy.Name(), name, sim.FormatTime(n.replacedAt), name)
		}
	case before && !after && g != nil:
		if g.owner != client && op == OpRelease {
			ch.m.WrongReleases++
			ch.w.Emit(client, "WRONG-RELEASE", "%s deleted the lock on %s that %s holds", client, name, g.owner)
		}
		how := "released"
		if g.owner != client {
			how = fmt.Sprintf("its key on %s was deleted at %s by %s", name, sim.FormatTime(now), client)
		}
		ch.end(name, g, now, how)
	case before && after && g != nil && g.owner == client && op != OpOther:
		ch.setExpiryFrom(n, g, n.pttl(n.trackedState(ch.w.Cfg.Lock.Key)))
	}
}

func (ch *Checker) end(name string, g *grant, at time.Duration, how string) {
	g.ended, g.endedAt, g.how = true, at, how
	ch.ended[name] = g
	delete(ch.grants, name)
}

// expiry estimates the true time at which the lock key on n expires, from
// its PTTL and the node clock's rate.
func (ch *Checker) expiry(n *Node) time.Duration {
	return ch.expiryAt(n, n.PTTL(ch.w.Now(), ch.w.Cfg.Lock.Key))
}

// expiryAt is expiry for the key's PTTL on n now.
func (ch *Checker) expiryAt(n *Node, pttl time.Duration) time.Duration {
	now := ch.w.Now()
	if pttl < 0 {
		return -1
	}
	// Both of the node's readings advance at its clock's rate, so the true
	// time at which the expiry clock has advanced by pttl is exact.
	return now + n.Clock().TrueAfter(now, pttl)
}

// finish computes the end-of-run metrics: a grant still in force whose owner
// is not in its critical section makes the run stuck.
func (ch *Checker) finish() {
	if ch.finished {
		return
	}
	ch.finished = true
	w := ch.w
	now := w.Now()
	counts := map[string]int{}
	var owners []string
	for _, n := range w.strategy.LockNodes(w) {
		if !n.Up() || !n.Exists(now, w.Cfg.Lock.Key) {
			continue
		}
		g := ch.grants[n.Name()]
		if g == nil {
			continue
		}
		if counts[g.owner] == 0 {
			owners = append(owners, g.owner)
		}
		counts[g.owner]++
	}
	for _, o := range owners {
		if counts[o] < w.strategy.Quorum(w) {
			continue
		}
		c := w.Client(o)
		if c == nil {
			continue
		}
		var why string
		switch {
		case c.state == StateCrashed:
			why = "crashed"
		case c.hung:
			why = "hung since " + sim.FormatTime(c.hungSince)
		case !c.inCS:
			why = "finished"
		}
		if why != "" {
			ch.m.Stuck = true
			ch.stuckWhy = fmt.Sprintf("at %s the lock is still granted to %s, which is %s", sim.FormatTime(now), o, why)
			return
		}
	}
}
