package explore

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/bubbles/progress"
	"github.com/mattn/go-isatty"

	"github.com/lockstep-sim/lockstep/internal/i18n"
	"github.com/muesli/termenv"
)

// Progress shows how far a search has come. On a terminal it redraws one
// line in place: a bubbles progress bar, runs done, runs per second and the
// time left. Elsewhere (a pipe, a CI log) it prints a plain line every few
// seconds, so logs stay readable. It reads only counters, so it never slows
// the workers; its output is not part of the deterministic result.
type Progress struct {
	w     io.Writer
	tty   bool
	every time.Duration
	bar   progress.Model
	start time.Time

	done, total atomic.Int64
	stop        chan struct{}
	wg          sync.WaitGroup
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// NewProgress makes a display on w; tty chooses the redrawn bar over plain
// lines. NO_COLOR turns the bar's gradient off.
func NewProgress(w io.Writer, tty bool) *Progress {
	p := &Progress{w: w, tty: tty, every: 3 * time.Second}
	if tty {
		p.every = 100 * time.Millisecond
		profile := termenv.NewOutput(w).EnvColorProfile()
		p.bar = progress.New(progress.WithDefaultGradient(), progress.WithWidth(30),
			progress.WithColorProfile(profile))
	}
	return p
}

// Update records that done of total runs are finished; it fits
// Config.Progress and may be called from any goroutine.
func (p *Progress) Update(done, total int) {
	p.total.Store(int64(total))
	for {
		old := p.done.Load()
		if int64(done) <= old || p.done.CompareAndSwap(old, int64(done)) {
			return
		}
	}
}

// Start begins drawing a search of total runs. Off a terminal it first
// prints one line saying what is searched and how to stop it; it also tells
// a script driving the command that the search (and its ctrl-c handling)
// has begun.
func (p *Progress) Start(total int) {
	if !p.tty {
		l := i18n.Current()
		fmt.Fprint(p.w, l.Sprintf("explore: searching %s (ctrl-c stops and reports what was found)\n", runsIn(l, total)))
	}
	p.start = time.Now()
	p.stop = make(chan struct{})
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(p.every)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.draw()
			}
		}
	}()
}

// Stop ends drawing and, on a terminal, clears the line.
func (p *Progress) Stop() {
	if p.stop == nil {
		return
	}
	close(p.stop)
	p.wg.Wait()
	p.stop = nil
	if p.tty {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

func (p *Progress) draw() {
	done, total := p.done.Load(), p.total.Load()
	if total == 0 {
		return
	}
	status := Status(int(done), int(total), time.Since(p.start))
	if p.tty {
		fmt.Fprintf(p.w, "\r%s  %s\x1b[K", p.bar.ViewAs(float64(done)/float64(total)), status)
		return
	}
	fmt.Fprint(p.w, i18n.T("explore: %s\n", status))
}

// Status is the text of a progress line, in the current language:
// "1200/5000 runs, 2400 runs/s, ETA 1.6s".
func Status(done, total int, elapsed time.Duration) string {
	l := i18n.Current()
	s := l.Sprintf("%d/%d runs", done, total)
	if done == 0 || elapsed <= 0 {
		return s
	}
	rate := float64(done) / elapsed.Seconds()
	eta := time.Duration(float64(total-done) / rate * float64(time.Second))
	if done >= total {
		return l.Sprintf("%s, %.0f runs/s, shrinking", s, rate)
	}
	return l.Sprintf("%s, %.0f runs/s, ETA %s", s, rate, eta.Round(100*time.Millisecond))
}
