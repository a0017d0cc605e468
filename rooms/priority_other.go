//go:build !linux

package rooms

// lowerPriority does nothing where threads have no priority of their own.
func lowerPriority() {}
