package serve

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"sync"
)

// maxUploads is the most uploads the server keeps at once.
const maxUploads = 8

// UploadRoom returns the most memory a server whose largest upload is
// maxUpload bytes (0: DefaultMaxUpload) holds of uploads at once: those it
// keeps, and those it reads meanwhile. A program that bounds the runs'
// memory leaves that beside them (see Config.MaxMemory).
func UploadRoom(maxUpload int64) int64 {
	return (maxUploads + maxReading) * cmp.Or(maxUpload, DefaultMaxUpload)
}

// MaxUploadIn returns the largest upload, in bytes, of a server whose
// uploads, those it keeps and those it reads meanwhile, take at most room
// bytes (see UploadRoom): 0 when room is less than their count.
func MaxUploadIn(room int64) int64 {
	return room / (maxUploads + maxReading)
}

// maxGivenUp is the most keys of uploads given up that the server
// remembers, 32 KiB of keys: a link to one of them is told the upload is
// no longer kept, a link to another that there is none.
const maxGivenUp = 1024

// uploadKeyBytes is the length of an upload's key: 16 bytes of its
// SHA-256, in hex.
const uploadKeyBytes = 32

// upload is a trace sent to the server: its content, as sent, and the file
// name its errors give.
type upload struct {
	name string
	data []byte
}

// uploads keeps the traces sent to the server, in memory and never on disk,
// by the hash of their name and content, which the page's query names (trace=), so
// that the page can make other runs of a trace without its being sent
// again. It keeps at most most uploads of at most bytes in all, giving up
// the least recently used first, and remembers the keys of the last
// maxGivenUp it gave up: a link to one of those is answered with 410 Gone
// and a request to send the trace again, a link to any other key with 404.
type uploads struct {
	mu      sync.Mutex
	most    int
	bytes   int64
	held    int64
	byKey   map[string]*upload
	order   []string // least recently used first
	gone    map[string]bool
	goneOld []string // the keys of gone, given up first first
}

// newUploads returns a store of at most most uploads and bytes bytes.
func newUploads(most int, bytes int64) *uploads {
	return &uploads{most: most, bytes: bytes, byKey: make(map[string]*upload), gone: make(map[string]bool)}
}

// add keeps u and returns its key, the first 16 bytes of the SHA-256 of
// its name and content, in hex: the same file sent again is kept once,
// and a link names what it named when it was made, as the name decides
// how the content is read (its format, and whether it is gzipped).
func (s *uploads) add(u *upload) string {
	h := sha256.New()
	h.Write([]byte(u.name))
	h.Write([]byte{0})
	h.Write(u.data)
	key := hex.EncodeToString(h.Sum(nil)[:uploadKeyBytes/2])
	s.mu.Lock()
	defer s.mu.Unlock()
	s.remove(key)
	for len(s.order) > 0 && (len(s.order) >= s.most || s.held+int64(len(u.data)) > s.bytes) {
		s.giveUp(s.order[0])
	}
	s.byKey[key] = u
	s.order = append(s.order, key)
	s.held += int64(len(u.data))
	return key
}

// get returns the upload of key, or nil when there is none, and marks it
// the most recently used.
func (s *uploads) get(key string) *upload {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.byKey[key]
	if u != nil {
		s.remove(key)
		s.byKey[key] = u
		s.order = append(s.order, key)
		s.held += int64(len(u.data))
	}
	return u
}

// givenUp tells whether key is that of an upload the store gave up to
// make room, among the last maxGivenUp, and has not been sent again.
func (s *uploads) givenUp(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gone[key] && s.byKey[key] == nil
}

// giveUp forgets the upload of key, remembering its key among the last
// maxGivenUp given up. The caller holds mu.
func (s *uploads) giveUp(key string) {
	s.remove(key)
	if s.gone[key] { // given up before: now the last given up
		s.goneOld = slices.DeleteFunc(s.goneOld, func(k string) bool { return k == key })
		delete(s.gone, key)
	}
	if len(s.goneOld) >= maxGivenUp {
		delete(s.gone, s.goneOld[0])
		s.goneOld = s.goneOld[1:]
	}
	s.gone[key] = true
	s.goneOld = append(s.goneOld, key)
}

// remove forgets the upload of key, if any. The caller holds mu.
func (s *uploads) remove(key string) {
	u := s.byKey[key]
	if u == nil {
		return
	}
	delete(s.byKey, key)
	s.held -= int64(len(u.data))
	for i, k := range s.order {
		if k == key {
			s.order = append(s.order[:i], s.order[i+1:]...)
			break
		}
	}
}
