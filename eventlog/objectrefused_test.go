package eventlog

import (
	"testing"
	"time"

	"github.com/sirali-konvoy/konvoy/synth"
)

// An ObjectDecoder's error does not stop it: the next object is decoded
// afresh, and whether objects record partitions is as the first object
// decoded said, never one refused. After a first object with a partition
// and a bad arrival, a good object without a partition is read, and
// Partitions says false.
func TestARefusedObjectDoesNotSettleWhetherObjectsHavePartitions(t *testing.T) {
	o, err := NewObjectDecoder(Reader{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.Decode("r0", []byte(`{"key":"a","step":1,"duration":1,"partition":3,"at":"x"}`)); err == nil {
		t.Fatal("an arrival given as a string in whole rounds was read; want an error")
	}
	e, err := o.Decode("r1", []byte(`{"key":"b","step":1,"duration":1}`))
	if err != nil || e.Key != "b" {
		t.Errorf("the first object decoded, after one refused: %+v, %v; want the event of key b", e, err)
	}
	if o.Partitions() {
		t.Errorf("Partitions() = true; want false, as the first object decoded has no partition")
	}
}

// An object refused after its arrival was read, because the duration
// drawn for it passes synth.MaxDuration, does not set the first arrival,
// from which the others are counted: the first object decoded is round 0
// (a review found the next object read 4000 rounds, counted from the
// refused one's timestamp).
func TestARefusedObjectDoesNotSetTheFirstArrival(t *testing.T) {
	dist := synth.Exponential(synth.MaxDuration)
	for seed := uint64(0); seed < 200; seed++ {
		draw := dist.DrawsChecked(seed)
		if _, ok := draw(); ok {
			continue
		}
		if _, ok := draw(); !ok {
			continue
		}
		o, err := NewObjectDecoder(Reader{Resolution: time.Millisecond, AtFormat: UnixMS, Durations: &dist, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := o.Decode("r0", []byte(`{"key":"a","step":1,"at":1000}`)); err == nil {
			t.Fatal("an object whose drawn duration passes synth.MaxDuration was read; want an error")
		}
		e, err := o.Decode("r1", []byte(`{"key":"b","step":1,"at":5000}`))
		if err != nil || e.Key != "b" || e.Arrival != 0 {
			t.Errorf("the first object decoded, after one refused: %+v, %v; want key b arriving at round 0", e, err)
		}
		return
	}
	t.Fatal("no seed of 200 draws a duration past synth.MaxDuration, then one within it")
}
