package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// konvoy's JSON and CSV records carry how many of the trace's durations
// and arrivals -round rounded, in every record, as late_dropped carries
// the events -late drop dropped: a program reading the records, not
// standard error's note, still learns that the figures rest on rounded
// values.
func TestRecordsCountTheValuesRounded(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.csv")
	if err := os.WriteFile(trace, []byte("key,step,duration\nA,1,1.4ms\nA,2,2ms\nB,1,3.6ms\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args    []string
		rounded int
	}{
		{[]string{"-unit", "1ms", "-round"}, 2}, // 1.4ms and 3.6ms
		{[]string{"-unit", "200us"}, 0},         // every one a whole number of rounds
	} {
		args := append([]string{"-events", trace, "-layouts", "free,convoy", "-consumers", "1,2"}, tt.args...)
		out, errOut, status := runCommand(append(args, "-format", "json")...)
		var records []map[string]any
		if status != 0 || json.Unmarshal([]byte(out), &records) != nil || len(records) != 4 {
			t.Fatalf("%q json: status %d, stderr %q, stdout %q; want 0 and 4 records", args, status, errOut, out)
		}
		for i, r := range records {
			if r["rounded"] != float64(tt.rounded) {
				t.Errorf("%q: JSON record %d: rounded is %v; want %d", args, i, r["rounded"], tt.rounded)
			}
		}
		out, errOut, status = runCommand(append(args, "-format", "csv")...)
		rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if status != 0 || err != nil || len(rows) != 5 {
			t.Fatalf("%q csv: status %d, stderr %q, error %v; want 0 and a header and 4 rows", args, status, errOut, err)
		}
		col := slices.Index(rows[0], "rounded")
		if col != len(rows[0])-1 {
			t.Fatalf("%q: the CSV header %q; want rounded last, as columns are only ever added", args, rows[0])
		}
		for i, row := range rows[1:] {
			if want := strconv.Itoa(tt.rounded); row[col] != want {
				t.Errorf("%q: CSV row %d: rounded is %q; want %s", args, i, row[col], want)
			}
		}
	}
}
