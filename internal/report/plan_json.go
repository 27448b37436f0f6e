package report

import (
	"bytes"
	"encoding/json"
	"math"

	"github.com/sirali-konvoy/konvoy"
)

// planDoc is konvoy plan's JSON report: one object holding every answer.
// LateDropped counts the trace's events dropped as late for -reorder (-late
// drop), which Events leaves out, as the report's late_dropped does, and
// Rounded its durations and arrivals rounded to whole rounds (-round), as
// the report's rounded does.
// Peak is -peak, as given, or, when not given, a trace's own mean rate when
// its events arrive over time, rounded as rates are; KeepUpAtHand tells that
// the keep-up plans then take the events as work at hand, their arrival
// times aside. Ratios are rounded to three decimals; rates, as RoundAmount
// does, to three decimals or, below 0.1, three significant digits, so that
// no rate above 0 reads as 0; MaxRounds, the keep-up budget, to those digits
// but down, so that it never states more rounds than keep up. A rate that no
// run bounds (every event of no duration) is null, and a cost or multiplier
// that is undefined (no ordered step, or none that takes time) is 0.
type planDoc struct {
	Trace        string         `json:"trace"`
	Events       int            `json:"events"`
	Keys         int            `json:"keys"`
	Work         int            `json:"work"`
	LateDropped  int            `json:"late_dropped"`
	Rounded      int            `json:"rounded"`
	Peak         float64        `json:"peak"`
	PeakGiven    bool           `json:"peak_given"`
	KeepUpAtHand bool           `json:"keep_up_at_hand"`
	RoundSeconds float64        `json:"round_seconds"`
	MaxRounds    float64        `json:"max_rounds"`
	MaxConsumers int            `json:"max_consumers"`
	Plans        []planRecord   `json:"plans"`
	Selective    selectiveDoc   `json:"selective"`
	Sensitivity  sensitivityDoc `json:"sensitivity"`
	Partitions   partitionDoc   `json:"partitions"`
}

// planRecord is one layout's plan under one policy. Consumers, Rounds and
// Rate are the fewest consumers that keep up, their run's rounds and the
// rate it sustains: 0, 0 and null when the layout does not keep up
// (KeepsUp false). Rate and Ceiling are null too for a run that takes no
// time, whose rate no figure bounds.
type planRecord struct {
	Layout        string   `json:"layout"`
	Policy        string   `json:"policy"`
	KeepsUp       bool     `json:"keeps_up"`
	Consumers     int      `json:"consumers"`
	Rounds        int      `json:"rounds"`
	Rate          *float64 `json:"rate"`
	Ceiling       *float64 `json:"ceiling"`
	CeilingRounds int      `json:"ceiling_rounds"`
	CeilingLane   string   `json:"ceiling_lane"`
	Assumptions   []string `json:"assumptions"`
	SLO           *sloDoc  `json:"slo,omitempty"`
}

// sloDoc is one layout's latency plan under one policy. Percentile is 100
// for max; Consumers is 0 and Meets false when no count meets the target;
// the floor is the percentile with a consumer for every event, and its
// lane the lane whose events waited longest there; AchievedIsFloor tells
// that the achieved figures are the floor's, no count's. LoadFloor is the
// fewest consumers that carry the work over the ArrivalSpan rounds the
// events arrive over (0 when they all arrive in one), and ShortTrace that
// one fewer meets the target on this trace all the same. With arrivals
// made at a rate (-peak, -arrivals poisson), ArrivalRate is that rate in
// events a round, and the load floor is the work over the events' rounds
// at it (events / ArrivalRate), not ArrivalSpan; null for the trace's
// own. OverloadedWork is a lane's work when it is more than those rounds,
// OverloadedLane its name: no count meets the target in a steady state.
type sloDoc struct {
	Percentile     float64       `json:"percentile"`
	On             string        `json:"on"`
	TargetRounds   int           `json:"target_rounds"`
	Meets          bool          `json:"meets"`
	Consumers      int           `json:"consumers"`
	AchievedRounds int           `json:"achieved_rounds"`
	AchievedFloor  bool          `json:"achieved_is_floor"`
	Utilisation    float64       `json:"utilisation"`
	WorstLane      string        `json:"worst_lane"`
	FloorRounds    int           `json:"floor_rounds"`
	FloorLane      string        `json:"floor_lane"`
	ArrivalSpan    int           `json:"arrival_span"`
	ArrivalRate    *float64      `json:"arrival_rate"`
	LoadFloor      int           `json:"load_floor"`
	ShortTrace     bool          `json:"short_trace"`
	OverloadedLane string        `json:"overloaded_lane"`
	OverloadedWork int           `json:"overloaded_work"`
	Curve          []sloPointDoc `json:"curve"`
	Assumptions    []string      `json:"assumptions"`
}

