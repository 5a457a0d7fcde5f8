package scenario_test

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/lockstep-sim/lockstep/model/tracemsg"
	"github.com/lockstep-sim/lockstep/sim"
)

// leaseTallyIDs are the client's and Redlock's lines once rendered from
// English fragments (issue 16): their args now say what the text says.
var leaseTallyIDs = map[string]bool{
	"acquired": true, "done": true, "gave-up": true, "node-timeout": true, "abort-signal": true, "gave-up-wait": true, "quorum": true, "refused": true, "refused-keeps": true, "refused-nested": true,
	"ack-lost": true, "reply-lost": true, "request-lost": true, "msg-lost": true,
	// the watchdog's retried renewal, a WAIT that fell short, two clients' deadlock
	"renew-retry": true, "wait-failed": true, "deadlock-pair": true,
}

// nameArgs are the arguments whose values are names (Latin in every
// language), blanked before a zh line is searched for English words.
var nameArgs = []string{"client", "token", "node", "from", "to", "ok_nodes", "taken_nodes", "timeout_nodes", "error_nodes",
	"other", "client_holds", "client_waits", "other_holds", "other_waits"}

// pieceArgs are the arguments of those lines that name pieces.
var pieceArgs = []string{"fence_note", "lease_end", "held", "what_note", "bound", "tally", "why", "drop", "failure", "got_note"}

// englishRun is two Latin words in a row: English left in a zh line.
var englishRun = regexp.MustCompile(`[A-Za-z]+[ ]+[A-Za-z]+`)

// cmdReply is what a "cmd" line may say after " => ": a Redis reply
// (OK, (nil), (integer) N, a string, an array) or an error reply, whose
// text is Redis's own.
var cmdReply = regexp.MustCompile(`^(\(error\) .*|OK|QUEUED|\(nil\)|\(integer\) -?[0-9]+|"[^"]*"|\[.*\])$`)

// The acquired, done, gave-up, Redlock attempt and node-timeout lines of every bundled scenario
// are their catalogue rendering in English, byte for byte, and in zh have
// no two English words in a row once names are set aside; every variant
// of them occurs (a fencing token, no expiry, one and several holds, a
// failed acquire and re-acquire,
// each outcome of a tally, both reasons of a refusal). A "cmd" line,
// shown as it is in zh, is its client, its command and Redis's reply.
func TestTraceIDsOfLeasesAndTallies(t *testing.T) {
	bad := map[string]string{}
	seen := map[string]bool{}
	bundledEvents(t, func(name string, e sim.Event) {
		if e.ID == "cmd" {
			checkCmdLine(name, e, bad)
			return
		}
		if !leaseTallyIDs[e.ID] {
			return
		}
		seen[e.ID] = true
		for _, k := range pieceArgs {
			if a, ok := e.Args.Get(k); ok {
				for _, p := range strings.Fields(a.Str) {
					seen[p] = true
				}
			}
		}
		if bad[e.ID] != "" {
			return
		}
		if en, _ := tracemsg.Render(e.ID, e.Args); en != e.Msg {
			bad[e.ID] = name + ": rendered " + en + "\n  the msg  " + e.Msg
			return
		}
		zh, ok := tracemsg.RenderIn("zh", e.ID, e.Args)
		if !ok || strings.ContainsAny(zh, "{}") {
			bad[e.ID] = name + ": zh " + zh
			return
		}
		if w := englishRun.FindString(blankNames(zh, e.Args)); w != "" {
			bad[e.ID] = name + ": English " + w + " in zh " + zh
		}
	})
	for _, want := range []string{"acquired", "done", "quorum", "refused", "refused-keeps", "lease-fence", "lease-until", "lease-no-expiry",
		"holds-one", "holds-many", "gave-up", "gave-up-wait", "acquire-first", "acquire-nested", "tally-ok", "tally-taken", "tally-timeout", "tally-error", "node-timeout", "bound-request-timeout", "bound-attempt-deadline", "bound-driver-timeout", "abort-signal", "redlock-no-quorum", "redlock-validity-used-up",
		"request-lost", "drop-partitioned", "drop-cut-in-flight",
		"renew-retry", "renew-failed-timeout", "wait-failed", "wait-got-only", "wait-got-no-reply", "deadlock-pair"} {
		if !seen[want] {
			t.Errorf("no bundled scenario has %s: the walk covers less than it says", want)
		}
	}
	var ids []string
	for id := range bad {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		t.Errorf("%s: %s", id, bad[id])
	}
}

// blankNames is s with the values of e's name arguments replaced by "·".
func blankNames(s string, args sim.Args) string {
	for _, k := range nameArgs {
		if a, ok := args.Get(k); ok && a.Str != "" {
			s = strings.ReplaceAll(s, a.Str, "·")
		}
	}
	return s
}

// checkCmdLine records in bad a "cmd" line that is not "CLIENT: COMMAND
// ... => REPLY" with its client's and command's args.
func checkCmdLine(name string, e sim.Event, bad map[string]string) {
	client, _ := e.Args.Get("client")
	command, _ := e.Args.Get("command")
	head, reply, ok := strings.Cut(e.Msg, " => ")
	switch {
	case bad["cmd"] != "":
	case !ok || !strings.HasPrefix(head, client.Str+": "+command.Str):
		bad["cmd"] = name + ": not its client and command: " + e.Msg
	case !cmdReply.MatchString(reply):
		bad["cmd"] = name + ": not a Redis reply: " + e.Msg
	}
}
