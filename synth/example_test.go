package synth_test

import (
	"fmt"

	"github.com/sirali-konvoy/konvoy/synth"
)

// Three keys on two lines, two lifecycles in flight, each lifecycle three
// events of which two are ordered steps, arriving about one per round. K1's
// second lifecycle goes on from step 3, and the stream stops after ten events,
// in the middle of K3's first.
func ExampleEvents() {
	cfg := synth.Default()
	cfg.Events = 10
	cfg.Keys = 3
	cfg.Lines = 2
	cfg.StepsPerKey = 3
	cfg.OrderedSteps = 2
	cfg.InFlight = 2
	cfg.Rate = 1
	fmt.Println("key line step duration arrival")
	for e := range synth.Events(cfg) {
		fmt.Printf("%-3s %-4s %4d %8d %7d\n", e.Key, e.Line, e.Step, e.Duration, e.Arrival)
	}
	// Output:
	// key line step duration arrival
	// K1  L2      1        1       1
	// K1  L2      0        3       4
	// K2  L1      1        3       6
	// K1  L2      2        1       8
	// K2  L1      0        1       9
	// K2  L1      2        1      11
	// K3  L1      1        3      12
	// K1  L2      3        2      13
	// K1  L2      0        2      14
	// K1  L2      4        2      14
}
