package gomoku

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"testing"
)

// TestGenPuzzles prints VCF puzzles from random games (GOMOKU_GEN=1).
func TestGenPuzzles(t *testing.T) {
	if os.Getenv("GOMOKU_GEN") == "" {
		t.Skip()
	}
	e := NewEngine()
	found := 0
	for seed := int64(100); found < 8 && seed < 3000; seed++ {
		rng := rand.New(rand.NewSource(seed))
		b, _ := NewBoard(15, Freestyle)
		b.Play(Point{7, 7})
		target := 12 + rng.Intn(30)
		for b.MoveCount() < target && !b.Over() {
			r, err := e.Search(context.Background(), b, Limits{Level: 1 + rng.Intn(2), Seed: seed*100 + int64(b.MoveCount())})
			if err != nil {
				break
			}
			b.Play(r.Best)
		}
		me := b.ToMove()
		if b.Over() || b.classCount[me][tFive] > 0 || b.classCount[me.Other()][tFive] > 0 || b.classCount[me][tFlex4] > 0 {
			continue
		}
		e.vcfBudget = 1 << 30
		if !e.vcf(b, 0, 0) {
			continue
		}
		n := (e.line.end + 1) / 2
		if n < 5 || n > 9 {
			continue
		}
		if _, ok := naiveVCF(b, n); !ok {
			fmt.Println("ORACLE DISAGREES", FormatRecord(b.Moves()))
			continue
		}
		// Shorter?
		short := n
		for k := 1; k < n; k++ {
			if _, ok := naiveVCF(b, k); ok {
				short = k
				break
			}
		}
		fmt.Printf("{%q, %d},\n", FormatRecord(b.Moves()), short)
		found++
	}
}
