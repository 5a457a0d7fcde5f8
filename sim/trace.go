package sim

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/cespare/xxhash/v2"
)

// Event is one line of the trace: what happened, when (true time), where.
type Event struct {
	Seq  int           `json:"seq"`
	At   time.Duration `json:"-"`
	Proc string        `json:"proc"`
	Kind string        `json:"kind"`
	Msg  string        `json:"msg"`
	// ID names the message in a language-neutral way ("acquired") and Args
	// are its arguments; both empty for messages that have no id yet.
	ID   string `json:"id,omitempty"`
	Args Args   `json:"args,omitempty"`
}

// MarshalJSON writes the time as milliseconds with microsecond precision, a
// unit a person can read in a JSON line.
func (e Event) MarshalJSON() ([]byte, error) {
	type plain Event
	return json.Marshal(struct {
		AtMS string `json:"at_ms"`
		plain
	}{FormatMS(e.At), plain(e)})
}

// FormatMS renders a true time as milliseconds with microsecond precision.
func FormatMS(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 3, 64)
}

// String is the event as one human-readable line.
func (e Event) String() string {
	return fmt.Sprintf("%s %-12s %-10s %s", FormatTime(e.At), e.Proc, e.Kind, e.Msg)
}

// Trace receives every event in order, hashes it, and hands it to sinks. It
// holds no history itself, so a long run's memory stays bounded; a sink that
// wants history keeps it.
//
// Most runs are headless: nobody reads the text of a message, only its hash
// and its kind. So a sink says whether it needs the text (Subscribe: always;
// SubscribeMsgIf: for some kinds), and a message emitted as bytes
// (EmitBytes) becomes a string only when some sink needs it.
type Trace struct {
	n     int
	h     *xxhash.Digest // over every line so far
	line  []byte         // reused: the line being hashed
	sinks []sink

	// lineAt is the time whose digits begin line (atLen bytes): lines come
	// several to an instant, so they are formatted once (hashLine).
	lineAt time.Duration
	atLen  int

	// unhashed: StopHashing was called, so a line nobody reads is not
	// even formatted (see Kernel.WantsText).
	unhashed bool
	// quiet: unhashed and no sinks, so no line is read at all (see
	// Kernel.Unread); kept by StopHashing and the Subscribes.
	quiet bool
}

type sink struct {
	fn      func(Event)
	wantMsg func(kind string) bool // nil: always
}

func newTrace() *Trace { return &Trace{h: xxhash.New(), line: make([]byte, 0, 256)} }

// Subscribe adds a sink that sees every later event, its message included.
func (t *Trace) Subscribe(fn func(Event)) {
	t.sinks, t.quiet = append(t.sinks, sink{fn: fn}), false
}

// SubscribeMsgIf adds a sink that sees every later event but needs its
// message only when wantMsg(kind) is true (asked at every event, so the
// answer may change during the run). For other events its Msg may be empty.
func (t *Trace) SubscribeMsgIf(fn func(Event), wantMsg func(kind string) bool) {
	t.sinks, t.quiet = append(t.sinks, sink{fn, wantMsg}), false
}

// Len is the number of events so far.
func (t *Trace) Len() int { return t.n }

// Hash is a hash of every event so far; equal traces have equal hashes. It
// is XXH64 (seed 0) of the events' lines "<at ns>|<proc>|<kind>|<msg>\n"
// one after the other, at ns being the true time in nanoseconds.
//
// It was FNV-64a of the same lines until FNV's byte-at-a-time loop became
// a tenth of a busy run's time: hashes printed by earlier versions differ.
func (t *Trace) Hash() uint64 { return t.h.Sum64() }

// StopHashing stops adding lines to the hash: from now on a line that no
// sink wants the text of is counted and published (kind only) but never
// formatted. A run that needs only its verdict (explore's searches and
// shrinks) calls it before the run; its Hash is then meaningless, and
// Hashing says so.
func (t *Trace) StopHashing() { t.unhashed, t.quiet = true, len(t.sinks) == 0 }

// Hashing reports whether lines are hashed (StopHashing was not called).
func (t *Trace) Hashing() bool { return !t.unhashed }

// WantsText reports whether a line of this kind emitted now would be read:
// hashed, or wanted by a sink. Emit, EmitBytes and EmitID ask it
// themselves; a caller that builds text before emitting asks it first, so
// that a run nobody reads formats nothing.
func (k *Kernel) WantsText(kind string) bool {
	t := k.trace
	return !t.unhashed || len(t.sinks) != 0 && t.sinksWantMsg(kind)
}

// WantsArgs reports whether a sink will see the text, id and arguments of
// a line of this kind (EmitID hands them over only then): a hashed run
// with no such sink needs the text for the hash but not the arguments.
func (k *Kernel) WantsArgs(kind string) bool { return k.trace.wantMsg(kind) }

// Unread reports whether no one reads the text of a line of this kind
// (WantsText is false), and then records the line without it (EmitUnread):
// a hot line's caller asks it first and builds nothing. In a headless run
// without the hash, where nothing at all is read, it is one test and a
// count, inlined: such a run asks it for nearly every line.
func (k *Kernel) Unread(proc, kind string) bool {
	if t := k.trace; t.quiet {
		t.n++
		return true
	}
	return k.unread(proc, kind)
}

