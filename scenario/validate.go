package scenario

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/internal/termtext"
	"github.com/lockstep-sim/lockstep/model"
)

// The enumerations of the format, in documented order (messages list them).
var (
	Strategies    = []string{model.StrategySetnxDel, model.StrategySetnxExpire, model.StrategySetDel, model.StrategyLuaRelease, model.StrategyRedlock}
	FencingModes  = []string{"none", "token", "cas"}
	Persistences  = []string{"none", "everysec", "always"}
	Clocks        = []string{"wall", "monotonic"}
	ownerStrategy = []string{model.StrategyLuaRelease, model.StrategyRedlock} // those that store an owner token
)

// The names' alphabets, a test of a byte each: a scenario's name is
// a-z, 0-9 and -, a client's A-Z, a-z, 0-9, _ and -, a resource's also :
// and . (plain, since they are printed in traces; loops, not regexps: those were compiled at every process's
// start; TestNameAlphabetsMatchRegexps holds them to the regexps they
// replace).
func scenarioNameByte(b byte) bool { return 'a' <= b && b <= 'z' || isDigit(b) || b == '-' }
func clientNameByte(b byte) bool {
	return 'A' <= b && b <= 'Z' || 'a' <= b && b <= 'z' || isDigit(b) || b == '_' || b == '-'
}
func resourceNameByte(b byte) bool { return clientNameByte(b) || b == ':' || b == '.' }
func isDigit(b byte) bool          { return '0' <= b && b <= '9' }

// spelled reports whether s is not empty and every byte of it passes ok.
func spelled(s string, ok func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return s != ""
}

// looksLikeNodeName reports whether s is spelled like the name of a Redis
// process: redis-N, redis-N-rJ or sentinel-N.
func looksLikeNodeName(s string) bool {
	if n, ok := strings.CutPrefix(s, "sentinel-"); ok {
		return spelled(n, isDigit)
	}
	rest, ok := strings.CutPrefix(s, "redis-")
	n, replica, isReplica := strings.Cut(rest, "-r")
	return ok && spelled(n, isDigit) && (!isReplica || spelled(replica, isDigit))
}

// problem is a validation finding; Load turns it into a LoadError.
type problem struct {
	Pos Pos
	Msg i18n.Msg // rendered in the reader's language by the LoadError
}

// Validate checks s against every rule of the format, as Load does. It is
// for scenarios built or altered in code (compare swaps the strategy, for
// instance); the error names the scenario but has no file position.
func (s *Scenario) Validate() error {
	if p := validate(s, nil); p != nil {
		return i18n.Errorf(nil, "scenario %s: %s", echo(s.Name), p.Msg)
	}
	return nil
}

// checker collects problems and keeps the one earliest in the file, so the
// order of the checks below does not decide which error the user sees.
type checker struct {
	s     *Scenario
	pt    posTable // nil when validating a scenario built in code
	first *problem
}

// validate checks the rules that need more than one value at a time or a
// complete scenario (requiredness, ranges, names, targets). pt gives the
// positions of the fields; nil is allowed.
func validate(s *Scenario, pt posTable) *problem {
	c := &checker{s: s, pt: pt}
	c.scenario()
	c.lock()
	c.resource()
	c.keys()
	c.clientResources()
	c.clients()
	for i := range s.Faults {
		c.fault(i)
	}
	for _, x := range s.Expect {
		if msg := validateExpect(x); msg != "" {
			c.report(x.Pos, "%s", msg)
		}
	}
	if c.first == nil {
		c.simulable()
	}
	return c.first
}

// at returns where path is written, falling back to its closest written
// parent ("lock.ttl" -> "lock" -> the scenario) when the field is absent.
func (c *checker) at(path string) Pos {
	for path != "" {
		if p, ok := c.pt[path]; ok {
			return p
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			break
		}
		path = path[:i]
	}
	return c.s.Pos
}

// given reports whether path was written in the file. Without positions
// (a scenario built in code) everything counts as given, so only the value
// checks apply.
func (c *checker) given(path string) bool { return c.pt == nil || c.pt.has(path) }

func (c *checker) report(p Pos, format string, args ...any) {
	if c.first == nil || p.Before(c.first.Pos) {
		c.first = &problem{Pos: p, Msg: i18n.M(format, args...)}
	}
}

