package scenario

import (
	"fmt"
	"math"
	"strconv"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"gopkg.in/yaml.v3"
)

// The mappings of a scenario, as tables of fields (see fields.go): what a
// block may hold, in documented order, and how each key is read and
// written back. docs/scenario-format.md describes them for users.

var scenarioSection = newSection(i18n.M("scenario"), "",
	field[Scenario]{name: keyName, doc: "lowercase-with-dashes, unique in the file",
		val: func(s *Scenario) any { return &s.Name }, read: readScenarioName},
	field[Scenario]{name: keyTitle, doc: "one line shown in lists and reports",
		val: func(s *Scenario) any { return &s.Title }, skip: func(s *Scenario) bool { return s.Title == "" }},
	field[Scenario]{name: keyStory, doc: "what the scenario shows, in prose",
		val: func(s *Scenario) any { return &s.Story }, skip: func(s *Scenario) bool { return s.Story == "" },
		write: func(s *Scenario) *yaml.Node {
			n := str(s.Story)
			n.Style = yaml.LiteralStyle
			return n
		}},
	i18nField,
	field[Scenario]{name: keySeed, doc: "the random seed of the run; default 1",
		read: readSeed, write: func(s *Scenario) *yaml.Node {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatUint(s.Seed, 10)}
		}},
	field[Scenario]{name: keyDuration, doc: "the simulated-time limit of the run",
		val: func(s *Scenario) any { return &s.Duration }},
	field[Scenario]{name: keyNetwork, doc: "the default link behaviour",
		read: func(p *parser, e entry, s *Scenario, path string, pt posTable) {
			readSection(p, e.V, networkSection, &s.Network, path, pt)
		},
		write: func(s *Scenario) *yaml.Node { return writeSection(networkSection, &s.Network) }},
	field[Scenario]{name: keyRedis, doc: "the Redis nodes of the world",
		read: func(p *parser, e entry, s *Scenario, path string, pt posTable) {
			readSection(p, e.V, redisSection, &s.Redis, path, pt)
		},
		write: func(s *Scenario) *yaml.Node { return writeSection(redisSection, &s.Redis) }},
	field[Scenario]{name: keyLock, doc: "the lock design under test",
		read:  readLock,
		write: func(s *Scenario) *yaml.Node { return writeLock(&s.Lock) }},
	field[Scenario]{name: keyResource, doc: "how the protected resource checks requests; absent: every default",
		read: func(p *parser, e entry, s *Scenario, path string, pt posTable) {
			s.Resource = defaultResource()
			readSection(p, e.V, resourceSection, s.Resource, path, pt)
		},
		write: func(s *Scenario) *yaml.Node { return writeSection(resourceSection, s.Resource) },
		skip:  func(s *Scenario) bool { return s.Resource == nil }},
	field[Scenario]{name: keyClients, doc: "the lock clients and their workloads",
		read: readClients, write: writeClients},
	field[Scenario]{name: keyFaults, doc: "the fault schedule (kinds: the faults package's table)",
		read: readFaults, write: writeFaults, skip: func(s *Scenario) bool { return len(s.Faults) == 0 }},
	field[Scenario]{name: keyExpect, doc: "metric expectations the run must meet",
		read:  func(p *parser, e entry, s *Scenario, _ string, _ posTable) { s.Expect = p.expect(e.V) },
		write: writeExpect, skip: func(s *Scenario) bool { return len(s.Expect) == 0 }},
)

var networkSection = newSection(keyNetwork, keyNetwork+".",
	field[Network]{name: keyLatency, doc: "one-way delay of every link; default 1ms",
		val: func(n *Network) any { return &n.Latency }},
	field[Network]{name: keyJitter, doc: "uniform extra delay in [0, jitter)",
		val: func(n *Network) any { return &n.Jitter }},
	field[Network]{name: keyLinks, doc: "per-link extra latency and loss: a list of {from, to, latency, loss, oneway}",
		read: readLinks, write: writeLinks, skip: func(n *Network) bool { return len(n.Links) == 0 }},
)

