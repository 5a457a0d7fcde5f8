package scenario

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep-sim/lockstep/model"
)

// Which lock designs can be run: a strategy plus the modifiers of lock:
// (watchdog, reentrant, fair, fencing). This table is the one place that
// decides it; the loader refuses a file's illegal design with it, and
// Compare uses it to say what of the file's design a column's strategy
// cannot run.

// DesignError is a lock design that cannot be run: Field names the modifier
// ("lock.reentrant", "lock.fencing").
type DesignError struct {
	Field string
	Msg   string
}

func (e *DesignError) Error() string { return e.Msg }

// modifier is one feature of a lock design beyond its strategy.
type modifier struct {
	field string // where it is written
	name  string // how messages name it
	on    func(Lock) bool
	drop  func(*Lock)
	needs []string // the strategies that can run it
	// why says, for a strategy that cannot, what it lacks.
	why func(strategy string) string
}

// lacks says why strategy cannot run a modifier: a naive strategy stores no
// owner in Redis (only a placeholder) to verb; Redlock has no variant of it.
func lacks(verb, variant string) func(string) string {
	return func(st string) string {
		if st == model.StrategyRedlock {
			return "strategy redlock has no " + variant + " variant"
		}
		return "strategy " + st + " stores no owner to " + verb
	}
}

// The paths of the modifiers, which messages name them by.
const (
	lockWatchdog  = keyLock + "." + keyWatchdog
	lockReentrant = keyLock + "." + keyReentrant
	lockFair      = keyLock + "." + keyFair
	lockFencing   = keyLock + "." + keyFencing
	lockKeys      = keyLock + "." + keyKeys
	// issue 13 (redisside.go)
	lockWaitReplicas = keyLock + "." + keyWaitReplicas
)

var modifiers = []modifier{
	{lockWatchdog, lockWatchdog, func(l Lock) bool { return l.Watchdog != nil }, func(l *Lock) { l.Watchdog = nil },
		ownerStrategy, lacks("renew", keyWatchdog)},
	{lockReentrant, lockReentrant, func(l Lock) bool { return l.Reentrant }, func(l *Lock) { l.Reentrant = false },
		[]string{model.StrategyLuaRelease}, lacks("count re-entries for", keyReentrant)},
	{lockFair, lockFair, func(l Lock) bool { return l.Fair }, func(l *Lock) { l.Fair = false },
		[]string{model.StrategyLuaRelease}, lacks("queue waiters behind", keyFair)},
	{lockFencing, keyFencing + ": cas", func(l Lock) bool { return l.Fencing == "cas" }, func(l *Lock) { l.Fencing = "none" },
		ownerStrategy, lacks("stamp the resource with", "cas")},
	{lockNotify, lockNotify + ": " + model.NotifyPubSub, func(l Lock) bool { return l.Notify == model.NotifyPubSub }, func(l *Lock) { l.Notify = "" },
		[]string{model.StrategyLuaRelease}, lacks("publish the release of", "pubsub")},
	{lockRegrant, lockRegrant, func(l Lock) bool { return l.Regrant }, func(l *Lock) { l.Regrant = false },
		[]string{model.StrategySetDel, model.StrategyLuaRelease}, lacks("grant again to", keyRegrant)},
	{lockWaitReplicas, lockWaitReplicas, func(l Lock) bool { return l.WaitReplicas != nil }, func(l *Lock) { l.WaitReplicas = nil },
		singleStrategies, func(string) string {
			return "WAIT follows a grant on the one master; strategy redlock has no wait_replicas variant"
		}},
	{lockHoldAtLeast, lockHoldAtLeast, func(l Lock) bool { return l.HoldAtLeast > 0 }, func(l *Lock) { l.HoldAtLeast = 0 },
		[]string{model.StrategySetDel, model.StrategyLuaRelease}, func(st string) string {
			return "strategy " + st + " has no " + keyHoldAtLeast + " variant (ShedLock's SET NX PX lock is set-del, or lua-release with safeUpdate)"
		}},
	{lockAbortWork, lockAbortWork, func(l Lock) bool { return l.Watchdog != nil && l.Watchdog.AbortWork }, dropAbortWork,
		[]string{model.StrategyRedlock}, func(st string) string { return "strategy " + st + " has no abort signal (node-redlock's using())" }},
	{lockKeys, lockKeys, func(l Lock) bool { return len(l.Keys) > 0 },
		func(l *Lock) { l.Keys, l.MultiKey, l.KeyOrder = nil, "", "" },
		[]string{model.StrategyLuaRelease}, func(st string) string { return "strategy " + st + " takes one key per hold" }},
}

// lockAbortWork is watchdog.abort_work's path.
const lockAbortWork = lockWatchdog + "." + keyAbortWork

// dropAbortWork turns abort_work off in a copy of the watchdog block (the
// scenario's own is shared).
func dropAbortWork(l *Lock) {
	w := *l.Watchdog
	w.AbortWork = false
	l.Watchdog = &w
}

// lockNotify and lockRegrant are where lock.notify and lock.regrant are
// written.
const (
	lockNotify  = keyLock + "." + keyNotify
	lockRegrant = keyLock + "." + keyRegrant
	// lockHoldAtLeast is ShedLock's lockAtLeastFor (hold_at_least).
	lockHoldAtLeast = keyLock + "." + keyHoldAtLeast
)

