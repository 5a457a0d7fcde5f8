package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/lockstep-sim/lockstep/explore"
	"github.com/lockstep-sim/lockstep/faults"
)

// exitInterrupted is the exit code after Ctrl-C (128 + SIGINT, the shell's
// convention): the search stopped early, and what it found was still
// reported and written.
const exitInterrupted = 130

const exploreSynopsis = `Usage: lockstep explore [-f FILE] -s NAME [--strategies a,b] [--faults kinds]
                        [--runs N] [--seed S] [--workers K] [--max-faults M]
                        [--out DIR] [--json]

Searches random fault schedules for safety violations. The scenario NAME
gives the world (nodes, replicas, clients, lock settings, duration); its own
faults and expectations are not used. Each run draws 1 to --max-faults
faults of the --faults kinds, with random targets (the world's clients and
nodes), times (uniform over the span in which the clients still work) and
magnitudes scaled by the lock's TTL (pauses, partitions and clock jumps up
to 2x TTL), all derived from --seed and the run's index: the same flags
give the same report for any --workers.

Reported per strategy: runs, the share that violated safety with a 95%
Wilson interval, the shares with lost updates and stuck locks, fencing
rejections, wrong releases, and which fault kinds the violating runs had.
A strategy needing more nodes than redis.nodes gets them (Redlock: 5), and
its faults strike its own nodes.

For each strategy that broke, the violating run with the fewest faults is
shrunk (drop faults, shorten pauses and partitions, reduce jumps, move
faults earlier) until no single step keeps the violation, and printed. With
--out DIR it is also written as DIR/<scenario>-<strategy>-<seed>.yaml with
expect: {safe: false}; 'lockstep run -f' on it exits 0 and
'lockstep tui -f' opens it. Without --out nothing is written.

Progress goes to stderr: a progress bar on a terminal, a line every few
seconds otherwise. Ctrl-C stops the search; what was found so far is still
reported and written (unshrunk).

Exit codes: 0 the search finished (whether or not it found a violation:
read the report, or --json), 2 bad input (unreadable or invalid file,
unknown scenario, strategy or fault kind, bad flag, unusable --out),
130 interrupted by Ctrl-C (after reporting).`

func cmdExplore(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("explore", exploreSynopsis, stdout)
	file := fs.String("f", "", "scenario `FILE` (default: the bundled scenarios.yaml)")
	name := fs.String("s", "", "the scenario `NAME` whose world is explored (required)")
	var strategies names
	fs.Var(&strategies, "strategies", "comma-separated `LIST` of strategies (default: the scenario's own)")
	kindList := fs.String("faults", joinKinds(explore.DefaultKinds), "comma-separated fault `KINDS` to draw from (any of "+joinKinds(faults.Kinds)+")")
	runs := fs.Int("runs", explore.DefaultRuns, "`N` random schedules per strategy")
	seed := fs.Uint64("seed", 1, "`S`: every schedule derives from it and the run's index")
	workers := fs.Int("workers", 0, "`K` runs in parallel (default: GOMAXPROCS)")
	maxFaults := fs.Int("max-faults", explore.DefaultMaxFaults, "at most `M` faults per schedule")
	out := fs.String("out", "", "write each counterexample to `DIR` (created if missing); default: write nothing")
	asJSON := fs.Bool("json", false, "print the result as one JSON object instead of text")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	headlessGC()
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "lockstep explore: "+format+"\n", a...)
		return exitBadInput
	}
	if *name == "" {
		return bad("-s NAME is required (lockstep list shows the names)")
	}
	if *runs < 1 {
		return bad("--runs must be at least 1 (got %d)", *runs)
	}
	if *workers < 0 {
		return bad("--workers must not be negative (got %d)", *workers)
	}
	if *maxFaults < 1 {
		return bad("--max-faults must be at least 1 (got %d)", *maxFaults)
	}
	kinds, err := explore.ParseKinds(*kindList)
	if err != nil {
		return bad("--faults: %v", err)
	}
	s, ok := loadScenario("explore", *file, *name, stderr)
	if !ok {
		return exitBadInput
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	prog := explore.NewProgress(stderr, explore.IsTerminal(stderr))
	cfg := explore.Config{Scenario: s, Strategies: strategies, Kinds: kinds, Runs: *runs, Seed: *seed,
		Workers: *workers, MaxFaults: *maxFaults, OutDir: *out, File: *file, Progress: prog.Update}
	prog.Start()
	res, err := explore.Explore(ctx, cfg)
	prog.Stop()
	if err != nil {
		return bad("%v", err)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		enc.Encode(res)
	} else {
		res.WriteText(stdout)
	}
	if res.Interrupted {
		return exitInterrupted
	}
	return exitOK
}

func joinKinds(ks []faults.Kind) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	return strings.Join(s, ",")
}
