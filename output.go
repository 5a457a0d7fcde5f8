package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/lockstep-sim/lockstep/internal/safefile"
	"github.com/lockstep-sim/lockstep/internal/termtext"
	"github.com/lockstep-sim/lockstep/scenario"
)

// checkedWriter remembers the first write error, so that a command whose
// output went nowhere (a full disk, a closed pipe) exits 2 instead of 0.
// After an error it drops further writes.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		c.err = err
	}
	return n, err
}

// printText writes text a command built in memory, with every control
// character a user could have put in it (a title, a story, a name) escaped:
// user text never reaches the terminal raw. Lines and tabs pass.
func printText(w io.Writer, build func(io.Writer)) {
	var b bytes.Buffer
	build(&b)
	io.WriteString(w, termtext.EscapeKeepLines(b.String()))
}

// failf prints one line, "lockstep CMD: message", with control characters
// escaped (so the line stays one line), and returns exit 2.
func failf(stderr io.Writer, cmd, format string, a ...any) int {
	msg := fmt.Sprintf(format, a...)
	if i18n.Has(format) { // a sentence of lockstep's own; "%v" of an error is not
		msg = i18n.T(format, a...)
	}
	fmt.Fprintf(stderr, "lockstep %s: %s\n", cmd, termtext.Escape(msg))
	return exitBadInput
}

// fileError is err as "FILE: message" (or the loader's FILE:LINE:COL:
// message, in the language of the command line; scenario's errors that
// can say themselves in a language have ErrorIn): never Go's bare "open
// FILE: ...".
func fileError(err error) string {
	var le interface{ ErrorIn(i18n.Lang) string }
	if errors.As(err, &le) {
		return le.ErrorIn(i18n.Current())
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		msg := pe.Err.Error()
		if errors.Is(pe.Err, fs.ErrNotExist) {
			msg = "no such file"
		} else if errors.Is(pe.Err, fs.ErrPermission) {
			msg = "permission denied"
		}
		return pe.Path + ": " + msg
	}
	return err.Error()
}

// loadCmd is loadFileFor with the command's one-line error printed.
func loadCmd(cmd, path string, names []string, stderr io.Writer) (*scenario.File, bool) {
	if path != "" {
		if fi, err := os.Stat(path); err == nil && fi.IsDir() {
			failf(stderr, cmd, "%s: is a directory, not a scenario file", path)
			return nil, false
		}
	}
	f, err := loadFileFor(path, names)
	if err != nil {
		failf(stderr, cmd, "%s", fileError(err))
		return nil, false
	}
	return f, true
}

// checkOutput refuses an output path that would destroy data: one of the
// inputs (by name or, through links, by identity), or an existing file
// without force. It is called before any work is done.
func checkOutput(out string, force bool, inputs ...string) error {
	for _, in := range inputs {
		if in == "" {
			continue
		}
		if samePath(in, out) {
			return fmt.Errorf("%s is also an input: refusing to overwrite it", out)
		}
	}
	if fi, err := os.Lstat(out); err == nil {
		switch {
		case fi.IsDir():
			return fmt.Errorf("%s is a directory", out)
		case !fi.Mode().IsRegular():
			// A device, a pipe, a link: replacing it (even with --force)
			// would destroy what it is, not write to it.
			return fmt.Errorf("%s exists and is not a regular file (use - for stdout)", out)
		case !force:
			return fmt.Errorf("%s already exists (use --force to overwrite it)", out)
		}
	}
	return safefile.CheckTarget(out, true)
}

// samePath reports whether a and b name the same file.
func samePath(a, b string) bool {
	if aa, err1 := filepath.Abs(a); err1 == nil {
		if bb, err2 := filepath.Abs(b); err2 == nil && aa == bb {
			return true
		}
	}
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// writeJSON prints v as the one indented JSON document of a --json run;
// a failed write is caught by the checked stdout.
func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	enc.Encode(v) //nolint:errcheck // the checked writer remembers the error
}
