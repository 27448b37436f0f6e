package chart

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sirali-konvoy/konvoy"
)

// maxGanttRounds is the longest run GanttText draws: a column per
// round, in bands of a line, makes a longer one a wall of text.
const maxGanttRounds = 2000

// ganttWidth is the widest line GanttText writes.
const ganttWidth = 100

// ganttTick is the spacing of the numbered rounds on a schedule's ruler.
const ganttTick = 10

// GanttText draws the schedule of a run made with konvoy.WithSchedule as
// text: one row per consumer, one column per round, each event as its key's
// capital letter and then the small letter for each further round it runs.
// '.' marks a consumer that has taken an event and cannot start it while the
// event's lane is busy, from the slot's Taken to its Start: head-of-line
// blocking, exact under every policy (only head-of-line dispatch takes an
// event whose lane is busy). A blank is a consumer that ran no event that
// takes time, and a run of such consumers is one blank line, labelled with
// the run; consumers after the last one that ran such an event are left out,
// and a line under the drawing names them, saying whether they had nothing
// to do or ran events of no duration only. A run longer than a line of 100
// characters is drawn in bands of whole tens of rounds, each under its own
// ruler. title heads the drawing, consumers are the run's, and policy says
// which rule dispatched the run. A run of more than 2000 rounds is not
// drawn, and the text says so. It takes memory for the consumers that ran an
// event, not for every consumer.
//
// GanttText returns an error, and no text, when r does not fit itself and
// consumers, as a run konvoy made always does: when consumers is below 1 or
// above konvoy.MaxConsumers, policy is none of konvoy.Policies, r counts
// Events but holds not a slot for each (a run made without
// konvoy.WithSchedule, whose Schedule is nil), r.Rounds is negative, a
// slot's Consumer is outside [0, consumers), its Arrival is negative, its
// Start is before its Arrival, its Taken outside [Arrival, Start], its
// Finish before its Start or after r.Rounds, or two slots overlap on one
// consumer (a consumer holds a slot from its Taken to its Finish).
// Checking takes O(n log n) time for the n slots.
func GanttText(title string, r konvoy.Result, consumers int, policy konvoy.Policy) (string, error) {
	if err := checkGantt(r, consumers, policy); err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(title + "\n")
	switch {
	case r.Rounds == 0:
		b.WriteString("nothing to draw: no event takes any time\n")
		return b.String(), nil
	case r.Rounds > maxGanttRounds:
		fmt.Fprintf(&b, "not drawn: the run lasts %d rounds, and a schedule view draws at most %d\n", r.Rounds, maxGanttRounds)
		return b.String(), nil
	}

	keys, rows, blocked, instant := ganttRows(r)
	shown := rows[len(rows)-1].last + 1
	labelWidth := 0
	for _, row := range rows {
		labelWidth = max(labelWidth, len(row.label()))
	}
	band := (ganttWidth - labelWidth - 1) / ganttTick * ganttTick
	for from := 0; from < r.Rounds; from += band {
		to := min(from+band, r.Rounds)
		ruler := []byte(strings.Repeat(" ", to-from+len(strconv.Itoa(to))))
		for t := (from + ganttTick - 1) / ganttTick * ganttTick; t < to; t += ganttTick {
			copy(ruler[t-from:], strconv.Itoa(t))
		}
		line := func(label string, cells []byte) {
			b.WriteString(strings.TrimRight(fmt.Sprintf("%-*s %s", labelWidth, label, cells), " ") + "\n")
		}
		line("round", ruler)
		for _, row := range rows {
			if row.cells == nil {
				line(row.label(), nil)
				continue
			}
			line(row.label(), row.cells[from:to])
		}
	}

	b.WriteString(ganttLegend(r, keys, consumers, shown, blocked, instant, policy))
	return b.String(), nil
}

// checkGantt checks the arguments of [GanttText]: the number of consumers,
// the policy, the slots and rounds, then each slot in order, then that no
// two slots overlap on one consumer, returning the first problem found.
func checkGantt(r konvoy.Result, consumers int, policy konvoy.Policy) error {
	switch {
	case consumers < 1:
		return fmt.Errorf("chart: GanttText: %d consumers: want 1 or more", consumers)
	case consumers > konvoy.MaxConsumers:
		return fmt.Errorf("chart: GanttText: %d consumers: want 1 to %d", consumers, konvoy.MaxConsumers)
	case !slices.Contains(konvoy.Policies(), policy):
		return fmt.Errorf("chart: GanttText: %v: want one of konvoy.Policies", policy)
	case r.Events != 0 && len(r.Schedule) != r.Events:
		return fmt.Errorf("chart: GanttText: %d slots for %d events: want a slot for each event, from a run made with konvoy.WithSchedule", len(r.Schedule), r.Events)
	case r.Rounds < 0:
		return fmt.Errorf("chart: GanttText: Rounds %d: want 0 or more", r.Rounds)
	}
	for i, s := range r.Schedule {
		if err := checkSlot("GanttText", i, s, consumers); err != nil {
			return err
		}
		if s.Finish > r.Rounds {
			return fmt.Errorf("chart: GanttText: slot %d: Finish %d after the run's Rounds %d: is the schedule from another run?", i, s.Finish, r.Rounds)
		}
	}
	return checkOverlaps("GanttText", r.Schedule)
}

