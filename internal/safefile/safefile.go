// Package safefile writes output files so that a user's data is never lost:
// a file appears whole or not at all (it is written to a temporary file in
// the same directory, synced, then moved into place), an existing file is
// never replaced unless the caller says so (force), and every write, sync
// and close error is returned.
package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrExists is returned (wrapped) when the target exists and force is off.
var ErrExists = fs.ErrExist

// File is an output file being written. Nothing appears at its path until
// Commit; Abort (or a failed Commit) removes every trace of it.
type File struct {
	path  string
	force bool
	tmp   *os.File
	err   error // the first write error, reported again by Commit
	done  bool
}

// Create starts writing path. Without force it fails at once, before any
// work is done, when path exists; the check is repeated atomically at Commit.
func Create(path string, force bool) (*File, error) {
	if path == "" {
		return nil, errors.New("empty output path")
	}
	if err := CheckTarget(path, force); err != nil {
		return nil, err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return nil, err
	}
	return &File{path: path, force: force, tmp: tmp}, nil
}

// CheckTarget reports whether path may be written: its directory exists and
// is writable, it is not a directory, and it does not exist unless force.
// Commands call it before long work, so that a bad output path is known
// before the work is done.
func CheckTarget(path string, force bool) error {
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return fmt.Errorf("%s is a directory", path)
	case err == nil && !force:
		return fmt.Errorf("%s already exists (use --force to overwrite it): %w", path, ErrExists)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	}
	dir := filepath.Dir(path)
	di, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !di.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	// Probe that the directory takes new files.
	probe, err := os.CreateTemp(dir, ".lockstep-probe-*")
	if err != nil {
		return err
	}
	probe.Close()
	return os.Remove(probe.Name())
}

// Write writes p; the first error sticks and is returned by Commit too.
func (f *File) Write(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	n, err := f.tmp.Write(p)
	if err != nil {
		f.err = err
	}
	return n, err
}

// Commit syncs and closes the file and moves it into place. Without force it
// never replaces a file that appeared meanwhile. On any error nothing is left
// behind.
func (f *File) Commit() error {
	if f.done {
		return errors.New("safefile: commit after close")
	}
	f.done = true
	err := f.err
	if err == nil {
		err = f.tmp.Sync()
	}
	if cerr := f.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = place(f.tmp.Name(), f.path, f.force)
	}
	os.Remove(f.tmp.Name()) // after a link the temporary name is left over
	return err
}

// Abort drops the file; the path is untouched.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.tmp.Close()
	os.Remove(f.tmp.Name())
}

// place moves tmp to path. Without force a hard link is used, which fails if
// path exists (an atomic no-clobber rename); where links are unsupported it
// falls back to checking and renaming.
func place(tmp, path string, force bool) error {
	if force {
		return os.Rename(tmp, path)
	}
	err := os.Link(tmp, path)
	if err == nil || errors.Is(err, fs.ErrExist) {
		if err != nil {
			return fmt.Errorf("%s already exists (use --force to overwrite it): %w", path, ErrExists)
		}
		return nil
	}
	if _, serr := os.Lstat(path); serr == nil {
		return fmt.Errorf("%s already exists (use --force to overwrite it): %w", path, ErrExists)
	}
	return os.Rename(tmp, path)
}

// WriteFile writes data to path atomically; without force an existing file
// is an error and is left as it was.
func WriteFile(path string, data []byte, force bool) error {
	f, err := Create(path, force)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// MaxSuffix bounds the search for a free name in WriteNew.
const MaxSuffix = 999

// WriteNew writes data to path, or, when path exists, to the first free
// NAME-2.EXT … NAME-999.EXT beside it, and returns the path written. It
// never overwrites a file.
func WriteNew(path string, data []byte) (string, error) {
	ext := filepath.Ext(path)
	stem := strings.TrimSuffix(path, ext)
	for i := 1; i <= MaxSuffix; i++ {
		p := path
		if i > 1 {
			p = stem + "-" + strconv.Itoa(i) + ext
		}
		err := WriteFile(p, data, false)
		if err == nil {
			return p, nil
		}
		if !errors.Is(err, ErrExists) {
			return "", err
		}
	}
	return "", fmt.Errorf("%s and %d numbered variants already exist", path, MaxSuffix-1)
}
