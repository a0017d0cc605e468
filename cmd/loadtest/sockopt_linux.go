package main

import "syscall"

// ipBindAddressNoPort is Linux's IP_BIND_ADDRESS_NO_PORT (linux/in.h; not in package
// syscall): binding a source address then leaves the port to connect, which picks one
// unique for the whole (source, destination) pair. Without it bind must find a port that
// no socket on the source address holds, and the TIME_WAIT sockets of the previous run
// hold most of them.
const ipBindAddressNoPort = 24

// bindNoPort is a net.Dialer Control function that sets IP_BIND_ADDRESS_NO_PORT.
func bindNoPort(network, address string, c syscall.RawConn) error {
	var opErr error
	err := c.Control(func(fd uintptr) {
		opErr = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_IP, ipBindAddressNoPort, 1)
	})
	if err != nil {
		return err
	}
	return opErr
}