// sloPointDoc is the percentile at one consumer count tried.
type sloPointDoc struct {
	Consumers int `json:"consumers"`
	Rounds    int `json:"rounds"`
}

// selectiveDoc is the selective convoy, simulated and by the formula.
type selectiveDoc struct {
	On            string   `json:"on"`
	Events        int      `json:"events"`
	Ordered       int      `json:"ordered"`
	Share         float64  `json:"ordered_share"`
	Consumers     int      `json:"consumers"`
	FreeRounds    int      `json:"free_rounds"`
	Rounds        int      `json:"selective_convoy_rounds"`
	ConvoyRounds  int      `json:"convoy_rounds"`
	Simulated     *float64 `json:"simulated"` // the ratios: null where undefined (see ratio)
	Formula       *float64 `json:"formula"`
	Cost          *float64 `json:"cost"`
	WholeInConvoy *float64 `json:"whole_in_convoy"`
	Assumptions   []string `json:"assumptions"`
}

// sensitivityDoc is the formula over a range of ordered shares; its costs
// and multipliers are keyed by layout.
type sensitivityDoc struct {
	Consumers   int                 `json:"consumers"`
	Costs       map[string]*float64 `json:"costs"` // null where undefined (see ratio)
	Rows        []shareDoc          `json:"rows"`
	Assumptions []string            `json:"assumptions"`
}

// shareDoc is one ordered share of the sensitivity table.
type shareDoc struct {
	Share       float64             `json:"ordered_share"`
	Labels      []string            `json:"labels"`
	Ordered     float64             `json:"ordered_rate"`
	Unordered   float64             `json:"unordered_rate"`
	Multipliers map[string]*float64 `json:"multipliers"` // null where undefined (see ratio)
}

// partitionDoc is the fewest partitions that keep collisions small.
type partitionDoc struct {
	Collision         float64  `json:"collision"`
	MaxPartitions     int      `json:"max_partitions"`
	Found             bool     `json:"found"`
	Partitions        int      `json:"partitions"`
	Used              int      `json:"used"`
	HeaviestPartition int      `json:"heaviest_partition"`
	HeaviestLoad      int      `json:"heaviest_load"`
	HeaviestKey       string   `json:"heaviest_key"`
	HeaviestKeyLoad   int      `json:"heaviest_key_load"`
	CollisionShare    float64  `json:"collision_share"`
	Assumptions       []string `json:"assumptions"`
}

