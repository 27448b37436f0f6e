package report

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"reflect"
	"strconv"
)

// Record is one (layout, policy, consumers) triple of a trace's JSON and
// CSV reports (TraceJSON, TraceCSV). Fields are only ever added, after the
// existing ones, so that readers by name and by column position keep
// working. Its parallelism is rounded to three decimals (three significant
// digits below 0.1) and the mean wait and response to three decimals, as
// the text report writes them; its other numbers are exact.
type Record struct {
	Layout         string   `json:"layout"`
	Consumers      int      `json:"consumers"`
	Events         int      `json:"events"`
	Keys           int      `json:"keys"`
	Work           int      `json:"work"`
	Rounds         int      `json:"rounds"`
	Parallelism    float64  `json:"parallelism"`
	BackwardWrites int      `json:"backward_writes"`
	WrongFinal     int      `json:"wrong_final"`
	Skipped        int      `json:"skipped"`
	Lanes          int      `json:"lanes"`
	HeaviestLane   int      `json:"heaviest_lane"`
	WrongKeys      []string `json:"wrong_keys"`
	OutOfOrderKeys int      `json:"out_of_order_keys"`

	Policy           string  `json:"policy"`
	HeaviestLaneName string  `json:"heaviest_lane_name"`
	HeaviestKey      string  `json:"heaviest_key"`
	Collision        int     `json:"collision"`
	Duplicates       int     `json:"duplicates"`
	Buffered         int     `json:"buffered"`
	MaxBuffered      int     `json:"max_buffered"`
	MaxKeyBuffered   int     `json:"max_key_buffered"`
	HeldRounds       int     `json:"held_rounds"`
	NeverApplied     int     `json:"never_applied"`
	WaitP50          int     `json:"wait_p50"`
	WaitP95          int     `json:"wait_p95"`
	WaitP99          int     `json:"wait_p99"`
	WaitMax          int     `json:"wait_max"`
	WaitMean         float64 `json:"wait_mean"`
	ResponseP50      int     `json:"response_p50"`
	ResponseP95      int     `json:"response_p95"`
	ResponseP99      int     `json:"response_p99"`
	ResponseMax      int     `json:"response_max"`
	ResponseMean     float64 `json:"response_mean"`

	GapsSkipped int `json:"gaps_skipped"` // the resequencer's missing steps given up on (konvoy.Result.GapsSkipped)
	Forced      int `json:"forced"`       // its held events applied by timeout or capacity
	RejectedOld int `json:"rejected_old"` // its old steps rejected (-reject-old)
	LateDropped int `json:"late_dropped"` // the trace's events dropped as late for -reorder (-late drop), the same in every record

	WorstLane     string `json:"worst_lane"`      // the lane whose event waited longest (konvoy.Result.WorstLanes), "" for a run of no lanes
	WorstLaneWait int    `json:"worst_lane_wait"` // that event's wait, in rounds; 0 for a run of no lanes

	Rounded int `json:"rounded"` // the trace's durations and arrivals rounded to whole rounds (-round), the same in every record
}

// records lists the trace's results: layouts in the order given, then
// policies in the order given, then consumer counts ascending.
func records(t *Trace) []Record {
	var out []Record
	for i, l := range t.Layouts {
		for pi, p := range t.Policies {
			for _, c := range t.Counts {
				r := t.Run(i, pi, c)
				wrong := r.WrongKeys
				if wrong == nil {
					wrong = []string{}
				}
				out = append(out, Record{
					Layout: l.String(), Consumers: c, Events: r.Events, Keys: r.Keys, Work: r.Work, Rounds: r.Rounds,
					Parallelism:    RoundAmount(r.Parallelism()),
					BackwardWrites: r.BackwardWrites, WrongFinal: r.WrongFinal, Skipped: r.Skipped,
					Lanes: r.Lanes, HeaviestLane: r.HeaviestLane, WrongKeys: wrong,
					OutOfOrderKeys: len(t.Stats.OutOfOrder()),

					Policy: p.String(), HeaviestLaneName: r.HeaviestLaneName, HeaviestKey: r.HeaviestKey, Collision: r.Collision(),
					Duplicates: r.Duplicates, Buffered: r.Buffered, MaxBuffered: r.MaxBuffered, MaxKeyBuffered: r.MaxKeyBuffered,
					HeldRounds: r.HeldRounds, NeverApplied: r.NeverApplied,
					WaitP50: r.Wait.P50, WaitP95: r.Wait.P95, WaitP99: r.Wait.P99, WaitMax: r.Wait.Max, WaitMean: RoundAmount(r.Wait.Mean),
					ResponseP50: r.Response.P50, ResponseP95: r.Response.P95, ResponseP99: r.Response.P99, ResponseMax: r.Response.Max,
					ResponseMean: RoundAmount(r.Response.Mean),

					GapsSkipped: r.GapsSkipped, Forced: r.Forced, RejectedOld: r.RejectedOld, LateDropped: t.Dropped,
					Rounded: t.Rounded,
				})
				if len(r.WorstLanes) > 0 {
					w := r.WorstLanes[0]
					out[len(out)-1].WorstLane, out[len(out)-1].WorstLaneWait = w.Lane, w.MaxWait
				}
			}
		}
	}
	return out
}

