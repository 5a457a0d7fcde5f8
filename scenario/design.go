package scenario

import (
	"slices"
	"strings"

	"github.com/lockstep-sim/lockstep/internal/i18n"
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
	Msg   string   // in English
	msg   i18n.Msg // Msg unrendered, for the loader's message in another language
}

func designError(field string, m i18n.Msg) *DesignError {
	return &DesignError{Field: field, Msg: m.String(), msg: m}
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
	why func(strategy string) i18n.Msg
}

// lacks says why strategy cannot run a modifier: a naive strategy stores no
// owner in Redis (only a placeholder) to verb; Redlock has no variant of it.
func lacks(verb i18n.Msg, variant string) func(string) i18n.Msg {
	return func(st string) i18n.Msg {
		if st == model.StrategyRedlock {
			return i18n.M("strategy redlock has no %s variant", variant)
		}
		return i18n.M("strategy %s stores no owner to %s", st, verb)
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
		ownerStrategy, lacks(i18n.M("renew"), keyWatchdog)},
	{lockReentrant, lockReentrant, func(l Lock) bool { return l.Reentrant }, func(l *Lock) { l.Reentrant = false },
		[]string{model.StrategyLuaRelease}, lacks(i18n.M("count re-entries for"), keyReentrant)},
	{lockFair, lockFair, func(l Lock) bool { return l.Fair }, func(l *Lock) { l.Fair = false },
		[]string{model.StrategyLuaRelease}, lacks(i18n.M("queue waiters behind"), keyFair)},
	{lockFencing, keyFencing + ": cas", func(l Lock) bool { return l.Fencing == "cas" }, func(l *Lock) { l.Fencing = "none" },
		ownerStrategy, lacks(i18n.M("stamp the resource with"), "cas")},
	{lockNotify, lockNotify + ": " + model.NotifyPubSub, func(l Lock) bool { return l.Notify == model.NotifyPubSub }, func(l *Lock) { l.Notify = "" },
		[]string{model.StrategyLuaRelease}, lacks(i18n.M("publish the release of"), "pubsub")},
	{lockRegrant, lockRegrant, func(l Lock) bool { return l.Regrant }, func(l *Lock) { l.Regrant = false },
		[]string{model.StrategySetDel, model.StrategyLuaRelease}, lacks(i18n.M("grant again to"), keyRegrant)},
	{lockWaitReplicas, lockWaitReplicas, func(l Lock) bool { return l.WaitReplicas != nil }, func(l *Lock) { l.WaitReplicas = nil },
		singleStrategies, func(string) i18n.Msg {
			return i18n.M("WAIT follows a grant on the one master; strategy redlock has no wait_replicas variant")
		}},
	{lockHoldAtLeast, lockHoldAtLeast, func(l Lock) bool { return l.HoldAtLeast > 0 }, func(l *Lock) { l.HoldAtLeast = 0 },
		[]string{model.StrategySetDel, model.StrategyLuaRelease}, func(st string) i18n.Msg {
			return i18n.M("strategy %s has no %s variant (ShedLock's SET NX PX lock is set-del, or lua-release with safeUpdate)", st, keyHoldAtLeast)
		}},
	{lockAbortWork, lockAbortWork, func(l Lock) bool { return l.Watchdog != nil && l.Watchdog.AbortWork }, dropAbortWork,
		[]string{model.StrategyRedlock}, func(st string) i18n.Msg {
			return i18n.M("strategy %s has no abort signal (node-redlock's using())", st)
		}},
	{lockKeys, lockKeys, func(l Lock) bool { return len(l.Keys) > 0 },
		func(l *Lock) { l.Keys, l.MultiKey, l.KeyOrder = nil, "", "" },
		[]string{model.StrategyLuaRelease}, func(st string) i18n.Msg { return i18n.M("strategy %s takes one key per hold", st) }},
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
	msg   i18n.Msg
}{
	{lockFair, func(l Lock) bool { return l.Reentrant && l.Fair }, i18n.M("%s and %s cannot be combined; choose one", lockFair, lockReentrant)},
	{lockFencing, func(l Lock) bool { return l.Fencing == "token" && l.Fair },
		i18n.M("%s: token cannot be combined with %s (with %s it is Redisson's FencedLock)", keyFencing, lockFair, lockReentrant)},
	{lockRegrant, func(l Lock) bool { return l.Regrant && (l.Reentrant || l.Fair || l.Fencing == "token") },
		i18n.M("%s is a variant of the plain SET NX acquire; %s, %s and %s: token have scripts of their own", lockRegrant, lockReentrant, lockFair, keyFencing)},
	{lockHoldAtLeast, func(l Lock) bool {
		return l.HoldAtLeast > 0 && (l.Reentrant || l.Fair || l.Fencing == "token" || len(l.Keys) > 0)
	}, i18n.M("%s shortens the plain lock's key at its release; %s, %s, %s: token and %s release with scripts of their own",
		lockHoldAtLeast, lockReentrant, lockFair, keyFencing, lockKeys)},
	{lockKeys, func(l Lock) bool {
		return len(l.Keys) > 0 && (l.Watchdog != nil || l.Reentrant || l.Fair || (l.Fencing != "" && l.Fencing != "none"))
	}, i18n.M("%s cannot be combined with %s, %s, %s or %s (each is a one-key script)", lockKeys, lockWatchdog, lockReentrant, lockFair, lockFencing)},
	// A hold of several keys gives its keys back when its attempts run out;
	// a total wait, a release notification or a re-grant would each need
	// their own path through it.
	{lockKeys, func(l Lock) bool {
		return len(l.Keys) > 0 && (l.Wait > 0 || l.Notify == model.NotifyPubSub || l.Regrant || l.WaitReplicas != nil)
	},
		i18n.M("%s cannot be combined with %s, %s: %s, %s or %s", lockKeys, keyLock+"."+keyWait, lockNotify, model.NotifyPubSub, lockRegrant, lockWaitReplicas)},
}

