package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirali-konvoy/konvoy"
	"github.com/sirali-konvoy/konvoy/internal/replay"
	"github.com/sirali-konvoy/konvoy/internal/report"
	"github.com/sirali-konvoy/konvoy/kafka"
	"github.com/sirali-konvoy/konvoy/live"
	"github.com/twmb/franz-go/pkg/kgo"
)

// topicOptions are konvoy replay's flags for replaying a Kafka topic.
type topicOptions struct {
	brokers       stringList
	topic, group  string
	session, idle time.Duration
}

// topicFetchMaxBytes bounds the bytes of records, compressed, that one
// fetch of the topic asks a broker for, over all its partitions, as each
// partition is by default: franz-go keeps a fetch, decoded, until the
// last of its records is polled, and under its default of 50 MiB a fetch
// (1 MiB a partition) small compressible records held far more memory
// than the records held (docs/replay.md, "Memory").
const topicFetchMaxBytes = 1 << 20

// defaultSessionTimeout is Kafka's default group session timeout
// (group.consumer.session.timeout.ms), which -session-timeout sets.
const defaultSessionTimeout = 45 * time.Second

// topicFlags defines konvoy replay's flags for a topic, and the rules
// between them, -events and the trace flags; it sets source, what the
// trace flags read, to events or to the topic's name.
func (c *command) topicFlags(t *topicOptions, events, source *string) {
	c.Var(&t.brokers, "brokers", "replay the topic -topic, consuming it from the Kafka brokers `ADDR,...` as a member of the group -group, instead of -events")
	c.StringVar(&t.topic, "topic", "", "the `topic` to replay, with -brokers")
	c.StringVar(&t.group, "group", "", "the consumer `group` to join, with -brokers: it starts at its committed offsets, or at the topic's start, and commits what it handled")
	c.DurationVar(&t.session, "session-timeout", defaultSessionTimeout, "the group's session timeout, with -brokers (Kafka's default)")
	c.DurationVar(&t.idle, "idle", 0, "with -brokers, stop once the group's lag on the topic is 0 and no record came for `DURATION`; without it, run until SIGINT or SIGTERM")
	c.needs("brokers", "topic", "group", "session-timeout", "idle")
	c.rule(func() error {
		switch {
		case !c.given["brokers"]:
			*source = *events
			return nil
		case c.given["events"]:
			return c.usagef("-events and -brokers both name what to replay; want one")
		}
		*source = "topic " + t.topic
		return c.checkTopic(t)
	})
}

// heartbeat is the member's heartbeat interval, franz-go's default: a
// session timeout must be longer.
const heartbeat = 3 * time.Second

// maxSession is the longest session timeout Kafka takes: whole
// milliseconds in 32 bits.
const maxSession = math.MaxInt32 * time.Millisecond

// checkTopic checks the flags of a replay of a topic.
func (c *command) checkTopic(t *topicOptions) error {
	switch {
	case len(t.brokers) == 0 || t.brokers[0] == "":
		return c.usagef("-brokers is empty; want the brokers' addresses, HOST:PORT,...")
	case t.topic == "":
		return c.usagef("-brokers needs -topic, the topic to replay")
	case t.group == "":
		return c.usagef("-brokers needs -group, the consumer group to join")
	case t.session <= heartbeat || t.session > maxSession || t.session%time.Millisecond != 0:
		return c.usagef("-session-timeout is %v; want whole milliseconds, more than %v, the member's heartbeat interval (and at least the broker's group.min.session.timeout.ms, 6s unless set), and at most %v, as Kafka takes it", t.session, heartbeat, maxSession)
	case c.given["idle"] && t.idle <= 0: // -idle 0 is given, so not "without it", yet no time to wait
		return c.usagef("-idle is %v; want a duration above 0, or none to run until SIGINT or SIGTERM", t.idle)
	case !c.given["duration"] && !c.isSet("duration-model"):
		return c.usagef("-brokers needs -duration COL (a field of the record's kcat -J line, such as payload.ms) or -duration-model DIST: records have no duration field")
	}
	return c.checkTopicReading(t)
}

// checkTopicReading checks the flags of a replay of a topic beyond
// checkTopic's: the brokers' addresses, and the trace flags that a
// topic's records do not take.
func (c *command) checkTopicReading(t *topicOptions) error {
	for _, b := range t.brokers {
		if strings.TrimSpace(b) == "" {
			return c.usagef("-brokers %q has an empty address; want HOST:PORT,...", t.brokers.String())
		}
	}
	for _, f := range []string{"at", "at-format", "reorder", "late"} {
		if c.given[f] {
			return c.usagef("-%s: a replay of a topic takes each record's arrival as the time it was consumed; want no -%s with -brokers", f, f)
		}
	}
	if c.given["input"] {
		return c.usagef("-input: a topic's records are read as their kcat -J lines, JSON; want no -input with -brokers")
	}
	return nil
}

