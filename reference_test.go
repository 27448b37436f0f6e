package konvoy_test

import (
	"math"
	"slices"
	"sort"

	gocmp "github.com/google/go-cmp/cmp"
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
	basla        int
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
		o.tuketici, o.basla, o.bitis, o.serit = t, basla, bitis, s
		out = append(out, o)
	}
	return out
}

// refUygula is the lesson's uygula: apply in finish order, ties by input
// index; last writer wins, or the stamp skips backward writes, or the
// resequencer holds steps ahead of the next.
func refUygula(bitmis []refEvent, isleyici string) konvoy.Result {
	sirali := slices.Clone(bitmis)
	sort.SliceStable(sirali, func(i, j int) bool {
		if sirali[i].bitis != sirali[j].bitis {
			return sirali[i].bitis < sirali[j].bitis
		}
		return sirali[i].sira < sirali[j].sira
	})
	durum := map[string]int{}
	var r konvoy.Result
	if isleyici == "resequencer" {
		r = refResequence(sirali, durum)
	}
	for _, o := range sirali {
		if o.adim == 0 || isleyici == "resequencer" {
			continue
		}
		simdi := durum[o.takipNo]
		if o.adim < simdi {
			r.BackwardWrites++
			if isleyici == "version-stamp" {
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

// refDuzen is the lesson's duzen for any lane function (nil: no lanes) and
// handler ("last-writer-wins", "version-stamp" or "resequencer"), under the
// lesson's head-of-line dispatch.
func refDuzen(events []konvoy.Event, tuketici int, lane konvoy.LaneFunc, isleyici string) konvoy.Result {
	return refDuzenWith(events, tuketici, lane, isleyici, refKosum)
}

// refRun dispatches events as kosum does and returns them, in input order,
// with their consumers, starts and finishes.
func refRun(events []konvoy.Event, tuketici int, lane konvoy.LaneFunc,
	kosum func([]refEvent, int, func(refEvent) *string) []refEvent) []refEvent {
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
	return kosum(isler, tuketici, serit)
}

// refDuzenWith is refDuzen with any dispatch.
func refDuzenWith(events []konvoy.Event, tuketici int, lane konvoy.LaneFunc, isleyici string,
	kosum func([]refEvent, int, func(refEvent) *string) []refEvent) konvoy.Result {
	bitmis := refRun(events, tuketici, lane, kosum)
	r := refUygula(bitmis, isleyici)
	yuk := map[string]int{}
	anahtarYuku := map[[2]string]int{} // [lane, key] → load
	var seritSirasi, anahtarSirasi []string
	for _, o := range bitmis {
		if !slices.Contains(anahtarSirasi, o.takipNo) {
			anahtarSirasi = append(anahtarSirasi, o.takipNo)
		}
		if o.serit != nil {
			if _, ok := yuk[*o.serit]; !ok {
				seritSirasi = append(seritSirasi, *o.serit)
			}
			yuk[*o.serit] += o.sure
			anahtarYuku[[2]string{*o.serit, o.takipNo}] += o.sure
		}
		r.Work += o.sure
	}
	r.Lanes = len(yuk)
	enYuklu := 0
	for _, s := range seritSirasi {
		enYuklu = max(enYuklu, yuk[s])
	}
	// Among the heaviest lanes, the one whose heaviest key carries most,
	// then the first opened; in it, the heaviest key, then the first seen.
	for _, s := range seritSirasi {
		if yuk[s] != enYuklu {
			continue
		}
		for _, n := range anahtarSirasi {
			y, ok := anahtarYuku[[2]string{s, n}]
			if ok && (y > r.HeaviestKeyLoad || r.HeaviestKey == "") {
				r.HeaviestLane, r.HeaviestLaneName, r.HeaviestKey, r.HeaviestKeyLoad = yuk[s], s, n, y
			}
		}
	}
	r.Events = len(events)
	var bekleme, yanit []int
	seritBekleme := map[string]*konvoy.LaneWait{}
	toplamBekleme := map[string]int{}
	for _, o := range bitmis {
		bekleme = append(bekleme, o.basla-o.varis)
		yanit = append(yanit, o.bitis-o.varis)
		if o.serit != nil {
			w := seritBekleme[*o.serit]
			if w == nil {
				w = &konvoy.LaneWait{Lane: *o.serit}
				seritBekleme[*o.serit] = w
			}
			w.Events++
			w.MaxWait = max(w.MaxWait, o.basla-o.varis)
			toplamBekleme[*o.serit] += o.basla - o.varis
		}
	}
	r.Wait, r.Response = refLatency(bekleme), refLatency(yanit)
	var enKotu []konvoy.LaneWait
	for _, s := range seritSirasi {
		w := seritBekleme[s]
		w.MeanWait = float64(toplamBekleme[s]) / float64(w.Events)
		enKotu = append(enKotu, *w)
	}
	sort.SliceStable(enKotu, func(i, j int) bool {
		if enKotu[i].MaxWait != enKotu[j].MaxWait {
			return enKotu[i].MaxWait > enKotu[j].MaxWait
		}
		return toplamBekleme[enKotu[i].Lane] > toplamBekleme[enKotu[j].Lane]
	})
	if len(enKotu) > 0 {
		r.WorstLanes = enKotu[:min(5, len(enKotu))]
	}
	return r
}

// refLatency sorts every value and reads the nearest ranks off the list.
func refLatency(v []int) konvoy.Latency {
	if len(v) == 0 {
		return konvoy.Latency{}
	}
	slices.Sort(v)
	at := func(p float64) int { return v[int(math.Ceil(p*float64(len(v))-1e-9))-1] }
	sum := 0
	for _, x := range v {
		sum += x
	}
	return konvoy.Latency{P50: at(0.50), P95: at(0.95), P99: at(0.99), Max: v[len(v)-1], Mean: float64(sum) / float64(len(v))}
}

// withinPrecision compares a Latency from Simulate with one from refLatency
// as Latency's documentation promises: Max and Mean exactly, and each
// percentile exactly below konvoy.ExactLatency and, at or above it, within
// 1/1024 of the exact one. (That the reported percentile is never below the
// exact one is TestLatencyPercentilesKeepTheirPrecision's; a Comparer must
// be symmetric.)
var withinPrecision = gocmp.Comparer(func(a, b konvoy.Latency) bool {
	close := func(x, y int) bool {
		lo, hi := min(x, y), max(x, y)
		if lo < konvoy.ExactLatency {
			return x == y
		}
		return (hi-lo)*1024 < lo
	}
	return a.Max == b.Max && a.Mean == b.Mean && close(a.P50, b.P50) && close(a.P95, b.P95) && close(a.P99, b.P99)
})

// refResequence applies events in apply order through a resequencer kept as
// plain lists: a key's held steps are scanned, not searched.
func refResequence(sirali []refEvent, durum map[string]int) konvoy.Result {
	var r konvoy.Result
	tutulan := map[string][]refEvent{}
	toplam := 0
	for _, o := range sirali {
		if o.adim == 0 {
			continue
		}
		n := o.takipNo
		beklenen := durum[n] + 1
		cift := o.adim < beklenen || slices.ContainsFunc(tutulan[n], func(h refEvent) bool { return h.adim == o.adim })
		switch {
		case cift:
			r.Duplicates++
		case o.adim > beklenen:
			tutulan[n] = append(tutulan[n], o)
			r.Buffered++
			toplam++
			r.MaxBuffered = max(r.MaxBuffered, toplam)
			r.MaxKeyBuffered = max(r.MaxKeyBuffered, len(tutulan[n]))
		default:
			durum[n] = o.adim
			for {
				i := slices.IndexFunc(tutulan[n], func(h refEvent) bool { return h.adim == durum[n]+1 })
				if i < 0 {
					break
				}
				r.HeldRounds += o.bitis - tutulan[n][i].bitis
				durum[n]++
				tutulan[n] = slices.Delete(tutulan[n], i, i+1)
				toplam--
			}
		}
	}
	r.NeverApplied = toplam
	return r
}

// refStatic is the static policy, plainly: a lane belongs to consumer
// (order in which the lane was first seen) mod c; an event without a lane
// goes to the consumer free first.
func refStatic(isler []refEvent, tuketici int, serit func(refEvent) *string) []refEvent {
	bos := make([]int, tuketici)
	seritBos := map[string]int{}
	sahip := map[string]int{}
	out := make([]refEvent, 0, len(isler))
	for _, o := range isler {
		var s *string
		if serit != nil {
			s = serit(o)
		}
		t := slices.Index(bos, slices.Min(bos))
		basla := max(bos[t], o.varis)
		if s != nil {
			if _, ok := sahip[*s]; !ok {
				sahip[*s] = len(sahip) % tuketici
			}
			t = sahip[*s]
			basla = max(bos[t], o.varis, seritBos[*s])
		}
		bitis := basla + o.sure
		bos[t] = bitis
		if s != nil {
			seritBos[*s] = bitis
		}
		o.tuketici, o.basla, o.bitis, o.serit = t, basla, bitis, s
		out = append(out, o)
	}
	return out
}

// refLaneAware is the lane-aware policy with the whole input known: at each
// time, while a consumer is free and an arrived event's lane is free, the
// free consumer with the lowest index takes the oldest such event; then time
// moves to the next finish, arrival or lane coming free.
func refLaneAware(isler []refEvent, tuketici int, serit func(refEvent) *string) []refEvent {
	bos := make([]int, tuketici)
	seritBos := map[string]int{}
	out := slices.Clone(isler)
	alinan := make([]bool, len(out))
	kalan := len(out)
	for i := range out {
		if serit != nil {
			out[i].serit = serit(out[i])
		}
	}
	serbest := func(o refEvent, simdi int) bool {
		return o.varis <= simdi && (o.serit == nil || seritBos[*o.serit] <= simdi)
	}
	simdi := 0
	for kalan > 0 {
		for {
			t := slices.IndexFunc(bos, func(b int) bool { return b <= simdi }) // lowest index free
			i := slices.IndexFunc(out, func(o refEvent) bool { return !alinan[o.sira] && serbest(o, simdi) })
			if t < 0 || i < 0 {
				break
			}
			alinan[i], kalan = true, kalan-1
			out[i].tuketici, out[i].basla, out[i].bitis = t, simdi, simdi+out[i].sure
			bos[t] = out[i].bitis
			if out[i].serit != nil {
				seritBos[*out[i].serit] = out[i].bitis
			}
		}
		sonraki := math.MaxInt
		for _, b := range bos {
			if b > simdi {
				sonraki = min(sonraki, b)
			}
		}
		for i, o := range out {
			if alinan[i] {
				continue
			}
			if o.varis > simdi {
				sonraki = min(sonraki, o.varis)
			}
			if o.serit != nil && seritBos[*o.serit] > simdi {
				sonraki = min(sonraki, seritBos[*o.serit])
			}
		}
		if kalan > 0 {
			simdi = sonraki
		}
	}
	return out
}
