package kafka

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/eventlog"
	"github.com/twmb/franz-go/pkg/kgo"
)

// AppendJSON appends r to dst as kcat -C -J prints a consumed record, one
// JSON object without a line end, and returns the extended buffer:
//
//	{"topic":"orders","partition":2,"offset":17,"tstype":"create","ts":1717171200152,"broker":-1,"key":"order-101","payload":"{\"status\":\"new\"}"}
//
// The fields come in kcat's order. tstype is "create" or "logappend", and
// ts the timestamp in Unix milliseconds; both are left out for a record
// without a timestamp (a message format before Kafka 0.10), as kcat leaves
// them out. broker is -1: franz-go does not say which broker served the
// record (kcat built on an old librdkafka writes -1 too). headers, only
// when the record has some, is kcat's array of names and values in turn,
// a null value as null. key and payload are strings, or null for a null
// key or value.
//
// Strings are written as kcat's JSON writer (yajl) writes them: '"', '\\'
// and the control characters escaped (\b \t \n \f \r, the others as
// \u00XX), every other byte as it is. A key or payload that is not valid
// UTF-8 keeps its bytes, as kcat's does: the line is not strict JSON
// there; package eventlog reads them back as they are (Go's encoding/json
// would read each invalid byte as U+FFFD, and two keys that differ in them
// as one). It takes time in proportion to the record's size.
func AppendJSON(dst []byte, r *kgo.Record) []byte {
	dst = append(dst, `{"topic":`...)
	dst = appendKcatString(dst, r.Topic)
	dst = append(dst, `,"partition":`...)
	dst = strconv.AppendInt(dst, int64(r.Partition), 10)
	dst = append(dst, `,"offset":`...)
	dst = strconv.AppendInt(dst, r.Offset, 10)
	dst = appendTimestamp(dst, r.Attrs.TimestampType(), r.Timestamp)
	dst = append(dst, `,"broker":-1`...)
	if len(r.Headers) > 0 {
		dst = append(dst, `,"headers":[`...)
		for i, h := range r.Headers {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendKcatString(dst, h.Key)
			dst = append(dst, ',')
			dst = appendKcatBytes(dst, h.Value)
		}
		dst = append(dst, ']')
	}
	dst = append(dst, `,"key":`...)
	dst = appendKcatBytes(dst, r.Key)
	dst = append(dst, `,"payload":`...)
	dst = appendKcatBytes(dst, r.Value)
	return append(dst, '}')
}

// appendTimestamp appends the tstype and ts fields of a record whose
// timestamp type (kgo.RecordAttrs.TimestampType) is tt: "create" for 0,
// "logappend" for 1, as librdkafka names them, and nothing for -1, a
// record without a timestamp.
func appendTimestamp(dst []byte, tt int8, ts time.Time) []byte {
	if tt < 0 {
		return dst
	}
	dst = append(dst, `,"tstype":`...)
	if tt == 1 {
		dst = append(dst, `"logappend"`...)
	} else {
		dst = append(dst, `"create"`...)
	}
	dst = append(dst, `,"ts":`...)
	return strconv.AppendInt(dst, ts.UnixMilli(), 10)
}

// appendKcatBytes appends b as a JSON string as kcat writes it, or null
// for nil.
func appendKcatBytes(dst, b []byte) []byte {
	if b == nil {
		return append(dst, "null"...)
	}
	return appendKcatString(dst, string(b))
}

// appendKcatString appends s as a JSON string as yajl writes it: '"', '\\'
// and bytes below 0x20 escaped, the rest as they are.
func appendKcatString(dst []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\r':
			dst = append(dst, '\\', 'r')
		default:
			if c < 0x20 {
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			} else {
				dst = append(dst, c)
			}
		}
	}
	return append(dst, '"')
}

// Where names r in messages, as kcat does: "orders [2] at offset 17".
func Where(r *kgo.Record) string {
	return fmt.Sprintf("%s [%d] at offset %d", r.Topic, r.Partition, r.Offset)
}

// Mapper reads records as events, each as package eventlog reads the
// record's kcat -J line ([AppendJSON]) in a JSON Lines trace: the same
// [eventlog.Reader] columns, dotted paths into a JSON payload, statuses,
// units and limits, so that konvoy's trace flags map a topic as they map
// its export (-key key -step payload.step, -partition partition by
// default). Its methods are safe for concurrent use; each call takes the
// time of decoding one record's line, under one lock.
type Mapper struct {
	mu  sync.Mutex
	dec *eventlog.ObjectDecoder
	buf []byte
}

