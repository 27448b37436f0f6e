package report

import (
	"strings"
)

// table is a text table whose first column is aligned left and the others
// right, each as wide as its widest cell, two spaces apart. Rows end without
// trailing spaces.
type table struct {
	rows [][]string
	// leftCols is how many leading columns, 1 or more, are aligned left, for
	// columns of names; 0 means 1.
	leftCols int
	// spans are labels printed on a line of their own above the rows, each
	// starting where its column does: a heading over a group of columns.
	spans []span
	// leftLast aligns the last column left, for a column of text.
	leftLast bool
}

// span is a label over the columns from column col on.
type span struct {
	col   int
	label string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

// span adds a heading that starts over column col.
func (t *table) span(col int, label string) { t.spans = append(t.spans, span{col, label}) }

func (t *table) String() string {
	var widths []int
	for _, r := range t.rows {
		for i, c := range r {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	var b strings.Builder
	if len(t.spans) > 0 {
		var line strings.Builder
		for _, s := range t.spans {
			start := 0
			for i := range min(s.col, len(widths)) {
				start += widths[i] + 2
			}
			if n := len([]rune(line.String())); n < start {
				line.WriteString(strings.Repeat(" ", start-n))
			} else if n > 0 {
				line.WriteString(" ")
			}
			line.WriteString(s.label)
		}
		b.WriteString(line.String() + "\n")
	}
	for _, r := range t.rows {
		var line strings.Builder
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-len([]rune(c)))
			switch {
			case i == 0:
				line.WriteString(c + pad)
			case i < t.leftCols:
				line.WriteString("  " + c + pad)
			case i == len(widths)-1 && t.leftLast:
				line.WriteString("  " + c + pad)
			default:
				line.WriteString("  " + pad + c)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
	return b.String()
}
