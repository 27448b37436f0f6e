package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sirali-konvoy/konvoy"
)

// lessonConsumerCounts are the consumer counts of the lesson's second table.
var lessonConsumerCounts = []int{1, 2, 4, 8}

// lessonShares are the lesson's ordered shares (KK1): 4 and 5 of 7 events.
var lessonShares = []float64{4.0 / 7, 5.0 / 7}

// lessonReport runs events through the lesson's four layouts and returns the
// lesson's report in English.
func lessonReport(events []konvoy.Event, consumers int) (string, error) {
	layouts := konvoy.Layouts()
	results := make([]konvoy.Result, len(layouts))
	for i, l := range layouts {
		r, err := konvoy.Simulate(events, l, consumers)
		if err != nil {
			return "", err
		}
		results[i] = r
	}
	free, convoy, line, stamp := results[0], results[1], results[2], results[3]

	var b strings.Builder
	fmt.Fprintf(&b, "The lesson \"Sıralı Konvoy\": %d events, %d keys, %d consumers, work %d rounds\n\n",
		free.Events, free.Keys, consumers, free.Work)
	b.WriteString(measureTable(layouts, results).String())

	wrong := "none"
	if len(free.WrongKeys) > 0 {
		wrong = strings.Join(free.WrongKeys, ", ")
	}
	fmt.Fprintf(&b, "\nkeys left in a wrong final state under free: %s\n", wrong)
	fmt.Fprintf(&b, "rounds relative to free: convoy %.3f, line-convoy %.3f\n", konvoy.Cost(convoy, free), konvoy.Cost(line, free))
	fmt.Fprintf(&b, "effective parallelism (work / rounds): free %.2f, convoy %.2f, line-convoy %.2f\n",
		free.Parallelism(), convoy.Parallelism(), line.Parallelism())
	fmt.Fprintf(&b, "steps missing from history under version-stamp: %d\n", stamp.Skipped)

	rounds, err := roundsTable(events, layouts[:3], lessonConsumerCounts)
	if err != nil {
		return "", err
	}
	b.WriteString("\nrounds by consumers\n")
	b.WriteString(rounds.String())

	fmt.Fprintf(&b, "\ncapacity at a peak of %.2f events/s, costs measured at %d consumers\n", konvoy.LessonPeakRate, consumers)
	b.WriteString(capacityTable(konvoy.Cost(convoy, free), konvoy.Cost(line, free)).String())
	fmt.Fprintf(&b, "whole stream in lanes: convoy x%.3f, line-convoy x%.3f\n", konvoy.Cost(convoy, free), konvoy.Cost(line, free))
	ceiling, err := ceilingLine(events, 8)
	if err != nil {
		return "", err
	}
	b.WriteString(ceiling)
	return b.String(), nil
}

// measureTable is the lesson's first table: one column per layout.
func measureTable(layouts []konvoy.Layout, results []konvoy.Result) *table {
	t := &table{}
	head := []string{"measure"}
	for _, l := range layouts {
		head = append(head, l.String())
	}
	t.add(head...)
	rows := []struct {
		name  string
		value func(konvoy.Result) string
	}{
		{"backward writes", func(r konvoy.Result) string { return strconv.Itoa(r.BackwardWrites) }},
		{"wrong final states", func(r konvoy.Result) string { return strconv.Itoa(r.WrongFinal) }},
		{"skipped events", func(r konvoy.Result) string { return strconv.Itoa(r.Skipped) }},
		{"rounds", func(r konvoy.Result) string { return strconv.Itoa(r.Rounds) }},
		{"parallelism", func(r konvoy.Result) string { return strconv.FormatFloat(r.Parallelism(), 'f', 2, 64) }},
		{"lanes", func(r konvoy.Result) string { return strconv.Itoa(r.Lanes) }},
		{"heaviest lane", func(r konvoy.Result) string { return strconv.Itoa(r.HeaviestLane) }},
	}
	for _, row := range rows {
		cells := []string{row.name}
		for _, r := range results {
			cells = append(cells, row.value(r))
		}
		t.add(cells...)
	}
	return t
}

// roundsTable is the lesson's second table: rounds per consumer count.
func roundsTable(events []konvoy.Event, layouts []konvoy.Layout, counts []int) (*table, error) {
	t := &table{}
	head := []string{"consumers"}
	for _, l := range layouts {
		head = append(head, l.String())
	}
	t.add(head...)
	for _, c := range counts {
		cells := []string{strconv.Itoa(c)}
		for _, l := range layouts {
			r, err := konvoy.Simulate(events, l, c)
			if err != nil {
				return nil, err
			}
			cells = append(cells, strconv.Itoa(r.Rounds))
		}
		t.add(cells...)
	}
	return t, nil
}

// capacityTable is the lesson's capacity table for its two ordered shares.
func capacityTable(convoyCost, lineCost float64) *table {
	t := &table{}
	t.add("ordered share", "ordered ev/s", "unordered ev/s", "convoy x", "line-convoy x")
	for _, s := range lessonShares {
		ordered, unordered := konvoy.SplitRate(konvoy.LessonPeakRate, s)
		t.add(strconv.FormatFloat(s, 'f', 3, 64),
			strconv.FormatFloat(ordered, 'f', 2, 64),
			strconv.FormatFloat(unordered, 'f', 2, 64),
			strconv.FormatFloat(konvoy.SelectiveMultiplier(s, convoyCost), 'f', 3, 64),
			strconv.FormatFloat(konvoy.SelectiveMultiplier(s, lineCost), 'f', 3, 64))
	}
	return t
}

// ceilingLine names the rounds each layout cannot go below with c consumers:
// the lanes' load, where adding consumers stops helping.
func ceilingLine(events []konvoy.Event, c int) (string, error) {
	var parts []string
	for _, l := range []konvoy.Layout{konvoy.Convoy, konvoy.LineConvoy, konvoy.Free} {
		r, err := konvoy.Simulate(events, l, c)
		if err != nil {
			return "", err
		}
		part := fmt.Sprintf("%s %d rounds", l, r.Rounds)
		if r.Lanes > 0 {
			part += fmt.Sprintf(" (heaviest lane %d)", r.HeaviestLane)
		}
		parts = append(parts, part)
	}
	return fmt.Sprintf("lane-load ceiling at %d consumers: %s\n", c, strings.Join(parts, ", ")), nil
}
