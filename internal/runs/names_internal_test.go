package runs

import (
	"io"
	"strings"
	"testing"
	"unsafe"

	"github.com/sirali-konvoy/konvoy"
)

// A trace read again gives a long key and line as the first pass's copy,
// which its Stats hold, so that a sweep's later pass holds no second copy
// of every long name; a short name is read afresh, as a map entry would
// cost more than the copy it saves.
func TestLaterPassesShareTheFirstPassesLongNames(t *testing.T) {
	long := strings.Repeat("k", longName)
	line := strings.Repeat("l", longName)
	text := "key,line,step,duration\n" + long + "," + line + ",1,1\nA,L,1,1\n" + long + "," + line + ",2,1\n"
	src := func(int) (io.Reader, func(), error) { return strings.NewReader(text), func() {}, nil }
	o := Options{Name: "t", Layouts: []konvoy.Layout{konvoy.Free}, Policies: []konvoy.Policy{konvoy.HeadOfLine}, Consumers: []int{1}}
	r := &reader{t: newTrace(o), o: o, src: src, lines: make([]int, LinesKept), names: LongNames{}}
	var passes [2][]konvoy.Event
	for p := range passes {
		for e, err := range r.events {
			if err != nil {
				t.Fatal(err)
			}
			passes[p] = append(passes[p], e)
		}
	}
	same := func(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }
	first, again := passes[0], passes[1]
	if len(first) != 3 || len(again) != 3 {
		t.Fatalf("passes of %d and %d events; want 3 each", len(first), len(again))
	}
	for i := range again {
		if again[i].Key != first[i].Key || again[i].Line != first[i].Line {
			t.Fatalf("event %d: %+v again, %+v first", i, again[i], first[i])
		}
	}
	if !same(again[0].Key, first[0].Key) || !same(again[2].Key, first[0].Key) || !same(again[0].Line, first[0].Line) {
		t.Errorf("the second pass's long key and line are copies of their own, not the first pass's")
	}
	if same(again[1].Key, first[1].Key) {
		t.Errorf("the short key A is the first pass's copy; want it read afresh")
	}
}
