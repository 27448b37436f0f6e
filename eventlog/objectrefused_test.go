package eventlog

import "testing"

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
