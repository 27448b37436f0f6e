// Package synth generates synthetic event traces for konvoy: streams of
// [konvoy.Event] with a chosen number of keys, lines, steps per key,
// interleaving, skew, durations, arrival rate and producer disorder, the same
// for a given [Config] on every run and every platform.
//
// # The model
//
// A key (an entity, such as a shipment) lives through lifecycles of
// [Config.StepsPerKey] events each. [Config.OrderedSteps] of them are ordered
// steps, numbered 1 to OrderedSteps in the key's first lifecycle; the others
// are history-only records (Step 0) spread evenly between them, so 7 steps of
// which 4 are ordered come out as 1, 0, 2, 0, 3, 0, 4. A key's next lifecycle
// goes on numbering where the last one stopped (5, 0, 6, 0, 7, 0, 8), so its
// ordered steps keep rising and a new lifecycle is never a backward step.
//
// The stream holds [Config.Events] events in all. They come from
// ⌈Events/StepsPerKey⌉ lifecycles, shared out among the [Config.Keys] key
// names in proportion to a Zipf law with exponent [Config.KeySkew]: the key
// of rank r (1 for the first key, "K…01") gets a share proportional to
// r^−KeySkew. The shares are rounded to whole lifecycles by systematic
// apportionment, so each key gets its exact share up to one lifecycle and the
// counts add up. With KeySkew 0 every key gets the same number of
// lifecycles, give or take one; with 10M events, 7 steps per key and 1.5M
// keys that is one lifecycle each for 1,428,572 of the keys. Skew thus means
// that hot keys live through more lifecycles, and so write more events, not
// that they write faster within one.
//
// Lifecycles enter a window of [Config.InFlight] lifecycles in flight. With
// KeySkew 0 they enter in key order, round robin (key 1, 2, …, Keys, then key
// 1's second lifecycle, …); otherwise each key's lifecycles enter evenly
// spread over the stream, at a random phase per key (stride scheduling), so
// a hot key writes all through the stream, not in one burst. Each event is
// the next event of a lifecycle chosen uniformly at random from the window.
// A key writes one lifecycle at a time, in order: when a lifecycle of a key
// that is already in flight enters, it queues behind the one in flight, and
// the key is chosen for the next event with the weight of all its
// lifecycles in the window. A key with a share p of the lifecycles so has
// about p·InFlight of them in the window and writes a share p of the events
// at every point of the stream. When a lifecycle ends, the next one enters;
// with InFlight 1 the stream is one lifecycle after another. The stream stops
// after exactly Events events, so the last lifecycles may be cut short (by
// fewer than StepsPerKey events in all) and keys whose share rounds to no
// lifecycle do not appear.
//
// Every key belongs to one line for good, chosen from [Config.Lines] lines by
// a Zipf law with exponent [Config.LineSkew] at a point that depends only on
// the key and the seed (a golden-ratio sequence), so lines get their shares
// of the keys evenly, not just on average.
//
// With probability [Config.OutOfOrder] the producer swaps an ordered step
// with the next ordered step of the same lifecycle: it emits step k+1 where
// step k belonged and step k where k+1 did. A step already moved by a swap is
// not swapped again, and the last ordered step of a lifecycle, having no
// successor in it, is never the first of a swap. History-only records stay
// in place.
//
// Each event's Duration is drawn from [Config.Duration], a [Dist], and
// rounded half up to whole rounds. Arrival is 0 for every event when
// [Config.Rate] is 0 (a batch, as in the lesson); otherwise events arrive as
// a Poisson process of Rate events per round, with optional bursts in which
// the rate is multiplied by [Config.BurstFactor] for [Config.BurstLen]
// rounds out of every [Config.BurstEvery], and an event's Arrival is the
// round it arrives in (the whole part of its arrival time), so arrivals never
// decrease.
//
// # Determinism
//
// [Events] draws from math/rand/v2's PCG generators seeded from
// [Config.Seed], one per concern (which lifecycle writes next, swaps,
// durations, arrivals, key shares, lines), so changing one setting, such as
// OutOfOrder, leaves the draws of the others as they were: the same keys,
// durations and arrivals, only some steps swapped. It never uses the global
// generator or map iteration order, and it computes logarithms and
// exponentials with its own code rather than math.Log and math.Exp, whose
// assembly versions on some architectures may differ in the last bit; every
// product that feeds a sum is rounded explicitly, so no platform may fuse it
// into a multiply-add. The same Config therefore gives the same events, byte
// for byte, on every platform where [Config.Check] accepts it.
//
// # Cost
//
// Memory grows with the keys and lines the stream uses and the lifecycles in
// flight, not with the number of events, nor with Keys or Lines as such but
// for the tables of skewed counts:
//
//   - Names: each takes 1 + the digits of Keys (or Lines) bytes, and is made
//     when its key, or the first key on its line, enters the window. Events
//     keeps them, in blocks of 4,096 consecutive ranks made when one of them
//     is first needed, when there are at most 2,097,152 keys or 65,536
//     lines; as keys without skew enter in rank order, that is the names of
//     the keys entered so far, give or take a block. Past those counts it
//     keeps none, and makes a name again each time its key enters the window,
//     4,096 names to a buffer, so that it holds one buffer whatever the
//     counts.
//   - With KeySkew > 0, 40 bytes and the name of each key with a share, at
//     most min(Keys, lifecycles) of them, worked out in O(Keys) time before
//     the first event, with Keys at most [MaxSkewedKeys]: about a second.
//   - With LineSkew > 0, 8 bytes per line, worked out in O(Lines) time, with
//     Lines at most [MaxSkewedLines]: 8 MiB.
//   - About 80 to 100 bytes per lifecycle in flight, min(InFlight,
//     lifecycles) of them (a slot, a ticket and a place in a hash index of
//     the keys in flight), with InFlight at most [MaxInFlight]: about 100
//     MB; and 4 bytes per step of a lifecycle.
//
// For [Default] that is about 11.5 MB, most of it the names of 1,428,572 keys,
// made as they enter; [Config.Memory] adds it up for a Config. It sets up in O(min(InFlight, lifecycles)) time, plus
// the skews', and then takes some tens of nanoseconds per event, O(log Keys)
// more per lifecycle with KeySkew > 0. It allocates while it runs only to
// make names, once per 4,096 of them, never per event: with keys that come
// back, not at all once all have entered.
package synth
