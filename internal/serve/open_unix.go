//go:build unix

package serve

import (
	"os"
	"syscall"
)

// openNonblocking opens name for reading without waiting for a writer, as
// opening a named pipe with none would (see openRegular).
func openNonblocking(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
