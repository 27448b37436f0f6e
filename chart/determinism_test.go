package chart_test

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
)

// TestDeterministic draws every picture three times, two of them at once,
// and wants the same bytes each time.
func TestDeterministic(t *testing.T) {
	for _, pic := range pictures(t) {
		for _, f := range formats {
			t.Run(fmt.Sprintf("%s.%v", pic.name, f), func(t *testing.T) {
				var bufs [3]bytes.Buffer
				var errs [3]error
				errs[0] = pic.draw(&bufs[0], f)
				var wg sync.WaitGroup
				for i := 1; i < len(bufs); i++ {
					wg.Add(1)
					go func() {
						defer wg.Done()
						errs[i] = pic.draw(&bufs[i], f)
					}()
				}
				wg.Wait()
				for i := range bufs {
					if errs[i] != nil {
						t.Fatalf("drawing %d: %v", i+1, errs[i])
					}
					if i > 0 && !bytes.Equal(bufs[i].Bytes(), bufs[0].Bytes()) {
						t.Errorf("drawing %d differs from the first (%d and %d bytes)", i+1, bufs[i].Len(), bufs[0].Len())
					}
				}
			})
		}
	}
}
