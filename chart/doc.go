// Package chart draws konvoy's measures as pictures, in SVG or PNG, with
// gonum.org/v1/plot: rounds against consumers per layout with the
// heaviest-lane ceiling and the work/consumers bound ([Rounds]), the schedule
// of a small run, one row per consumer ([Schedule]), the distribution of
// wait and response latencies per layout ([Latency]), and a latency
// plan's percentile against consumers beside its target ([SLO]); and, as
// text for a terminal, the schedule of a small run, one column per round
// ([GanttText]).
//
// It is a package of its own so that importing konvoy pulls in no plotting
// code. Each picture function takes plain figures or the [konvoy.Slot]s of a run made
// with [konvoy.WithSchedule], checks them, and writes one picture to an
// [io.Writer]; bad input is an error, never a panic, and nothing is written
// then, as it is for a legend that would take more than half the picture's
// height (many or long names on a small picture), which drawn would run
// over the plots (a picture of the default size grows taller for it
// instead, up to 100 cm; one of a size [WithSize] sets does not), or whose
// entry is wider than the picture (a long name,
// or a picture too narrow), which drawn would run off its edge, its
// figures cut. The output is deterministic: the same input gives the same bytes on
// every run. Text is set in Liberation Sans, which the PNG renderer embeds
// and the SVG names (falling back to the metric-compatible Arial). An SVG's
// root has role="img" and, as its first children, a <title> (the picture's
// title) and a <desc> that says in words what it shows, so that a page can
// show it inline to readers who cannot see it.
package chart
