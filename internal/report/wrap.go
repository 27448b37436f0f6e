package report

import (
	"strings"
	"unicode/utf8"
)

// wrap joins pieces with spaces into lines of at most width runes, breaking
// only between pieces, indents the lines
// after the first by two spaces, and ends the text with a newline.
func wrap(pieces []string, width int) string {
	var b strings.Builder
	line := ""
	for i, p := range pieces {
		switch {
		case i == 0:
			line = p
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(p) <= width:
			line += " " + p
		default:
			b.WriteString(line + "\n")
			line = "  " + p
		}
	}
	b.WriteString(line + "\n")
	return b.String()
}

// wrapText breaks text into lines of at most planWidth runes, between words.
func wrapText(text string) string {
	return wrap(strings.Fields(text), planWidth)
}
