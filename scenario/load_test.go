package scenario

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lockstep-sim/lockstep/faults"
)

// Building blocks for inline cases. head is lines 1-4, lockOK line 5,
// clientsOK line 6, so a case's own lines start at line 7.
const (
	head      = "version: 1\nscenarios:\n  - name: s\n    duration: 10s\n"
	lockOK    = "    lock: {key: k, strategy: lua-release, ttl: 5s}\n"
	clientsOK = "    clients: [{name: A, work: 1s}]\n"
	base      = head + lockOK + clientsOK
)

// repeat builds n lines from a format taking the index.
func repeat(n int, format string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
}

func TestLoadDefaults(t *testing.T) {
	f, err := Load("min.yaml", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	if f.Path != "min.yaml" || f.Version != 1 || len(f.Scenarios) != 1 {
		t.Fatalf("file = %+v", f)
	}
	want := &Scenario{
		Pos:      Pos{Line: 3, Col: 5},
		Name:     "s",
		Seed:     1,
		Duration: 10 * time.Second,
		Network:  Network{Latency: time.Millisecond},
		Redis:    Redis{Nodes: 1, ReplicationLag: 10 * time.Millisecond, Persistence: "none", Clock: "wall"},
		Lock: Lock{
			Key: "k", Strategy: "lua-release", TTL: 5 * time.Second, Timeout: time.Second, Fencing: "none",
			Redlock: Redlock{DriftFactor: 0.01, RequestTimeout: 50 * time.Millisecond,
				Deadline: "node", TimeoutFactor: 0.05, Decide: "all", Elapsed: "wall", LeaseFrom: "attempt", ExtendLate: "refuse", ReleaseFailed: "attempt"},
		},
		Clients: []Client{{Pos: Pos{Line: 6, Col: 15}, Name: "A", Holds: 1, Work: time.Second}},
	}
	if got := f.Scenarios[0]; !reflect.DeepEqual(got, want) {
		t.Errorf("defaults:\n got %+v\nwant %+v", got, want)
	}
}

func TestLoadRetryDefaults(t *testing.T) {
	f, err := Load("r.yaml", []byte(head+"    lock: {key: k, strategy: redlock, ttl: 5s, retry: {attempts: 3}}\n"+clientsOK))
	if err != nil {
		t.Fatal(err)
	}
	if r := f.Scenarios[0].Lock.Retry; r == nil || *r != (Retry{Attempts: 3, Backoff: 1.0}) {
		t.Errorf("retry = %+v, want attempts 3 backoff 1.0", r)
	}
}

func TestLoadFull(t *testing.T) {
	f, err := LoadFile("../testdata/good/faults.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.Find("every-fault")
	if err != nil {
		t.Fatal(err)
	}
	if s.Seed != 42 || s.Duration != 2*time.Minute || s.Redis.Nodes != 2 || s.Redis.Replicas != 2 || s.Redis.Clock != "monotonic" {
		t.Errorf("scenario fields: %+v", s)
	}
	if w := s.Lock.Watchdog; w == nil || *w != (Watchdog{Every: 10 * time.Second, MaxRenewals: 3}) {
		t.Errorf("watchdog = %+v", w)
	}
	wantFaults := []faults.Fault{
		{At: 0, Kind: faults.Pause, Target: "A", For: 35 * time.Second},
		{At: time.Second, Kind: faults.Hang, Target: "b_2", For: time.Minute},
		{At: 2 * time.Second, Kind: faults.Crash, Target: "redis-1-r2", RestartAfter: 5 * time.Second},
		{At: 3 * time.Second, Kind: faults.Crash, Target: "A"},
		{At: 4 * time.Second, Kind: faults.Failover, Target: "redis-2"},
		{At: 5 * time.Second, Kind: faults.ClockJump, Target: "A", By: time.Hour},
		{At: 6 * time.Second, Kind: faults.ClockDrift, Target: "redis-2-r1", Rate: 0.9},
		{At: 7 * time.Second, Kind: faults.Partition, Groups: [][]string{{"A"}, {"b_2"}, {"redis-1"}}, For: 10 * time.Second},
		{At: 8 * time.Second, Kind: faults.Isolate, Target: "redis-2-r2", For: 10 * time.Second},
		{At: 9 * time.Second, Kind: faults.Slow, Target: "b_2", Loss: 1, For: 20 * time.Second},
		{At: 119 * time.Second, Kind: faults.Slow, Target: "redis-1", Latency: 80 * time.Millisecond, For: time.Second},
	}
	if !reflect.DeepEqual(s.Faults, wantFaults) {
		t.Errorf("faults:\n got %+v\nwant %+v", s.Faults, wantFaults)
	}
	wantFaultPos := []Pos{{Line: 22, Col: 9}, {Line: 23, Col: 9}, {Line: 24, Col: 9}, {Line: 25, Col: 9}, {Line: 26, Col: 9}, {Line: 27, Col: 9}, {Line: 28, Col: 9}, {Line: 29, Col: 9}, {Line: 30, Col: 9}, {Line: 31, Col: 9}, {Line: 32, Col: 9}}
	if !reflect.DeepEqual(s.FaultPos, wantFaultPos) {
		t.Errorf("fault positions:\n got %v\nwant %v", s.FaultPos, wantFaultPos)
	}
	wantExpect := []Expectation{
		{Pos{Line: 34, Col: 7}, "stuck", "==", 0, true, "false"},
		{Pos{Line: 35, Col: 7}, "violations", "==", 0, false, "0"},
		{Pos{Line: 36, Col: 7}, "lost_updates", "<", 5, false, "< 5"},
		{Pos{Line: 37, Col: 7}, "fencing_rejections", "==", 2, false, "== 2"},
		{Pos{Line: 38, Col: 7}, "wrong_releases", "<=", 3, false, "<=3"},
		{Pos{Line: 39, Col: 7}, "failed_acquires", ">", 0, false, "> 0"},
		{Pos{Line: 40, Col: 7}, "max_wait", "==", 1500, false, "1500ms"},
	}
	if !reflect.DeepEqual(s.Expect, wantExpect) {
		t.Errorf("expect:\n got %+v\nwant %+v", s.Expect, wantExpect)
	}
	if err := s.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestLoadAnchors(t *testing.T) {
	f, err := LoadFile("../testdata/good/anchors.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a, b := f.Scenarios[0], f.Scenarios[1]
	if b.Redis != a.Redis || b.Redis.Nodes != 5 {
		t.Errorf("aliased redis: %+v vs %+v", b.Redis, a.Redis)
	}
	// Merged from *lock, except the keys written beside the merge key.
	if b.Lock.Key != "lock:order:1" || b.Lock.Strategy != "redlock" || b.Lock.TTL != 5*time.Second || b.Lock.Fencing != "token" {
		t.Errorf("merged lock: %+v", b.Lock)
	}
	if b.Lock.Retry == nil || b.Lock.Retry.Backoff != 2 {
		t.Errorf("merged retry: %+v", b.Lock.Retry)
	}
	if !reflect.DeepEqual(a.Clients, b.Clients) || len(b.Clients) != 2 {
		t.Errorf("aliased clients differ: %+v", b.Clients)
	}
	if got := b.Faults[2].By; got != -20*time.Second {
		t.Errorf("clock_jump.by = %v", got)
	}
}

func TestGoodFiles(t *testing.T) {
	files, _ := filepath.Glob("../testdata/good/*.yaml")
	if len(files) < 3 {
		t.Fatalf("found %d good files", len(files))
	}
	for _, path := range files {
		f, err := LoadFile(path)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		for _, s := range f.Scenarios {
			if err := s.Validate(); err != nil {
				t.Errorf("%s: %v", path, err)
			}
		}
	}
}

// errorHeader is the first line of a bad file: "# error: LINE:COL: phrase".
var errorHeader = regexp.MustCompile(`^# error: (\d+:\d+): (.*)`)

func TestBadFiles(t *testing.T) {
	files, _ := filepath.Glob("../testdata/bad/*.yaml")
	if len(files) < 5 {
		t.Fatalf("found %d bad files", len(files))
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m := errorHeader.FindStringSubmatch(strings.SplitN(string(data), "\n", 2)[0])
		if m == nil {
			t.Errorf("%s: first line must be # error: LINE:COL: phrase", path)
			continue
		}
		_, err = LoadFile(path)
		checkError(t, path, err, path+":"+m[1]+": ", m[2])
	}
}

func checkError(t *testing.T, name string, err error, prefix, phrase string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want %s...%s", name, prefix, phrase)
		return
	}
	var le *LoadError
	if !errors.As(err, &le) {
		t.Errorf("%s: error %T is not a *LoadError: %v", name, err, err)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, phrase) {
		t.Errorf("%s:\n got  %s\n want %s...%s", name, msg, prefix, phrase)
	}
}

func TestLoadErrors(t *testing.T) {
	cases := []struct {
		name, yaml, pos, phrase string
	}{
		// Syntax and document shape.
		{"malformed yaml", "version: 1\nscenarios: [\n", "2:1", "invalid YAML: did not find expected node content"},
		{"unclosed quote", "version: 1\nscenarios:\n  - name: \"s\n", "3:1", "invalid YAML"},
		{"tab indent", "version: 1\nscenarios:\n\t- name: s\n", "3:1", "tabs are not allowed for indentation; use spaces"},
		{"tab indent inside a block", base + "    network:\n      latency: 1ms\n\t  jitter: 1ms\n", "9:1", "tabs are not allowed for indentation; use spaces"},
		{"tab after spaces", base + "    network:\n      latency: 1ms\n  \t  jitter: 1ms\n", "9:3", "tabs are not allowed for indentation; use spaces"},
		{"empty file", "", "1:1", "file is empty"},
		{"only comments", "# nothing\n", "1:1", "file is empty"},
		{"second document", base + "---\nversion: 1\n", "7:1", "second YAML document"},
		{"top level is a list", "- version: 1\n", "1:1", "the top level must be a mapping"},
		{"missing version", "scenarios: []\n", "1:1", `"version: 1" is required`},
		{"wrong version", "version: 2\nscenarios: []\n", "1:10", `version must be 1`},
		{"quoted version", "version: \"1\"\nscenarios: []\n", "1:10", `version must be 1`},
		{"no scenarios", "version: 1\n", "1:1", `no "scenarios:" list`},
		{"empty scenarios", "version: 1\nscenarios: []\n", "2:1", "scenarios list is empty"},
		{"undefined alias", base + "    title: *nope\n", "7:12", "alias *nope"},
		{"merge into itself", head + "    lock: &l {key: k, strategy: redlock, ttl: 5s, <<: *l}\n" + clientsOK, "5:11", "merged (<<) into itself"},

		// Unknown and duplicate keys at each level.
		{"unknown top field", "version: 1\nscenario: []\n", "2:1", `unknown field "scenario" in the top level (known: version, scenarios)`},
		{"unknown scenario field", base + "    durations: 5s\n", "7:5", `unknown field "durations" in scenario`},
		{"unknown lock field", head + "    lock: {key: k, strategy: lua-release, ttls: 5s}\n" + clientsOK, "5:43",
			`unknown field "ttls" in lock (known: key, strategy, ttl, timeout, watchdog, reentrant, fair, fencing, retry, redlock`},
		{"unknown client field", head + lockOK + "    clients: [{name: A, work: 1s, hold: 2}]\n", "6:35", `unknown field "hold" in client`},
		{"unknown redis field", base + "    redis: {node: 3}\n", "7:13", `unknown field "node" in redis (known: nodes,`},
		{"unknown network field", base + "    network: {delay: 1ms}\n", "7:15", `unknown field "delay" in network`},
		{"unknown watchdog field", head + "    lock: {key: k, strategy: lua-release, ttl: 5s, watchdog: {each: 1s}}\n" + clientsOK, "5:63", `unknown field "each" in watchdog`},
		{"unknown retry field", head + "    lock: {key: k, strategy: lua-release, ttl: 5s, retry: {tries: 3}}\n" + clientsOK, "5:60", `unknown field "tries" in retry`},
		{"unknown redlock field", head + "    lock: {key: k, strategy: redlock, ttl: 5s, redlock: {drift: 0.1}}\n" + clientsOK, "5:58", `unknown field "drift" in redlock`},
		{"unknown fault field", base + "    faults: [{at: 1s, pause: {target: A, for: 1s, fro: 2s}}]\n", "7:51", `unknown field "fro" in pause (known: target, for)`},
		{"unknown fault kind", base + "    faults: [{at: 1s, freeze: {target: A}}]\n", "7:23", `unknown fault kind "freeze" (kinds: pause, hang, crash,`},
		{"unknown metric", base + "    expect: {violation: 0}\n", "7:14", `unknown metric "violation" in expect (metrics: safe, violations,`},
		{"duplicate key", head + "    lock: {key: k, strategy: lua-release, ttl: 5s, ttl: 6s}\n" + clientsOK, "5:52", `duplicate field "ttl" in lock (first at line 5)`},

		// Wrong kinds of value.
		{"list for map", head + "    lock: [key, k]\n" + clientsOK, "5:11", "lock must be a mapping (key: value lines), not a list"},
		{"map for list", head + lockOK + "    clients: {name: A}\n", "6:14", "clients must be a list"},
		{"scenario not a map", "version: 1\nscenarios: [x]\n", "2:13", `scenario must be a mapping`},
		{"empty value", head + lockOK + "    clients: [{name: A, work: }]\n", "6:31", "work has no value"},
		{"bool as string", base + "    expect: {safe: \"true\"}\n", "7:20", `safe must be true or false (unquoted)`},
		{"yes is not a bool", head + "    lock: {key: k, strategy: lua-release, ttl: 5s, fair: yes}\n" + clientsOK, "5:58", "lock.fair must be true or false"},
		{"negative seed", base + "    seed: -1\n", "7:11", "seed must be a whole number"},
		{"nan rate", base + "    faults: [{at: 1s, clock_drift: {target: A, rate: .nan}}]\n", "7:54", "must be a finite number"},

		// Durations.
		{"bare number duration", "version: 1\nscenarios:\n  - name: s\n    duration: 30\n" + lockOK + clientsOK, "4:15", "did you mean 30s?"},
		{"quoted bare number", "version: 1\nscenarios:\n  - name: s\n    duration: \"1.5\"\n" + lockOK + clientsOK, "4:15", "did you mean 1.5s?"},
		{"not a duration", "version: 1\nscenarios:\n  - name: s\n    duration: soon\n" + lockOK + clientsOK, "4:15", `"soon" is not a duration`},
		{"negative ttl", head + "    lock: {key: k, strategy: lua-release, ttl: -5s}\n" + clientsOK, "5:48", "lock.ttl must be between 1ms and 24h (got -5s)"},
		{"negative latency", base + "    network: {latency: -1ms}\n", "7:24", "network.latency must be between 0s and 24h (got -1ms)"},
		{"zero duration", "version: 1\nscenarios:\n  - name: s\n    duration: 0\n" + lockOK + clientsOK, "4:15", "duration must be greater than 0"},

		// Required fields.
		{"missing name", "version: 1\nscenarios:\n  - duration: 10s\n" + lockOK + clientsOK, "3:5", "scenario name"},
		{"missing duration", "version: 1\nscenarios:\n  - name: s\n" + lockOK + clientsOK, "3:5", "duration (the simulated-time limit"},
		{"missing lock", head + clientsOK, "3:5", "lock is required"},
		{"missing ttl", head + "    lock: {key: k, strategy: lua-release}\n" + clientsOK, "5:5", "lock.ttl is required"},
		{"missing work", head + lockOK + "    clients: [{name: A}]\n", "6:15", "client A: work"},
		{"missing client name", head + lockOK + "    clients: [{work: 1s}]\n", "6:15", "every client needs a name"},
		{"no clients", head + lockOK + "    clients: []\n", "6:5", "at least one client"},

		// Names and enumerations.
		{"bad scenario name", "version: 1\nscenarios:\n  - name: Bad Name\n    duration: 10s\n" + lockOK + clientsOK, "3:11", `scenario name "Bad Name" may use only a-z, 0-9 and -`},
		{"duplicate scenario", base + "  - name: s\n    duration: 1s\n" + lockOK + clientsOK, "7:11", `duplicate scenario name "s" (first at line 3)`},
		{"duplicate client", head + lockOK + "    clients: [{name: A, work: 1s}, {name: A, work: 1s}]\n", "6:43", `duplicate client name "A" (first at line 6)`},
		{"client named like a node", head + lockOK + "    clients: [{name: redis-1, work: 1s}]\n", "6:22", "looks like a node name"},
		{"client named like a sentinel", head + lockOK + "    clients: [{name: sentinel-2, work: 1s}]\n", "6:22", "sentinel-N name the Redis processes"},
		{"bad client name", head + lockOK + "    clients: [{name: A.B, work: 1s}]\n", "6:22", "may use only A-Z"},
		{"unknown strategy", head + "    lock: {key: k, strategy: redis-lock, ttl: 5s}\n" + clientsOK, "5:30", `unknown lock.strategy "redis-lock" (allowed: setnx-del, setnx-expire, set-del, lua-release, redlock)`},
		{"unknown fencing", head + "    lock: {key: k, strategy: redlock, ttl: 5s, fencing: tokens}\n" + clientsOK, "5:57", `unknown lock.fencing "tokens" (allowed: none, token, cas)`},
		{"unknown persistence", base + "    redis: {persistence: aof}\n", "7:26", `unknown redis.persistence "aof" (allowed: none, everysec, always)`},
		{"unknown clock", base + "    redis: {clock: tsc}\n", "7:20", `(allowed: wall, monotonic)`},

		// Control characters and lengths of names, keys and text (issue 11 item 12).
		{"escape in title", base + "    title: \"a\\e]0;pwned\\ab\"\n", "7:12", `title holds a control character, a line break or invalid UTF-8 ("\x1b"); a title is one line`},
		{"newline in title", base + "    title: \"a\\nb\"\n", "7:12", `title holds a control character, a line break or invalid UTF-8 ("\n")`},
		{"escape in story", base + "    story: \"ok\\n\\tstill ok\\n\\e[2J\"\n", "7:12", `story holds a control character or invalid UTF-8 ("\x1b"); a story may hold line breaks and tabs`},
		{"C1 control in story", base + "    story: \"x\\u009by\"\n", "7:12", `story holds a control character or invalid UTF-8 ("\u009b")`},
		{"escape in key", head + "    lock: {key: \"k\\e[2J\", strategy: lua-release, ttl: 5s}\n" + clientsOK, "5:17", `lock.key "k\x1b[2J" holds a control character`},
		{"escape in scenario name", "version: 1\nscenarios:\n  - name: \"s\\e\"\n    duration: 10s\n" + lockOK + clientsOK, "3:11", `scenario name "s\x1b" holds a control character or invalid UTF-8; it may use only a-z, 0-9 and -`},
		{"escape in client name", head + lockOK + "    clients: [{name: \"A\\x07\", work: 1s}]\n", "6:22", `client name "A\a" holds a control character`},
		{"escape in target", base + "    faults: [{at: 1s, crash: {target: \"A\\e\"}}]\n", "7:39", `unknown target "A\x1b" (known: A, redis-1)`},
		{"long scenario name", "version: 1\nscenarios:\n  - name: " + strings.Repeat("a", 129) + "\n    duration: 10s\n" + lockOK + clientsOK, "3:11", "is too long: at most 128 characters (got 129)"},
		{"long client name", head + lockOK + "    clients: [{name: " + strings.Repeat("A", 33) + ", work: 1s}]\n", "6:22", "is too long: at most 32 characters (got 33)"},
		{"long key", head + "    lock: {key: " + strings.Repeat("k", 257) + ", strategy: lua-release, ttl: 5s}\n" + clientsOK, "5:17", "lock.key must be at most 256 bytes long (got 257)"},
		{"long title", base + "    title: " + strings.Repeat("t", 201) + "\n", "7:12", "title must be at most 200 characters long (got 201)"},
		{"long story", base + "    story: " + strings.Repeat("s", 16385) + "\n", "7:12", "story must be at most 16384 bytes long (got 16385)"},

		// Strategy-dependent rules.
		{"redlock on two nodes", head + "    redis: {nodes: 2}\n    lock: {key: k, strategy: redlock, ttl: 5s}\n" + clientsOK, "5:20", "strategy redlock needs at least 3 independent masters"},
		{"absurd drift", head + lockOK + clientsOK + "    faults:\n      - at: 1s\n        clock_drift: {target: A, rate: 1e300}\n", "9:40", "clock_drift.rate must be from 0.001 to 1000"},
		{"failover_after without replica", base + "    redis: {failover_after: 2s}\n", "7:29", "failover_after needs a replica"},
		{"sentinels without failover_after", base + "    redis: {replicas: 1, sentinels: 3}\n", "7:37", "redis.sentinels decide when to fail over after redis.failover_after"},
		{"too many sentinels", base + "    redis: {replicas: 1, failover_after: 2s, sentinels: 10}\n", "7:57", "redis.sentinels must be between 0 and 9 (got 10)"},
		{"crash a sentinel", base + "    redis: {replicas: 1, failover_after: 2s, sentinels: 3}\n    faults: [{at: 1s, crash: {target: sentinel-1}}]\n", "8:39", "a sentinel only takes network faults"},
		{"unknown sentinel", base + "    redis: {replicas: 1, failover_after: 2s, sentinels: 3}\n    faults: [{at: 1s, isolate: {target: sentinel-4, for: 1s}}]\n", "8:41", "unknown target \"sentinel-4\""},
		{"fair with reentrant", head + "    lock: {key: k, strategy: lua-release, ttl: 5s, fair: true, reentrant: true}\n" + clientsOK, "5:58", "lock.fair and lock.reentrant cannot be combined"},
		{"token with fair", head + "    lock: {key: k, strategy: lua-release, ttl: 5s, fair: true, fencing: token}\n" + clientsOK, "5:73", "fencing: token cannot be combined"},
		{"fair needs owner", head + "    lock: {key: k, strategy: setnx-del, ttl: 5s, fair: true}\n" + clientsOK, "5:56", "lock.fair needs strategy lua-release; strategy setnx-del stores no owner to queue waiters behind"},
		{"watchdog needs owner", head + "    lock: {key: k, strategy: set-del, ttl: 5s, watchdog: {every: 1s}}\n" + clientsOK, "5:48", "lock.watchdog needs strategy lua-release or redlock"},
		{"reentrant redlock", head + "    lock: {key: k, strategy: redlock, ttl: 5s, reentrant: true}\n" + clientsOK, "5:59", "lock.reentrant needs strategy lua-release; strategy redlock has no reentrant variant"},
		{"cas needs owner", head + "    lock: {key: k, strategy: setnx-expire, ttl: 5s, fencing: cas}\n" + clientsOK, "5:62", "fencing: cas needs strategy lua-release or redlock"},

		// Numeric ranges.
		{"retry backoff", head + "    lock: {key: k, strategy: redlock, ttl: 5s, retry: {attempts: 2, backoff: 0.5}}\n" + clientsOK, "5:78", "retry.backoff must be at least 1.0"},
		{"retry jitter", head + "    lock: {key: k, strategy: redlock, ttl: 5s, retry: {attempts: 2, jitter: 2}}\n" + clientsOK, "5:77", "between 0 and 1"},
		{"retry attempts", head + "    lock: {key: k, strategy: redlock, ttl: 5s, retry: {attempts: 0}}\n" + clientsOK, "5:66", "retry.attempts must be at least 1"},
		{"drift factor", head + "    lock: {key: k, strategy: redlock, ttl: 5s, redlock: {drift_factor: 1}}\n" + clientsOK, "5:72", "drift_factor must be at least 0 and less than 1"},
		{"zero timeout", head + "    lock: {key: k, strategy: redlock, ttl: 5s, timeout: 0s}\n" + clientsOK, "5:57", "lock.timeout must be greater than 0"},
		{"watchdog every", head + "    lock: {key: k, strategy: redlock, ttl: 5s, watchdog: {max_renewals: 2}}\n" + clientsOK, "5:48", "watchdog.every is required"},
		{"holds zero", head + lockOK + "    clients: [{name: A, work: 1s, holds: 0}]\n", "6:42", "holds must be between 1 and 10000 (got 0)"},

		// Limits.
		{"too many nodes", base + "    redis: {nodes: 12}\n", "7:20", "redis.nodes must be between 1 and 9 (got 12)"},
		{"too many replicas", base + "    redis: {replicas: 5}\n", "7:23", "redis.replicas must be between 0 and 4"},
		{"too many holds", head + lockOK + "    clients: [{name: A, work: 1s, holds: 20000}]\n", "6:42", "holds must be between 1 and 10000"},
		{"too deep nesting", head + lockOK + "    clients: [{name: A, work: 1s, nested: 101}]\n", "6:43", "nested must be between 0 and 100"},
		{"too long", "version: 1\nscenarios:\n  - name: s\n    duration: 25h\n" + lockOK + clientsOK, "4:15", "duration must be greater than 0 and at most 24h (got 25h0m0s)"},
		{"too many clients", head + lockOK + "    clients:\n" + repeat(65, "      - {name: c%d, work: 1s}\n"), "71:9", "too many clients: the limit is 64"},
		{"too many total holds", head + lockOK + "    clients:\n" + repeat(11, "      - {name: c%d, work: 1s, holds: 10000}\n"), "6:5", "plan 110000 holds in all; the limit is 100000"},
		{"too many faults", base + "    faults:\n" + repeat(1001, "      - {at: 0s, crash: {target: A}} # %d\n"), "1008:9", "too many faults: the limit is 1000"},
		{"too many scenarios", "version: 1\nscenarios:\n" + repeat(501, "  - {name: s%d, duration: 1s, lock: {key: k, strategy: redlock, ttl: 1s}, clients: [{name: A, work: 0}]}\n"), "503:5", "too many scenarios: the limit is 500"},
		{"file too big", "# " + strings.Repeat("x", MaxFileSize) + "\n", "1:1", "larger than the limit of 4194304 bytes (4 MiB)"},

		// Values that would overflow or cannot be simulated (issue 11 item 13).
		{"work near int64", head + lockOK + "    clients: [{name: A, work: 2562047h}]\n", "6:31", "work must be between 0s and 24h (got 2562047h0m0s)"},
		{"work beyond int64", head + lockOK + "    clients: [{name: A, work: 2562048h}]\n", "6:31", `work: "2562048h" is far too long: durations are at most 24h`},
		{"start too late", head + lockOK + "    clients: [{name: A, work: 1s, start: 25h}]\n", "6:42", "start must be between 0s and 24h (got 25h0m0s)"},
		{"think too long", head + lockOK + "    clients: [{name: A, work: 1s, think: 100h}]\n", "6:42", "think must be between 0s and 24h (got 100h0m0s)"},
		{"pause too long", base + "    faults: [{at: 1s, pause: {target: A, for: 2562047h}}]\n", "7:47", "pause.for must be greater than 0 and at most 24h (got 2562047h0m0s)"},
		{"jump too far", base + "    faults: [{at: 1s, clock_jump: {target: A, by: -2562047h}}]\n", "7:51", "clock_jump.by must be between -24h and 24h (got -2562047h0m0s)"},
		{"restart too late", base + "    redis: {replicas: 1}\n    faults: [{at: 1s, crash: {target: redis-1, restart_after: 25h}}]\n", "8:63", "crash.restart_after must be greater than 0 and at most 24h"},
		{"slow latency too long", base + "    faults: [{at: 1s, slow: {target: A, latency: 48h, for: 1s}}]\n", "7:50", "slow.latency must be between 0s and 24h (got 48h0m0s)"},
		{"latency too long", base + "    network: {latency: 25h}\n", "7:24", "network.latency must be between 0s and 24h (got 25h0m0s)"},
		{"lag too long", base + "    redis: {replication_lag: 25h}\n", "7:30", "redis.replication_lag must be between 0s and 24h"},
		{"ttl below a millisecond", head + "    lock: {key: k, strategy: lua-release, ttl: 500us}\n" + clientsOK, "5:48", "lock.ttl must be between 1ms and 24h (got 500µs)"},
		{"ttl not whole ms", head + "    lock: {key: k, strategy: lua-release, ttl: 1.5ms}\n" + clientsOK, "5:48", "lock.ttl must be a whole number of milliseconds: Redis's PX counts milliseconds (got 1.5ms)"},
		{"ttl too long", head + "    lock: {key: k, strategy: lua-release, ttl: 25h}\n" + clientsOK, "5:48", "lock.ttl must be between 1ms and 24h (got 25h0m0s)"},
		{"timeout too long", head + "    lock: {key: k, strategy: lua-release, ttl: 5s, timeout: 25h}\n" + clientsOK, "5:61", "lock.timeout must be greater than 0 and at most 24h"},
		{"backoff 1e300", head + "    lock: {key: k, strategy: lua-release, ttl: 5s, retry: {attempts: 3, delay: 1ms, backoff: 1e300}}\n" + clientsOK, "5:94", "retry.backoff must be at least 1.0 and at most 1000 (1.0 keeps the delay constant; got 1e+300)"},
		{"backoff grows past a day", head + "    lock: {key: k, strategy: lua-release, ttl: 5s, retry: {attempts: 100, delay: 100ms, backoff: 2}}\n" + clientsOK, "5:98", "the longest retry pause, retry.delay × backoff^(attempts−2) = 100ms × 2^98, is more than 24h: set retry.max_delay"},
		{"too many attempts", head + "    lock: {key: k, strategy: lua-release, ttl: 5s, retry: {attempts: 1000000000, delay: 0s}}\n" + clientsOK, "5:70", "retry.attempts must be at least 1 and at most 1000000 (got 1000000000)"},
		{"max_delay too long", head + "    lock: {key: k, strategy: lua-release, ttl: 5s, retry: {attempts: 3, delay: 1ms, max_delay: 25h}}\n" + clientsOK, "5:96", "retry.max_delay must be between 0s and 24h"},
		{"too many renewals", head + "    lock: {key: k, strategy: lua-release, ttl: 5s, watchdog: {every: 1s, max_renewals: 1000001}}\n" + clientsOK, "5:88", "watchdog.max_renewals must be between 0 and 1000000"},
		{"max_wait too long", base + "    expect: {max_wait: 25h}\n", "7:24", `max_wait must be between 0s and 24h (got "25h")`},

		// What cannot be simulated in useful time (issue 11 item 2).
		{"watchdog 1ns without latency", "version: 1\nscenarios:\n  - name: s\n    duration: 90s\n    network: {latency: 0s}\n    lock: {key: k, strategy: lua-release, ttl: 5s, watchdog: {every: 1ns}}\n" + clientsOK, "6:70",
			"watchdog.every 1ns with a round trip of 0s (2 × network.latency, or the request timeout if shorter) renews more often than every 1ms, which cannot be simulated in useful time; allowed: watchdog.every from 1ms to 24h here"},
		{"watchdog 100us over loopback", "version: 1\nscenarios:\n  - name: s\n    duration: 90s\n    network: {latency: 100us}\n    lock: {key: k, strategy: lua-release, ttl: 5s, watchdog: {every: 100us}}\n" + clientsOK, "6:70",
			"allowed: watchdog.every from 800µs to 24h here"},
		{"retry without delay or latency", "version: 1\nscenarios:\n  - name: s\n    duration: 90s\n    network: {latency: 0s}\n    lock: {key: k, strategy: lua-release, ttl: 5s, retry: {attempts: 1000000, delay: 0s}}\n" + clientsOK, "6:86",
			"retry.delay 0s with a round trip of 0s (2 × network.latency, or the request timeout if shorter) retries more often than every 1ms, which cannot be simulated in useful time; allowed: retry.delay from 1ms to 24h here"},
		{"retry bounded by a short timeout", "version: 1\nscenarios:\n  - name: s\n    duration: 90s\n    network: {latency: 1s}\n    lock: {key: k, strategy: lua-release, ttl: 5s, timeout: 100us, retry: {attempts: 100, delay: 0s}}\n" + clientsOK, "6:98",
			"retry.delay 0s with a round trip of 100µs (2 × network.latency, or the request timeout if shorter) retries more often than every 1ms"},
		{"renewals beyond the budget", "version: 1\nscenarios:\n  - name: s\n    duration: 24h\n    lock: {key: k, strategy: lua-release, ttl: 5s, watchdog: {every: 10ms}}\n    clients: [{name: A, work: 24h}]\n", "5:70",
			"this scenario plans about 1.44e+07 kernel events of work, mostly the watchdog's renewals (one every 10ms plus a round trip, while a lock is held), more than the 10000000 a run may take (scenario.DefaultEventBudget); allowed: at most 10000000 planned events"},
		{"nested holds beyond the budget", head + "    lock: {key: k, strategy: redlock, ttl: 5s}\n    clients:\n" + repeat(10, "      - {name: c%d, work: 0s, holds: 10000, nested: 100}\n"), "6:5",
			"this scenario plans about 1.01e+08 kernel events of work, mostly the clients' holds (holds × (1 + nested) acquires and releases, each sent to 5 masters), more than the 10000000"},

		// Faults.
		{"two kinds", base + "    faults:\n      - at: 1s\n        pause: {target: A, for: 1s}\n        crash: {target: A}\n", "10:9", "exactly one kind, this one has two (pause and crash)"},
		{"no kind", base + "    faults:\n      - at: 1s\n", "8:9", "fault has no kind: add one of pause, hang,"},
		{"missing at", base + "    faults:\n      - crash: {target: A}\n", "8:9", "at: (when the fault strikes) for every fault is required"},
		{"fault outside run", base + "    faults: [{at: 10s, crash: {target: A}}]\n", "7:19", "fault at 10s is outside the run (duration 10s)"},
		{"negative at", base + "    faults: [{at: -1s, crash: {target: A}}]\n", "7:19", "must not be negative"},
		{"unknown target", base + "    faults: [{at: 1s, crash: {target: B}}]\n", "7:39", `unknown target "B" (known: A, redis-1)`},
		{"pause a node", base + "    faults: [{at: 1s, pause: {target: redis-1, for: 1s}}]\n", "7:39", `pause needs a client`},
		{"failover no replica", base + "    faults: [{at: 1s, failover: {target: redis-1}}]\n", "7:42", "needs a replica to promote: set redis.replicas to 1 or more"},
		{"failover a replica", base + "    redis: {replicas: 1}\n    faults: [{at: 1s, failover: {target: redis-1-r1}}]\n", "8:42", "needs a master node"},
		{"restart client", base + "    faults: [{at: 1s, crash: {target: A, restart_after: 1s}}]\n", "7:57", "restart_after applies only to a node"},
		{"zero for", base + "    faults: [{at: 1s, isolate: {target: A, for: 0s}}]\n", "7:49", "isolate.for must be greater than 0"},
		{"missing for", base + "    faults: [{at: 1s, hang: {target: A}}]\n", "7:23", "hang.for (how long it lasts) is required"},
		{"jump by zero", base + "    faults: [{at: 1s, clock_jump: {target: A, by: 0s}}]\n", "7:51", "clock_jump.by must not be 0"},
		{"loss above one", base + "    faults: [{at: 1s, slow: {target: A, loss: 1.5, for: 1s}}]\n", "7:47", "slow.loss is a drop probability and must be between 0 and 1"},
		{"slow does nothing", base + "    faults: [{at: 1s, slow: {target: A, for: 1s}}]\n", "7:23", "slow needs latency:, loss: or both"},
		{"one group", base + "    faults: [{at: 1s, partition: {groups: [[A, redis-1]], for: 1s}}]\n", "7:35", "at least two groups"},
		{"empty group", base + "    faults: [{at: 1s, partition: {groups: [[A], []], for: 1s}}]\n", "7:49", "partition group 2 is empty"},
		{"overlapping groups", base + "    faults: [{at: 1s, partition: {groups: [[A], [redis-1, A]], for: 1s}}]\n", "7:59", `"A" is in partition groups 1 and 2`},
		{"unknown group member", base + "    faults: [{at: 1s, partition: {groups: [[A], [redis-2]], for: 1s}}]\n", "7:50", `unknown process "redis-2" in partition group 2`},

		// Expectations.
		{"bad comparator", base + "    expect: {violations: \"=> 1\"}\n", "7:26", `bad expectation "=> 1" for violations`},
		{"negative count", base + "    expect: {acquired: -1}\n", "7:24", "cannot be negative"},
		{"float count", base + "    expect: {acquired: 1.5}\n", "7:24", "bad expectation"},
		{"never holds", base + "    expect: {violations: \"< 0\"}\n", "7:26", "can never hold"},
		{"max_wait bare number", base + "    expect: {max_wait: \"<= 2\"}\n", "7:24", "did you mean 2s?"},
		{"max_wait sub-ms", base + "    expect: {max_wait: \"<= 1500us\"}\n", "7:24", "whole milliseconds"},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.name] {
			t.Fatalf("duplicate case name %q", c.name)
		}
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			f, err := Load("scenarios.yaml", []byte(c.yaml))
			if err == nil {
				t.Fatalf("no error; loaded %d scenarios", len(f.Scenarios))
			}
			checkError(t, c.name, err, "scenarios.yaml:"+c.pos+": ", c.phrase)
		})
	}
}