func (c *checker) errorf(path, format string, args ...any) {
	c.report(c.at(path), format, args...)
}

// required reports a missing field at its parent's position.
func (c *checker) required(path string, what any) bool {
	if c.given(path) {
		return true
	}
	c.errorf(path, "%s is required", what)
	return false
}

// positive checks a length that must be more than nothing: (0, MaxDuration].
func (c *checker) positive(path, name string, d time.Duration) {
	if d <= 0 || d > MaxDuration {
		c.errorf(path, "%s must be greater than 0 and at most %s (got %s)", name, fmtDur(MaxDuration), fmtDur(d))
	}
}

// nonNegative checks a time or length that may be 0: [0, MaxDuration].
func (c *checker) nonNegative(path, name string, d time.Duration) {
	if d < 0 || d > MaxDuration {
		c.errorf(path, "%s must be between 0s and %s (got %s)", name, fmtDur(MaxDuration), fmtDur(d))
	}
}

func (c *checker) intRange(path, name string, v, lo, hi int) {
	if v < lo || v > hi {
		c.errorf(path, "%s must be between %d and %d (got %d)", name, lo, hi, v)
	}
}

func (c *checker) oneOf(path, name, v string, allowed []string) {
	if !slices.Contains(allowed, v) {
		c.errorf(path, "unknown %s %s (allowed: %s)", name, echo(v), strings.Join(allowed, ", "))
	}
}

