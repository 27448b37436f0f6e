//go:build !unix

package serve

import "os"

// openNonblocking opens name for reading: where the system is not Unix,
// whose named pipes block an open, as os.Open does (see openRegular).
func openNonblocking(name string) (*os.File, error) {
	return os.Open(name)
}
