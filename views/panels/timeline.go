package panels

import (
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/lockstep-sim/lockstep/internal/termtext"
	"github.com/lockstep-sim/lockstep/scenario/player"
	"github.com/lockstep-sim/lockstep/views/text"
)

func timeNS(ns int64) time.Duration { return time.Duration(ns) }

// Timeline draws the lanes in w×h: one per client (█ while it believes
// it holds the lock), one per node (the key owner's letter while the lock
// key is present), a marks row (! two or more believe at once, ▼ fault, ✖
// violation) and the time axis. Only the visible window is computed, and
// only history up to the cursor is drawn.
func Timeline(st text.Styles, ss *player.Player, snap player.Snapshot, span time.Duration, w, h int) []string {
	hist := ss.History()
	labelW := 2
	for _, l := range hist.Clients {
		labelW = max(labelW, ansi.StringWidth(termtext.Escape(l.Name)))
	}
	for _, l := range hist.Nodes {
		labelW = max(labelW, ansi.StringWidth(termtext.Escape(l.Name)))
	}
	labelW = min(labelW+1, 12)
	cols := w - labelW
	if cols < 4 || h < 1 {
		return nil
	}
	cur := ss.Now()
	end := max(ss.End(), time.Millisecond)
	var t0, t1 time.Duration
	if span <= 0 || span >= end {
		t0, t1 = 0, end
	} else {
		t0 = max(0, cur-span*2/3)
		t1 = t0 + span
		if t1 > end {
			t1, t0 = end, end-span
		}
	}
	dt := float64(t1-t0) / float64(cols)
	col := func(t time.Duration) int { return int(float64(t-t0) / dt) }
	curCol := min(col(cur), cols-1)

	letters := ownerLetters(hist.Clients)
	believers := make([]int, cols)
	fill := func(spans []player.Span, row []rune, ch func(player.Span) rune, count bool) {
		for _, s := range spans {
			from, to := s.From, s.To
			if to < 0 || to > cur {
				to = cur
			}
			if from > cur || to < t0 || from > t1 {
				continue
			}
			a, b := max(col(from), 0), min(col(to), cols-1)
			if to == from {
				b = a
			}
			for i := a; i <= b && i < cols; i++ {
				row[i] = ch(s)
				if count {
					believers[i]++
				}
			}
		}
	}
	blank := func() []rune { return []rune(strings.Repeat(" ", cols)) }
	var rows []string
	label := func(name string) string { return text.Fit(termtext.Escape(name), labelW-1) + " " }
	for _, l := range hist.Clients {
		row := blank()
		fill(l.Spans, row, func(player.Span) rune { return '█' }, true)
		rows = append(rows, label(l.Name)+cursorRow(row, curCol))
	}
	for _, l := range hist.Nodes {
		row := blank()
		fill(l.Spans, row, func(s player.Span) rune {
			if r, ok := letters[s.Label]; ok {
				return r
			}
			return '?'
		}, false)
		rows = append(rows, label(l.Name)+cursorRow(row, curCol))
	}
	marks := blank()
	for i, n := range believers {
		if n >= 2 {
			marks[i] = '!'
		}
	}
	put := func(ms []player.Mark, r rune) {
		for _, mk := range ms {
			if mk.At > cur || mk.At < t0 || mk.At > t1 {
				continue
			}
			marks[min(col(mk.At), cols-1)] = r
		}
	}
	put(hist.Faults, '▼')
	put(hist.Violations, '✖')
	ms := string(marks)
	ms = strings.ReplaceAll(ms, "!", st.Bad.Render("!"))
	ms = strings.ReplaceAll(ms, "✖", st.Bad.Render("✖"))
	ms = strings.ReplaceAll(ms, "▼", st.Warn.Render("▼"))
	rows = append(rows, label(tr("marks"))+ms)
	rows = append(rows, label("")+axis(t0, t1, cur, cols, curCol))
	if len(rows) > h {
		// Keep the marks and the axis; drop lanes from the end of the
		// node list first, then clients.
		keep := h - 2
		if keep < 0 {
			return rows[len(rows)-h:]
		}
		rows = append(rows[:keep], rows[len(rows)-2:]...)
	}
	return rows
}

// cursorRow draws the cursor as │ where the lane is empty at the cursor.
func cursorRow(row []rune, c int) string {
	if c >= 0 && c < len(row) && row[c] == ' ' {
		row[c] = '│'
	}
	return string(row)
}

// ownerLetters maps each client to the letter its node lanes show: its
// first letter when that is unique, otherwise its position (1-9, a-z).
func ownerLetters(clients []player.Lane) map[string]rune {
	first := map[rune]int{}
	for _, l := range clients {
		if l.Name != "" {
			first[[]rune(termtext.Escape(l.Name))[0]]++
		}
	}
	out := map[string]rune{}
	const pos = "123456789abcdefghijklmnopqrstuvwxyz"
	for i, l := range clients {
		if l.Name == "" {
			continue
		}
		r := []rune(termtext.Escape(l.Name))[0]
		if first[r] > 1 {
			r = '#'
			if i < len(pos) {
				r = rune(pos[i])
			}
		}
		out[l.Name] = r
	}
	return out
}

// axis is the time scale: the window's ends and the cursor's time.
func axis(t0, t1, cur time.Duration, cols, curCol int) string {
	l, r := text.Short(t0), text.Short(t1)
	c := "▲" + text.Secs(cur)
	line := []rune(strings.Repeat(" ", cols))
	copy(line, []rune(l))
	if len(r) < cols {
		copy(line[cols-len([]rune(r)):], []rune(r))
	}
	if p := curCol - len([]rune(c))/2; p > len(l) && p+len([]rune(c)) < cols-len(r) {
		copy(line[p:], []rune(c))
	}
	return string(line)
}