var redisSection = newSection(keyRedis, keyRedis+".",
	field[Redis]{name: keyNodes, doc: "independent masters redis-1..N; default 1 (redlock: 5)",
		val: func(r *Redis) any { return &r.Nodes }},
	field[Redis]{name: keyReplicas, doc: "async replicas per master, redis-K-rJ",
		val: func(r *Redis) any { return &r.Replicas }},
	field[Redis]{name: keyReplicationLag, doc: "delay of replication; default 10ms",
		val: func(r *Redis) any { return &r.ReplicationLag }},
	field[Redis]{name: keyFailoverAfter, doc: "a replica is promoted after its master is unreachable this long; 0: only by fault",
		val: func(r *Redis) any { return &r.FailoverAfter }},
	field[Redis]{name: keySentinels, doc: "> 0: sentinel-1..N decide failovers by majority",
		val: func(r *Redis) any { return &r.Sentinels }, skip: func(r *Redis) bool { return r.Sentinels <= 0 }, late: true},
	field[Redis]{name: keyPersistence, doc: "none | everysec | always; default none",
		val: func(r *Redis) any { return &r.Persistence }},
	field[Redis]{name: keyRestartDelay, doc: "how long a crashed node takes to come back",
		val: func(r *Redis) any { return &r.RestartDelay }},
	field[Redis]{name: keyClock, doc: "wall | monotonic: the clock TTLs are measured by; default wall",
		val: func(r *Redis) any { return &r.Clock }, skip: func(r *Redis) bool { return r.Clock == "" }, late: true},
	field[Redis]{name: keyMinReplicasToWrite, doc: "a master refuses writes (NOREPLICAS) without this many replicas acked recently; default 0: off",
		val: func(r *Redis) any { return &r.MinReplicasToWrite }, skip: func(r *Redis) bool { return r.MinReplicasToWrite == 0 }, late: true},
	field[Redis]{name: keyMinReplicasMaxLag, doc: "how recent, whole seconds; default 10s",
		val: func(r *Redis) any { return &r.MinReplicasMaxLag }, skip: func(r *Redis) bool { return r.MinReplicasMaxLag == 0 }, late: true},
	field[Redis]{name: keyMaxmemoryPolicy, doc: "which keys memory pressure may evict (the evict fault); default noeviction",
		val: func(r *Redis) any { return &r.MaxmemoryPolicy }, skip: func(r *Redis) bool { return r.MaxmemoryPolicy == "" }, late: true},
	field[Redis]{name: keyVersion, doc: "6 | 7: how expiries reach replicas (7: absolute PXAT; 6: relative PX); default 7",
		val: func(r *Redis) any { return &r.Version }, skip: func(r *Redis) bool { return r.Version == 0 }, late: true},
	field[Redis]{name: keyCluster, doc: "a command over keys in different hash slots fails with CROSSSLOT (Redis Cluster's check only)",
		val: func(r *Redis) any { return &r.Cluster }, skip: func(r *Redis) bool { return !r.Cluster }, late: true},
)

