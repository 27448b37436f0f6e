package eventlog

import (
	"errors"
	"strings"

	"github.com/sirali-konvoy/konvoy"
)

// ObjectDecoder reads events from JSON objects handed to it one at a time,
// each read as a line of a JSON Lines trace is read with the same
// [Reader]: the same columns, dotted paths, statuses, units, arrival
// format and limits, and the same errors. It serves sources that deliver
// records one by one rather than as a file, such as a Kafka consumer
// (package kafka reads a record as its kcat -J line). It is made by
// [NewObjectDecoder] and is not safe for concurrent use.
type ObjectDecoder struct {
	d       *Decoder
	hasPart int // whether the first object decoded had a partition, as Decoder's json state says it
	hasAt   int // and an arrival
}

// NewObjectDecoder returns an ObjectDecoder with the options of r, whose
// Format and Name are not used (every object is JSON; errors take the name
// given to Decode). It returns the error [NewDecoder] returns for invalid
// options, and an error for a Reorder window, which needs a stream to sort.
func NewObjectDecoder(r Reader) (*ObjectDecoder, error) {
	if r.Reorder != 0 || r.DropLate {
		return nil, errors.New("eventlog: an ObjectDecoder decodes one object at a time; want no Reorder window or DropLate")
	}
	r.Format, r.Name = JSONL, ""
	d, err := NewDecoder(strings.NewReader(""), r)
	if err != nil {
		return nil, err
	}
	d.started = true
	d.json = newJSONState(d.cols, d.named)
	d.drawLast = true
	return &ObjectDecoder{d: d}, nil
}

// Decode returns the event of obj, one JSON object (white space around it
// is allowed), read as a JSON Lines trace's line is, or the zero Event and
// an error. An error is an
// [*Error] whose File is where, a name for obj in messages (such as a
// record's topic, partition and offset), with no Line: a record longer
// than MaxRecordBytes, invalid JSON or not an object, a field missing or
// holding what its column does not take. An error does not stop the
// decoder: the next object is decoded afresh.
//
// Arrivals are read as the Reader says, a timestamp counted in rounds
// from the first object decoded whatever its order: objects need not come
// in arrival order, so an arrival earlier than the first one's is
// negative, and no order is checked. Durations drawn from
// Reader.Durations are drawn in the order objects are decoded, as a
// trace's are drawn line by line; a refused object draws none, so that
// the events decoded are the same with it or without it, but for one
// refused because its draw passed synth.MaxDuration (see Reader.Durations).
func (o *ObjectDecoder) Decode(where string, obj []byte) (konvoy.Event, error) {
	statused, rounded := o.d.statused, o.d.rounded
	released, origin, last := o.d.released, o.d.origin, o.d.last
	e, err := o.decode(where, obj)
	if err != nil {
		o.d.json.hasPart, o.d.json.hasAt = o.hasPart, o.hasAt       // a refused object tells nothing of the rest
		o.d.statused, o.d.rounded = statused, rounded               // nor counts among those decoded
		o.d.released, o.d.origin, o.d.last = released, origin, last // nor sets the first arrival
	}
	o.hasPart, o.hasAt = o.d.json.hasPart, o.d.json.hasAt
	return e, err
}

// TooLong returns the error Decode returns for an object of n bytes
// named where when n passes MaxRecordBytes, and nil otherwise, without
// the object: a caller that builds an object from parts, each of which it
// knows the length of, refuses one too long before it builds it.
func (o *ObjectDecoder) TooLong(where string, n int) error {
	if n <= o.d.maxBytes {
		return nil
	}
	o.d.name, o.d.line = where, 0
	return o.d.tooLongErr(0)
}

// decode is Decode but for what a refused object leaves.
func (o *ObjectDecoder) decode(where string, obj []byte) (konvoy.Event, error) {
	d := o.d
	d.name, d.line = where, 0
	if len(obj) > d.maxBytes {
		return konvoy.Event{}, d.tooLongErr(0)
	}
	obj, err := d.object(obj, "want a JSON object")
	if err != nil {
		return konvoy.Event{}, err
	}
	a, err := d.objectArrival(obj)
	if err != nil {
		return konvoy.Event{}, err
	}
	e, err := d.release(a)
	if err != nil {
		return konvoy.Event{}, err
	}
	if d.draw != nil { // last: a refused object draws nothing
		if e.Duration, err = d.drawn(); err != nil {
			return konvoy.Event{}, err
		}
	}
	return e, nil
}

// Partitions tells whether the objects record each event's partition, in
// the partition column, as the first object decoded said (see
// [Decoder.Partitions]); false before the first.
func (o *ObjectDecoder) Partitions() bool { return o.d.json.hasPart > 0 }

// Rounded returns how many durations and arrivals the decoder rounded to
// whole rounds so far (see [Reader.Round]), in the objects it decoded: a
// refused object's count for none.
func (o *ObjectDecoder) Rounded() int { return o.d.rounded }

// StatusSteps returns how many objects decoded so far had their step from
// a status rather than a step column (see [Decoder.StatusSteps]); a refused
// object counts for none.
func (o *ObjectDecoder) StatusSteps() int { return o.d.statused }
