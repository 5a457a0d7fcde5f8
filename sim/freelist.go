package sim

// FreeList keeps finished objects of one kind for reuse. Every request,
// reply, sleep and event of a run would otherwise be a fresh allocation, and
// the garbage collector was a fifth of a run. It is not safe for concurrent
// use; like the rest of a world it belongs to one goroutine at a time.
type FreeList[T any] struct{ items []*T }

// Get returns a kept object (as it was left: the caller resets it), or a new
// zero one.
func (l *FreeList[T]) Get() *T {
	n := len(l.items)
	if n == 0 {
		return new(T)
	}
	x := l.items[n-1]
	l.items[n-1] = nil
	l.items = l.items[:n-1]
	return x
}

// Put keeps x for a later Get. The caller must not use x afterwards.
func (l *FreeList[T]) Put(x *T) { l.items = append(l.items, x) }

// Reset forgets every kept object.
func (l *FreeList[T]) Reset() { l.items = nil }
