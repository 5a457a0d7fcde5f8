package model

import (
	"slices"
	"strconv"
	"strings"

	"github.com/lockstep-sim/lockstep/model/slot"
)

// MultiKeyScript is LockConfig.MultiKey's all-or-none mode (one Lua script
// over every key, model/recipe/multikey.go).
const MultiKeyScript = "script"

// crossSlot reports whether a command names keys in more than one hash
// slot. Of the commands the clients send only EVAL names several keys
// (its numkeys after the script).
func crossSlot(args []string) bool {
	if len(args) < 3 || !strings.EqualFold(args[0], "EVAL") {
		return false
	}
	n, err := strconv.Atoi(args[2])
	if err != nil || n < 2 || n > len(args)-3 {
		return false
	}
	_, same := slot.Same(args[3 : 3+n])
	return !same
}

// judgedKey reports whether c's holds take the key the judge follows
// (LockConfig.Key): a client whose own keys leave it out (a key per
// resource) releases nothing the judge could call unheld.
func (c *Client) judgedKey() bool {
	return len(c.Cfg.Keys) == 0 || slices.Contains(c.Cfg.Keys, c.w.Cfg.Lock.Key)
}