// fmtDur prints whole seconds as "95s" (how the files write them) rather
// than Go's "1m35s".
func fmtDur(d time.Duration) string {
	if d == MaxDuration {
		return "24h"
	}
	if d%time.Second == 0 && d > -time.Hour && d < time.Hour {
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return d.String()
}

func (c *checker) scenario() {
	s := c.s
	if c.given(keyName) || c.required(keyName, i18n.M("a scenario %s (%s: lowercase-with-dashes)", keyName, keyName)) {
		c.name(keyName, i18n.M("scenario %s", keyName), s.Name, MaxNameLen, scenarioNameByte, "a-z, 0-9 and -")
	}
	c.text()
	c.translations()
	if c.given(keyDuration) || c.required(keyDuration, i18n.M("%s (the simulated-time limit, e.g. %s: 90s)", keyDuration, keyDuration)) {
		c.positive(keyDuration, keyDuration, s.Duration)
	}
	lat, jit := dot(keyNetwork, keyLatency), dot(keyNetwork, keyJitter)
	c.nonNegative(lat, lat, s.Network.Latency)
	c.nonNegative(jit, jit, s.Network.Jitter)
	c.links()
	c.redis()
}

// redis checks the redis: block; each field is named by its path.
func (c *checker) redis() {
	r := c.s.Redis
	at := func(key string) string { return dot(keyRedis, key) }
	nodes, replicas, fo, sent := at(keyNodes), at(keyReplicas), at(keyFailoverAfter), at(keySentinels)
	c.intRange(nodes, nodes, r.Nodes, 1, MaxNodes)
	c.intRange(replicas, replicas, r.Replicas, 0, MaxReplicas)
	if c.s.Lock.Strategy == model.StrategyRedlock && r.Nodes >= 1 && r.Nodes < MinRedlockNodes {
		c.errorf(nodes, "strategy %s needs at least %d independent masters (%s: %d); omit it for the default of %d", model.StrategyRedlock, MinRedlockNodes, nodes, r.Nodes, RedlockNodes)
	}
	c.nonNegative(at(keyReplicationLag), at(keyReplicationLag), r.ReplicationLag)
	c.nonNegative(fo, fo, r.FailoverAfter)
	if r.FailoverAfter > 0 && r.Replicas < 1 {
		c.errorf(fo, "%s needs a replica to promote: set %s to 1 or more", fo, replicas)
	}
	c.intRange(sent, sent, r.Sentinels, 0, MaxSentinels)
	if r.Sentinels > 0 && r.FailoverAfter <= 0 {
		c.errorf(sent, "%s decide when to fail over after %s: set it too (e.g. %s: 5s)", sent, fo, keyFailoverAfter)
	}
	c.nonNegative(at(keyRestartDelay), at(keyRestartDelay), r.RestartDelay)
	c.oneOf(at(keyPersistence), at(keyPersistence), r.Persistence, Persistences)
	c.oneOf(at(keyClock), at(keyClock), r.Clock, Clocks)
	c.redisSide()
	c.eviction()
}

// name checks a name: not too long, no control characters, only the
// characters of re (described by chars). It reports whether it is good.
func (c *checker) name(path string, what any, v string, maxLen int, alphabet func(byte) bool, chars string) bool {
	switch {
	case termtext.HasControl(v):
		c.errorf(path, "%s %s holds a control character or invalid UTF-8; it may use only %s", what, echo(v), chars)
	case len(v) > maxLen:
		c.errorf(path, "%s %s is too long: at most %d characters (got %d)", what, echo(v), maxLen, len(v))
	case !spelled(v, alphabet):
		c.errorf(path, "%s %s may use only %s", what, echo(v), chars)
	default:
		return true
	}
	return false
}

// text checks the title and story, which are printed in lists, reports and
// the TUI: the title is one line, so no control character at all; the story
// may hold newlines and tabs but no other control character (an escape
// sequence in it could clear the screen or retitle the terminal).
func (c *checker) text() {
	s := c.s
	switch {
	case termtext.HasControl(s.Title):
		c.errorf(keyTitle, "%s holds a control character, a line break or invalid UTF-8 (%s); a title is one line of plain text", keyTitle, echo(firstControl(s.Title, false)))
	case utf8.RuneCountInString(s.Title) > MaxTitleLen:
		c.errorf(keyTitle, "%s must be at most %d characters long (got %d); put the rest in %s", keyTitle, MaxTitleLen, utf8.RuneCountInString(s.Title), keyStory)
	}
	switch {
	case termtext.EscapeKeepLines(s.Story) != s.Story:
		c.errorf(keyStory, "%s holds a control character or invalid UTF-8 (%s); a story may hold line breaks and tabs but no other control character", keyStory, echo(firstControl(s.Story, true)))
	case len(s.Story) > MaxStoryLen:
		c.errorf(keyStory, "%s must be at most %d bytes long (got %d)", keyStory, MaxStoryLen, len(s.Story))
	}
}

// firstControl returns the first control character (or invalid byte) of s,
// for the message; with keepLines newlines and tabs do not count.
func firstControl(s string, keepLines bool) string {
	for i := 0; i < len(s); {
		_, n := utf8.DecodeRuneInString(s[i:])
		ch := s[i : i+n]
		if keep := keepLines && (ch == "\n" || ch == "\t"); !keep && termtext.HasControl(ch) {
			return ch
		}
		i += n
	}
	return ""
}

func (c *checker) lock() {
	l := c.s.Lock
	if !c.given(keyLock) {
		c.errorf(keyLock, "%s is required (at least %s, %s and %s)", keyLock, keyKey, keyStrategy, keyTTL)
		return
	}
	at := func(key string) string { return dot(keyLock, key) }
	if key := at(keyKey); c.required(key, key) {
		switch {
		case l.Key == "":
			c.errorf(key, "%s must not be empty", key)
		case termtext.HasControl(l.Key):
			c.errorf(key, "%s %s holds a control character or invalid UTF-8; a key is printed in traces and must be plain text", key, echo(l.Key))
		case len(l.Key) > MaxKeyLen:
			c.errorf(key, "%s must be at most %d bytes long (got %d)", key, MaxKeyLen, len(l.Key))
		}
	}
	if st := at(keyStrategy); c.required(st, i18n.M("%s (one of %s)", st, strings.Join(Strategies, ", "))) {
		c.oneOf(st, st, l.Strategy, Strategies)
	}
	if ttl := at(keyTTL); c.required(ttl, ttl) {
		switch {
		case l.TTL < MinTTL || l.TTL > MaxDuration:
			c.errorf(ttl, "%s must be between %s and %s (got %s)", ttl, fmtDur(MinTTL), fmtDur(MaxDuration), fmtDur(l.TTL))
		case l.TTL%time.Millisecond != 0:
			c.errorf(ttl, "%s must be a whole number of milliseconds: Redis's PX counts milliseconds (got %s)", ttl, fmtDur(l.TTL))
		}
	}
	c.positive(at(keyTimeout), at(keyTimeout), l.Timeout)
	c.oneOf(at(keyFencing), at(keyFencing), l.Fencing, FencingModes)
	c.watchdog(l.Watchdog)
	c.retry(l.Retry)
	c.redlock(l.Redlock)
	c.knobs(l)
	c.waitReplicas()
	c.client(l.Client)

	// Which modifiers a strategy can run is decided in one place (design.go),
	// which Compare uses too.
	for _, p := range DesignProblems(l.Strategy, l) {
		c.errorf(p.Field, "%s", p.msg)
	}
}

// The blocks inside lock: are named in messages without the "lock."
// ("watchdog.every") and found at their full path ("lock.watchdog.every").

// redlock checks lock.redlock.
func (c *checker) redlock(r Redlock) {
	drift, rt := dot(keyRedlock, keyDriftFactor), dot(keyRedlock, keyRequestTimeout)
	if d := r.DriftFactor; !(d >= 0 && d < 1) {
		c.errorf(dot(keyLock, drift), "%s must be at least 0 and less than 1 (got %g)", drift, d)
	}
	c.positive(dot(keyLock, rt), rt, r.RequestTimeout)
	c.redlockFamily(r)
}

// redlockFamily checks the Redlock-family knobs of lock.redlock (a value
// left empty by a scenario built in code is the default).
func (c *checker) redlockFamily(r Redlock) {
	at := func(key string) (string, string) { return dot(keyLock, dot(keyRedlock, key)), dot(keyRedlock, key) }
	for _, k := range []struct {
		key, v  string
		allowed []string
	}{{keyDeadline, r.Deadline, Deadlines}, {keyDecide, r.Decide, Decisions}, {keyElapsed, r.Elapsed, ElapsedClocks}, {keyLeaseFrom, r.LeaseFrom, LeaseFroms}, {keyExtendLate, r.ExtendLate, ExtendLates},
		{keyReleaseFailed, r.ReleaseFailed, ReleaseFaileds}} {
		if path, name := at(k.key); k.v != "" {
			c.oneOf(path, name, k.v, k.allowed)
		}
	}
	if path, name := at(keyTimeoutFactor); r.TimeoutFactor != 0 || r.Deadline == model.DeadlineAttempt {
		if f := r.TimeoutFactor; !(f >= MinTimeoutFactor && f <= MaxTimeoutFactor) {
			c.errorf(path, "%s must be more than 0 and at most %g (ttl × it is the attempt's deadline; got %g)", name, MaxTimeoutFactor, f)
		}
	}
}

// client checks lock.client of a scenario built in code (the loader has
// already refused an unknown one at its name).
func (c *checker) client(name string) {
	if k := dot(keyLock, keyClient); name != "" && !IsProfile(name) {
		c.errorf(k, "unknown %s %s (profiles: %s)", k, echo(name), strings.Join(ProfileNames, ", "))
	}
}

// watchdog checks lock.watchdog, when there is one.
func (c *checker) watchdog(w *Watchdog) {
	if w == nil {
		return
	}
	every, most := dot(keyWatchdog, keyEvery), dot(keyWatchdog, keyMaxRenewals)
	if c.required(dot(keyLock, every), every) {
		c.positive(dot(keyLock, every), every, w.Every)
	}
	if w.MaxRenewals < 0 || w.MaxRenewals > MaxRenewals {
		c.errorf(dot(keyLock, most), "%s must be between 0 and %d (0 means unlimited; got %d)", most, MaxRenewals, w.MaxRenewals)
	}
}

// retry checks lock.retry, when there is one.
func (c *checker) retry(r *Retry) {
	if r == nil {
		return
	}
	name := func(key string) string { return dot(keyRetry, key) }
	at := func(key string) string { return dot(keyLock, name(key)) }
	if c.required(at(keyAttempts), name(keyAttempts)) && (r.Attempts < 1 || r.Attempts > MaxAttempts) {
		c.errorf(at(keyAttempts), "%s must be at least 1 and at most %d (got %d)", name(keyAttempts), MaxAttempts, r.Attempts)
	}
	c.nonNegative(at(keyDelay), name(keyDelay), r.Delay)
	if !(r.Backoff >= 1 && r.Backoff <= MaxBackoff) {
		c.errorf(at(keyBackoff), "%s must be at least 1.0 and at most %g (1.0 keeps the delay constant; got %g)", name(keyBackoff), MaxBackoff, r.Backoff)
	} else if longest := longestPause(r); longest > float64(MaxDuration) {
		c.errorf(at(keyBackoff), "the longest retry pause, %s × %s^(%s−2) = %s × %g^%d, is more than %s: set %s (at most %s) or lower %s",
			name(keyDelay), keyBackoff, keyAttempts, fmtDur(r.Delay), r.Backoff, r.Attempts-2, fmtDur(MaxDuration),
			name(keyMaxDelay), fmtDur(MaxDuration), name(keyBackoff))
	}
	c.nonNegative(at(keyMaxDelay), name(keyMaxDelay), r.MaxDelay)
	if !(r.Jitter >= 0 && r.Jitter <= 1) {
		c.errorf(at(keyJitter), "%s is a fraction of the delay and must be between 0 and 1 (got %g)", name(keyJitter), r.Jitter)
	}
}

func (c *checker) clients() {
	s := c.s
	if len(s.Clients) == 0 {
		c.errorf(keyClients, "a scenario needs at least one client (%s: - %s: A, %s: 1s)", keyClients, keyName, keyWork)
		return
	}
	if len(s.Clients) > MaxClients {
		c.errorf(keyClients, "too many clients: the limit is %d", MaxClients)
	}
	seen := map[string]int{}
	total := 0
	for i, cl := range s.Clients {
		path := fmt.Sprintf("%s[%d]", keyClients, i)
		c.clientName(path, i, seen)
		at := func(key string) string { return dot(path, key) }
		// given first: the phrase is built only for the message.
		if w := at(keyWork); c.given(w) || c.required(w, i18n.M("client %s: %s (how long it holds the lock, e.g. %s: 2s)", cl.Name, keyWork, keyWork)) {
			c.nonNegative(at(keyWork), keyWork, cl.Work)
		}
		c.nonNegative(at(keyStart), keyStart, cl.Start)
		c.nonNegative(at(keyThink), keyThink, cl.Think)
		c.intRange(at(keyHolds), keyHolds, cl.Holds, 1, MaxHolds)
		c.intRange(at(keyNested), keyNested, cl.Nested, 0, MaxNested)
		if cl.Holds > 0 {
			total += min(cl.Holds, MaxHolds+1)
		}
	}
	if total > MaxTotalHolds {
		c.errorf(keyClients, "the clients plan %d holds in all; the limit is %d", total, MaxTotalHolds)
	}
}

// clientName checks the name of client i (written at path); seen maps the
// names so far to their clients.
func (c *checker) clientName(path string, i int, seen map[string]int) {
	cl, np, what := c.s.Clients[i], dot(path, keyName), i18n.M("client %s", keyName)
	if !c.given(np) || cl.Name == "" {
		c.report(c.at(path), "every client needs a %s", keyName)
		return
	}
	switch {
	case !c.name(np, what, cl.Name, MaxClientNameLen, clientNameByte, "A-Z, a-z, 0-9, _ and -"):
	case looksLikeNodeName(cl.Name):
		c.errorf(np, "%s %s looks like a node name; redis-N, redis-K-rJ and sentinel-N name the Redis processes", what, echo(cl.Name))
	case cl.Name == model.ResourceName:
		c.errorf(np, "%s %s is the protected resource's process name; pick another", what, echo(cl.Name))
	}
	if j, dup := seen[cl.Name]; dup {
		c.errorf(np, "duplicate %s %s (first at line %d)", what, echo(cl.Name), c.s.Clients[j].Pos.Line)
	} else {
		seen[cl.Name] = i
	}
}

// longestPause is the longest pause between two attempts, in nanoseconds:
// the pause after failed attempt i is delay × backoff^(i−1), for i up to
// attempts−1, capped at max_delay (0: no cap). It is computed in float64 so
// that it cannot overflow (it may be +Inf).
func longestPause(r *Retry) float64 {
	if r.Attempts < 2 || r.Delay <= 0 {
		return 0
	}
	d := float64(r.Delay) * math.Pow(r.Backoff, float64(r.Attempts-2))
	if r.MaxDelay > 0 {
		d = math.Min(d, float64(r.MaxDelay))
	}
	return d
}

// names lists the processes a fault may target.
func (c *checker) names() faults.Names {
	r := c.s.Redis
	var clients []string
	for _, cl := range c.s.Clients {
		clients = append(clients, cl.Name)
	}
	ns := faults.NamesFor(clients, min(max(r.Nodes, 0), MaxNodes), min(max(r.Replicas, 0), MaxReplicas),
		min(max(r.Sentinels, 0), MaxSentinels))
	ns.Resource = []string{model.ResourceName} // partition, isolate and slow may cut the resource off
	return ns
}

// fault checks faults[i]: its time, then its kind's target and fields (by
// the kind's spec, through faultChecker).
func (c *checker) fault(i int) {
	f := c.s.Faults[i]
	path := fmt.Sprintf("%s[%d]", keyFaults, i)
	if c.required(path+"."+faultAt, i18n.M("%s: (when the fault strikes) for every fault", faultAt)) {
		switch {
		case f.At < 0:
			c.errorf(path+"."+faultAt, "fault %s %s is before the run starts (%s must not be negative)", faultAt, fmtDur(f.At), faultAt)
		case f.At >= c.s.Duration && c.s.Duration > 0:
			c.errorf(path+"."+faultAt, "fault %s %s is outside the run (duration %s)", faultAt, fmtDur(f.At), fmtDur(c.s.Duration))
		}
	}
	if faults.Lookup(f.Kind) == nil {
		c.errorf(path, "unknown fault kind %s (kinds: %s)", echo(string(f.Kind)), strings.Join(faults.KindNames(), ", "))
		return
	}
	faults.Validate(&faultChecker{c: c, kind: f.Kind, kp: path + "." + string(f.Kind), w: c.names()}, f)
}

// faultChecker is the validator as a fault kind's Check sees it: fields are
// named relative to the kind's mapping ("faults[0].pause").
type faultChecker struct {
	c    *checker
	kind faults.Kind
	kp   string
	w    faults.Names
}

func (fc *faultChecker) path(sub string) string {
	if sub == "" {
		return fc.kp
	}
	return fc.kp + "." + sub
}

func (fc *faultChecker) name(sub string) string { return string(fc.kind) + "." + sub }

func (fc *faultChecker) Names() faults.Names       { return fc.w }
func (fc *faultChecker) FromFile() bool            { return fc.c.pt != nil }
func (fc *faultChecker) Written(sub string) bool   { return fc.c.pt.has(fc.path(sub)) }
func (fc *faultChecker) Quote(s string) string     { return echo(s) }
func (fc *faultChecker) List(ns []string) i18n.Msg { return knownList(ns) }
func (fc *faultChecker) Dur(d time.Duration) string {
	return fmtDur(d)
}

func (fc *faultChecker) Required(sub string, what any) bool { return fc.c.required(fc.path(sub), what) }

func (fc *faultChecker) Errorf(sub, format string, args ...any) {
	fc.c.errorf(fc.path(sub), format, args...)
}

func (fc *faultChecker) Positive(sub string, d time.Duration) {
	fc.c.positive(fc.path(sub), fc.name(sub), d)
}

func (fc *faultChecker) NonNegative(sub string, d time.Duration) {
	fc.c.nonNegative(fc.path(sub), fc.name(sub), d)
}

// Target checks f.Target against the names the kind accepts; need describes
// the restriction when allowed is not every process.
func (fc *faultChecker) Target(f faults.Fault, allowed []string, need string) bool {
	tp := faults.FieldTarget.Name
	if !fc.Required(tp, fc.name(tp)) {
		return false
	}
	all := fc.w.Net()
	if !slices.Contains(all, f.Target) {
		fc.Errorf(tp, "unknown %s %s (known: %s)", tp, echo(f.Target), knownList(all))
		return false
	}
	if !slices.Contains(allowed, f.Target) {
		// need is a sentence of a Spec, a key of the catalogue (TestFaultNeedsTranslated).
		fc.Errorf(tp, "%s needs %s as %s, and %s is not one (allowed here: %s)", f.Kind, i18n.Msg{Format: need}, tp, echo(f.Target), strings.Join(allowed, ", "))
		return false
	}
	return true
}
