package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The machine the tool shares with the server (and, on a shared machine, with everyone
// else's jobs). Latency measured here includes the time threads wait for a CPU, so every
// run reports how much of that there was, from Linux's own accounting.

// runQueueWait is the total time, in seconds, that this process's threads have spent
// runnable but waiting for a CPU (the second field of /proc/self/task/*/schedstat); 0
// where the kernel does not say.
func runQueueWait() float64 {
	paths, _ := filepath.Glob("/proc/self/task/*/schedstat")
	var total float64
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		total += parseSchedstatWait(string(data))
	}
	return total
}

// parseSchedstatWait reads the run-queue wait (ns) from a schedstat line
// "<on-cpu ns> <waiting ns> <timeslices>" and returns it in seconds.
func parseSchedstatWait(s string) float64 {
	f := strings.Fields(s)
	if len(f) < 2 {
		return 0
	}
	ns, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return float64(ns) / 1e9
}

// cpuPressure is the machine's cumulative CPU pressure stall time in seconds: the time in
// which at least one runnable task waited for a CPU (/proc/pressure/cpu, "some
// total="); 0 where the kernel has no pressure accounting.
func cpuPressure() float64 {
	data, err := os.ReadFile("/proc/pressure/cpu")
	if err != nil {
		return 0
	}
	return parsePressureTotal(string(data))
}

// parsePressureTotal reads the "some" line's total (µs) and returns it in seconds.
func parsePressureTotal(s string) float64 {
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != "some" {
			continue
		}
		for _, kv := range f[1:] {
			if v, ok := strings.CutPrefix(kv, "total="); ok {
				us, err := strconv.ParseUint(v, 10, 64)
				if err != nil {
					return 0
				}
				return float64(us) / 1e6
			}
		}
	}
	return 0
}
