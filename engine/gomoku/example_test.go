package gomoku_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/boardhall/boardhall/engine/gomoku"
)

func ExampleBoard_Play() {
	b, _ := gomoku.NewBoard(15, gomoku.Freestyle)
	moves, _ := gomoku.ParseRecord("h8 h9 i8 i9 j8 j9 k8 k9 l8", b.Size())
	for _, m := range moves {
		if err := b.Play(m); err != nil {
			fmt.Println(err)
		}
	}
	c, over := b.Winner()
	fmt.Println(c, over, gomoku.FormatRecord(b.WinningLine()))
	// Output: black true h8i8j8k8l8
}

func ExampleBoard_IsLegal() {
	// Renju: black may not make two open threes at once.
	b, _ := gomoku.NewBoard(15, gomoku.Renju)
	moves, _ := gomoku.ParseRecord("f8 a1 g8 a3 h6 a5 h7 a7", b.Size())
	for _, m := range moves {
		b.Play(m)
	}
	err := b.IsLegal(gomoku.Point{X: 7, Y: 7}) // h8
	fmt.Println(errors.Is(err, gomoku.ErrForbidden))
	// Output: true
}

func ExampleEngine_Search() {
	b, _ := gomoku.NewBoard(15, gomoku.Freestyle)
	moves, _ := gomoku.ParseRecord("h8 a1 i8 a2 j8 a15", b.Size())
	for _, m := range moves {
		b.Play(m)
	}
	// Black has an open three: the engine finds the open four and proves
	// the win.
	r, err := gomoku.NewEngine().Search(context.Background(), b, gomoku.Limits{Depth: 4})
	fmt.Println(err, r.Best == gomoku.Point{X: 6, Y: 7} || r.Best == gomoku.Point{X: 10, Y: 7}, r.Score >= gomoku.WinThreshold)
	// Output: <nil> true true
}