// DesignProblems lists every reason lock l cannot run under strategy, in
// the table's order; none when it can. An unknown strategy is not its
// business (the strategy check reports it).
func DesignProblems(strategy string, l Lock) []*DesignError {
	var out []*DesignError
	if slices.Contains(Strategies, strategy) {
		for _, m := range modifiers {
			if m.on(l) && !slices.Contains(m.needs, strategy) {
				out = append(out, designError(m.field, i18n.M("%s needs strategy %s; %s",
					m.name, orList(m.needs), m.why(strategy))))
			}
		}
	}
	for _, c := range conflicts {
		if c.both(l) {
			out = append(out, designError(c.field, c.msg))
		}
	}
	return out
}

// orList is "a or b or c" in the message's language (names stay as
// they are).
func orList(names []string) i18n.Msg {
	if len(names) < 2 {
		return i18n.M("%s", strings.Join(names, ""))
	}
	return i18n.M("%s or %s", orList(names[:len(names)-1]), names[len(names)-1])
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
	// why is Why unrendered, so a report says it in its own language;
	// --json carries the English Why only.
	why i18n.Msg
}

// newDropped is field dropped for the reason why.
func newDropped(field string, why i18n.Msg) Dropped {
	return Dropped{Field: field, Why: why.String(), why: why}
}

func (d Dropped) String() string { return d.Field + " (" + d.Why + ")" }

// In is d in language l: the field and its reason in l ("lock.reentrant
// (strategy redlock has no reentrant variant)" in English). A Dropped made
// elsewhere (its Why set by hand, or changed since) says its Why as it is.
func (d Dropped) In(l i18n.Lang) string {
	if l == i18n.EN || d.why.Format == "" || d.why.String() != d.Why {
		return d.String()
	}
	if l == i18n.ZH { // Chinese brackets: no space, full width
		return d.Field + "（" + d.why.In(l) + "）"
	}
	return d.Field + " (" + d.why.In(l) + ")"
}

// DesignFor is the lock l as strategy can run it: the modifiers strategy
// cannot run are dropped (and listed). A design that is illegal under every
// strategy (two modifiers that conflict) is an error, as it is in a file.
func DesignFor(strategy string, l Lock) (Lock, []Dropped, error) {
	var dropped []Dropped
	for _, m := range modifiers {
		if m.on(l) && !slices.Contains(m.needs, strategy) && slices.Contains(Strategies, strategy) {
			m.drop(&l)
			dropped = append(dropped, newDropped(m.name, m.why(strategy)))
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
		return nil, nil, i18n.Errorf(err, "scenario %s: %s", echo(s.Name), sentence(err))
	}
	if strategy == "" || strategy == s.Lock.Strategy || strategy == s.Lock.Client {
		return s, nil, nil
	}
	if IsProfile(strategy) {
		l, dropped, err := ProfileLock(strategy, s.Lock)
		if err != nil {
			return nil, nil, i18n.Errorf(err, "scenario %s: %s", echo(s.Name), sentence(err))
		}
		c := *s
		c.Lock = l
		c.Redis.Nodes = NodesFor(l.Strategy, s.Redis.Nodes)
		return &c, dropped, nil
	}
	l, dropped, err := DesignFor(strategy, s.Lock)
	if err != nil {
		return nil, nil, i18n.Errorf(err, "scenario %s under strategy %s: %s", echo(s.Name), strategy, sentence(err))
	}
	c := *s
	c.Lock = l
	c.Redis.Nodes = NodesFor(strategy, s.Redis.Nodes)
	return &c, dropped, nil
}

// sentence is err as the argument of a sentence around it: its unrendered
// message when it has one (said in the language of the sentence), its text
// otherwise. The Error's own type is looked at, not its chain: the outer
// sentence is the one to nest.
func sentence(err error) any {
	switch e := err.(type) {
	case *i18n.Error:
		return e.Msg
	case *DesignError:
		if e.msg.Format != "" {
			return e.msg
		}
	}
	return err.Error()
}
