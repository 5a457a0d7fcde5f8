package sim

// FreeList keeps finished objects of one kind for reuse. Every request,
// reply, sleep and event of a run would otherwise be a fresh allocation, and
// the garbage collector was a fifth of a run. It is not safe for concurrent
// use; like the rest of a world it belongs to one goroutine at a time.
//
// Get leaves the object it hands out in the array past the list's length
// (the next Put writes over it): clearing it was a pointer store a Get for
// nothing, since that object is in use, and one never put back is garbage
// only with its world, which takes the list with it.
type FreeList[T any] struct{ items []*T }

// Get returns a kept object (as it was left: the caller resets it), or a new
// zero one.
func (l *FreeList[T]) Get() *T {
	n := len(l.items)
	if n == 0 {
		return new(T)
	}
	x := l.items[n-1]
	l.items = l.items[:n-1] // x stays in the array (see FreeList)
	return x
}

// Put keeps x for a later Get. The caller must not use x afterwards.
func (l *FreeList[T]) Put(x *T) { l.items = append(l.items, x) }

// Reset forgets every kept object.
func (l *FreeList[T]) Reset() { l.items = nil }
