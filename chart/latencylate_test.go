package chart_test

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/chart"
)

// Latency draws latencies alone, so events that arrive later than the
// 2^40 rounds any figure of a picture may reach, as a long trace's do, are
// drawn when their latencies are within it: the same picture as the same
// latencies arriving from round 0 (found by a review: a trace whose events
// came 10^12 rounds apart, each waiting 1 round, had no latency picture).
func TestLatencyDrawsLateArrivalsByTheirLatencies(t *testing.T) {
	if strconv.IntSize < 64 {
		t.Skip("an int of 32 bits holds no arrival past 2^40")
	}
	early := []konvoy.Slot{{Arrival: 0, Start: 0, Finish: 1}, {Arrival: 1, Start: 2, Finish: 5}}
	late := make([]konvoy.Slot, len(early))
	var big int64 = 1 << 50 // a variable: the constant overflows an int of 32 bits, whose build skips this
	from := int(big)
	for i, s := range early {
		late[i] = konvoy.Slot{Arrival: s.Arrival + from, Start: s.Start + from, Finish: s.Finish + from}
	}
	var a, b bytes.Buffer
	if err := chart.Latency(&a, chart.SVG, []chart.LatencySeries{{Layout: "free", Slots: early}}); err != nil {
		t.Fatal(err)
	}
	if err := chart.Latency(&b, chart.SVG, []chart.LatencySeries{{Layout: "free", Slots: late}}); err != nil {
		t.Fatalf("arrivals from 2^50 on, latencies of 1 to 4 rounds: %v; want the picture", err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Errorf("the picture of latencies arriving from 2^50 on differs from the picture of the same latencies arriving from 0")
	}
}

// A response above 2^40 rounds is past what a picture takes, whenever its
// event arrived: Latency says which slot, and what it wants.
func TestLatencyRefusesAResponseAbove2To40(t *testing.T) {
	if strconv.IntSize < 64 {
		t.Skip("an int of 32 bits holds no response past 2^40")
	}
	most := int64(1) << 40 // a variable: 2^40 overflows an int of 32 bits, whose build skips this
	var w bytes.Buffer
	for _, at := range []int{0, int(most) << 10} {
		slots := []konvoy.Slot{{Arrival: at, Start: at, Finish: at + int(most)}, {Arrival: at, Start: at + 1, Finish: at + int(most) + 1}}
		err := chart.Latency(&w, chart.SVG, []chart.LatencySeries{{Layout: "free", Slots: slots}})
		want := `chart: Latency: series "free": slot 1: Arrival ` + strconv.Itoa(at) + ", Finish " + strconv.Itoa(at+int(most)+1) + ": want a response, Finish - Arrival, of 0 to 1099511627776"
		if err == nil || err.Error() != want || w.Len() != 0 {
			t.Errorf("a response of 2^40 + 1 arriving at %d: %v, %d bytes written; want %q and nothing", at, err, w.Len(), want)
		}
	}
}
