package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"strconv"

	"github.com/sirali-konvoy/konvoy"
)

// record is one (layout, consumers) pair of the JSON and CSV reports.
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
}

// records lists the trace's results: layouts in the order given, then
// consumer counts ascending.
func records(t *trace) []record {
	var out []record
	for i, l := range t.opt.layouts {
		for j, c := range t.counts {
			r := t.results[i][j]
			wrong := r.WrongKeys
			if wrong == nil {
				wrong = []string{}
			}
			out = append(out, record{
				Layout: l.String(), Consumers: c, Events: r.Events, Keys: r.Keys, Work: r.Work, Rounds: r.Rounds,
				Parallelism:    math.Round(r.Parallelism()*1000) / 1000,
				BackwardWrites: r.BackwardWrites, WrongFinal: r.WrongFinal, Skipped: r.Skipped,
				Lanes: r.Lanes, HeaviestLane: r.HeaviestLane, WrongKeys: wrong,
				OutOfOrderKeys: len(t.stats.OutOfOrder()),
			})
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
	w.Write([]string{"layout", "consumers", "events", "keys", "work", "rounds", "parallelism", "backward_writes",
		"wrong_final", "skipped", "lanes", "heaviest_lane", "out_of_order_keys"})
	for _, r := range records(t) {
		w.Write([]string{r.Layout, strconv.Itoa(r.Consumers), strconv.Itoa(r.Events), strconv.Itoa(r.Keys),
			strconv.Itoa(r.Work), strconv.Itoa(r.Rounds), strconv.FormatFloat(r.Parallelism, 'f', -1, 64),
			strconv.Itoa(r.BackwardWrites), strconv.Itoa(r.WrongFinal), strconv.Itoa(r.Skipped),
			strconv.Itoa(r.Lanes), strconv.Itoa(r.HeaviestLane), strconv.Itoa(r.OutOfOrderKeys)})
	}
	w.Flush()
	return b.String(), w.Error()
}

// isVersionStamp tells the version-stamp layout.
func isVersionStamp(l konvoy.Layout) bool { return l.String() == konvoy.VersionStamp.String() }
