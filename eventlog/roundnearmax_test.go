package eventlog

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// Under Round, a duration is rounded to the nearest round, halves away
// from zero, as an arrival is, however large: "9223372036.854775807s" at
// one round a second is 9223372036.85 rounds, 9223372037 to the nearest,
// in the duration and the at column alike. (An int of 32 bits holds no
// such count: there the duration is an error.)
func TestRoundingADurationNearTheLargestGoesToTheNearest(t *testing.T) {
	if strconv.IntSize == 32 {
		t.Skip("9223372037 rounds pass a 32-bit int")
	}
	const v = "9223372036.854775807s"
	in := "key,step,duration,at\nk,1," + v + "," + v + "\n"
	d, err := NewDecoder(strings.NewReader(in), Reader{Format: CSV, Resolution: time.Second, Round: true})
	if err != nil {
		t.Fatal(err)
	}
	e, err := d.Next()
	if err != nil {
		t.Fatalf("Next: %v", err)
	}
	const want int64 = 9223372037
	if int64(e.Arrival) != want {
		t.Errorf("arrival %q read as %d rounds; want %d", v, e.Arrival, want)
	}
	if int64(e.Duration) != want {
		t.Errorf("duration %q read as %d rounds; want %d, the nearest, as the arrival is", v, e.Duration, want)
	}
}