func TestFind(t *testing.T) {
	f, err := Load("x.yaml", []byte(base+"  - name: other\n    duration: 1s\n"+lockOK+clientsOK))
	if err != nil {
		t.Fatal(err)
	}
	if s, err := f.Find("other"); err != nil || s.Name != "other" {
		t.Errorf("Find(other) = %v, %v", s, err)
	}
	_, err = f.Find("nope")
	if err == nil || !strings.Contains(err.Error(), `no scenario named "nope" in x.yaml (known: s, other)`) {
		t.Errorf("Find(nope) error = %v", err)
	}
}

func TestLoadFileMissing(t *testing.T) {
	if _, err := LoadFile("../testdata/does-not-exist.yaml"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v, want not-exist", err)
	}
}

func TestExpectationCheck(t *testing.T) {
	cases := []struct {
		op   string
		v    int64
		got  int64
		want bool
	}{
		{"==", 2, 2, true}, {"==", 2, 3, false},
		{">=", 1, 1, true}, {">=", 1, 0, false},
		{"<=", 3, 3, true}, {"<=", 3, 4, false},
		{">", 0, 1, true}, {">", 0, 0, false},
		{"<", 5, 4, true}, {"<", 5, 5, false},
		{"~", 5, 5, false},
	}
	for _, c := range cases {
		if got := (Expectation{Op: c.op, Value: c.v}).Check(c.got); got != c.want {
			t.Errorf("%d %s %d = %v, want %v", c.got, c.op, c.v, got, c.want)
		}
	}
}

func TestValidateInCode(t *testing.T) {
	f, err := Load("x.yaml", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	s := f.Scenarios[0]
	s.Lock.Strategy = "setnx-del"
	s.Lock.Fair = true
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), `scenario "s": lock.fair needs strategy`) {
		t.Errorf("Validate = %v", err)
	}
}
