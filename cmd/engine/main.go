// Command engine runs the hall's game engines as standalone programs that
// speak the standard engine protocols on stdin and stdout:
//
//	engine nboard    Othello, the NBoard protocol (play inside the NBoard GUI)
//	engine gomocup   Gomoku, the Gomocup / Piskvork protocol
//
// Both read commands line by line and keep reading while they search, so a
// GUI can interrupt a search at any time.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/boardhall/boardhall/cmd/engine/gomocup"
	"github.com/boardhall/boardhall/cmd/engine/nboard"
)

const usage = `usage: engine <protocol>

protocols:
  nboard    Othello engine speaking the NBoard protocol on stdin/stdout
  gomocup   Gomoku engine speaking the Gomocup (Piskvork) protocol on stdin/stdout
`

func main() {
	if len(os.Args) != 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	var err error
	switch os.Args[1] {
	case "nboard":
		err = nboard.Run(ctx, os.Stdin, os.Stdout)
	case "gomocup":
		err = gomocup.Run(ctx, os.Stdin, os.Stdout)
	default:
		fmt.Fprintf(os.Stderr, "engine: unknown protocol %q\n\n%s", os.Args[1], usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "engine %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}