var lockSection = newSection(keyLock, keyLock+".",
	field[Lock]{name: keyKey, doc: "the Redis key of the lock",
		val: func(l *Lock) any { return &l.Key }},
	field[Lock]{name: keyStrategy, doc: "the acquire/release recipe (Strategies)",
		val: func(l *Lock) any { return &l.Strategy }},
	field[Lock]{name: keyTTL, doc: "the lease, whole milliseconds",
		val: func(l *Lock) any { return &l.TTL }},
	field[Lock]{name: keyTimeout, doc: "per-request client timeout; default 1s",
		val: func(l *Lock) any { return &l.Timeout }, skip: func(l *Lock) bool { return l.Timeout == 0 }},
	field[Lock]{name: keyWatchdog, doc: "Redisson-style lease renewal; absent: none",
		read: func(p *parser, e entry, l *Lock, path string, pt posTable) {
			if l.Watchdog == nil { // a profile's block is read first; the file's keys override it
				l.Watchdog = &Watchdog{}
			}
			readSection(p, e.V, watchdogSection, l.Watchdog, path, pt)
		},
		write: func(l *Lock) *yaml.Node { return writeSection(watchdogSection, l.Watchdog) },
		skip:  func(l *Lock) bool { return l.Watchdog == nil }},
	field[Lock]{name: keyReentrant, doc: "the owner may take the lock again (a count)",
		val: func(l *Lock) any { return &l.Reentrant }, skip: func(l *Lock) bool { return !l.Reentrant }},
	field[Lock]{name: keyFair, doc: "waiters queue in arrival order",
		val: func(l *Lock) any { return &l.Fair }, skip: func(l *Lock) bool { return !l.Fair }},
	field[Lock]{name: keyFencing, doc: "none | token | cas; default none",
		val: func(l *Lock) any { return &l.Fencing }, skip: func(l *Lock) bool { return l.Fencing == "" }},
	field[Lock]{name: keyRetry, doc: "acquire attempts; absent: a single one",
		read: func(p *parser, e entry, l *Lock, path string, pt posTable) {
			if l.Retry == nil { // a profile's block is read first; the file's keys override it
				l.Retry = &Retry{Backoff: 1.0}
			}
			readSection(p, e.V, retrySection, l.Retry, path, pt)
		},
		write: func(l *Lock) *yaml.Node { return writeSection(retrySection, l.Retry) },
		skip:  func(l *Lock) bool { return l.Retry == nil }},
	field[Lock]{name: keyRedlock, doc: "the parameters of strategy redlock",
		read: func(p *parser, e entry, l *Lock, path string, pt posTable) {
			readSection(p, e.V, redlockSection, &l.Redlock, path, pt)
		},
		write: func(l *Lock) *yaml.Node { return writeSection(redlockSection, &l.Redlock) }},
	field[Lock]{name: keyWait, doc: "tryLock's waitTime: give up the whole acquire after it; 0: no bound",
		val: func(l *Lock) any { return &l.Wait }, skip: func(l *Lock) bool { return l.Wait == 0 }},
	field[Lock]{name: keyDriver, doc: "the Redis driver resends a command whose reply timed out; absent: never",
		read: func(p *parser, e entry, l *Lock, path string, pt posTable) {
			l.Driver = &Driver{LockCommands: true}
			readSection(p, e.V, driverSection, l.Driver, path, pt)
		},
		write: func(l *Lock) *yaml.Node { return writeSection(driverSection, l.Driver) },
		skip:  func(l *Lock) bool { return l.Driver == nil }},
	field[Lock]{name: keyFairTimeout, doc: "how long a fair-lock waiter keeps its place without polling; 0: 5s (longer with long retry delays)",
		val: func(l *Lock) any { return &l.FairTimeout }, skip: func(l *Lock) bool { return l.FairTimeout == 0 }},
	field[Lock]{name: keyCheckBeforeWrite, doc: "skip the write when the lease has run out by the client's clock",
		val: func(l *Lock) any { return &l.CheckBeforeWrite }, skip: func(l *Lock) bool { return !l.CheckBeforeWrite }},
	field[Lock]{name: keyNotify, doc: "poll | pubsub: how a waiter learns of a release; default poll",
		val: func(l *Lock) any { return &l.Notify }, skip: func(l *Lock) bool { return l.Notify == "" }},
	field[Lock]{name: keyRegrant, doc: "the acquire also grants when the key holds our token already (bsm/redislock)",
		val: func(l *Lock) any { return &l.Regrant }, skip: func(l *Lock) bool { return !l.Regrant }},
	field[Lock]{name: keyWaitReplicas, doc: "WAIT after a grant; too few acks fail the acquire; absent: none",
		read:  readWaitReplicas,
		write: func(l *Lock) *yaml.Node { return writeSection(waitReplicasSection, l.WaitReplicas) },
		skip:  func(l *Lock) bool { return l.WaitReplicas == nil }, late: true},
	field[Lock]{name: keyClient, doc: "a client library's profile: " + profileList + "; absent: none",
		val: func(l *Lock) any { return &l.Client }, skip: func(l *Lock) bool { return l.Client == "" }},
	field[Lock]{name: keyKeys, doc: "several keys every hold needs (multi-key holds); key is then one of them, default the first",
		read: readLockKeys, write: func(l *Lock) *yaml.Node { return writeKeys(l.Keys) },
		skip: func(l *Lock) bool { return len(l.Keys) == 0 }},
	field[Lock]{name: keyMultiKey, doc: "each | script: the keys one SET NX PX at a time, or one Lua script over all; default each",
		val: func(l *Lock) any { return &l.MultiKey }, skip: func(l *Lock) bool { return l.MultiKey == "" }},
	field[Lock]{name: keyKeyOrder, doc: "given | sorted: the order a hold takes its keys in; default given",
		val: func(l *Lock) any { return &l.KeyOrder }, skip: func(l *Lock) bool { return l.KeyOrder == "" }},
	field[Lock]{name: keyHoldAtLeast, doc: "ShedLock's lockAtLeastFor: a release sooner than this after the acquire keeps the key for what is left; 0: off",
		val: func(l *Lock) any { return &l.HoldAtLeast }, skip: func(l *Lock) bool { return l.HoldAtLeast == 0 }},
)

