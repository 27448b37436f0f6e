package konvoy_test

import (
	"slices"
	"sort"

	"github.com/sirali-konvoy/konvoy"
)

// This file holds an independent, deliberately naive transliteration of the
// lesson's JavaScript model (olay.mjs: kosum, uygula, duzen), the reference
// every optimisation of Simulate is compared with. It keeps the lesson's
// names and shape; the only additions are the library's documented rules for
// Step 0 (history only: never applied, never a backward write) and for a
// key's right final state (its highest step, the lesson's teslim).

type refEvent struct {
	takipNo, hat string
	adim, sure   int
	varis        int // arrival: not in the lesson, which is a batch
	sira         int
	tuketici     int
	bitis        int
	serit        *string
}

// refKosum is the lesson's kosum: dispatch in input order to the consumer
// that is free first (lowest index among ties), waiting for the lane.
func refKosum(isler []refEvent, tuketici int, serit func(refEvent) *string) []refEvent {
	bos := make([]int, tuketici)
	seritBos := map[string]int{}
	out := make([]refEvent, 0, len(isler))
	for _, o := range isler {
		t := slices.Index(bos, slices.Min(bos))
		var s *string
		if serit != nil {
			s = serit(o)
		}
		basla := max(bos[t], o.varis)
		if s != nil {
			basla = max(basla, seritBos[*s])
		}
		bitis := basla + o.sure
		bos[t] = bitis
		if s != nil {
			seritBos[*s] = bitis
		}
		o.tuketici, o.bitis, o.serit = t, bitis, s
		out = append(out, o)
	}
	return out
}

// refUygula is the lesson's uygula: apply in finish order, ties by input
// index; last writer wins, or the stamp skips backward writes.
func refUygula(bitmis []refEvent, damga bool) konvoy.Result {
	sirali := slices.Clone(bitmis)
	sort.SliceStable(sirali, func(i, j int) bool {
		if sirali[i].bitis != sirali[j].bitis {
			return sirali[i].bitis < sirali[j].bitis
		}
		return sirali[i].sira < sirali[j].sira
	})
	durum := map[string]int{}
	var r konvoy.Result
	for _, o := range sirali {
		if o.adim == 0 {
			continue
		}
		simdi := durum[o.takipNo]
		if o.adim < simdi {
			r.BackwardWrites++
			if damga {
				r.Skipped++
				continue
			}
		}
		durum[o.takipNo] = o.adim
	}
	enYuksek := map[string]int{}
	var sira []string
	for _, o := range bitmis {
		if _, ok := enYuksek[o.takipNo]; !ok {
			sira = append(sira, o.takipNo)
		}
		enYuksek[o.takipNo] = max(enYuksek[o.takipNo], o.adim)
		r.Rounds = max(r.Rounds, o.bitis)
	}
	for _, n := range sira {
		if durum[n] != enYuksek[n] {
			r.WrongKeys = append(r.WrongKeys, n)
		}
	}
	r.WrongFinal = len(r.WrongKeys)
	r.Keys = len(sira)
	return r
}

// refDuzen is the lesson's duzen for any lane function (nil: no lanes).
func refDuzen(events []konvoy.Event, tuketici int, lane konvoy.LaneFunc, damga bool) konvoy.Result {
	isler := make([]refEvent, len(events))
	for i, e := range events {
		isler[i] = refEvent{takipNo: e.Key, hat: e.Line, adim: e.Step, sure: e.Duration, varis: e.Arrival, sira: i}
	}
	var serit func(refEvent) *string
	if lane != nil {
		serit = func(o refEvent) *string {
			s, ok := lane(events[o.sira])
			if !ok {
				return nil
			}
			return &s
		}
	}
	bitmis := refKosum(isler, tuketici, serit)
	r := refUygula(bitmis, damga)
	yuk := map[string]int{}
	for _, o := range bitmis {
		if o.serit != nil {
			yuk[*o.serit] += o.sure
		}
		r.Work += o.sure
	}
	r.Lanes = len(yuk)
	for _, v := range yuk {
		r.HeaviestLane = max(r.HeaviestLane, v)
	}
	r.Events = len(events)
	return r
}
