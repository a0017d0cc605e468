//go:build !linux

package redistest

import "os/exec"

// dieWithParent is a no-op where the OS offers no parent-death signal.
func dieWithParent(cmd *exec.Cmd) {}
