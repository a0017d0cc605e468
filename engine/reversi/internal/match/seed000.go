package match

import (
	"context"
	"math/bits"
	"sort"

	"github.com/boardhall/boardhall/engine/reversi"
)

// seed000Weights is the square-weight table of seed article 000, row 1 first:
// corners 2^24, the squares beside and diagonal to a corner 1, the rest
// between (its numbers; our code).
var seed000Weights = func() [64]int64 {
	quarter := [4][4]int64{
		{1 << 24, 1, 1 << 20, 1 << 16},
		{1, 1, 1 << 16, 1 << 4},
		{1 << 20, 1 << 16, 1 << 12, 1 << 8},
		{1 << 16, 1 << 4, 1 << 8, 0},
	}
	var w [64]int64
	for r := 0; r < 8; r++ {
		for c := 0; c < 8; c++ {
			qr, qc := r, c
			if qr > 3 {
				qr = 7 - qr
			}
			if qc > 3 {
				qc = 7 - qc
			}
			w[r*8+c] = quarter[qr][qc]
		}
	}
	return w
}()

// seed000Order is every square by decreasing weight (corners first), the
// order in which the seed's search tries moves.
var seed000Order = func() []int {
	o := make([]int, 64)
	for i := range o {
		o[i] = i
	}
	sort.SliceStable(o, func(i, j int) bool { return seed000Weights[o[i]] > seed000Weights[o[j]] })
	return o
}()

// Seed000 plays by the method of seed article 000: the value of a line of
// play is the sum of the table weights of the squares taken, the player's
// own positive and the opponent's negative; it searches that value with
// alpha-beta to Depth plies (the article's 9) trying moves in weight order,
// and whenever the side to move can take a corner it does so at once,
// without searching further (the article's "corner first" shortcut). A pass
// adds nothing; a finished game ends the line.
type Seed000 struct {
	Depth int
}

// Name returns "seed000".
func (s *Seed000) Name() string { return "seed000" }

// Move returns the seed method's choice.
func (s *Seed000) Move(ctx context.Context, p reversi.Position) (reversi.Square, error) {
	moves := p.Moves()
	for _, sq := range seed000Order[:4] {
		if moves&(1<<uint(sq)) != 0 {
			return reversi.Square(sq), nil
		}
	}
	best, bestScore := -1, int64(-1<<62)
	alpha, beta := int64(-1<<62), int64(1<<62)
	for _, sq := range seed000Order {
		if moves&(1<<uint(sq)) == 0 {
			continue
		}
		q, _ := p.Play(reversi.Square(sq))
		v := seed000Weights[sq] - s.search(q, s.Depth-1, -beta, -alpha)
		if v > bestScore {
			best, bestScore = sq, v
			if v > alpha {
				alpha = v
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return reversi.Pass, err
	}
	return reversi.Square(best), nil
}

// search returns the best path value for the side to move in p (negamax).
func (s *Seed000) search(p reversi.Position, depth int, alpha, beta int64) int64 {
	if depth <= 0 {
		return 0
	}
	moves := p.Moves()
	if moves == 0 {
		if p.GameOver() {
			return 0
		}
		q, _ := p.PlayPass()
		return -s.search(q, depth-1, -beta, -alpha)
	}
	if c := moves & 0x8100000000000081; c != 0 {
		return seed000Weights[bits.TrailingZeros64(c)] // a corner ends the line
	}
	best := int64(-1 << 62)
	for _, sq := range seed000Order[4:] {
		if moves&(1<<uint(sq)) == 0 {
			continue
		}
		q, _ := p.Play(reversi.Square(sq))
		v := seed000Weights[sq] - s.search(q, depth-1, -beta, -alpha)
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if v >= beta {
					break
				}
			}
		}
	}
	return best
}
