package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
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
					Parallelism:    roundAmount(r.Parallelism()),
					BackwardWrites: r.BackwardWrites, WrongFinal: r.WrongFinal, Skipped: r.Skipped,
					Lanes: r.Lanes, HeaviestLane: r.HeaviestLane, WrongKeys: wrong,
					OutOfOrderKeys: len(t.Stats.OutOfOrder()),

					Policy: p.String(), HeaviestLaneName: r.HeaviestLaneName, HeaviestKey: r.HeaviestKey, Collision: r.Collision(),
					Duplicates: r.Duplicates, Buffered: r.Buffered, MaxBuffered: r.MaxBuffered, MaxKeyBuffered: r.MaxKeyBuffered,
					HeldRounds: r.HeldRounds, NeverApplied: r.NeverApplied,
					WaitP50: r.Wait.P50, WaitP95: r.Wait.P95, WaitP99: r.Wait.P99, WaitMax: r.Wait.Max, WaitMean: Round3(r.Wait.Mean),
					ResponseP50: r.Response.P50, ResponseP95: r.Response.P95, ResponseP99: r.Response.P99, ResponseMax: r.Response.Max,
					ResponseMean: Round3(r.Response.Mean),

					GapsSkipped: r.GapsSkipped, Forced: r.Forced, RejectedOld: r.RejectedOld, LateDropped: t.Dropped,
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
// cannot hold (see checkJSONText).
func TraceJSON(t *Trace) (string, error) {
	var b bytes.Buffer
	b.WriteString("[")
	for i, r := range records(t) {
		if i > 0 {
			b.WriteString(",")
		}
		if err := checkJSONText(r); err != nil {
			return "", err
		}
		line, err := json.Marshal(r)
		if err != nil {
			return "", err
		}
		b.WriteString("\n  ")
		b.Write(line)
	}
	b.WriteString("\n]\n")
	return b.String(), nil
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

// Render is a trace's report in format, text, json or csv: TraceText with
// o, TraceJSON or TraceCSV. Any other format is text.
func Render(t *Trace, format string, o TraceOptions) (string, error) {
	switch format {
	case "json":
		return TraceJSON(t)
	case "csv":
		return TraceCSV(t)
	}
	return TraceText(t, o), nil
}
