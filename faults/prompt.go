package faults

import (
	"fmt"
	"strings"
	"time"
)

// Prompt is what the TUI asks before injecting a fault of a kind at the
// cursor: the question, the answer an empty field means, and how the answer
// is read into the fault.
type Prompt struct {
	// Label is the question as an English format: "%s" stands for the
	// target where the question names it (partition's does not). It is the
	// key of the question's translation in the catalogue (internal/i18n,
	// zh_faults.go), so it is a fixed text per kind. watchdog says whether
	// the scenario's lock renews its lease.
	Label func(watchdog bool) string
	// Default is the answer an empty field means; target is as selected.
	Default func(target string) string
	Wide    bool // the answer is long (partition groups): a wider field
	// NodeOnly: the kind asks only when it strikes a node (a client's
	// crash has nothing to ask).
	NodeOnly bool
	// Parse reads the answer v into f (Kind and Target set); procs is every
	// process of the world.
	Parse func(v string, procs []string, f *Fault) error
}

// Question is the label's format and its arguments for target (already
// escaped for the terminal): the caller renders them in its language.
func (p *Prompt) Question(target string, watchdog bool) (format string, args []any) {
	format = p.Label(watchdog)
	if strings.Contains(format, "%s") {
		args = []any{target}
	}
	return format, args
}

// PromptError is an answer the TUI's prompt refuses: an English format and
// its arguments, so that the TUI says it in its own language (the format
// is the catalogue's key: internal/i18n/zh_faults.go).
type PromptError struct {
	Format string
	Args   []any
}

func (e *PromptError) Error() string { return fmt.Sprintf(e.Format, e.Args...) }

// refuse is a PromptError.
func refuse(format string, args ...any) error { return &PromptError{Format: format, Args: args} }

// fixed is a Default that does not depend on the target.
func fixed(v string) func(string) string { return func(string) string { return v } }

// positiveFor reads a positive duration into f.For.
func positiveFor(v string, _ []string, f *Fault) error {
	d, err := promptDuration(v)
	if err != nil {
		return err
	}
	if d <= 0 {
		return refuse("%s needs a positive duration", f.Kind)
	}
	f.For = d
	return nil
}

func promptDuration(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, refuse("%q is not a duration (try 35s, 1.5s, -5s)", v)
	}
	return d, nil
}
