package scenario

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/lockstep-sim/lockstep/scenario/yamlfile"

	"gopkg.in/yaml.v3"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/model"
)

// Client profiles: `lock.client: NAME` runs the lock as a real library
// does, with its defaults and its behaviours. A profile is data in the
// format's own vocabulary: the lock block it implies, written in YAML and
// read by the same section readers as the file, for every key the file does
// not write itself (what the file writes overrides the profile). export
// writes the resolved lock, so a file says exactly what ran.
//
// The facts are the libraries' own source, cited per row; the tests in
// profile_test.go pin each row's behaviour with the line it follows.

// Profile is one client library's row.
type Profile struct {
	Name    string
	Library string   // the library and the version the row follows
	Doc     string   // one line for docs and lists
	Sources []string // where the row's facts are in the library's source
	// Lock is the lock block the profile implies, in the format's YAML.
	Lock string
	// refuse are the lock keys the library has no counterpart for.
	refuse []refusal
	// also are other strategies the library offers beside its default
	// (ShedLock's safeUpdate is lua-release); lock.strategy may name one.
	also []string
	// tune adjusts the resolved lock for what the file wrote (wrote reports
	// a key path such as "lock.ttl"): the Redisson gotcha that an explicit
	// lease turns the watchdog off lives here.
	tune func(l *Lock, wrote func(path string) bool)

	node func() *yaml.Node // Lock, parsed once, on first use (parsed)
}

// refusal is a lock key a profile cannot take, and why.
type refusal struct{ key, why string }

// The values of the Redlock-family knobs (lock.redlock).
const (
	DecideAll         = "all"
	DecideFirstQuorum = "first-quorum"
	ElapsedWall       = "wall"
	ElapsedMonotonic  = "monotonic"
	LeaseFromStart    = "attempt"
	LeaseFromReply    = "reply"
	// DefaultTimeoutFactor is redsync's timeoutFactor: with deadline:
	// attempt an attempt may take ttl × 0.05.
	DefaultTimeoutFactor = 0.05
)

// The knobs' allowed values, in documented order.
var (
	Deadlines     = []string{model.DeadlineNode, model.DeadlineAttempt, model.DeadlineNone}
	Decisions     = []string{DecideAll, DecideFirstQuorum}
	ElapsedClocks = []string{ElapsedWall, ElapsedMonotonic}
	LeaseFroms    = []string{LeaseFromStart, LeaseFromReply}
	ExtendLates   = []string{model.ExtendLateRefuse, model.ExtendLateAllow, model.ExtendLateError}
	// ReleaseFaileds: a failed attempt releases its keys at once, or only
	// the last failed try does (node-redlock v5).
	ReleaseFaileds = []string{"attempt", "end"}
)

// ProfileNames are the profiles, in table order.
var ProfileNames = profileNames()

// profileList is ProfileNames for docs: "redsync | redisson | ...".
var profileList = strings.Join(ProfileNames, " | ")

func profileNames() []string {
	out := make([]string, len(Profiles))
	for i, p := range Profiles {
		out[i] = p.Name
	}
	return out
}

