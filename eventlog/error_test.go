package eventlog

import (
	"errors"
	"testing"
)

// In a CSV trace an Error's Column is the 1-based number of the field at
// fault, counted across the row as the header's columns are: the column of
// a bad value, or the field in which a malformed row stops parsing. A
// problem with a whole row, and any problem in JSON Lines, has Column 0.
func TestErrorColumn(t *testing.T) {
	long := Reader{Name: "t.csv", MaxNameBytes: 4}
	for _, tt := range []struct {
		name, input string
		r           Reader
		field       string
		column      int
	}{
		{"csv duration", "key,status,duration\nA,accepted,x\n", shipping, "duration", 3},
		{"csv columns reordered", "duration,extra,step,key\n1,z,x,A\n", shipping, "step", 3},
		{"csv empty key", "extra,key,step,duration\nz,,1,1\n", shipping, "key", 2},
		{"csv unknown status", "key,status,duration\nA,lost,1\n", shipping, "status", 2},
		{"csv at", "key,step,duration,at\nA,1,1,soon\n", shipping, "at", 4},
		{"csv long key", "key,step,duration\nkkkkk,1,1\n", long, "key", 1},
		{"csv long line", "key,line,step,duration\nA,lllll,1,1\n", long, "line", 2},
		{"csv bare quote in the first field", "key,status,duration\nA,accepted,1\nB\"x,accepted,1\n", shipping, "", 1},
		{"csv bare quote in the last field", "key,status,duration\nA,accepted,1\"\n", shipping, "", 3},
		{"csv stray quote in a quoted field", "key,status,duration\nA,\"acc\"x,1\n", shipping, "", 2},
		{"csv unclosed quote spans lines", "key,status,duration\nA,\"accepted\n\n,1\n", shipping, "", 2},
		{"csv bare quote in the header", "key,sta\"tus,duration\nA,accepted,1\n", shipping, "", 2},
		{"csv field count", "key,status,duration\nA,accepted\n", shipping, "", 0},
		{"csv missing column", "key,duration\nA,1\n", shipping, "", 0},
		{"jsonl duration", `{"key":"A","status":"accepted","duration":"x"}`, shipping, "duration", 0},
		{"jsonl key", `{"key":"","status":"accepted","duration":1}`, shipping, "key", 0},
		{"jsonl malformed", `{"key":"A",}`, shipping, "", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readAll(t, tt.r, tt.input)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T %v; want *Error", err, err)
			}
			if e.Field != tt.field || e.Column != tt.column {
				t.Errorf("%v: Field %q, Column %d; want Field %q, Column %d", err, e.Field, e.Column, tt.field, tt.column)
			}
		})
	}
}
