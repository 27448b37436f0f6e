package replay

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy"
)

// A trace too long for a replay is refused with the replay's own bound,
// not as past what a time.Duration holds (5e15 rounds of 1µs, 158 years,
// fits one), and with rounds past 2^53, which a float64 sum may round,
// named as about so many, not as an exact number the trace does not hold
// (found by a review), before the simulator's own bound.
func TestATraceTooLongNamesTheReplaysBound(t *testing.T) {
	if strconv.IntSize < 64 {
		t.Skip("rounds past an int of 32 bits")
	}
	far, longest := int64(5e15), int64(math.MaxInt64-1) // variables: a 32-bit build compiles the test
	c := Config{Layout: konvoy.Convoy, Policy: konvoy.LaneAware, Consumers: 1, Unit: time.Microsecond}
	for _, tc := range []struct {
		e    konvoy.Event
		want string
	}{
		{konvoy.Event{Key: "a", Duration: 1, Arrival: int(far)}, "5000000000000001 rounds of 1µs each, to this event, take longer than a replay can: want at most 1281023h53m38.427387903s in all"},
		{konvoy.Event{Key: "a", Duration: int(longest)}, "about 9.223e+18 rounds of 1µs each"},
		// Past the simulator's bound too: the replay's is said, where the
		// simulator's, which the replay refuses too, was (found by a review).
		{konvoy.Event{Key: "a", Duration: int(longest + 1)}, "about 9.223e+18 rounds of 1µs each"},
	} {
		tr, err := TraceOf("t", []konvoy.Event{tc.e}, c)
		if err == nil {
			tr.Close()
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("TraceOf(%+v): %v; want an error with %q", tc.e, err, tc.want)
		}
	}
}