// runTopic is konvoy replay -brokers: it consumes the topic as a member of
// the group through package kafka, each record's handler taking its
// event's duration × -unit, until -idle finds the group caught up or
// SIGINT or SIGTERM comes; then it drains, commits, leaves the group and
// prints the simulator's prediction for the records as consumed, each
// arriving when it was, beside the measured run.
func runTopic(opt replayOptions, stdout, stderr io.Writer) int {
	mapper, err := kafka.NewMapper(opt.reader)
	if err != nil {
		return exitStatus(fmt.Errorf("konvoy replay: %w", err), stderr)
	}
	sigs := notifySignals()
	defer signal.Stop(sigs)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	// A stop drains whatever the records held take (a second signal stops
	// at once), rather than cancel them after package kafka's
	// DefaultCloseTimeout and report no run.
	end := watchSignals(sigs, func(sig os.Signal) {
		fmt.Fprintf(stderr, "konvoy replay: %v: draining, committing and leaving the group\n", sig)
		stop()
	})
	var trace *replay.Trace
	var run *replay.Run
	var notRun int
	err = withApplied(opt.applied, func(applied *os.File) (err error) {
		trace, run, notRun, err = consumeTopic(ctx, stop, opt, mapper, applied, stderr)
		return err
	})
	sig := end()
	if err != nil {
		return exitStatus(err, stderr)
	}
	defer trace.Close()
	defer run.Close()
	// A topic's notes, known once its records were read: with none, no
	// status went unused.
	unused := trace.Events > 0 && report.StatusesUnused(opt.reader, mapper.StatusSteps())
	printNotes(stderr, readingNotes(trace.Rounded, unused, opt.reader))
	if trace.Events == 0 {
		fmt.Fprintf(stderr, "konvoy replay: no record came from topic %s before the stop: the report covers none\n", opt.topic.topic)
	}
	if notRun > 0 {
		fmt.Fprintf(stderr, "konvoy replay: %s consumed did not run here (revoked before they ran, or finished by an earlier member of the group): they take no time in the measured run, their planned time in the predictions\n",
			report.Plural(notRun, "record", "records"))
	}
	_, err = writeReport(trace, run, opt, sig, sigs, stdout, stderr)
	return exitStatus(err, stderr) // a stop by a signal exits 0
}

// consumeTopic runs the group member until it stops, by -idle or by stop
// (ctx's), and returns the records it took as a trace, the run, and how
// many of them did not run here.
func consumeTopic(ctx context.Context, stop func(), opt replayOptions, mapper *kafka.Mapper, applied *os.File, stderr io.Writer) (*replay.Trace, *replay.Run, int, error) {
	var w io.Writer
	if applied != nil {
		w = applied
	}
	t := opt.topic
	stream, err := replay.NewStream("topic "+t.topic, opt.Config, w, nil)
	if err != nil {
		return nil, nil, 0, err
	}
	noteUnreachable(ctx, t.brokers, t.idle, stderr)
	src := &topicSource{mapper: mapper, stream: stream}
	src.last.Store(time.Now().UnixNano())
	kopts := []kgo.Opt{kgo.SeedBrokers(t.brokers...), kgo.ConsumerGroup(t.group), kgo.ConsumeTopics(t.topic),
		kgo.SessionTimeout(t.session), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchMaxBytes(topicFetchMaxBytes),
		kgo.FetchIsolationLevel(kgo.ReadCommitted())} // as kcat reads an export: no aborted transaction's records
	// A stop drains whatever the records held take (see runTopic).
	c, err := kafka.New(kopts, opt.Layout, opt.Consumers, src.event, src.handle,
		kafka.WithExecutor(opt.LiveOptions()...), kafka.WithMaxHeld(opt.HeldMost()),
		kafka.WithCloseTimeout(math.MaxInt64))
	if err != nil {
		_, _, _, _ = stream.Close(live.Stats{})
		return nil, nil, 0, fmt.Errorf("konvoy replay: %w", err)
	}
	stopWhen := "SIGINT or SIGTERM stops it"
	if t.idle > 0 {
		stopWhen = fmt.Sprintf("it stops once the group's lag is 0 and no record came for %v, or on SIGINT or SIGTERM", t.idle)
	}
	fmt.Fprintf(stderr, "konvoy replay: consuming topic %s as a member of group %s; %s, then drains, commits and leaves the group\n", t.topic, t.group, stopWhen)
	var idleErr error
	var idled sync.WaitGroup
	if t.idle > 0 {
		idled.Add(1)
		go func() {
			defer idled.Done()
			idleErr = src.watchIdle(ctx, stop, c, t.topic, t.idle)
		}()
	}
	rerr := c.Run(ctx)
	stop()
	idled.Wait()
	trace, run, notRun, err := stream.Close(c.Stats())
	if runErr := errors.Join(rerr, idleErr); runErr != nil {
		err = runErr // what stopped the run, not what it left (no records, say)
	}
	if err != nil {
		if trace != nil {
			trace.Close()
			run.Close()
		}
		return nil, nil, 0, fmt.Errorf("konvoy replay: %w", err)
	}
	return trace, run, notRun, nil
}

