// Package floor holds a benchmark, and no code to import: the leanest
// lane-aware executor its authors could write, run on the load of
// package live's BenchmarkNoOp, to show how much of that benchmark's time
// per item any such executor pays on a machine, and how much is live's own.
//
// It measures the handoff alone: Submit finds an item's lane in a table
// only it writes, and hands the item to any free consumer through a
// bounded queue of small cells; each consumer tells Submit of its finished
// items through a ring of its own, which Submit reads every 64 items. It
// has none of live's failures, retries, offsets, statistics or Close, and
// it is correct only for lanes that seldom have two items held (the
// benchmark's), which Submit waits out rather than queues. Run it
// alternated with live's benchmarks, a process each:
//
//	go test -c -o floor.test ./live/internal/floor
//	go test -c -o live.test ./live
//	for i in $(seq 5); do
//		./floor.test -test.run '^$' -test.bench . -test.benchtime 1000000x
//		./live.test -test.run '^$' -test.bench 'NoOp$/(convoy|keyed)' -test.benchtime 1000000x
//	done
package floor
