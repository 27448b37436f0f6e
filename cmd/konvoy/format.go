package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"strconv"
)

// record is one (layout, policy, consumers) triple of the JSON and CSV
// reports. Fields are only ever added, after the existing ones, so that
// readers by name and by column position keep working.
type record struct {
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
}

// csvHeader names the CSV report's columns: the record's fields but the key
// list, in the record's order.
var csvHeader = []string{"layout", "consumers", "events", "keys", "work", "rounds", "parallelism", "backward_writes",
	"wrong_final", "skipped", "lanes", "heaviest_lane", "out_of_order_keys",
	"policy", "heaviest_lane_name", "heaviest_key", "collision", "duplicates", "buffered", "max_buffered",
	"max_key_buffered", "held_rounds", "never_applied",
	"wait_p50", "wait_p95", "wait_p99", "wait_max", "wait_mean",
	"response_p50", "response_p95", "response_p99", "response_max", "response_mean"}

// round3 rounds x to three decimals, as the reports print ratios.
func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// records lists the trace's results: layouts in the order given, then
// policies in the order given, then consumer counts ascending.
func records(t *trace) []record {
	var out []record
	for i, l := range t.opt.layouts {
		for pi, p := range t.opt.policies {
			for _, c := range t.shown {
				r := t.run(i, pi, c)
				wrong := r.WrongKeys
				if wrong == nil {
					wrong = []string{}
				}
				out = append(out, record{
					Layout: l.String(), Consumers: c, Events: r.Events, Keys: r.Keys, Work: r.Work, Rounds: r.Rounds,
					Parallelism:    round3(r.Parallelism()),
					BackwardWrites: r.BackwardWrites, WrongFinal: r.WrongFinal, Skipped: r.Skipped,
					Lanes: r.Lanes, HeaviestLane: r.HeaviestLane, WrongKeys: wrong,
					OutOfOrderKeys: len(t.stats.OutOfOrder()),

					Policy: p.String(), HeaviestLaneName: r.HeaviestLaneName, HeaviestKey: r.HeaviestKey, Collision: r.Collision(),
					Duplicates: r.Duplicates, Buffered: r.Buffered, MaxBuffered: r.MaxBuffered, MaxKeyBuffered: r.MaxKeyBuffered,
					HeldRounds: r.HeldRounds, NeverApplied: r.NeverApplied,
					WaitP50: r.Wait.P50, WaitP95: r.Wait.P95, WaitP99: r.Wait.P99, WaitMax: r.Wait.Max, WaitMean: round3(r.Wait.Mean),
					ResponseP50: r.Response.P50, ResponseP95: r.Response.P95, ResponseP99: r.Response.P99, ResponseMax: r.Response.Max,
					ResponseMean: round3(r.Response.Mean),
				})
			}
		}
	}
	return out
}

// jsonReport is one JSON array with one object per record, one a line.
func jsonReport(t *trace) (string, error) {
	var b bytes.Buffer
	b.WriteString("[")
	for i, r := range records(t) {
		if i > 0 {
			b.WriteString(",")
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

// csvReport is the records as CSV with a header row, without the key list.
func csvReport(t *trace) (string, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(csvHeader)
	itoa, ftoa := strconv.Itoa, func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	for _, r := range records(t) {
		w.Write([]string{r.Layout, itoa(r.Consumers), itoa(r.Events), itoa(r.Keys),
			itoa(r.Work), itoa(r.Rounds), ftoa(r.Parallelism),
			itoa(r.BackwardWrites), itoa(r.WrongFinal), itoa(r.Skipped),
			itoa(r.Lanes), itoa(r.HeaviestLane), itoa(r.OutOfOrderKeys),
			r.Policy, r.HeaviestLaneName, r.HeaviestKey, itoa(r.Collision), itoa(r.Duplicates), itoa(r.Buffered), itoa(r.MaxBuffered),
			itoa(r.MaxKeyBuffered), itoa(r.HeldRounds), itoa(r.NeverApplied),
			itoa(r.WaitP50), itoa(r.WaitP95), itoa(r.WaitP99), itoa(r.WaitMax), ftoa(r.WaitMean),
			itoa(r.ResponseP50), itoa(r.ResponseP95), itoa(r.ResponseP99), itoa(r.ResponseMax), ftoa(r.ResponseMean)})
	}
	w.Flush()
	return b.String(), w.Error()
}