// PlanJSON is konvoy plan's JSON report: one object holding every answer,
// indented. It is an error, naming the key, when a key or lane it would
// name is not UTF-8 text, which JSON cannot hold (see checkJSONText).
func PlanJSON(a *Plan) (string, error) {
	s, p := a.selective, a.partitions
	doc := planDoc{
		Trace: a.src.Name, Events: a.src.Stats.Events(), Keys: a.src.Stats.Keys(), Work: a.src.Work, LateDropped: a.src.Dropped, Rounded: a.src.Rounded,
		Peak: a.peakJSON(), PeakGiven: a.o.PeakGiven, KeepUpAtHand: a.timed(), RoundSeconds: Seconds(a.o.Round), MaxRounds: roundAtMost(a.budget), MaxConsumers: a.o.MaxConsumers,
		Plans: []planRecord{},
	}
	for li, row := range a.plans {
		for pi, pl := range row {
			r := planRecord{Layout: a.layouts[li].String(), Policy: pl.Policy.String(), KeepsUp: pl.Consumers > 0,
				Consumers: pl.Consumers, Rounds: pl.Rounds, Ceiling: jsonRate(pl.Ceiling),
				CeilingRounds: pl.CeilingRounds, CeilingLane: pl.CeilingLane, Assumptions: pl.Assumptions}
			if pl.Consumers > 0 {
				r.Rate = jsonRate(pl.Rate)
			}
			if a.latency != nil {
				r.SLO = a.sloJSON(a.latency[pi][li])
			}
			doc.Plans = append(doc.Plans, r)
		}
	}
	on := "the trace"
	if a.src.Lesson {
		on = "lesson-style shipments"
	}
	doc.Selective = selectiveDoc{On: on, Events: s.Free.Events, Ordered: s.OrderedFree.Events, Share: RoundShare(s.Share),
		Consumers: a.consumers, FreeRounds: s.Free.Rounds, Rounds: s.Selective.Rounds, ConvoyRounds: s.Convoy.Rounds,
		Simulated: ratio(s.Simulated), Formula: ratio(s.Formula), Cost: ratio(konvoy.Cost(s.OrderedConvoy, s.OrderedFree)),
		WholeInConvoy: ratio(konvoy.Cost(s.Convoy, s.Free)), Assumptions: a.selectiveAssumptions()}
	doc.Sensitivity = sensitivityDoc{Consumers: a.consumers, Costs: map[string]*float64{}, Rows: []shareDoc{}, Assumptions: a.sensitivityAssumptions()}
	for i, l := range a.lanes {
		doc.Sensitivity.Costs[l.String()] = ratio(a.cost(i))
	}
	for _, r := range a.rows {
		if len(a.lanes) == 0 {
			break // no table
		}
		ordered, unordered := konvoy.SplitRate(a.o.Peak, r.share)
		row := shareDoc{Share: RoundShare(r.share), Labels: append([]string{}, r.labels...), Ordered: RoundAmount(ordered),
			Unordered: RoundAmount(unordered), Multipliers: map[string]*float64{}}
		for i, l := range a.lanes {
			row.Multipliers[l.String()] = ratio(a.multiplier(i, r.share))
		}
		doc.Sensitivity.Rows = append(doc.Sensitivity.Rows, row)
	}
	doc.Partitions = partitionDoc{Collision: a.o.Collision, MaxPartitions: a.o.MaxPartitions, Found: a.found,
		Partitions: p.Partitions, Used: p.Used, HeaviestPartition: p.HeaviestPartition,
		HeaviestLoad: p.HeaviestLoad, HeaviestKey: p.HeaviestKey, HeaviestKeyLoad: p.HeaviestKeyLoad,
		CollisionShare: RoundShare(p.CollisionShare()), Assumptions: a.partitionAssumptions()}

	if err := checkJSONText(doc); err != nil {
		return "", err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return "", err
	}
	return b.String(), nil
}

// peakJSON is the plan's peak rate for JSON: -peak as given, or the
// trace's own mean rate rounded as RoundAmount rounds rates.
func (a *Plan) peakJSON() float64 {
	if a.o.PeakGiven {
		return a.o.Peak
	}
	return RoundAmount(a.o.Peak)
}

// jsonRate is a rate for JSON, rounded as RoundAmount does, or nil when no
// run bounds it.
func jsonRate(r float64) *float64 {
	if math.IsInf(r, 1) {
		return nil
	}
	x := RoundAmount(r)
	return &x
}

// sloJSON is the latency plan p for JSON, with the assumptions every
// latency plan shares first.
func (a *Plan) sloJSON(p konvoy.LatencyPlan) *sloDoc {
	on := "response"
	if p.SLO.Wait {
		on = "wait"
	}
	d := &sloDoc{Percentile: p.SLO.Percentile, On: on, TargetRounds: p.SLO.Rounds, Meets: p.Meets, Consumers: p.Consumers,
		AchievedRounds: p.Achieved, Utilisation: RoundShare(p.Utilisation), WorstLane: p.WorstLane, FloorRounds: p.Floor,
		FloorLane: p.FloorLane, AchievedFloor: p.AtFloor, ArrivalSpan: p.Span, LoadFloor: p.LoadFloor, ShortTrace: p.ShortTrace,
		OverloadedLane: p.OverloadedLane, OverloadedWork: p.OverloadedWork, Curve: []sloPointDoc{}, Assumptions: append(a.sloAssumptions(), p.Assumptions...)}
	if p.Rate > 0 {
		d.ArrivalRate = &p.Rate
	}
	for _, pt := range p.Curve {
		d.Curve = append(d.Curve, sloPointDoc{pt.Consumers, pt.Rounds})
	}
	return d
}

// ratio is a cost or multiplier, to three decimals, for the JSON: nil,
// written null, for 0, which konvoy.Cost and the formula return where the
// ratio is undefined (no event takes time, or none is an ordered step), as
// the text says, where a defined one is above 0.
func ratio(v float64) *float64 {
	if v == 0 {
		return nil
	}
	r := Round3(v)
	return &r
}