// ganttLegend is what GanttText writes under the rows: the consumers left
// out, shown being those drawn, the keys' letters, and how the
// consumer-rounds were spent.
func ganttLegend(r konvoy.Result, keys []string, consumers, shown, blocked, instant int, policy konvoy.Policy) string {
	var b strings.Builder
	idle := "had nothing to do"
	if slices.ContainsFunc(r.Schedule, func(s konvoy.Slot) bool { return s.Consumer >= shown }) {
		idle = "ran no event that takes time" // only events of no duration
	}
	switch {
	case shown == consumers-1:
		fmt.Fprintf(&b, "consumer %d %s\n", consumers, idle)
	case shown < consumers:
		fmt.Fprintf(&b, "consumers %d to %d %s\n", shown+1, consumers, idle)
	}
	var legend []string
	for i := 0; i < min(len(keys), 26); i++ {
		var same []string
		for j := i; j < len(keys); j += 26 {
			same = append(same, keyName(keys[j]))
		}
		legend = append(legend, string(rune('A'+i))+" "+strings.Join(same, ", "))
	}
	b.WriteString(wrapList("keys:", legend, ganttWidth))
	b.WriteString("an event is its key's capital letter, then the small one for each further round it runs\n")
	busy := 0
	for _, s := range r.Schedule {
		busy += s.Finish - s.Start
	}
	total := int64(consumers) * int64(r.Rounds)
	of := fmt.Sprintf("of %d consumer-rounds (%d × %d)", total, consumers, r.Rounds)
	if total == 1 {
		of = "of 1 consumer-round (1 × 1)"
	}
	if policy == konvoy.HeadOfLine || blocked > 0 {
		b.WriteString(". is a consumer holding an event whose lane is busy (head-of-line blocking)\n")
		fmt.Fprintf(&b, "%s: %d busy, %d blocked (.), %d idle\n", of, busy, blocked, total-int64(busy)-int64(blocked))
	} else {
		fmt.Fprintf(&b, "%s: %d busy, %d idle\n", of, busy, total-int64(busy))
	}
	if instant > 0 {
		fmt.Fprintf(&b, "%s of no duration not drawn\n", plural(instant, "event", "events"))
	}
	return b.String()
}

// ganttRow is a line of GanttText's drawing: consumer first's cells, one
// per round, or, with no cells, consumers first to last, who ran no event
// that takes time; consumers count from 0.
type ganttRow struct {
	first, last int
	cells       []byte
}

// label returns the row's label, its consumers counted from 1.
func (g ganttRow) label() string {
	if g.last > g.first {
		return fmt.Sprintf("consumers %d to %d", g.first+1, g.last+1)
	}
	return "consumer " + strconv.Itoa(g.first+1)
}

// ganttRows draws the schedule r kept, in a row for each consumer that
// holds or runs an event and a row without cells for each run of consumers
// before or between them that do neither, up to the last consumer that
// does (consumer 0 when none does). It takes memory for the consumers that
// ran an event, not for every consumer. It returns the keys in order of
// first appearance, whose letters are their indices modulo 26; the rounds
// a consumer held a blocked event (Taken to Start), and the events of no
// duration, which are not drawn.
func ganttRows(r konvoy.Result) (keys []string, rows []ganttRow, blocked, instant int) {
	symbol := map[string]int{}
	cells := map[int][]byte{} // by consumer
	for _, s := range r.Schedule {
		if _, ok := symbol[s.Key]; !ok {
			symbol[s.Key] = len(keys) % 26
			keys = append(keys, s.Key)
		}
		if _, ok := cells[s.Consumer]; !ok && s.Finish > s.Taken {
			cells[s.Consumer] = []byte(strings.Repeat(" ", r.Rounds))
		}
	}
	slots := slices.Clone(r.Schedule)
	slices.SortStableFunc(slots, func(a, b konvoy.Slot) int { return a.Index - b.Index })
	for _, s := range slots {
		row := cells[s.Consumer]
		for t := s.Taken; t < s.Start; t++ {
			row[t] = '.'
			blocked++
		}
		if s.Finish == s.Start {
			instant++
		}
		for t := s.Start; t < s.Finish; t++ {
			row[t] = byte('a' + symbol[s.Key])
		}
		if s.Finish > s.Start {
			row[s.Start] = byte('A' + symbol[s.Key])
		}
	}
	if len(cells) == 0 {
		return keys, []ganttRow{{}}, blocked, instant
	}
	next := 0 // the first consumer not in a row yet
	for _, c := range slices.Sorted(maps.Keys(cells)) {
		if c > next {
			rows = append(rows, ganttRow{first: next, last: c - 1})
		}
		rows = append(rows, ganttRow{first: c, last: c, cells: cells[c]})
		next = c + 1
	}
	return keys, rows, blocked, instant
}

// keyName is a key as GanttText prints it: quoted when it holds a
// separator, a quote or nothing, or does not print (see printable).
func keyName(k string) string {
	if strings.ContainsAny(k, ",; \t\r\n\"") || k == "" {
		return strconv.Quote(k)
	}
	return printable(k)
}

// printable is a key as a picture draws it: as it is, or quoted when it
// holds a character that does not print or bytes that are not UTF-8,
// which an SVG file cannot hold.
func printable(k string) string {
	if !utf8.ValidString(k) || strings.IndexFunc(k, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }) >= 0 {
		return strconv.Quote(k)
	}
	return k
}

// plural is "1 thing" or "n things".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// wrapList writes head and then items, separated by "; ", in lines of at
// most width runes, breaking only between items and indenting the lines
// after the first by two spaces.
func wrapList(head string, items []string, width int) string {
	var b strings.Builder
	line := head
	for i, it := range items {
		if i < len(items)-1 {
			it += ";"
		}
		if utf8.RuneCountInString(line)+1+utf8.RuneCountInString(it) <= width {
			line += " " + it
			continue
		}
		b.WriteString(line + "\n")
		line = "  " + it
	}
	return b.String() + line + "\n"
}
