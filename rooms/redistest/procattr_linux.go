package redistest

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes a started redis-server die with the test binary, so a server
// started for a plain `go test` run does not outlive it.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
