package scenario

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/internal/termtext"
)

// The enumerations of the format, in documented order (messages list them).
var (
	Strategies    = []string{"setnx-del", "setnx-expire", "set-del", "lua-release", "redlock"}
	FencingModes  = []string{"none", "token", "cas"}
	Persistences  = []string{"none", "everysec", "always"}
	Clocks        = []string{"wall", "monotonic"}
	scenarioName  = regexp.MustCompile(`^[a-z0-9-]+$`)
	clientName    = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
	nodeNameLike  = regexp.MustCompile(`^(redis-[0-9]+(-r[0-9]+)?|sentinel-[0-9]+)$`)
	ownerStrategy = []string{"lua-release", "redlock"} // those that store an owner token
)

// problem is a validation finding; Load turns it into a LoadError.
type problem struct {
	Pos Pos
	Msg string
}

// Validate checks s against every rule of the format, as Load does. It is
// for scenarios built or altered in code (compare swaps the strategy, for
// instance); the error names the scenario but has no file position.
func (s *Scenario) Validate() error {
	if p := validate(s, nil); p != nil {
		return fmt.Errorf("scenario %s: %s", echo(s.Name), p.Msg)
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
	if c.first == nil || p.before(c.first.Pos) {
		c.first = &problem{Pos: p, Msg: fmt.Sprintf(format, args...)}
	}
}

func (c *checker) errorf(path, format string, args ...any) {
	c.report(c.at(path), format, args...)
}

// required reports a missing field at its parent's position.
func (c *checker) required(path, what string) bool {
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
	if c.required("name", "a scenario name (name: lowercase-with-dashes)") {
		c.name("name", "scenario name", s.Name, MaxNameLen, scenarioName, "a-z, 0-9 and -")
	}
	c.text()
	if c.required("duration", "duration (the simulated-time limit, e.g. duration: 90s)") {
		c.positive("duration", "duration", s.Duration)
	}
	c.nonNegative("network.latency", "network.latency", s.Network.Latency)
	c.nonNegative("network.jitter", "network.jitter", s.Network.Jitter)
	r := s.Redis
	c.intRange("redis.nodes", "redis.nodes", r.Nodes, 1, MaxNodes)
	c.intRange("redis.replicas", "redis.replicas", r.Replicas, 0, MaxReplicas)
	if c.s.Lock.Strategy == "redlock" && r.Nodes >= 1 && r.Nodes < MinRedlockNodes {
		c.errorf("redis.nodes", "strategy redlock needs at least %d independent masters (redis.nodes: %d); omit it for the default of %d", MinRedlockNodes, r.Nodes, RedlockNodes)
	}
	c.nonNegative("redis.replication_lag", "redis.replication_lag", r.ReplicationLag)
	c.nonNegative("redis.failover_after", "redis.failover_after", r.FailoverAfter)
	if r.FailoverAfter > 0 && r.Replicas < 1 {
		c.errorf("redis.failover_after", "redis.failover_after needs a replica to promote: set redis.replicas to 1 or more")
	}
	c.intRange("redis.sentinels", "redis.sentinels", r.Sentinels, 0, MaxSentinels)
	if r.Sentinels > 0 && r.FailoverAfter <= 0 {
		c.errorf("redis.sentinels", "redis.sentinels decide when to fail over after redis.failover_after: set it too (e.g. failover_after: 5s)")
	}
	c.nonNegative("redis.restart_delay", "redis.restart_delay", r.RestartDelay)
	c.oneOf("redis.persistence", "redis.persistence", r.Persistence, Persistences)
	c.oneOf("redis.clock", "redis.clock", r.Clock, Clocks)
}

// name checks a name: not too long, no control characters, only the
// characters of re (described by chars). It reports whether it is good.
func (c *checker) name(path, what, v string, maxLen int, re *regexp.Regexp, chars string) bool {
	switch {
	case termtext.HasControl(v):
		c.errorf(path, "%s %s holds a control character or invalid UTF-8; it may use only %s", what, echo(v), chars)
	case len(v) > maxLen:
		c.errorf(path, "%s %s is too long: at most %d characters (got %d)", what, echo(v), maxLen, len(v))
	case !re.MatchString(v):
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
		c.errorf("title", "title holds a control character, a line break or invalid UTF-8 (%s); a title is one line of plain text", echo(firstControl(s.Title, false)))
	case utf8.RuneCountInString(s.Title) > MaxTitleLen:
		c.errorf("title", "title must be at most %d characters long (got %d); put the rest in story", MaxTitleLen, utf8.RuneCountInString(s.Title))
	}
	switch {
	case termtext.EscapeKeepLines(s.Story) != s.Story:
		c.errorf("story", "story holds a control character or invalid UTF-8 (%s); a story may hold line breaks and tabs but no other control character", echo(firstControl(s.Story, true)))
	case len(s.Story) > MaxStoryLen:
		c.errorf("story", "story must be at most %d bytes long (got %d)", MaxStoryLen, len(s.Story))
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
	if !c.given("lock") {
		c.errorf("lock", "lock is required (at least key, strategy and ttl)")
		return
	}
	if c.required("lock.key", "lock.key") {
		switch {
		case l.Key == "":
			c.errorf("lock.key", "lock.key must not be empty")
		case termtext.HasControl(l.Key):
			c.errorf("lock.key", "lock.key %s holds a control character or invalid UTF-8; a key is printed in traces and must be plain text", echo(l.Key))
		case len(l.Key) > MaxKeyLen:
			c.errorf("lock.key", "lock.key must be at most %d bytes long (got %d)", MaxKeyLen, len(l.Key))
		}
	}
	if c.required("lock.strategy", "lock.strategy (one of "+strings.Join(Strategies, ", ")+")") {
		c.oneOf("lock.strategy", "lock.strategy", l.Strategy, Strategies)
	}
	if c.required("lock.ttl", "lock.ttl") {
		switch {
		case l.TTL < MinTTL || l.TTL > MaxDuration:
			c.errorf("lock.ttl", "lock.ttl must be between %s and %s (got %s)", fmtDur(MinTTL), fmtDur(MaxDuration), fmtDur(l.TTL))
		case l.TTL%time.Millisecond != 0:
			c.errorf("lock.ttl", "lock.ttl must be a whole number of milliseconds: Redis's PX counts milliseconds (got %s)", fmtDur(l.TTL))
		}
	}
	c.positive("lock.timeout", "lock.timeout", l.Timeout)
	c.oneOf("lock.fencing", "lock.fencing", l.Fencing, FencingModes)
	if w := l.Watchdog; w != nil {
		if c.required("lock.watchdog.every", "watchdog.every") {
			c.positive("lock.watchdog.every", "watchdog.every", w.Every)
		}
		if w.MaxRenewals < 0 || w.MaxRenewals > MaxRenewals {
			c.errorf("lock.watchdog.max_renewals", "watchdog.max_renewals must be between 0 and %d (0 means unlimited; got %d)", MaxRenewals, w.MaxRenewals)
		}
	}
	if r := l.Retry; r != nil {
		if c.required("lock.retry.attempts", "retry.attempts") && (r.Attempts < 1 || r.Attempts > MaxAttempts) {
			c.errorf("lock.retry.attempts", "retry.attempts must be at least 1 and at most %d (got %d)", MaxAttempts, r.Attempts)
		}
		c.nonNegative("lock.retry.delay", "retry.delay", r.Delay)
		if !(r.Backoff >= 1 && r.Backoff <= MaxBackoff) {
			c.errorf("lock.retry.backoff", "retry.backoff must be at least 1.0 and at most %g (1.0 keeps the delay constant; got %g)", MaxBackoff, r.Backoff)
		} else if longest := longestPause(r); longest > float64(MaxDuration) {
			c.errorf("lock.retry.backoff", "the longest retry pause, retry.delay × backoff^(attempts−2) = %s × %g^%d, is more than %s: set retry.max_delay (at most %s) or lower retry.backoff",
				fmtDur(r.Delay), r.Backoff, r.Attempts-2, fmtDur(MaxDuration), fmtDur(MaxDuration))
		}
		c.nonNegative("lock.retry.max_delay", "retry.max_delay", r.MaxDelay)
		if !(r.Jitter >= 0 && r.Jitter <= 1) {
			c.errorf("lock.retry.jitter", "retry.jitter is a fraction of the delay and must be between 0 and 1 (got %g)", r.Jitter)
		}
	}
	if d := l.Redlock.DriftFactor; !(d >= 0 && d < 1) {
		c.errorf("lock.redlock.drift_factor", "redlock.drift_factor must be at least 0 and less than 1 (got %g)", d)
	}
	c.positive("lock.redlock.request_timeout", "redlock.request_timeout", l.Redlock.RequestTimeout)

	// Which modifiers a strategy can run is decided in one place (design.go),
	// which Compare uses too.
	for _, p := range DesignProblems(l.Strategy, l) {
		c.errorf(p.Field, "%s", p.Msg)
	}
}

func (c *checker) clients() {
	s := c.s
	if len(s.Clients) == 0 {
		c.errorf("clients", "a scenario needs at least one client (clients: - name: A, work: 1s)")
		return
	}
	if len(s.Clients) > MaxClients {
		c.errorf("clients", "too many clients: the limit is %d", MaxClients)
	}
	seen := map[string]int{}
	total := 0
	for i, cl := range s.Clients {
		path := fmt.Sprintf("clients[%d]", i)
		if c.given(path+".name") && cl.Name != "" {
			switch {
			case !c.name(path+".name", "client name", cl.Name, MaxClientNameLen, clientName, "A-Z, a-z, 0-9, _ and -"):
			case nodeNameLike.MatchString(cl.Name):
				c.errorf(path+".name", "client name %s looks like a node name; redis-N, redis-K-rJ and sentinel-N name the Redis processes", echo(cl.Name))
			}
			if j, dup := seen[cl.Name]; dup {
				c.errorf(path+".name", "duplicate client name %s (first at line %d)", echo(cl.Name), s.Clients[j].Pos.Line)
			} else {
				seen[cl.Name] = i
			}
		} else {
			c.report(c.at(path), "every client needs a name")
		}
		if c.required(path+".work", fmt.Sprintf("client %s: work (how long it holds the lock, e.g. work: 2s)", cl.Name)) {
			c.nonNegative(path+".work", "work", cl.Work)
		}
		c.nonNegative(path+".start", "start", cl.Start)
		c.nonNegative(path+".think", "think", cl.Think)
		c.intRange(path+".holds", "holds", cl.Holds, 1, MaxHolds)
		c.intRange(path+".nested", "nested", cl.Nested, 0, MaxNested)
		if cl.Holds > 0 {
			total += min(cl.Holds, MaxHolds+1)
		}
	}
	if total > MaxTotalHolds {
		c.errorf("clients", "the clients plan %d holds in all; the limit is %d", total, MaxTotalHolds)
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

// world lists the process names a fault may target.
type world struct {
	clients, masters, replicas, sentinels []string
}

func (c *checker) world() world {
	var w world
	for _, cl := range c.s.Clients {
		w.clients = append(w.clients, cl.Name)
	}
	r := c.s.Redis
	for k := 1; k <= min(max(r.Nodes, 0), MaxNodes); k++ {
		w.masters = append(w.masters, fmt.Sprintf("redis-%d", k))
		for j := 1; j <= min(max(r.Replicas, 0), MaxReplicas); j++ {
			w.replicas = append(w.replicas, fmt.Sprintf("redis-%d-r%d", k, j))
		}
	}
	for k := 1; k <= min(max(r.Sentinels, 0), MaxSentinels); k++ {
		w.sentinels = append(w.sentinels, fmt.Sprintf("sentinel-%d", k))
	}
	return w
}

// all is every client and node: what most faults may strike.
func (w world) all() []string {
	return slices.Concat(w.clients, w.masters, w.replicas)
}

// net is every process on the network, sentinels included: what network
// faults (partition, isolate, slow) may cut off.
func (w world) net() []string {
	return slices.Concat(w.all(), w.sentinels)
}

func (w world) isNode(name string) bool {
	return slices.Contains(w.masters, name) || slices.Contains(w.replicas, name)
}

// fault checks faults[i]: its time, its kind's fields and its target.
func (c *checker) fault(i int) {
	f := c.s.Faults[i]
	path := fmt.Sprintf("faults[%d]", i)
	if c.required(path+".at", "at: (when the fault strikes) for every fault") {
		switch {
		case f.At < 0:
			c.errorf(path+".at", "fault at %s is before the run starts (at must not be negative)", fmtDur(f.At))
		case f.At >= c.s.Duration && c.s.Duration > 0:
			c.errorf(path+".at", "fault at %s is outside the run (duration %s)", fmtDur(f.At), fmtDur(c.s.Duration))
		}
	}
	if !slices.Contains(FaultKinds, f.Kind) {
		c.errorf(path, "unknown fault kind %s (kinds: %s)", echo(f.Kind), strings.Join(FaultKinds, ", "))
		return
	}
	w := c.world()
	kp := path + "." + f.Kind // where the kind's fields are recorded
	field := func(name string) string { return kp + "." + name }
	needFor := func() {
		if c.required(field("for"), f.Kind+".for (how long it lasts)") {
			c.positive(field("for"), f.Kind+".for", f.For)
		}
	}
	switch f.Kind {
	case FaultPause, FaultHang:
		c.target(kp, f, w, w.clients, "a client (it stops a client process)")
		needFor()
	case FaultCrash:
		c.target(kp, f, w, w.all(), "a client or a Redis node (a sentinel only takes network faults)")
		if c.pt.has(field("restart_after")) || (c.pt == nil && f.RestartAfter != 0) {
			if !w.isNode(f.Target) {
				c.errorf(field("restart_after"), "crash.restart_after applies only to a node; a crashed client stays down")
			} else {
				c.positive(field("restart_after"), "crash.restart_after", f.RestartAfter)
			}
		}
	case FaultFailover:
		if c.target(kp, f, w, w.masters, "a master node redis-1..redis-N") && c.s.Redis.Replicas < 1 {
			c.errorf(field("target"), "failover of %s needs a replica to promote: set redis.replicas to 1 or more", f.Target)
		}
	case FaultClockJump:
		c.target(kp, f, w, w.all(), "a client or a Redis node (a sentinel only takes network faults)")
		if c.required(field("by"), "clock_jump.by (how far the clock steps, e.g. by: 20s or by: -5s)") {
			switch {
			case f.By == 0:
				c.errorf(field("by"), "clock_jump.by must not be 0 (a jump of nothing)")
			case f.By < -MaxDuration || f.By > MaxDuration:
				c.errorf(field("by"), "clock_jump.by must be between -24h and 24h (got %s)", fmtDur(f.By))
			}
		}
	case FaultClockDrift:
		c.target(kp, f, w, w.all(), "a client or a Redis node (a sentinel only takes network faults)")
		if c.required(field("rate"), "clock_drift.rate (clock speed relative to true time, e.g. rate: 1.1)") && !(f.Rate >= faults.MinRate && f.Rate <= faults.MaxRate) {
			c.errorf(field("rate"), "clock_drift.rate must be from %g to %g (got %g)", faults.MinRate, faults.MaxRate, f.Rate)
		}
	case FaultPartition:
		c.partition(kp, f, w)
		needFor()
	case FaultIsolate:
		c.target(kp, f, w, w.net(), "")
		needFor()
	case FaultSlow:
		c.target(kp, f, w, w.net(), "")
		needFor()
		c.nonNegative(field("latency"), "slow.latency", f.Latency)
		if !(f.Loss >= 0 && f.Loss <= 1) {
			c.errorf(field("loss"), "slow.loss is a drop probability and must be between 0 and 1 (got %g)", f.Loss)
		}
		if c.pt != nil && !c.pt.has(field("latency")) && !c.pt.has(field("loss")) {
			c.errorf(kp, "slow needs latency:, loss: or both")
		}
	}
}

// target checks f.Target against the names the kind accepts; need describes
// the restriction when allowed is not every process. It reports whether the
// target is acceptable.
func (c *checker) target(path string, f Fault, w world, allowed []string, need string) bool {
	tp := path + ".target"
	if !c.required(tp, f.Kind+".target") {
		return false
	}
	all := w.net()
	if !slices.Contains(all, f.Target) {
		c.errorf(tp, "unknown target %s (known: %s)", echo(f.Target), knownList(all))
		return false
	}
	if !slices.Contains(allowed, f.Target) {
		c.errorf(tp, "%s needs %s as target, and %s is not one (allowed here: %s)", f.Kind, need, echo(f.Target), strings.Join(allowed, ", "))
		return false
	}
	return true
}

// partition checks the groups: at least two, none empty, every name known,
// no name in two groups.
func (c *checker) partition(path string, f Fault, w world) {
	gp := path + ".groups"
	if !c.required(gp, "partition.groups (e.g. groups: [[A, redis-1], [B, redis-2]])") {
		return
	}
	if len(f.Groups) < 2 {
		c.errorf(gp, "partition needs at least two groups (got %d); to cut off one process use isolate", len(f.Groups))
		return
	}
	all := w.net()
	known := map[string]bool{}
	for _, n := range all {
		known[n] = true
	}
	// Stop at the first problem: groups and members are in file order, and a
	// huge list of bad names must not build a huge list of messages.
	where := map[string]int{}
	for g, group := range f.Groups {
		if len(group) == 0 {
			c.errorf(fmt.Sprintf("%s[%d]", gp, g), "partition group %d is empty", g+1)
			return
		}
		for m, name := range group {
			mp := fmt.Sprintf("%s[%d][%d]", gp, g, m)
			if !known[name] {
				c.errorf(mp, "unknown process %s in partition group %d (known: %s)", echo(name), g+1, knownList(all))
				return
			}
			if prev, dup := where[name]; dup {
				if prev == g {
					c.errorf(mp, "%s appears twice in partition group %d", echo(name), g+1)
				} else {
					c.errorf(mp, "%s is in partition groups %d and %d; groups must not overlap", echo(name), prev+1, g+1)
				}
				return
			}
			where[name] = g
		}
	}
}