// TraceJSON is a trace's JSON report: one array with one object per
// (layout, policy, consumers) triple, one a line; layouts in the order
// given, then policies, then consumer counts ascending. It is an error,
// naming the key, when a key it would name is not UTF-8 text, which JSON
// cannot hold (see checkJSONText). A report whose records name many keys
// in a wrong final state may be far larger than the runs' memory: write
// it with WriteTraceJSON.
func TraceJSON(t *Trace) (string, error) {
	var b bytes.Buffer
	err := WriteTraceJSON(&b, t)
	return b.String(), err
}

// WriteTraceJSON writes TraceJSON's report to w a record at a time, so
// that it holds one record's JSON, not the report's, which names each
// key in a wrong final state once for every run. It writes nothing when a
// record cannot be written as JSON (TraceJSON's error), since it writes
// only once it has made every record's JSON once, and it returns w's
// first error.
func WriteTraceJSON(w io.Writer, t *Trace) error {
	write, err := jsonReport(t)
	if err != nil {
		return err
	}
	return write(w)
}

// jsonReport returns the function that writes t's JSON report, once every
// record's JSON was made, or the first record's error.
func jsonReport(t *Trace) (func(io.Writer) error, error) {
	rs := records(t)
	if err := checkRecords(rs); err != nil {
		return nil, err
	}
	return func(w io.Writer) error {
		var enc recordEncoder
		return enc.write(w, rs)
	}, nil
}

// checkRecords returns the error of the first of rs that cannot be
// written as JSON, or nil.
func checkRecords(rs []Record) error {
	var enc recordEncoder
	for _, r := range rs {
		if err := checkJSONText(r); err != nil {
			return err
		}
		if _, err := enc.encode(r); err != nil {
			return err
		}
	}
	return nil
}

// write writes rs, checked by checkRecords, to w as WriteTraceJSON does.
// It stops at w's first error: a reader gone takes no more of its time.
func (enc *recordEncoder) write(w io.Writer, rs []Record) error {
	b := bufio.NewWriter(w)
	b.WriteString("[")
	for i, r := range rs {
		sep := ",\n  "
		if i == 0 {
			sep = "\n  "
		}
		line, _ := enc.encode(r) // checkRecords made it
		b.WriteString(sep)
		if _, err := b.Write(line); err != nil { // a bufio.Writer keeps its first error
			return err
		}
	}
	b.WriteString("\n]\n")
	return b.Flush()
}

// recordEncoder writes records as json.Marshal does, each into the buffer
// of the one before, so that a report of large records leaves no garbage
// of each record's size behind it.
type recordEncoder struct {
	b       bytes.Buffer
	enc     *json.Encoder
	encoded int // the records encoded
}

// encode returns r's JSON, valid until the next call.
func (e *recordEncoder) encode(r Record) ([]byte, error) {
	if e.enc == nil {
		e.enc = json.NewEncoder(&e.b)
	}
	e.b.Reset()
	e.encoded++
	if err := e.enc.Encode(r); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(e.b.Bytes(), []byte("\n")), nil // Encode ends each value with a newline
}

// TraceCSV is a trace's CSV report: the records of TraceJSON with a
// header row, a column per field named by its JSON name, in the same order,
// but the list of keys in a wrong final state.
func TraceCSV(t *Trace) (string, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	fields := reflect.VisibleFields(reflect.TypeFor[Record]())
	var head []string
	for _, f := range fields {
		if f.Type.Kind() != reflect.Slice {
			head = append(head, f.Tag.Get("json"))
		}
	}
	w.Write(head)
	for _, r := range records(t) {
		var row []string
		rv := reflect.ValueOf(r)
		for i := range rv.NumField() {
			switch v := rv.Field(i); v.Kind() {
			case reflect.Int:
				row = append(row, strconv.FormatInt(v.Int(), 10))
			case reflect.Float64:
				row = append(row, strconv.FormatFloat(v.Float(), 'f', -1, 64))
			case reflect.String:
				row = append(row, v.String())
			}
		}
		w.Write(row)
	}
	w.Flush()
	return b.String(), w.Error()
}

// Render returns the function that writes a trace's report in format,
// text, json or csv, to w: TraceText with o, WriteTraceJSON or TraceCSV,
// or Render's error, when the report cannot be written; any other format
// is text. Its function returns w's error alone.
func Render(t *Trace, format string, o TraceOptions) (func(w io.Writer) error, error) {
	var out string
	var err error
	switch format {
	case "json":
		return jsonReport(t)
	case "csv":
		out, err = TraceCSV(t)
	default:
		out = TraceText(t, o)
	}
	if err != nil {
		return nil, err
	}
	return func(w io.Writer) error { _, err := io.WriteString(w, out); return err }, nil
}
