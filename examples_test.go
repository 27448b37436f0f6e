package konvoy_test

import (
	"fmt"
	"strings"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/lesson"
)

// This example prints, from the public API only, what the lesson's olc.mjs
// prints, byte for byte: its Turkish ASCII labels and column widths included.
// The layouts are serbest (Free), konvoy (Convoy), konvoy-hat (LineConvoy)
// and surum-damgasi (VersionStamp).
func Example_lessonMeasures() {
	const tuketici = lesson.Consumers
	olay := lesson.Events()
	duzen := []struct {
		ad     string
		layout konvoy.Layout
	}{{"serbest", konvoy.Free}, {"konvoy", konvoy.Convoy}, {"konvoy-hat", konvoy.LineConvoy}, {"surum-damgasi", konvoy.VersionStamp}}
	sonuc := make([]konvoy.Result, len(duzen))
	for i, d := range duzen {
		sonuc[i], _ = konvoy.Simulate(olay, d.layout, tuketici)
	}

	fmt.Printf("%d durum olayi, %d gonderi, %d tuketici, toplam is yuku %d tur\n",
		sonuc[0].Events, sonuc[0].Keys, tuketici, sonuc[0].Work)
	fmt.Println()
	fmt.Printf("%-18s", "olcu")
	for _, d := range duzen {
		fmt.Printf("%15s", d.ad)
	}
	fmt.Println()
	satirlar := []struct {
		ad  string
		deg func(konvoy.Result) int
	}{
		{"geriye yazma", func(r konvoy.Result) int { return r.BackwardWrites }},
		{"yanlis son durum", func(r konvoy.Result) int { return r.WrongFinal }},
		{"atlanan olay", func(r konvoy.Result) int { return r.Skipped }},
		{"tur", func(r konvoy.Result) int { return r.Rounds }},
		{"serit", func(r konvoy.Result) int { return r.Lanes }},
		{"en yuklu serit", func(r konvoy.Result) int { return r.HeaviestLane }},
	}
	for _, s := range satirlar {
		fmt.Printf("%-18s", s.ad)
		for _, r := range sonuc {
			fmt.Printf("%15d", s.deg(r))
		}
		fmt.Println()
	}

	serbest, konvoyR, hat, damga := sonuc[0], sonuc[1], sonuc[2], sonuc[3]
	fmt.Printf("\nserbest duzende yanlis son duruma dusen gonderiler = %s\n", strings.Join(serbest.WrongKeys, ", "))
	fmt.Printf("konvoy / serbest tur orani = %.3f, hat konvoyu / serbest = %.3f\n",
		float64(konvoyR.Rounds)/float64(serbest.Rounds), float64(hat.Rounds)/float64(serbest.Rounds))
	fmt.Printf("etkin kosutluk = is yuku / tur: serbest %.2f, konvoy %.2f, hat konvoyu %.2f\n",
		serbest.Parallelism(), konvoyR.Parallelism(), hat.Parallelism())
	fmt.Printf("damga duzeninde durum gecmisinde eksik kalan adim = %d\n", damga.Skipped)

	fmt.Printf("\n%-10s", "tuketici")
	for _, d := range duzen[:3] {
		fmt.Printf("%12s", d.ad)
	}
	fmt.Println()
	for _, t := range []int{1, 2, 4, 8} {
		fmt.Printf("%-10d", t)
		for _, d := range duzen[:3] {
			r, _ := konvoy.Simulate(olay, d.layout, t)
			fmt.Printf("%12d", r.Rounds)
		}
		fmt.Println()
	}
	// Output:
	// 20 durum olayi, 5 gonderi, 4 tuketici, toplam is yuku 32 tur
	//
	// olcu                      serbest         konvoy     konvoy-hat  surum-damgasi
	// geriye yazma                    5              0              0              5
	// yanlis son durum                1              0              0              0
	// atlanan olay                    0              0              0              5
	// tur                             8             13             19              8
	// serit                           0              5              3              0
	// en yuklu serit                  0              8             14              0
	//
	// serbest duzende yanlis son duruma dusen gonderiler = TR-4821
	// konvoy / serbest tur orani = 1.625, hat konvoyu / serbest = 2.375
	// etkin kosutluk = is yuku / tur: serbest 4.00, konvoy 2.46, hat konvoyu 1.68
	// damga duzeninde durum gecmisinde eksik kalan adim = 5
	//
	// tuketici       serbest      konvoy  konvoy-hat
	// 1                   32          32          32
	// 2                   16          17          23
	// 4                    8          13          19
	// 8                    5           9          14
}

// This example prints, from the public API only, what the lesson's hesap.mjs
// prints, byte for byte: the lesson's capacity table for the ordered shares
// (KK1) 4/7 and 5/7 at the peak write rate of 97.22 events per second.
func Example_lessonCapacity() {
	const tepeYazma = lesson.PeakRate
	olay := lesson.Events()
	tur := func(l konvoy.Layout, t int) konvoy.Result {
		r, _ := konvoy.Simulate(olay, l, t)
		return r
	}
	serbest := tur(konvoy.Free, lesson.Consumers)
	maliyetKonvoy := konvoy.Cost(tur(konvoy.Convoy, lesson.Consumers), serbest)
	maliyetHat := konvoy.Cost(tur(konvoy.LineConvoy, lesson.Consumers), serbest)

	fmt.Printf("%5s%16s%17s%11s%15s\n", "KK1", "kisitli olay/s", "kisitsiz olay/s", "konvoy x", "hat konvoyu x")
	for _, kk1 := range []float64{4.0 / 7, 5.0 / 7} {
		kisitli, kisitsiz := konvoy.SplitRate(tepeYazma, kk1)
		fmt.Printf("%5.3f%16.2f%17.2f%11.3f%15.3f\n", kk1, kisitli, kisitsiz,
			konvoy.SelectiveMultiplier(kk1, maliyetKonvoy), konvoy.SelectiveMultiplier(kk1, maliyetHat))
	}
	fmt.Printf("\ntum akis konvoya sokulursa: konvoy x%.3f, hat konvoyu x%.3f\n", maliyetKonvoy, maliyetHat)
	fmt.Printf("serit yuku tavani (8 tuketici): konvoy %d tur, hat konvoyu %d tur, serbest %d tur\n",
		tur(konvoy.Convoy, 8).Rounds, tur(konvoy.LineConvoy, 8).Rounds, tur(konvoy.Free, 8).Rounds)
	// Output:
	//   KK1  kisitli olay/s  kisitsiz olay/s   konvoy x  hat konvoyu x
	// 0.571           55.55            41.67      1.357          1.786
	// 0.714           69.44            27.78      1.446          1.982
	//
	// tum akis konvoya sokulursa: konvoy x1.625, hat konvoyu x2.375
	// serit yuku tavani (8 tuketici): konvoy 9 tur, hat konvoyu 14 tur, serbest 5 tur
}
