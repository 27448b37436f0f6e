package chart

import "fmt"

// checkLayout checks the layout name of series i of the picture fn: present,
// and not seen before in seen, to which it is added.
func checkLayout(fn string, i int, layout string, seen map[string]bool) error {
	if layout == "" {
		return fmt.Errorf("chart: %s: series %d: empty Layout", fn, i)
	}
	if seen[layout] {
		return fmt.Errorf("chart: %s: series %d: Layout %q appears twice", fn, i, layout)
	}
	seen[layout] = true
	return nil
}
