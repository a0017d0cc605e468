//go:build !linux

package reversi

// adviseHugePages does nothing off Linux.
func adviseHugePages(entries []ttEntry) {}
