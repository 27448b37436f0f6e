package replay

import (
	"fmt"
	"io"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
)

// MaxEvents is the most events a replay holds: a replay takes the trace's
// time in wall time, and holds every event, for the prediction from the
// handlers' actual times.
const MaxEvents = 10_000_000

// Load reads the trace r names (standard input, stdin, for "-") into
// memory and checks that c's simulator takes its events. It returns the
// events and whether the trace records partitions. Errors name the trace
// and the line (a bad record) or the event's index (an event the
// simulator rejects).
func Load(r eventlog.Reader, stdin io.Reader, c Config) ([]konvoy.Event, bool, error) {
	name := r.Name
	trace := eventlog.NewTrace(r.Name, r)
	if r.Name == "-" {
		name = "<stdin>"
		trace = eventlog.NewTraceOf(func() (io.ReadCloser, error) { return io.NopCloser(stdin), nil }, r)
	}
	var events []konvoy.Event
	err := trace.Scan(0, func(e konvoy.Event, line int) error {
		if len(events) == MaxEvents {
			return fmt.Errorf("%s:%d: more than %d events; a replay holds at most %d (cut the trace)", name, line, MaxEvents, MaxEvents)
		}
		events = append(events, e)
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	if len(events) == 0 {
		return nil, false, fmt.Errorf("%s: the trace holds no events; want at least one", name)
	}
	if err := c.check(events); err != nil {
		return nil, false, fmt.Errorf("%s: %w", name, err)
	}
	if _, _, err := Predict(events, c, nil); err != nil {
		return nil, false, fmt.Errorf("%s: %w", name, err) // a konvoy.EventError names the event's index
	}
	return events, trace.Partitions(), nil
}
