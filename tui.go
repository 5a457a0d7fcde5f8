package main

import (
	"fmt"
	"io"
)

// cmdTUI opens the interactive view. (The TUI lands with its own issue; until
// then this explains what to run instead.)
func cmdTUI(args []string, stdout, stderr io.Writer) int {
	fmt.Fprint(stdout, usage)
	return exitOK
}