var driverSection = newSection(keyDriver, keyDriver+".",
	field[Driver]{name: keyRetries, doc: "resends of a command whose reply timed out (go-redis 3, Redisson 4)",
		val: func(d *Driver) any { return &d.Retries }},
	field[Driver]{name: keyLockCommands, doc: "the acquire and release commands are resent too; default true (Redisson: false)",
		val: func(d *Driver) any { return &d.LockCommands }},
)

var watchdogSection = newSection(keyWatchdog, keyWatchdog+".",
	field[Watchdog]{name: keyEvery, doc: "how often the lease is renewed",
		val: func(w *Watchdog) any { return &w.Every }},
	field[Watchdog]{name: keyMaxRenewals, doc: "renewals per hold; 0: unlimited",
		val: func(w *Watchdog) any { return &w.MaxRenewals }},
	field[Watchdog]{name: keyOnFailure, doc: "stop | retry: after a renewal with no answer or an error; default stop",
		val: func(w *Watchdog) any { return &w.OnFailure }, skip: func(w *Watchdog) bool { return w.OnFailure == "" }},
	field[Watchdog]{name: keyAbortWork, doc: "a refused renewal stops the work before its write (node-redlock using()); strategy redlock",
		val: func(w *Watchdog) any { return &w.AbortWork }, skip: func(w *Watchdog) bool { return !w.AbortWork }},
)

var retrySection = newSection(keyRetry, keyRetry+".",
	field[Retry]{name: keyAttempts, doc: "acquire attempts in all, >= 1",
		val: func(r *Retry) any { return &r.Attempts }},
	field[Retry]{name: keyDelay, doc: "the pause after the first failed attempt",
		val: func(r *Retry) any { return &r.Delay }},
	field[Retry]{name: keyBackoff, doc: "multiplier of the pause per attempt; default 1.0",
		val: func(r *Retry) any { return &r.Backoff }},
	field[Retry]{name: keyMaxDelay, doc: "cap on the pause; 0: none",
		val: func(r *Retry) any { return &r.MaxDelay }},
	field[Retry]{name: keyJitter, doc: "fraction of the pause drawn at random, 0..1",
		val: func(r *Retry) any { return &r.Jitter }},
)

