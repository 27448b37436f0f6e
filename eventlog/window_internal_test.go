package eventlog

import (
	"fmt"
	"math/bits"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/sirali-konvoy/konvoy"
)

// What the reorder window counts for a held event is what it keeps for
// it, and at most twice that: its place in the window's heap, which grows
// by doubling, and its key, line and arrival text packed in one
// allocation, which keeps nothing else alive. A count below what it keeps
// would let the window outgrow -max-memory. heldBytes counts the sizes
// of a 64-bit platform; where int and pointers have 32 bits a held event
// takes less, so there the count may be up to 3 times what is kept.
func TestAHeldEventCostsWhatTheWindowCounts(t *testing.T) {
	most := 2.0
	if bits.UintSize == 32 {
		most = 3
	}
	if heldBytes < 2*int(unsafe.Sizeof(held{})) {
		t.Fatalf("heldBytes is %d; a held event takes %d, up to twice as the heap grows", heldBytes, unsafe.Sizeof(held{}))
	}
	for _, n := range []int{50_000, 70_000} { // past a doubling of the heap, and before one
		var b strings.Builder
		b.WriteString("key,line,step,duration,at\n")
		for i := range n {
			fmt.Fprintf(&b, "K%06d,L%03d,%d,1ms,%dms\n", i%25_000, i%100, 1+i/25_000, i)
		}
		trace := b.String()
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		d, err := NewDecoder(strings.NewReader(trace), Reader{Name: "t.csv", Resolution: time.Millisecond, Reorder: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		// The first event comes out once the trace ends: every one is read
		// and held by then.
		if _, err := d.Next(); err != nil || len(d.window.held) != n-1 {
			t.Fatalf("%d events held, error %v; want %d", len(d.window.held), err, n-1)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		kept := float64(after.HeapAlloc) - float64(before.HeapAlloc)
		counted := float64(d.window.bytes)
		runtime.KeepAlive(d)
		runtime.KeepAlive(trace)
		t.Logf("%d events held: %.0f bytes an event kept, %.0f counted", n, kept/float64(n), counted/float64(n))
		if counted < kept || counted > most*kept {
			t.Errorf("%d events held: %.0f bytes an event kept, %.0f counted; want as much to %g times as much", n, kept/float64(n), counted/float64(n), most)
		}
	}
}

// An event the window releases keeps no memory of its arrival's text: its
// key and line are copied out of the packed strings the window held, so
// that a key kept for the whole run (the simulator keeps every one) does
// not keep a text that leading zeros may make most of a record long.
// (Found by a review: 300 keys whose arrivals were 8 MiB of zeros each
// ran out of memory under -reorder, and took 98 MB without it.)
func TestAReleasedEventKeepsNoneOfItsArrivalText(t *testing.T) {
	text := strings.Repeat("0", 1<<16) + "1700000000000"
	h := hold(&arrival{e: konvoy.Event{Key: "k1", Line: "l1", Step: 1}, text: text})
	a := h.arrival()
	if a.e.Key != "k1" || a.e.Line != "l1" || a.text != text {
		t.Fatalf("released %q, %q, a text of %d bytes; want k1, l1 and the text held", a.e.Key, a.e.Line, len(a.text))
	}
	packed := uintptr(unsafe.Pointer(unsafe.StringData(h.strs)))
	for _, s := range []string{a.e.Key, a.e.Line} {
		if p := uintptr(unsafe.Pointer(unsafe.StringData(s))); p >= packed && p < packed+uintptr(len(h.strs)) {
			t.Errorf("%q is a slice of the held strings, %d bytes with the arrival's text: keeping it keeps them", s, len(h.strs))
		}
	}
}
