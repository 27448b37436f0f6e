package eventlog

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
)

// sampleTrace returns a trace of n events with statuses, in CSV or JSON
// Lines: shipments of five events each (one history-only), on 50 lines,
// interleaved as a broker would deliver them.
func sampleTrace(f Format, n int) []byte {
	statuses := []string{"accepted", "scanned", "transfer", "out-for-delivery", "delivered"}
	rng := rand.New(rand.NewPCG(1, 2))
	var b bytes.Buffer
	if f == CSV {
		b.WriteString("key,line,status,duration\n")
	}
	const open = 1000 // shipments in flight at once
	next := make([]int, open)
	keys := make([]int, open)
	for i := range keys {
		keys[i] = i
	}
	newKey := open
	for range n {
		i := rng.IntN(open)
		k, s := keys[i], statuses[next[i]]
		line := fmt.Sprintf("H%02d", k%50)
		d := rng.IntN(4) + 1
		if f == CSV {
			fmt.Fprintf(&b, "TR-%08d,%s,%s,%d\n", k, line, s, d)
		} else {
			fmt.Fprintf(&b, `{"key":"TR-%08d","line":"%s","status":"%s","duration":%d}`+"\n", k, line, s, d)
		}
		if next[i]++; next[i] == len(statuses) {
			next[i], keys[i] = 0, newKey
			newKey++
		}
	}
	return b.Bytes()
}

// BenchmarkDecode measures reading speed: MB/s from b.SetBytes, and events/s.
func BenchmarkDecode(b *testing.B) {
	const n = 1_000_000
	for _, f := range []Format{CSV, JSONL} {
		data := sampleTrace(f, n)
		r := Reader{Format: f, Steps: []string{"accepted", "transfer", "out-for-delivery", "delivered"}, History: []string{"scanned"}}
		b.Run(f.String(), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for range b.N {
				d, err := NewDecoder(bytes.NewReader(data), r)
				if err != nil {
					b.Fatal(err)
				}
				count := 0
				for {
					_, err := d.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					count++
				}
				if count != n {
					b.Fatalf("read %d events; want %d", count, n)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkDeepPath reads one record whose status is at the end of a
// path through as many nested objects as the path has parts, beside 1 MB
// of text, and reports MB/s: the path's objects are scanned once, so
// that the speed does not fall with the path's length (reading each
// object from its start made 2,000 parts on a 15 MB line take 24 s).
func BenchmarkDeepPath(b *testing.B) {
	for _, parts := range []int{2, 200, 2000} {
		obj := `{"s":"new","pad":"` + string(bytes.Repeat([]byte{'x'}, 1<<20)) + `"}`
		path := "p"
		for range parts - 2 {
			obj, path = `{"a":`+obj+`}`, path+".a"
		}
		line := []byte(`{"key":"k","duration":1,"p":` + obj + "}\n")
		r := Reader{Format: JSONL, Columns: Columns{Status: path + ".s"}, Steps: []string{"new"}}
		b.Run(fmt.Sprint(parts, "-parts"), func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			for range b.N {
				d, err := NewDecoder(bytes.NewReader(line), r)
				if err != nil {
					b.Fatal(err)
				}
				if e, err := d.Next(); err != nil || e.Step != 1 {
					b.Fatalf("read %+v, %v; want step 1", e, err)
				}
			}
		})
	}
}
