package main

import (
	"encoding/json"
	"io"
	"strconv"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/internal/termtext"
	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/scenario/runner"
)

const compareSynopsis = `Usage: lockstep compare [-f FILE] -s NAME [--strategies a,b,...] [--seed N] [--budget N] [--json]

Runs one scenario once per strategy (default lua-release,redlock) with the
same clients, faults and seed, and prints one table: a column per strategy,
rows = verdict and every metric, then why each verdict is what it is and the
faults a world skipped. A strategy needing more nodes than redis.nodes gets
them (Redlock: 5 unless redis.nodes is 3 or more); a fault naming a node a
world lacks is skipped there and reported. A client profile (redsync,
redisson, redisson-redlock, node-redlock, redislock, redis-py, shedlock) is a column too: the
library's design with the scenario's lock.key, ttl and fencing.

The scenario's expect: block describes its own strategy, so it is checked in
that column only. --json prints one JSON array, one object per strategy,
with the fields of 'lockstep run --json' plus nodes and why. A failed
comparison ends with a reproduce: line that replays it as printed.

Exit codes: 0 the scenario's expectations held in its own strategy's column
(or that strategy was not compared), 1 they failed, 2 bad input (unreadable
or invalid file, unknown scenario or strategy, bad flag).`

func cmdCompare(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("compare", compareSynopsis, stdout)
	file := fileFlag(fs)
	name := fs.String("s", "", "the scenario `NAME` to compare (required)")
	var strategies names
	fs.Var(&strategies, "strategies", "comma-separated `LIST` of strategies (default lua-release,redlock)")
	var seed seedFlag
	fs.Var(&seed, "seed", "override the scenario's seed with `N` (>= 0)")
	asJSON := fs.Bool("json", false, "print one JSON array, an object per strategy, instead of the table")
	budget := budgetFlag(fs)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	bad := func(format string, a ...any) int { return failf(stderr, "compare", format, a...) }
	if err := checkNonEmpty(fs, "f", "s"); err != nil {
		return bad("%v", err)
	}
	if *name == "" {
		return bad("-s NAME is required (lockstep list shows the names)")
	}
	opts := scenario.Options{Seed: seed.v, EventBudget: budget.v}
	if len(strategies) == 0 {
		strategies = runner.DefaultCompare
	}
	if err := runner.CheckStrategies(strategies); err != nil {
		return bad("%s", errorIn(err))
	}
	s, ok := loadScenario("compare", *file, *name, stderr)
	if !ok {
		return exitBadInput
	}
	cmp, err := runner.Compare(s, strategies, opts)
	if err != nil {
		return bad("%s", errorIn(err))
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		enc.Encode(cmp.Columns)
	} else {
		seedArg := strconv.FormatUint(s.Seed, 10)
		if len(cmp.Columns) > 0 {
			seedArg = strconv.FormatUint(cmp.Columns[0].Seed, 10)
		}
		cmp.Reproduce = reproduce("compare", fs, []string{"-s", *name, "--seed", seedArg}, "json")
		shown := *s
		shown.Title = termtext.Escape(s.Title)
		cmp.Scenario = &shown
		printText(stdout, cmp.WriteText)
	}
	if !cmp.OK() {
		return exitFailed
	}
	return exitOK
}

// errorIn is err in the command line's language when err itself can say
// it (ErrorIn: the scenario's and the runner's checks), its text
// otherwise. Only err's own type is asked, not its chain: a wrapper
// without ErrorIn keeps its English words around the cause.
func errorIn(err error) string {
	if le, ok := err.(interface{ ErrorIn(i18n.Lang) string }); ok {
		return le.ErrorIn(i18n.Current())
	}
	return err.Error()
}
