package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/lockstep-sim/lockstep/explore"
	"github.com/lockstep-sim/lockstep/faults"
	"github.com/lockstep-sim/lockstep/internal/i18n"
)

// exitInterrupted is the exit code after Ctrl-C (128 + SIGINT, the shell's
// convention): the search stopped early, and what it found was still
// reported and written.
const exitInterrupted = 130

const exploreSynopsis = `Usage: lockstep explore [-f FILE] -s NAME [--strategies a,b] [--faults kinds]
                        [--runs N] [--seed S] [--workers K] [--max-faults M]
                        [--budget N] [--out DIR] [--json]

Searches random fault schedules for safety violations. The scenario NAME
gives the world (nodes, replicas, clients, lock settings, duration); its own
faults and expectations are not used. Each run draws 1 to --max-faults
faults of the --faults kinds, with random targets (the world's clients and
nodes), times (uniform over the span in which the clients still work) and
magnitudes scaled by the lock's TTL (pauses, partitions and clock jumps up
to 2x TTL), all derived from --seed and the run's index: the same flags
give the same report for any --workers.

Reported per strategy: runs, the share that violated safety with a 95%
Wilson interval, the shares with lost updates and stuck locks, the runs cut
short by the event budget (--budget; never counted as safe), fencing
rejections, wrong releases (and, when any, unheld releases, refused and
duplicate writes, deadlocks), the mean holds per simulated second, and how
many violating runs had each fault kind.
A strategy needing more nodes than redis.nodes gets them (Redlock: 5), and
its faults strike its own nodes. --strategies takes client profiles too
(redsync, redisson, redisson-redlock, node-redlock, redislock, redis-py,
shedlock).

For each strategy that broke, the violating run with the fewest faults is
shrunk (drop faults, shorten pauses and partitions, reduce jumps, move
faults earlier) until no single step keeps the violation, and printed. With
--out DIR it is also written as
DIR/<scenario>-<strategy>-s<seed>-r<runs>-m<max-faults>-<tag>.yaml (tag: a
hash of --faults and --budget) with expect: {safe: false}; 'lockstep run -f'
on it exits 0 and 'lockstep tui -f' opens it. A file is never replaced: if
the name is taken, the next free -2, -3 ... is used. DIR is checked before
the search. Without --out nothing is written.

Progress goes to stderr: a progress bar on a terminal, a line every few
seconds otherwise. Ctrl-C or SIGTERM stops the search, inside the runs in
flight; what was found so far is still reported and written (unshrunk),
and runs cut off are dropped. A second Ctrl-C kills at once.

Exit codes: 0 the search finished (whether or not it found a violation:
read the report, or --json), 2 bad input (unreadable or invalid file,
unknown scenario, strategy or fault kind, bad flag, unusable --out, a
counterexample or the report that could not be written; the report is
printed first), 130 interrupted by Ctrl-C or SIGTERM (after reporting).`

func cmdExplore(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("explore", exploreSynopsis, stdout)
	file := fileFlag(fs)
	name := fs.String("s", "", "the scenario `NAME` whose world is explored (required)")
	var strategies names
	fs.Var(&strategies, "strategies", "comma-separated `LIST` of strategies (default: the scenario's own)")
	kindList := fs.String("faults", joinKinds(explore.DefaultKinds), i18n.T("comma-separated fault `KINDS` to draw from (any of %s)", joinKinds(faults.Kinds)))
	runs := boundedInt(fs, "runs", explore.DefaultRuns, 1, explore.MaxRuns, "`N` random schedules per strategy")
	var seed seedFlag
	fs.Var(&seed, "seed", "`S`: every schedule derives from it and the run's index (default 1)")
	workers := boundedInt(fs, "workers", 0, 0, explore.MaxWorkers, "`K` runs in parallel (0: GOMAXPROCS)")
	maxFaults := boundedInt(fs, "max-faults", explore.DefaultMaxFaults, 1, explore.MaxMaxFaults, "at most `M` faults per schedule")
	budget := budgetFlag(fs)
	out := fs.String("out", "", "write each counterexample to `DIR` (created if missing; never overwrites); default: write nothing")
	asJSON := fs.Bool("json", false, "print the result as one JSON object instead of text")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	bad := func(format string, a ...any) int { return failf(stderr, "explore", format, a...) }
	if err := checkNonEmpty(fs, "f", "s", "out", "faults"); err != nil {
		return bad("%v", err)
	}
	if *name == "" {
		return bad("-s NAME is required (lockstep list shows the names)")
	}
	kinds, err := explore.ParseKinds(*kindList)
	if err != nil {
		return bad("--faults: %v", err)
	}
	s, ok := loadScenario("explore", *file, *name, stderr)
	if !ok {
		return exitBadInput
	}
	headlessGC()
	seedV := uint64(1)
	if seed.v != nil {
		seedV = *seed.v
	}

	// The first ctrl-c (or SIGTERM) cancels the search, inside the runs in
	// flight; once it has, the signals are let go, so a second one kills.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	context.AfterFunc(ctx, stop)
	prog := explore.NewProgress(stderr, explore.IsTerminal(stderr))
	cfg := explore.Config{Scenario: s, Strategies: strategies, Kinds: kinds, Runs: int(runs.v), Seed: seedV,
		Workers: int(workers.v), MaxFaults: int(maxFaults.v), Budget: budget.v, OutDir: *out, File: *file,
		Progress: prog.Update}
	prog.Start(cfg.Runs * max(1, len(strategies)))
	res, err := explore.Explore(ctx, cfg)
	prog.Stop()
	if res == nil {
		return bad("%s", errorIn(err))
	}
	// The report is printed whatever happened after the search (a
	// counterexample that could not be written): the search is never lost.
	if *asJSON {
		writeJSON(stdout, res)
	} else {
		printText(stdout, res.WriteText)
	}
	if err != nil {
		return bad("%v", err)
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
