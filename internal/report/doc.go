// Package report renders konvoy's reports as text, CSV and JSON, from the
// library's values, for the konvoy command and any other client of the same
// reports (such as a web page): it opens no files and never exits, and the
// only flags it defines are -slo's ([SLOFlags]), read by [ParseSLO].
//
// Each report has an entry point of its own:
//
//   - [Lesson] runs events, the lesson's, through the lesson's layouts and
//     returns the lesson report: the measures, the derived figures, rounds
//     by consumers, the convoy's schedule, the capacity table, every layout
//     compared and the selective convoy beside the lesson's formula.
//   - [TraceText] is the same report for a [Trace], the runs of one pass
//     over a trace of events; [TraceJSON] and [TraceCSV] give one [Record]
//     per (layout, policy, consumers) triple instead.
//   - [Latency] is the latency section of both: wait and response
//     percentiles by layout and dispatch policy.
//   - [NewPlan] works out a capacity [Plan] for a [PlanSource]: the
//     consumers each layout needs under each policy to keep up with a
//     peak, the selective convoy simulated and by the formula, the
//     formula's sensitivity to the ordered share, and the fewest Kafka
//     partitions that keep collisions small; [PlanText] and [PlanJSON]
//     render it.
//   - [RoundedNote], [BacklogShare] and [BacklogHint] put what a trace's
//     reading and its runs' backlog limit mean into the reports' words.
//
// The text reports are tables (table.go) and prose wrapped to 100 columns
// (wrap.go), deterministic byte for byte: the konvoy command's golden files
// hold them.
//
// It is internal so that konvoy's public API does not grow with the
// reports' wording.
package report