// unread is Unread for a run some line may be read in.
func (k *Kernel) unread(proc, kind string) bool {
	if k.WantsText(kind) {
		return false
	}
	k.EmitUnread(proc, kind)
	return true
}

// EmitUnread records an event whose text nobody reads, without its text:
// for a caller that asked WantsText(kind) and was told false, and so built
// nothing. Calling it when WantsText is true would leave the line out of
// the hash.
func (k *Kernel) EmitUnread(proc, kind string) { k.trace.skip(k.now, proc, kind) }

// skip counts and publishes an event whose text nobody reads: sinks see its
// kind, Len counts it, and nothing is formatted. A headless run has no sink
// at all (the runner is handed what it reads, World.NoteTold), and then
// not even the event is built.
func (t *Trace) skip(at time.Duration, proc, kind string) {
	t.n++
	if len(t.sinks) != 0 {
		t.publishKind(at, proc, kind)
	}
}

// publishKind is skip's part for a run with sinks, a call of its own so
// that skip is inlined where a line nobody reads is recorded (several
// times a request): the Event it builds would widen skip past the budget.
//
//go:noinline
func (t *Trace) publishKind(at time.Duration, proc, kind string) {
	t.publish(Event{Seq: t.n, At: at, Proc: proc, Kind: kind})
}

// Emit records an event at the kernel's current time, its message formatted
// as by fmt.Sprintf.
func (k *Kernel) Emit(proc, kind, format string, args ...any) {
	if !k.WantsText(kind) {
		k.trace.skip(k.now, proc, kind)
		return
	}
	switch {
	case len(args) == 0 && strings.IndexByte(format, '%') < 0:
		k.EmitMsg(proc, kind, format) // what Sprintf would return, without the copy
		return
	case format == "%s" && len(args) == 1:
		if s, ok := args[0].(string); ok {
			k.EmitMsg(proc, kind, s)
			return
		}
	}
	k.buf = fmt.Appendf(k.buf[:0], format, args...)
	k.EmitBytes(proc, kind, k.buf)
}

// EmitMsg records an event whose message is already a string.
func (k *Kernel) EmitMsg(proc, kind, msg string) {
	t := k.trace
	if t.unhashed {
		if !t.wantMsg(kind) {
			t.skip(k.now, proc, kind)
			return
		}
	} else {
		hashLine(t, k.now, proc, kind, msg)
	}
	t.n++
	t.publish(Event{Seq: t.n, At: k.now, Proc: proc, Kind: kind, Msg: msg})
}

// EmitBytes records an event whose message the caller built in its own
// buffer (the hot paths append theirs, without fmt): it is hashed as it is,
// and copied into a string only if a sink needs the text. The caller may
// reuse msg once EmitBytes returns.
func (k *Kernel) EmitBytes(proc, kind string, msg []byte) { k.EmitID(proc, kind, "", nil, msg) }

// wantMsg reports whether any sink needs the text of an event of this kind.
func (t *Trace) wantMsg(kind string) bool {
	return len(t.sinks) != 0 && t.sinksWantMsg(kind)
}

// sinksWantMsg is wantMsg's loop, kept out of line so that wantMsg and
// WantsText stay small enough to be inlined: a headless run (unhashed, no
// sink) asks WantsText several times a request and gets its answer from
// two loads, without a call.
//
//go:noinline
func (t *Trace) sinksWantMsg(kind string) bool {
	for _, s := range t.sinks {
		if s.wantMsg == nil || s.wantMsg(kind) {
			return true
		}
	}
	return false
}

func (t *Trace) publish(e Event) {
	for _, s := range t.sinks {
		s.fn(e)
	}
}

// hashLine adds the line "<at ns>|<proc>|<kind>|<msg>\n" to the hash, in
// one write: the digest works in 32-byte stripes, and a line is ~100 bytes.
func hashLine[M []byte | string](t *Trace, at time.Duration, proc, kind string, msg M) {
	var b []byte
	if at == t.lineAt && t.atLen > 0 {
		b = t.line[:t.atLen]
	} else {
		b = strconv.AppendInt(t.line[:0], int64(at), 10)
		t.lineAt, t.atLen = at, len(b)
	}
	b = append(b, '|')
	b = append(b, proc...)
	b = append(b, '|')
	b = append(b, kind...)
	b = append(b, '|')
	b = append(b, msg...)
	b = append(b, '\n')
	t.h.Write(b)
	t.line = b
}

// FormatTime renders a true time as seconds with millisecond precision
// ("31.002s"), the unit the stories and explanations use.
func FormatTime(d time.Duration) string {
	var buf [32]byte
	return string(AppendTime(buf[:0], d))
}

// AppendTime appends FormatTime(d) to b.
func AppendTime(b []byte, d time.Duration) []byte {
	if d < 0 {
		b = append(b, '-')
		d = -d
	}
	b = strconv.AppendFloat(b, float64(d)/float64(time.Second), 'f', 3, 64)
	return append(b, 's')
}
