package live

import (
	"context"
	"sync"
)

// VersionStore keeps each key's version, the highest step applied, for the
// [konvoy.VersionStamp] layout. The model applies events in the order they
// finish, skipping a step lower than its key's state; so once an item's
// handler has returned nil, the executor asks the store to advance the
// item's key to the item's step, and counts the item in [Stats].Skipped,
// as stale, when the key is already past it: a lower step that finished
// after a higher one. A store that is also a [VersionReader] is asked
// first, before each attempt, and an item whose key is past its step
// already is skipped without running (its key's version never falls, so
// the model would skip it at its finish). History-only items (Step 0) and
// items with an empty Key are never checked. An item whose attempts all
// fail never advances its key.
//
// The executor learns that an item was stale only once its handler has
// returned, so the handler's write must itself refuse a backward step, as
// the lesson's version-stamped handler does: a compare-and-set on the
// step, in the handler's transaction. With the versions kept in the same
// table as the state, Advance then finds what the handler's write did. In
// SQL, with a table versions(key PRIMARY KEY, version), the handler writes
//
//	INSERT INTO versions (key, version) VALUES ($1, $2)
//	ON CONFLICT (key) DO UPDATE SET version = excluded.version
//	WHERE versions.version <= excluded.version
//
// with its state, and Advance runs the same statement: advanced when one
// row is affected. Advance must compare and set in one step: set key's
// version to step when step is not below it (a key never seen has version
// 0), and report whether it did. Its error, or a VersionReader's, fails
// the attempt, which is tried again, handler and all, as a handler's error
// is. Its calls for one key may come from several consumers at once.
type VersionStore interface {
	Advance(ctx context.Context, key string, step int) (advanced bool, err error)
}

// VersionReader is a [VersionStore] that tells a key's version without
// changing it, 0 for a key never advanced: the executor asks it before
// each attempt, and skips an item whose key is past its step without
// running it. [MemoryVersions] is one.
type VersionReader interface {
	VersionStore
	Version(ctx context.Context, key string) (int, error)
}

// MemoryVersions is a [VersionStore] and [VersionReader] in memory, the
// default: its memory grows with the keys it has seen. The zero
// MemoryVersions is ready to use, and it is safe for concurrent use.
type MemoryVersions struct {
	mu       sync.Mutex
	versions map[string]int
}

// Advance sets key's version to step unless the version is above it.
func (m *MemoryVersions) Advance(_ context.Context, key string, step int) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.versions == nil {
		m.versions = make(map[string]int)
	}
	if step < m.versions[key] {
		return false, nil
	}
	m.versions[key] = step
	return true, nil
}

// Version returns key's version, 0 for a key never advanced, and no error.
func (m *MemoryVersions) Version(_ context.Context, key string) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.versions[key], nil
}

// WithVersions sets the store of the [konvoy.VersionStamp] layout's
// versions; the default is a new [MemoryVersions]. Other layouts ignore it.
func WithVersions(s VersionStore) Option {
	return func(c *config) {
		if s == nil {
			c.errs = append(c.errs, errNilVersions)
		}
		c.versions = s
	}
}
