package report

import "github.com/sirali-konvoy/konvoy"

// Dispatch returns the options of a run under policy p whose static
// policy deals lanes by assignor a, 0 for the layout's default, with more
// options after them.
func Dispatch(p konvoy.Policy, a konvoy.Assignor, more ...konvoy.Option) []konvoy.Option {
	opts := []konvoy.Option{konvoy.WithPolicy(p)}
	if a != 0 {
		opts = append(opts, konvoy.WithAssignor(a))
	}
	return append(opts, more...)
}