// NewMapper returns a Mapper with the options of r (see
// [eventlog.NewObjectDecoder]: r's Name, Format and Reorder window do not
// apply, as records come one at a time). Arrivals, when r names an at
// column, count in rounds from the first record mapped, whatever their
// order; durations drawn from r.Durations are drawn in the order records
// are mapped. It returns an error for options eventlog refuses.
func NewMapper(r eventlog.Reader) (*Mapper, error) {
	dec, err := eventlog.NewObjectDecoder(r)
	if err != nil {
		return nil, fmt.Errorf("kafka: NewMapper: %w", err)
	}
	return &Mapper{dec: dec}, nil
}

// Rounded returns how many durations and arrivals m rounded to whole
// rounds so far (see [eventlog.Reader].Round), for a note that says so.
func (m *Mapper) Rounded() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.dec.Rounded()
}

// StatusSteps returns how many records m mapped so far had their step from
// a status (see [eventlog.Decoder].StatusSteps): 0, with statuses named,
// says they went unused, for a note that says so.
func (m *Mapper) StatusSteps() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.dec.StatusSteps()
}

// Event returns r's event, or an *eventlog.Error whose File is [Where]
// r is (its topic, partition and offset) and whose Field and Want say which
// column did not map and what it wanted (a field missing has no Field:
// its Want names the path). Each call decodes r afresh: use
// [Mapper.Funcs] for the event function of [New], which may read a
// record's event more than once.
func (m *Mapper) Event(r *kgo.Record) (konvoy.Event, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.event(r)
}

// event is Event with m.mu held. A record whose key, value and headers
// alone pass MaxRecordBytes is refused before its line is built, which
// escaping may make six times as long.
func (m *Mapper) event(r *kgo.Record) (konvoy.Event, error) {
	where := Where(r) // once a record: it is a string made for each
	if err := m.dec.TooLong(where, rawBytes(r)); err != nil {
		return konvoy.Event{}, err
	}
	m.buf = AppendJSON(m.buf[:0], r)
	e, err := m.dec.Decode(where, m.buf)
	if cap(m.buf) > 1<<20 {
		m.buf = nil // a large record's room is not kept
	}
	return e, err
}

// rawBytes returns the bytes of r's key, value and headers: fewer than
// its line (AppendJSON) has, whatever they hold.
func rawBytes(r *kgo.Record) int {
	n := len(r.Topic) + len(r.Key) + len(r.Value)
	for _, h := range r.Headers {
		n += len(h.Key) + len(h.Value)
	}
	return n
}

// mapped is a record's event, or why it has none, kept in the record's
// Context by Mapper.Funcs.
type mapped struct {
	e   konvoy.Event
	err error
}

// mappedKey is the Context key of a Mapper's mapped value.
type mappedKey struct{ m *Mapper }

// Funcs returns the event and handle functions of [New] for records
// mapped by m, handle being the caller's handler. The event function maps
// a record once, the first time it is asked, and keeps the result in the
// record's Context (kgo.Record.Context, wrapping what it held), since the
// executor reads a record's event more than once; a record fetched again
// after a rebalance is a new record, mapped (and drawn) again.
//
// A record that does not map is never dropped silently: its event is the
// zero Event, which runs in no lane, and the handler returned runs it by
// returning the mapping error (an *eventlog.Error naming the record)
// without calling handle. It then follows the consumer's errors as any
// failed record does: retried as [live.WithRetry] says, then
// dead-lettered ([WithDeadLetter]), or, without a dead letter, it stops
// the consumer, whose Run returns the error having committed only offsets
// below the record.
//
// [live.WithRetry]: https://pkg.go.dev/github.com/sirali-konvoy/konvoy/live#WithRetry
func (m *Mapper) Funcs(handle func(ctx context.Context, r *kgo.Record) error) (func(*kgo.Record) konvoy.Event, func(context.Context, *kgo.Record) error) {
	return func(r *kgo.Record) konvoy.Event {
			e, _ := m.Mapped(r)
			return e
		}, func(ctx context.Context, r *kgo.Record) error {
			if _, err := m.Mapped(r); err != nil {
				return err
			}
			return handle(ctx, r)
		}
}

// Mapped returns r's event and its mapping error as [Mapper.Funcs] keeps
// them: mapped the first time, read back from r's Context afterwards.
func (m *Mapper) Mapped(r *kgo.Record) (e konvoy.Event, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r.Context != nil {
		if v, ok := r.Context.Value(mappedKey{m}).(*mapped); ok {
			return v.e, v.err
		}
	}
	v := new(mapped)
	v.e, v.err = m.event(r) // the zero Event with an error
	parent := r.Context
	if parent == nil {
		parent = context.Background()
	}
	r.Context = context.WithValue(parent, mappedKey{m}, v)
	return v.e, v.err
}