// brokerPing bounds noteUnreachable's wait for a broker's answer.
const brokerPing = 5 * time.Second

// noteUnreachable says on stderr when no broker of brokers answers within
// brokerPing, so that a wrong address does not pass for an empty topic;
// the replay goes on, its member trying the brokers until the stop, as
// Kafka's own consumers do, or, with -idle (idle above 0), until the idle
// check, which ends the replay with its error if it reaches no broker
// either. It says nothing once ctx has ended.
func noteUnreachable(ctx context.Context, brokers []string, idle time.Duration, stderr io.Writer) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers...))
	if err != nil {
		return // kafka.New refuses the same options, saying why
	}
	defer cl.Close()
	pctx, cancel := context.WithTimeout(ctx, brokerPing)
	defer cancel()
	if err := cl.Ping(pctx); err != nil && ctx.Err() == nil {
		if pctx.Err() != nil {
			err = fmt.Errorf("none within %v", brokerPing)
		}
		until := "the stop"
		if idle > 0 {
			until = fmt.Sprintf("-idle's check, once no record came for %v, which ends the replay with an error if no broker answers it", idle)
		}
		fmt.Fprintf(stderr, "konvoy replay: no broker of -brokers %s answered (%v); the member keeps trying until %s\n", strings.Join(brokers, ","), err, until)
	}
}

// topicSource maps a topic's records to the Stream's items: each record
// once, when the consumer first asks for its event (as it submits it),
// which stamps its arrival.
type topicSource struct {
	mapper *kafka.Mapper
	stream *replay.Stream
	mu     sync.Mutex   // guards the records' Context
	last   atomic.Int64 // when the last record came, Unix nanoseconds
}

// sourced is a record as the Stream took it, or why it was not.
type sourced struct {
	it  replay.StreamItem
	err error
}

// sourcedKey is the key of a record's sourced value in its Context.
type sourcedKey struct{}

// item returns r as the Stream took it, mapping and adding it the first
// time, with the values the mapper rounded in it (-round), which the
// Stream counts once for a record fetched again.
func (s *topicSource) item(r *kgo.Record) *sourced {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.Context != nil {
		if v, ok := r.Context.Value(sourcedKey{}).(*sourced); ok {
			return v
		}
	}
	s.last.Store(time.Now().UnixNano())
	v := new(sourced)
	rounded := s.mapper.Rounded() // the mapper's count so far: r's are those Event adds to it
	e, err := s.mapper.Event(r)
	if err == nil {
		v.it, err = s.stream.Add(e, int(r.Partition), r.Offset, s.mapper.Rounded()-rounded)
		if err != nil {
			err = fmt.Errorf("%s: %w", kafka.Where(r), err)
		}
	}
	v.err = err
	parent := r.Context
	if parent == nil {
		parent = context.Background()
	}
	r.Context = context.WithValue(parent, sourcedKey{}, v)
	return v
}

// event is the consumer's event function: a record that did not map runs
// in no lane, and fails in its handler.
func (s *topicSource) event(r *kgo.Record) konvoy.Event {
	v := s.item(r)
	if v.err != nil {
		return konvoy.Event{}
	}
	return v.it.Event()
}

// handle is the consumer's handler: the Stream's, or the error of a record
// that did not map, which stops the consumer (a replay has no dead
// letter).
func (s *topicSource) handle(ctx context.Context, r *kgo.Record) error {
	v := s.item(r)
	if v.err != nil {
		return v.err
	}
	return s.stream.Handle(ctx, v.it)
}

// watchIdle stops the run, calling stop, once no record came for idle,
// the consumer holds none, and its group has no lag on topic; it checks
// four times an idle period, until ctx ends. It returns the lag check's
// error, having stopped the run, if one fails.
func (s *topicSource) watchIdle(ctx context.Context, stop func(), c *kafka.Consumer, topic string, idle time.Duration) error {
	tick := time.NewTicker(max(idle/4, time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		if time.Since(time.Unix(0, s.last.Load())) < idle {
			continue
		}
		if st := c.Stats(); st.Held+st.InFlight > 0 {
			continue
		}
		up, err := c.CaughtUp(ctx, topic)
		if ctx.Err() != nil || errors.Is(err, kgo.ErrClientClosed) {
			return nil // the run ended meanwhile, and says why
		}
		if err != nil || up {
			stop()
			return err
		}
	}
}