// LookupProfile is the profile called name, nil when there is none.
func LookupProfile(name string) *Profile {
	for _, p := range Profiles {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// parsed is the profile's lock block as a YAML node, parsed on first use
// (a run of one scenario that names no profile parses none; the package
// used to parse all of them when it started).
func (pr *Profile) parsed() *yaml.Node { return pr.node() }

// withParsed gives each row its parse-once function (sync.OnceValue, so
// loads on many goroutines are safe, and a call after the first costs no
// allocation). A row that is not YAML is a bug of the table
// (TestProfileRowsParse): parsing it panics.
func withParsed(rows []*Profile) []*Profile {
	for _, pr := range rows {
		pr.node = sync.OnceValue(func() *yaml.Node {
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(pr.Lock), &doc); err != nil || len(doc.Content) == 0 {
				panic(fmt.Sprintf("profile %s: its lock block is not YAML: %v", pr.Name, err))
			}
			return doc.Content[0]
		})
	}
	return rows
}

// Strategy is the strategy the profile runs.
func (pr *Profile) Strategy() string {
	l := defaultScenario().Lock
	readProfile(pr, &l, posTable{})
	return l.Strategy
}

// readProfile reads the profile's lock block into l, recording each key in
// pt (at the profile's own positions).
func readProfile(pr *Profile, l *Lock, pt posTable) {
	readSection(newParser("profile "+pr.Name), pr.parsed(), lockSection, l, keyLock, pt)
}

// readLock reads the file's lock block: first the profile it names (if
// any), then the file's own keys over it, then the profile's refusals and
// its tune. The keys the profile supplied are recorded where lock.client is
// written, so a check of them points there.
func readLock(p *parser, e entry, s *Scenario, path string, pt posTable) {
	pr, at := p.profileOf(e.V, path)
	if pr != nil {
		ppt := posTable{}
		readProfile(pr, &s.Lock, ppt)
		for k := range ppt {
			pt[k] = at
		}
	}
	readSection(p, e.V, lockSection, &s.Lock, path, pt)
	if pr == nil {
		return
	}
	wrote := func(k string) bool { q, ok := pt[k]; return ok && q != at }
	p.checkProfile(pr, &s.Lock, wrote, pt)
	if pr.tune != nil {
		pr.tune(&s.Lock, wrote)
	}
}

// profileOf finds lock.client in the lock block n: its profile and where
// its value is written; nil when the block names none. An unknown name is
// an error at the name.
func (p *parser) profileOf(n *yaml.Node, path string) (*Profile, Pos) {
	v := findKey(n, keyClient, map[*yaml.Node]bool{})
	if v == nil {
		return nil, Pos{}
	}
	name := p.Str(v, dot(path, keyClient))
	pr := LookupProfile(name)
	if pr == nil {
		p.Fail(v, "unknown %s %s (profiles: %s)", dot(path, keyClient), echo(name), strings.Join(ProfileNames, ", "))
	}
	return pr, pos(p.Resolve(v))
}

// findKey is the value of key in mapping n or in what n merges ("<<:"),
// its own keys first as YAML's merge says; nil when absent. It looks at
// each mapping once (seen), so an alias bomb costs it nothing: the walk
// that reads the block (readSection) is the one that counts and bounds
// the nodes.
func findKey(n *yaml.Node, key string, seen map[*yaml.Node]bool) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < maxMergeDepth; i++ {
		n = n.Alias
	}
	if n == nil || seen[n] {
		return nil
	}
	seen[n] = true
	var merges []*yaml.Node
	switch n.Kind {
	case yaml.SequenceNode:
		merges = n.Content
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			switch k := n.Content[i]; {
			case k.Tag == "!!merge":
				merges = append(merges, n.Content[i+1])
			case k.Value == key:
				return n.Content[i+1]
			}
		}
	}
	for _, m := range merges {
		if v := findKey(m, key, seen); v != nil {
			return v
		}
	}
	return nil
}

// checkProfile refuses a key the profile has no counterpart for, and a
// strategy other than the profile's, at the key.
func (p *parser) checkProfile(pr *Profile, l *Lock, wrote func(string) bool, pt posTable) {
	for _, r := range pr.refuse {
		if k := dot(keyLock, r.key); wrote(k) {
			// why is a sentence of the table, a key of the catalogue
			// (TestProfileRefusalsTranslated).
			panic(yamlfile.NewError(p.Path, pt[k], "lock.client: %s cannot take %s: %s", pr.Name, k, i18n.Msg{Format: r.why}))
		}
	}
	if k := dot(keyLock, keyStrategy); wrote(k) {
		if st := pr.Strategy(); l.Strategy != st && !slices.Contains(pr.also, l.Strategy) {
			panic(yamlfile.NewError(p.Path, pt[k], "lock.client: %s runs strategy %s, not %s: remove %s or %s",
				pr.Name, st, echo(l.Strategy), k, dot(keyLock, keyClient)))
		}
	}
}