var redlockSection = newSection(keyRedlock, keyRedlock+".",
	field[Redlock]{name: keyDriftFactor, doc: "clock drift allowed for, × ttl; default 0.01",
		val: func(r *Redlock) any { return &r.DriftFactor }},
	field[Redlock]{name: keyRequestTimeout, doc: "per-node request timeout; default 50ms",
		val: func(r *Redlock) any { return &r.RequestTimeout }},
	field[Redlock]{name: keyParallel, doc: "ask the masters at once rather than in turn",
		val: func(r *Redlock) any { return &r.Parallel }},
	field[Redlock]{name: keyDeadline, doc: "node | attempt | none: what bounds a request; default node",
		val: func(r *Redlock) any { return &r.Deadline }, skip: func(r *Redlock) bool { return r.Deadline == "" || r.Deadline == Deadlines[0] }},
	field[Redlock]{name: keyTimeoutFactor, doc: "deadline attempt: the attempt's deadline is ttl × this; default 0.05",
		val: func(r *Redlock) any { return &r.TimeoutFactor }, skip: func(r *Redlock) bool { return r.TimeoutFactor == 0 || r.TimeoutFactor == DefaultTimeoutFactor }},
	field[Redlock]{name: keyDecide, doc: "all | first-quorum: when an attempt is decided; default all",
		val: func(r *Redlock) any { return &r.Decide }, skip: func(r *Redlock) bool { return r.Decide == "" || r.Decide == DecideAll }},
	field[Redlock]{name: keyValidityCheck, doc: "false: a quorum grants whatever the validity; default true",
		read: func(p *parser, e entry, r *Redlock, _ string, _ posTable) {
			r.NoValidityCheck = !p.Boolean(e.V, keyRedlock+"."+keyValidityCheck)
		},
		write: func(r *Redlock) *yaml.Node { return boolNode(!r.NoValidityCheck) }, skip: func(r *Redlock) bool { return !r.NoValidityCheck }},
	field[Redlock]{name: keyDriftSlack, doc: "false: drift is ttl × drift_factor without the 2ms; default true",
		read: func(p *parser, e entry, r *Redlock, _ string, _ posTable) {
			r.NoDriftSlack = !p.Boolean(e.V, keyRedlock+"."+keyDriftSlack)
		},
		write: func(r *Redlock) *yaml.Node { return boolNode(!r.NoDriftSlack) }, skip: func(r *Redlock) bool { return !r.NoDriftSlack }},
	field[Redlock]{name: keyElapsed, doc: "wall | monotonic: the client clock elapsed time is read on; default wall",
		val: func(r *Redlock) any { return &r.Elapsed }, skip: func(r *Redlock) bool { return r.Elapsed == "" || r.Elapsed == ElapsedWall }},
	field[Redlock]{name: keyLeaseFrom, doc: "attempt | reply: the validity is counted from the attempt's start or from the count; default attempt",
		val: func(r *Redlock) any { return &r.LeaseFrom }, skip: func(r *Redlock) bool { return r.LeaseFrom == "" || r.LeaseFrom == LeaseFromStart }},
	field[Redlock]{name: keyExtendLate, doc: "refuse | allow | error: a renewal of a lease that has run out; default refuse",
		val: func(r *Redlock) any { return &r.ExtendLate }, skip: func(r *Redlock) bool { return r.ExtendLate == "" || r.ExtendLate == ExtendLates[0] }},
	field[Redlock]{name: keySetsMissing, doc: "a renewal SETs the key again where it is gone (redsync's setNXOnExtend)",
		val: func(r *Redlock) any { return &r.ExtendSetMissing }, skip: func(r *Redlock) bool { return !r.ExtendSetMissing }},
	field[Redlock]{name: keyReleaseFailed, doc: "attempt | end: a failed attempt releases at once, or only the last failed try does; default attempt",
		val: func(r *Redlock) any { return &r.ReleaseFailed }, skip: func(r *Redlock) bool { return r.ReleaseFailed == "" || r.ReleaseFailed == ReleaseFaileds[0] }},
)