// conflicts are modifiers that cannot be combined under any strategy: each
// is its own script, and combining them would silently drop one.
var conflicts = []struct {
	field string
	both  func(Lock) bool
	msg   string
}{
	{lockFair, func(l Lock) bool { return l.Reentrant && l.Fair }, lockFair + " and " + lockReentrant + " cannot be combined; choose one"},
	{lockFencing, func(l Lock) bool { return l.Fencing == "token" && l.Fair },
		keyFencing + ": token cannot be combined with " + lockFair + " (with " + lockReentrant + " it is Redisson's FencedLock)"},
	{lockRegrant, func(l Lock) bool { return l.Regrant && (l.Reentrant || l.Fair || l.Fencing == "token") },
		lockRegrant + " is a variant of the plain SET NX acquire; " + lockReentrant + ", " + lockFair + " and " + keyFencing + ": token have scripts of their own"},
	{lockHoldAtLeast, func(l Lock) bool {
		return l.HoldAtLeast > 0 && (l.Reentrant || l.Fair || l.Fencing == "token" || len(l.Keys) > 0)
	}, lockHoldAtLeast + " shortens the plain lock's key at its release; " + lockReentrant + ", " + lockFair + ", " + keyFencing + ": token and " +
		lockKeys + " release with scripts of their own"},
	{lockKeys, func(l Lock) bool {
		return len(l.Keys) > 0 && (l.Watchdog != nil || l.Reentrant || l.Fair || (l.Fencing != "" && l.Fencing != "none"))
	}, lockKeys + " cannot be combined with " + lockWatchdog + ", " + lockReentrant + ", " + lockFair + " or " + lockFencing +
		" (each is a one-key script)"},
	// A hold of several keys gives its keys back when its attempts run out;
	// a total wait, a release notification or a re-grant would each need
	// their own path through it.
	{lockKeys, func(l Lock) bool {
		return len(l.Keys) > 0 && (l.Wait > 0 || l.Notify == model.NotifyPubSub || l.Regrant || l.WaitReplicas != nil)
	},
		lockKeys + " cannot be combined with " + keyLock + "." + keyWait + ", " + lockNotify + ": " + model.NotifyPubSub + ", " + lockRegrant +
			" or " + lockWaitReplicas},
}

// DesignProblems lists every reason lock l cannot run under strategy, in
// the table's order; none when it can. An unknown strategy is not its
// business (the strategy check reports it).
func DesignProblems(strategy string, l Lock) []*DesignError {
	var out []*DesignError
	if slices.Contains(Strategies, strategy) {
		for _, m := range modifiers {
			if m.on(l) && !slices.Contains(m.needs, strategy) {
				out = append(out, &DesignError{m.field, fmt.Sprintf("%s needs strategy %s; %s",
					m.name, strings.Join(m.needs, " or "), m.why(strategy))})
			}
		}
	}
	for _, c := range conflicts {
		if c.both(l) {
			out = append(out, &DesignError{c.field, c.msg})
		}
	}
	return out
}

// CheckDesign returns the first reason lock l cannot run under strategy, or
// nil when it can.
func CheckDesign(strategy string, l Lock) error {
	if p := DesignProblems(strategy, l); len(p) > 0 {
		return p[0]
	}
	return nil
}

// Dropped is a modifier of the file's design that a strategy cannot run and
// that a comparison column therefore runs without.
type Dropped struct {
	Field string `json:"field"` // "lock.reentrant"
	Why   string `json:"why"`   // "strategy redlock has no reentrant variant"
}

func (d Dropped) String() string { return d.Field + " (" + d.Why + ")" }

// DesignFor is the lock l as strategy can run it: the modifiers strategy
// cannot run are dropped (and listed). A design that is illegal under every
// strategy (two modifiers that conflict) is an error, as it is in a file.
func DesignFor(strategy string, l Lock) (Lock, []Dropped, error) {
	var dropped []Dropped
	for _, m := range modifiers {
		if m.on(l) && !slices.Contains(m.needs, strategy) && slices.Contains(Strategies, strategy) {
			m.drop(&l)
			dropped = append(dropped, Dropped{m.name, m.why(strategy)})
		}
	}
	if strategy != l.Strategy {
		l.Client = "" // another strategy is no longer the profile's library
	}
	l.Strategy = strategy
	if err := CheckDesign(strategy, l); err != nil {
		return l, nil, err
	}
	return l, dropped, nil
}

// ForStrategy is s as a comparison runs it under strategy: the same
// scenario with strategy's design (DesignFor) and the masters it needs
// (NodesFor), so that it passes Validate. s itself is not changed; when
// strategy is its own, s is returned as is. A design s's own strategy
// cannot run is an error.
func ForStrategy(s *Scenario, strategy string) (*Scenario, []Dropped, error) {
	// A scenario built in code may hold a design no file could: refuse it
	// rather than let another strategy drop its way to a legal one.
	if err := CheckDesign(s.Lock.Strategy, s.Lock); err != nil {
		return nil, nil, fmt.Errorf("scenario %s: %w", echo(s.Name), err)
	}
	if strategy == "" || strategy == s.Lock.Strategy || strategy == s.Lock.Client {
		return s, nil, nil
	}
	if IsProfile(strategy) {
		l, dropped, err := ProfileLock(strategy, s.Lock)
		if err != nil {
			return nil, nil, fmt.Errorf("scenario %s: %w", echo(s.Name), err)
		}
		c := *s
		c.Lock = l
		c.Redis.Nodes = NodesFor(l.Strategy, s.Redis.Nodes)
		return &c, dropped, nil
	}
	l, dropped, err := DesignFor(strategy, s.Lock)
	if err != nil {
		return nil, nil, fmt.Errorf("scenario %s under strategy %s: %w", echo(s.Name), strategy, err)
	}
	c := *s
	c.Lock = l
	c.Redis.Nodes = NodesFor(strategy, s.Redis.Nodes)
	return &c, dropped, nil
}
