package kafka

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"

	"github.com/sirali-konvoy/konvoy/live"
	"github.com/twmb/franz-go/pkg/kgo"
)

// The headers a dead-letter record carries after the failed record's own
// (see [DeadLetterRecord]), each value text: the error's as its Error
// method gives it (bytes as they are), the others decimal digits but the
// topic's name.
const (
	// HeaderError is the last attempt's error, as its Error method says.
	HeaderError = "konvoy-error"
	// HeaderAttempts is how many times the record was tried, in decimal.
	HeaderAttempts = "konvoy-attempts"
	// HeaderTopic, HeaderPartition and HeaderOffset name the failed
	// record; HeaderTimestamp is its timestamp in Unix milliseconds; all
	// in decimal but the topic.
	HeaderTopic     = "konvoy-topic"
	HeaderPartition = "konvoy-partition"
	HeaderOffset    = "konvoy-offset"
	HeaderTimestamp = "konvoy-timestamp"
)

// WithDeadLetterTopic sets the topic to which the consumer produces a
// record whose last attempt failed (after [live.WithRetry]'s attempts),
// as [DeadLetterRecord] makes it, with the consumer's own client and its
// producer options: it waits for the produce to be acknowledged, which
// franz-go retries as the client's options say (kgo.RecordRetries,
// kgo.RecordDeliveryTimeout, kgo.UnknownTopicRetries: a topic that does
// not exist fails after a few metadata refreshes). Only once the produce
// succeeded does the record count as finished and its offset may be
// committed. A produce that fails stops the consumer as a failed record
// does without a dead letter: [Consumer.Run] returns an error naming the
// record and the produce's error, having committed only offsets below the
// record; unless the record's partition was revoked or lost by the time
// the produce failed: the record is then dropped, and the next owner
// reads it again. The record's lane waits meanwhile, as it does for
// retries (a record whose event the executor refused runs in no lane:
// see [WithDeadLetter]), and a revocation waits for the produce as for a handler; a
// record whose partition was revoked before its produce started is not
// produced (the next owner reads it again). A produce already sent is
// not cut short when Run's context ends: franz-go cannot take back a
// record in flight, so Run may wait past [WithCloseTimeout] until
// franz-go has its answer or gives it up, as the client's options say
// (kgo.ProduceRequestTimeout, kgo.RecordDeliveryTimeout): a review
// measured 2.9 s for a broker that answered in 3 s, with a close timeout
// of 200 ms. It
// costs one acknowledged produce per failed record, on the consumer that
// ran it.
//
// The topic must not be empty, and New refuses a topic the consumer also
// reads (one of kgo.ConsumeTopics, or under kgo.ConsumeRegex one they
// match and kgo.ConsumeExcludeTopics do not), which would bring failed
// records round again. New refuses WithDeadLetterTopic together with
// [WithDeadLetter]: to do more than produce (to log, to count), give
// WithDeadLetter a function that produces DeadLetterRecord itself.
func WithDeadLetterTopic(topic string) Option {
	return func(c *config) {
		if topic == "" {
			c.errs = append(c.errs, errors.New("WithDeadLetterTopic: the topic is empty"))
		}
		c.deadTopic = topic
	}
}

// readsTopic tells whether cl consumes topic: it is one of
// kgo.ConsumeTopics, or, under kgo.ConsumeRegex, matches one of them, as
// franz-go matches (anywhere in the name), and none of
// kgo.ConsumeExcludeTopics.
func readsTopic(cl *kgo.Client, topic string) bool {
	topics, _ := cl.OptValue(kgo.ConsumeTopics).([]string)
	if regex, _ := cl.OptValue(kgo.ConsumeRegex).(bool); !regex {
		return slices.Contains(topics, topic)
	}
	excluded, _ := cl.OptValue(kgo.ConsumeExcludeTopics).([]string)
	return matchesAny(topics, topic) && !matchesAny(excluded, topic)
}

// matchesAny tells whether one of patterns, regular expressions that
// kgo.NewClient compiled, matches topic.
func matchesAny(patterns []string, topic string) bool {
	for _, p := range patterns {
		if re, err := regexp.Compile(p); err == nil && re.MatchString(topic) {
			return true
		}
	}
	return false
}

// DeadLetterRecord returns the record that [WithDeadLetterTopic] produces
// to topic for r, whose last attempt failed with err: r's key, value and
// headers but for the six headers named above, which a record read from a
// dead-letter topic carries from its earlier failure, then the headers
// [HeaderError] and [HeaderAttempts] (from the
// [*live.ItemError] in err: its Err and Attempts; for an err that holds
// none, err itself and no attempts header; for a nil err, neither), and
// [HeaderTopic], [HeaderPartition], [HeaderOffset] and [HeaderTimestamp]
// naming r. Its timestamp is left for the producer to set, and its
// partition to the client's partitioner. So each of the six appears
// once, naming this failure and r, whatever r went through before. The
// key, value and header values share r's memory; r is not changed.
func DeadLetterRecord(topic string, r *kgo.Record, err error) *kgo.Record {
	hs := make([]kgo.RecordHeader, 0, len(r.Headers)+6)
	for _, h := range r.Headers {
		switch h.Key {
		case HeaderError, HeaderAttempts, HeaderTopic, HeaderPartition, HeaderOffset, HeaderTimestamp:
		default:
			hs = append(hs, h)
		}
	}
	var ie *live.ItemError
	switch {
	case errors.As(err, &ie) && ie.Err != nil:
		hs = append(hs, header(HeaderError, handlerError(ie.Err).Error()), header(HeaderAttempts, strconv.Itoa(ie.Attempts)))
	case ie != nil: // an ItemError without its cause: none to name
		hs = append(hs, header(HeaderAttempts, strconv.Itoa(ie.Attempts)))
	case err != nil:
		hs = append(hs, header(HeaderError, err.Error()))
	}
	hs = append(hs,
		header(HeaderTopic, r.Topic),
		header(HeaderPartition, strconv.FormatInt(int64(r.Partition), 10)),
		header(HeaderOffset, strconv.FormatInt(r.Offset, 10)),
		header(HeaderTimestamp, strconv.FormatInt(r.Timestamp.UnixMilli(), 10)))
	return &kgo.Record{Topic: topic, Key: r.Key, Value: r.Value, Headers: hs}
}

// header returns the header key: value.
func header(key, value string) kgo.RecordHeader {
	return kgo.RecordHeader{Key: key, Value: []byte(value)}
}

// produceDead is the dead letter of WithDeadLetterTopic: it produces
// DeadLetterRecord of r and waits for the broker's acknowledgement,
// returning an error naming r when the produce failed.
func (c *Consumer) produceDead(ctx context.Context, r *kgo.Record, err error) error {
	d := DeadLetterRecord(c.cfg.deadTopic, r, err)
	if perr := c.cl.ProduceSync(ctx, d).FirstErr(); perr != nil {
		return fmt.Errorf("kafka: producing record %s/%d at offset %d to dead-letter topic %q: %w",
			r.Topic, r.Partition, r.Offset, c.cfg.deadTopic, perr)
	}
	return nil
}