var resourceSection = newSection(keyResource, keyResource+".",
	field[Resource]{name: keyCheck, doc: "all | writes: which requests' fencing tokens are checked; default all",
		val: func(r *Resource) any { return &r.Check }},
	field[Resource]{name: keyStartToken, doc: "the first fencing token the lock hands out; default 1",
		val: func(r *Resource) any { return &r.StartToken }},
	field[Resource]{name: keyIdempotency, doc: "none | job: each write carries its job's key, accepted once; default none",
		val: func(r *Resource) any { return &r.Idempotency }},
)

// defaultResource is a resource block with every default, which the file's
// keys then overwrite.
func defaultResource() *Resource {
	return &Resource{Check: ResourceChecks[0], StartToken: 1, Idempotency: IdempotencyModes[0]}
}

var clientSection = newSection(keyClient, "",
	field[Client]{name: keyName, doc: "the client's process name", label: "client name",
		val: func(c *Client) any { return &c.Name }},
	field[Client]{name: keyStart, doc: "when it first asks for the lock",
		val: func(c *Client) any { return &c.Start }},
	field[Client]{name: keyHolds, doc: "how many times it takes the lock; default 1",
		val: func(c *Client) any { return &c.Holds }},
	field[Client]{name: keyWork, doc: "how long it holds the lock each time",
		val: func(c *Client) any { return &c.Work }},
	field[Client]{name: keyThink, doc: "the pause between holds",
		val: func(c *Client) any { return &c.Think }},
	field[Client]{name: keyNested, doc: "re-entries per hold (reentrant locks)",
		val: func(c *Client) any { return &c.Nested }},
	field[Client]{name: keyKeys, doc: "the keys its holds need, in its order; default lock.keys",
		read:  func(p *parser, e entry, c *Client, path string, pt posTable) { c.Keys = readKeyList(p, e, path, pt) },
		write: func(c *Client) *yaml.Node { return writeKeys(c.Keys) }, skip: func(c *Client) bool { return len(c.Keys) == 0 }},
	field[Client]{name: keyResource, doc: "the resource its work reads and writes; default the one counter all share",
		val: func(c *Client) any { return &c.Resource }, skip: func(c *Client) bool { return c.Resource == "" }},
)

func readScenarioName(p *parser, e entry, s *Scenario, _ string, _ posTable) {
	s.Name = p.Str(e.V, keyName)
	s.Pos = pos(e.K)
}

func readSeed(p *parser, e entry, s *Scenario, _ string, _ posTable) {
	sn := p.Scalar(e.V, keySeed)
	if sn.Tag != "!!int" || sn.Decode(&s.Seed) != nil {
		p.Fail(sn, "%s must be a whole number from 0 to %d, not %s", keySeed, uint64(math.MaxUint64), echo(sn.Value))
	}
}

func readClients(p *parser, e entry, s *Scenario, path string, pt posTable) {
	for i, c := range p.List(e.V, keyClients, MaxClients) {
		s.Clients = append(s.Clients, p.client(c, fmt.Sprintf("%s[%d]", path, i), pt))
	}
}

func readFaults(p *parser, e entry, s *Scenario, path string, pt posTable) {
	for i, fn := range p.List(e.V, keyFaults, MaxFaults) {
		f, at := p.fault(fn, fmt.Sprintf("%s[%d]", path, i), pt)
		s.Faults, s.FaultPos = append(s.Faults, f), append(s.FaultPos, at)
	}
}

func writeClients(s *Scenario) *yaml.Node {
	var cs []*yaml.Node
	for i := range s.Clients {
		cs = append(cs, writeSection(clientSection, &s.Clients[i]))
	}
	return seq(cs...)
}

func writeFaults(s *Scenario) *yaml.Node {
	var fs []*yaml.Node
	for _, f := range s.Faults {
		fs = append(fs, mapping(faultAt, dur(f.At), string(f.Kind), faultBody(f)))
	}
	return seq(fs...)
}

func writeExpect(s *Scenario) *yaml.Node {
	ex := mapping()
	for _, e := range s.Expect {
		add(ex, e.Metric, expectValue(e))
	}
	return ex
}
