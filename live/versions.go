package live

import (
	"context"
	"sync"
)

// VersionStore keeps each key's version, the highest step applied, for the
// [konvoy.VersionStamp] layout: before an item's handler runs, the
// executor asks the store to advance the item's key to the item's step,
// and skips the item, counting it in [Stats].Skipped, when the key is
// already past it, as the model's version stamp skips a step lower than
// its key's state. History-only items (Step 0) and items with an empty Key
// are never checked. The store is asked before every attempt: a retry that
// a higher step of its key overtook while it paused is skipped, not run
// over the newer state; and an item whose attempts all fail has advanced
// its key all the same, dead-lettered or not, so that a lower step that
// comes after it is skipped, as the model's handler, which never fails,
// would skip it.
//
// Advance must compare and set in one step: set key's version to step when
// step is not below it (a key never seen has version 0), and report
// whether it did. In SQL, with a table versions(key PRIMARY KEY, version):
//
//	INSERT INTO versions (key, version) VALUES ($1, $2)
//	ON CONFLICT (key) DO UPDATE SET version = excluded.version
//	WHERE versions.version <= excluded.version
//
// advanced when one row is affected. Kept in the same table as the state,
// and in the handler's own transaction, the compare-and-set also makes the
// write and the version one: the store then only reads. Advance's error
// fails the attempt, which is tried again as a handler's error is. Its
// calls for one key may come from several consumers at once.
type VersionStore interface {
	Advance(ctx context.Context, key string, step int) (advanced bool, err error)
}

// MemoryVersions is a [VersionStore] in memory, the default: its memory
// grows with the keys it has seen. The zero MemoryVersions is ready to use,
// and it is safe for concurrent use.
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

// Version returns key's version, 0 for a key never advanced.
func (m *MemoryVersions) Version(key string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.versions[key]
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
