package rooms

import (
	"runtime"
	"syscall"
)

// botNice is the scheduling niceness of a bot worker's thread: the lowest priority, so
// that when the CPUs are busy the kernel runs the threads serving sockets first.
const botNice = 19

// lowerPriority pins the calling goroutine to its own OS thread and gives that thread
// the lowest CPU priority. Linux nice values are per thread, so only the bot worker is
// affected. With GOMAXPROCS above the number of CPUs (cmd/server adds one per bot
// worker) the Go scheduler always has a P free for the sockets, and the kernel decides
// who gets a CPU: people first.
func lowerPriority() {
	runtime.LockOSThread()
	syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), botNice)
}
