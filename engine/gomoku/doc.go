// Package gomoku is the hall's gomoku (five in a row) engine: the rules of
// freestyle, standard (exactly five) and renju gomoku on 15x15, 19x19 or
// 20x20 boards, and an AI that searches with incremental line patterns,
// threat-space search (VCF and VCT) and iterative-deepening alpha-beta.
//
// The package is pure: it does no I/O and starts no goroutines. A Board is a
// mutable position with its history; an Engine owns its transposition
// tables and is reusable across games, but neither is safe for concurrent
// use.
//
// Playing a game:
//
//	b, _ := gomoku.NewBoard(15, gomoku.Freestyle)
//	p, _ := gomoku.ParsePoint("h8", b.Size())
//	if err := b.Play(p); err != nil { ... } // ErrOccupied, ErrForbidden, ...
//	if c, over := b.Winner(); over { ... }   // b.Draw() on a full board
//
// Asking the engine, with a time limit and progress:
//
//	e := gomoku.NewEngine()
//	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
//	defer cancel()
//	r, err := e.Search(ctx, b, gomoku.Limits{
//		Level:    gomoku.MaxLevel,
//		Progress: func(i gomoku.Info) { log.Println(i.Depth, i.Best, i.Score) },
//	})
//	if r.Score >= gomoku.WinThreshold { ... } // a proven win
//
// docs/gomoku-engine.md describes the rules, the evaluation, the threat
// search and the strength scale in full.
package gomoku
