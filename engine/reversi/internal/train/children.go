package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
)

// childrenConfig says whose children the children command writes.
type childrenConfig struct {
	minEmpties, maxEmpties int // write the children with this many empties (inclusive)
	every                  int // of a game's positions whose children are in range, take one in every
}

// runChildren is the "children" command. Self-play games hold positions
// reached by good moves, but a search evaluates mostly positions reached
// by poor ones: the siblings of the moves a game played. This command
// writes those siblings, every legal child of sampled game positions,
// unlabelled, for label to label and fit to train on beside the games.
func runChildren(args []string) error {
	fs := flag.NewFlagSet("children", flag.ExitOnError)
	in := fs.String("in", "", "games written by gen (or label)")
	out := fs.String("out", "", "samples to write: each game's start position, then the children, with score 0 (label them with label)")
	cfg := childrenConfig{}
	fs.IntVar(&cfg.minEmpties, "min", 29, "fewest empties of a child")
	fs.IntVar(&cfg.maxEmpties, "max", 36, "most empties of a child")
	fs.IntVar(&cfg.every, "every", 4, "take the children of one in this many of a game's positions in range (game g starts at its (g mod every)-th)")
	games := fs.Int("games", 0, "use only the first games of the file (0: all)")
	fs.Parse(args)
	if *in == "" || *out == "" {
		return fmt.Errorf("children: -in and -out are required")
	}
	if cfg.every < 1 || cfg.minEmpties < 1 || cfg.maxEmpties < cfg.minEmpties || cfg.maxEmpties > 59 {
		return fmt.Errorf("children: want -every at least 1 and 1 <= -min <= -max <= 59, have %d, %d, %d", cfg.every, cfg.minEmpties, cfg.maxEmpties)
	}
	samples, err := readGames(*in, *games)
	if err != nil {
		return err
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	ngames, n, err := children(cfg, samples, f)
	if err != nil {
		f.Close()
		return err
	}
	fmt.Fprintf(os.Stderr, "children: %d games, %d children at %d-%d empties\n", ngames, n, cfg.minEmpties, cfg.maxEmpties)
	return f.Close()
}

// children writes to w, for each game of samples, the game's start
// position and then every legal child of one in cfg.every of the game's
// positions whose children have cfg.minEmpties..cfg.maxEmpties empties
// (game g takes the (g mod every)-th, every-th after it, ...), scored 0.
// A child whose side to move must pass is written after the pass; one
// where neither side can move is left out. Keeping one output game per
// input game lets fit hold out the same games: appended to a file of a
// multiple of ten games, game g's children fall in the same tenth as g.
// It returns the games and the children written.
func children(cfg childrenConfig, samples []sample, w io.Writer) (games, written int, err error) {
	bw := bufio.NewWriter(w)
	buf := make([]byte, sampleBytes)
	put := func(s sample) error {
		s.encode(buf)
		_, err := bw.Write(buf)
		return err
	}
	game, k := -1, 0 // the current game, and its positions in range so far
	for _, s := range samples {
		if isStart(s) {
			game++
			k = 0
			if err := put(sample{black: s.black, white: s.white, toMove: s.toMove}); err != nil {
				return 0, 0, err
			}
		}
		if game < 0 {
			return 0, 0, fmt.Errorf("children: the samples do not start with a game's start position")
		}
		if e := empties(s) - 1; e < cfg.minEmpties || e > cfg.maxEmpties {
			continue
		}
		p := s.position()
		if p.MustPass() {
			continue
		}
		k++
		if (k-1)%cfg.every != game%cfg.every {
			continue
		}
		for _, sq := range p.LegalMoves() {
			c, err := p.Play(sq)
			if err != nil {
				return 0, 0, err
			}
			if c.GameOver() { // (MustPass is false then: neither side can move)
				continue
			}
			if c.MustPass() {
				if c, err = c.PlayPass(); err != nil {
					return 0, 0, err
				}
			}
			if err := put(sample{black: c.Black(), white: c.White(), toMove: c.ToMove()}); err != nil {
				return 0, 0, err
			}
			written++
		}
	}
	return game + 1, written, bw.Flush()
}
