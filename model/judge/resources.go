package judge

// Clients that work on different resources (Config.Resources; lock
// granularity) only exclude each other on the same one: two clients in
// their critical sections at once violate the lock only if they share a
// resource, and each resource is a counter of its own. Without
// Config.Resources every client shares the one counter and these reduce to
// the judge's plain books.

// resourceBooks are one named resource's writes applied and value.
type resourceBooks struct{ accepted, value int64 }

// rival is the first client in its critical section that works on name's
// resource; "" when none.
func (j *Judge) rival(name string) string {
	if j.cfg.Resources == nil {
		if len(j.inCS) > 0 {
			return j.inCS[0]
		}
		return ""
	}
	r := j.cfg.Resources[name]
	for _, x := range j.inCS {
		if j.cfg.Resources[x] == r {
			return x
		}
	}
	return ""
}

// inEpisode reports whether name's resource is in a violation episode.
func (j *Judge) inEpisode(name string) bool {
	if j.cfg.Resources == nil {
		return j.episode
	}
	return j.episodes[j.cfg.Resources[name]]
}

func (j *Judge) setEpisode(name string, on bool) {
	if j.cfg.Resources == nil {
		j.episode = on
		return
	}
	if j.episodes == nil {
		j.episodes = map[string]bool{}
	}
	j.episodes[j.cfg.Resources[name]] = on
}

// endEpisode ends the episode of name's resource (name has just left)
// once fewer than two clients are in their critical section on it.
func (j *Judge) endEpisode(name string) {
	if j.cfg.Resources == nil {
		if len(j.inCS) < 2 {
			j.episode = false
		}
		return
	}
	r, n := j.cfg.Resources[name], 0
	for _, x := range j.inCS {
		if j.cfg.Resources[x] == r {
			n++
		}
	}
	if n < 2 {
		j.setEpisode(name, false)
	}
}

// wrote keeps the books of an applied write on the writer's resource.
func (j *Judge) wrote(e *Event) {
	if j.books == nil {
		j.books = map[string]*resourceBooks{}
	}
	r := j.cfg.Resources[e.Client]
	b := j.books[r]
	if b == nil {
		b = &resourceBooks{}
		j.books[r] = b
	}
	b.accepted++
	b.value = e.Value
}

// lostElsewhere is the updates lost on the named resources. The books are
// summed in any order: a sum does not depend on it.
func (j *Judge) lostElsewhere() int64 {
	var n int64
	for _, b := range j.books {
		n += max(b.accepted-b.value, 0)
	}
	return n
}
