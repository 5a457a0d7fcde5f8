package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/lockstep-sim/lockstep/scenario"
	"github.com/lockstep-sim/lockstep/sim"
	"github.com/lockstep-sim/lockstep/views"
)

const runSynopsis = `Usage: lockstep run [-f FILE] [-s NAME]... [--seed N] [--json] [--trace FILE] [--mermaid]

Replays scenarios headless, deterministically, and checks each scenario's
expect: block. Prints one block per scenario: verdict (SAFE/UNSAFE, STUCK),
metrics, each expectation with ✓ or ✗, and the explanation of the first
violation. The same file and seed always give the same trace. --mermaid
prints a Mermaid sequenceDiagram of each run instead (paste it into any
Mermaid renderer).

Exit codes: 0 every expectation held, 1 an expectation failed, 2 bad input
(unreadable or invalid file, unknown scenario name, bad flag).`

// headlessGC makes the garbage collector run less often in the headless
// commands (run, explore) unless GOGC says otherwise. A simulation allocates
// fast but keeps little alive (a world is a few MB), so at the default
// (collect whenever the heap doubles) explore's two workers spent a tenth of
// their time collecting; at 400 it is ~11 % more runs per second, for a
// larger peak heap (explore: ~20 MB -> ~75 MB resident). Nothing the
// simulation computes depends on it: the GC is not observable by it.
func headlessGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
}

func cmdRun(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("run", runSynopsis, stdout)
	file := fs.String("f", "", "scenario `FILE` (default: the bundled scenarios.yaml)")
	var sel names
	fs.Var(&sel, "s", "run only scenario `NAME` (repeatable, or comma-separated)")
	var seed seedFlag
	fs.Var(&seed, "seed", "override every scenario's seed with `N` (>= 0)")
	asJSON := fs.Bool("json", false, "print a JSON array, one object per scenario, instead of text")
	tracePath := fs.String("trace", "", "write the event trace as JSON lines to `FILE` ('-' for stdout)")
	mermaid := fs.Bool("mermaid", false, "print a Mermaid sequenceDiagram of each run instead of its report")
	lua := fs.String("lua", "fast", "how scripts run: `fast` (Go fast path) or interpreted (miniredis's Lua); same outcome")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	headlessGC()
	f, err := loadFileFor(*file, sel)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitBadInput
	}
	todo, err := pick(f, sel)
	if err != nil {
		fmt.Fprintf(stderr, "lockstep run: %v\n", err)
		return exitBadInput
	}
	opts := scenario.Options{Seed: seed.v}
	switch *lua {
	case "fast":
	case "interpreted":
		opts.LuaInterpreted = true
	default:
		fmt.Fprintf(stderr, "lockstep run: --lua must be fast or interpreted, not %q\n", *lua)
		return exitBadInput
	}

	if *mermaid {
		for _, s := range todo {
			d, err := views.MermaidScenario(s, opts)
			if err != nil {
				fmt.Fprintf(stderr, "lockstep run: %v\n", err)
				return exitBadInput
			}
			fmt.Fprintln(stdout, d)
		}
		return exitOK
	}

	var trace *json.Encoder
	if *tracePath != "" {
		out := stdout
		if *tracePath != "-" {
			fh, err := os.Create(*tracePath)
			if err != nil {
				fmt.Fprintf(stderr, "lockstep run: %v\n", err)
				return exitBadInput
			}
			defer fh.Close()
			bw := bufio.NewWriter(fh)
			defer bw.Flush()
			out = bw
		}
		trace = json.NewEncoder(out)
		trace.SetEscapeHTML(false)
	}

	reports := make([]*scenario.Report, 0, len(todo))
	for _, s := range todo {
		rep, err := runOne(s, opts, trace)
		if err != nil {
			fmt.Fprintf(stderr, "lockstep run: %v\n", err)
			return exitBadInput
		}
		reports = append(reports, rep)
		if !*asJSON {
			rep.WriteText(stdout)
			fmt.Fprintln(stdout)
		}
	}
	code := exitOK
	failed := 0
	for _, r := range reports {
		if !r.OK {
			code = exitFailed
			failed++
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		enc.Encode(reports)
	} else {
		fmt.Fprintf(stdout, "%d scenario(s): %d ok, %d failed\n", len(reports), len(reports)-failed, failed)
	}
	return code
}

// runOne plays one scenario to the end, streaming its trace if asked.
func runOne(s *scenario.Scenario, opts scenario.Options, trace *json.Encoder) (*scenario.Report, error) {
	r, err := scenario.NewRunner(s, opts, false)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if trace != nil {
		r.OnEvent(func(e sim.Event) {
			trace.Encode(traceLine{s.Name, e.Seq, sim.FormatMS(e.At), e.Proc, e.Kind, e.Msg})
		})
	}
	return r.Run(), nil
}

// traceLine is one line of --trace: an event and the scenario it belongs to.
type traceLine struct {
	Scenario string `json:"scenario"`
	Seq      int    `json:"seq"`
	AtMS     string `json:"at_ms"`
	Proc     string `json:"proc"`
	Kind     string `json:"kind"`
	Msg      string `json:"msg"`
}
