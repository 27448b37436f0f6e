// Package lesson holds the data of the lesson "Sıralı Konvoy" (sequential
// convoy) that the konvoy model reproduces: its twenty status events of five
// shipments on three lines, its statuses, its consumers and its peak write
// rate.
package lesson

import (
	"slices"

	"github.com/sirali-konvoy/konvoy"
)

// PeakRate is the peak write rate the lesson plans for, in status events
// per second (the lesson's tepe yazma hızı, from an earlier lesson's estimate).
const PeakRate = 97.22

// Consumers is the number of consumers of the lesson's first table.
const Consumers = 4

// Layouts returns the lesson's four layouts in the lesson's column order:
// [konvoy.Free], [konvoy.Convoy], [konvoy.LineConvoy] and
// [konvoy.VersionStamp]. It returns a fresh slice on each call.
func Layouts() []konvoy.Layout {
	return []konvoy.Layout{konvoy.Free, konvoy.Convoy, konvoy.LineConvoy, konvoy.VersionStamp}
}

// Statuses returns the lesson's ordered statuses, step 1 first:
// kabul (accepted), aktarma (transfer), dagitim (out for delivery) and teslim
// (delivered). It returns a fresh slice on each call.
func Statuses() []string {
	return []string{"kabul", "aktarma", "dagitim", "teslim"}
}

// Events returns the lesson's twenty status events of five shipments on
// three lines, in input order, as a fresh slice on each call. Their work is 32
// rounds; every Arrival is 0, as the lesson is a batch.
func Events() []konvoy.Event {
	rows := []struct {
		key, line, status string
		duration          int
	}{ // the lesson's OLAY: [takip no, hat, durum, süre]
		{"TR-4821", "H1", "kabul", 1}, {"TR-9007", "H1", "kabul", 3},
		{"TR-4821", "H1", "aktarma", 4}, {"TR-5533", "H2", "kabul", 1},
		{"TR-4821", "H1", "dagitim", 1}, {"TR-9007", "H1", "aktarma", 1},
		{"TR-2214", "H2", "kabul", 2}, {"TR-4821", "H1", "teslim", 1},
		{"TR-5533", "H2", "aktarma", 3}, {"TR-9007", "H1", "dagitim", 1},
		{"TR-7788", "H3", "kabul", 1}, {"TR-5533", "H2", "dagitim", 1},
		{"TR-2214", "H2", "aktarma", 4}, {"TR-9007", "H1", "teslim", 1},
		{"TR-5533", "H2", "teslim", 1}, {"TR-7788", "H3", "aktarma", 2},
		{"TR-2214", "H2", "dagitim", 1}, {"TR-7788", "H3", "dagitim", 1},
		{"TR-2214", "H2", "teslim", 1}, {"TR-7788", "H3", "teslim", 1},
	}
	statuses := Statuses()
	events := make([]konvoy.Event, len(rows))
	for i, r := range rows {
		step := slices.Index(statuses, r.status) + 1
		events[i] = konvoy.Event{Key: r.key, Line: r.line, Step: step, Duration: r.duration}
	}
	return events
}

// EventsWithHistory returns lesson-style shipments of seven events, as
// the lesson's ordered share KK1 = 4/7 assumes: the lesson's events in
// input order, each of a shipment's first three steps followed by a
// history-only record (Step 0) of the same shipment and line, lasting 1 or 2
// rounds. The lesson only estimates the selective convoy on paper; these 35
// events let it be simulated. It returns a fresh slice on each call.
func EventsWithHistory() []konvoy.Event {
	var events []konvoy.Event
	for i, e := range Events() {
		events = append(events, e)
		if e.Step < len(Statuses()) {
			history := e
			history.Step, history.Duration = 0, 1+i%2
			events = append(events, history)
		}
	}
	return events
}