// writeLock is the lock block as export writes it. With a profile, every key
// the profile sets is written out even where it holds the format's default
// (which the exporter otherwise leaves out), so that reading the file back
// resolves to the same lock.
func writeLock(l *Lock) *yaml.Node {
	n := writeSection(lockSection, l)
	pr := LookupProfile(l.Client)
	if pr == nil {
		return n
	}
	for _, k := range mappingKeys(pr.parsed()) {
		if k == keyRedlock {
			rn := mappingValue(n, keyRedlock)
			for _, rk := range mappingKeys(mappingValue(pr.parsed(), keyRedlock)) {
				fillKey(redlockSection, &l.Redlock, rn, rk)
			}
			continue
		}
		fillKey(lockSection, l, n, k)
	}
	return n
}

// fillKey writes key k of x into the mapping n when n lacks it and k is a
// plain value (a block left out is absent: nothing to write).
func fillKey[T any](s *section[T], x *T, n *yaml.Node, k string) {
	if n == nil || mappingValue(n, k) != nil {
		return
	}
	f := &s.fields[slices.Index(s.keys, k)]
	switch {
	case f.val != nil:
		add(n, k, valueNode(f.val(x)))
	case k == keyValidityCheck || k == keyDriftSlack: // booleans read inverted
		add(n, k, f.write(x))
	}
}

// mappingKeys are the keys of a mapping node, in order.
func mappingKeys(n *yaml.Node) []string {
	var out []string
	if n == nil {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, n.Content[i].Value)
	}
	return out
}

// mappingValue is the value of key k in mapping n, nil when absent.
func mappingValue(n *yaml.Node, k string) *yaml.Node {
	if n == nil {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == k {
			return n.Content[i+1]
		}
	}
	return nil
}

// IsProfile reports whether name is a client profile rather than a
// strategy (compare and explore take both).
func IsProfile(name string) bool { return LookupProfile(name) != nil }

// ProfileLock is lock l run as profile name, for compare and explore: the
// profile's lock block, keeping of l only what a caller of the library
// chooses — lock.key, lock.ttl, lock.fencing — as if l's file had written
// those under lock.client: name. The modifiers of l the profile cannot take
// are dropped and listed.
func ProfileLock(name string, l Lock) (Lock, []Dropped, error) {
	pr := LookupProfile(name)
	if pr == nil {
		return l, nil, i18n.Errorf(nil, "unknown client profile %q (profiles: %s)", name, strings.Join(ProfileNames, ", "))
	}
	out := defaultScenario().Lock
	readProfile(pr, &out, posTable{})
	out.Key, out.Client = l.Key, name
	kept := map[string]bool{dot(keyLock, keyKey): true}
	if l.TTL > 0 {
		out.TTL, kept[dot(keyLock, keyTTL)] = l.TTL, true
	}
	if l.Fencing != "" && l.Fencing != "none" {
		out.Fencing, kept[dot(keyLock, keyFencing)] = l.Fencing, true
	}
	var dropped []Dropped
	for _, m := range modifiers {
		if m.on(l) && !m.on(out) && m.field != lockFencing {
			dropped = append(dropped, newDropped(m.name, i18n.M("client %s does not use it", name)))
		}
	}
	if pr.tune != nil {
		pr.tune(&out, func(k string) bool { return kept[k] })
	}
	if err := CheckDesign(out.Strategy, out); err != nil {
		return l, nil, i18n.Errorf(err, "client %s: %s", name, sentence(err))
	}
	return out, dropped, nil
}

// StrategyLabel is how lists and headers name a design: the strategy, and
// the profile after it when there is one ("redlock (redsync)").
func StrategyLabel(strategy, client string) string {
	if client == "" {
		return strategy
	}
	return strategy + " (" + client + ")"
}
