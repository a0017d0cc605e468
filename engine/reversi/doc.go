// Package reversi is the hall's Reversi (Othello) engine: exact rules on
// bitboards, notation, and an AI built from an evaluation of the position,
// a principal-variation alpha-beta search and an exact endgame solver.
//
// The package is pure: it does no I/O and starts no goroutines. An Engine is
// not safe for concurrent use; give each goroutine its own.
//
// # Rules and notation
//
// Squares run a1 (top left, 0) to h8 (63): a1..h1 is the first row. A
// Position is a small value (two bitboards and the side to move): keep the
// previous value to undo a move.
//
//	p := reversi.Start()                 // Black to move
//	p, err := p.Play(reversi.Square(37)) // f5; an illegal move is an error "reversi: ..."
//	moves, _ := reversi.ParseTranscript("f5d6c3d3c4")
//	p, err = reversi.Replay(reversi.Start(), moves)
//	if p.MustPass() { p, _ = p.PlayPass() }
//	if p.GameOver() { fmt.Println(p.FinalScore()) } // black minus white, empties to the winner
//
// Boards read and print in the 64-character form ("X" black, "O" white,
// "-" empty, row by row from a1) with ParsePosition and Position.String.
// Transcripts are two characters per move, "pa" for a pass (ParseTranscript
// also accepts "pass", spaces and hyphens); Square.String prints "pass".
//
// # Searching
//
//	e := reversi.NewEngine() // 32 MiB of tables, reusable across games
//	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
//	defer cancel()
//	res, err := e.Search(ctx, p, reversi.Limits{
//		Level:    7,
//		Progress: func(i reversi.Info) { log.Println(i.Depth, i.Best, i.Score) },
//	})
//
// The time limit is the context's deadline: when it passes, Search returns
// the best move of the last completed iteration. Scores are in discs from
// the side to move's view; Exact marks a proven endgame result.
//
// # Strength scale
//
// Limits.Level runs from 1 to MaxLevel (0 means MaxLevel):
//
//	level  midgame depth  exact endgame from  random error per move
//	  1         1               -              up to 8 discs
//	  2         2               -              up to 4 discs
//	  3         3               -              up to 2 discs
//	  4         4           8 empties              none
//	  5         5          10 empties              none
//	  6         6          12 empties              none
//	  7         7          14 empties              none
//	  8         8          16 empties              none
//	  9        10          18 empties              none
//	 10   as deep as the   22 empties              none
//	      time allows (14 with no deadline),
//	      selective (Multi-ProbCut)
//
// Limits.Depth overrides a level's midgame depth and Limits.EndgameEmpties
// its exact-endgame range. The upper levels are slow without a time limit:
// on one core of the benchmark machine a full-width midgame move takes
// about 0.11 s at depth 10, 1.1 s at depth 12 and 10-20 s at depth 14 (level
// 10's selective search reaches depth 14-15 in about a second), and an exact
// solve of FFO #40-#49 (20-26 empties) from half a second to 21 s. Give the
// context a deadline: the search then plays the best move of its last
// completed iteration, or a better one the cut iteration had already proved.
//
// Levels 1-3 make real mistakes: each root move's score gets a random error,
// drawn from a stream seeded by Limits.Seed and the position, so a game is
// reproducible. Each level beats the one below it (see docs/benchmarks.md
// for the matches); level 4 already beats the seed articles' method (a
// weight table searched to depth 9) in more than 90% of games.
//
// # How it works
//
// The evaluation is a weighted sum of features: mobility, potential
// mobility, corners, X- and C-squares next to empty corners, stable discs,
// parity, discs, corner access and frontier discs, plus a value for each
// configuration of each edge, with one weight set per stage of the game
// (weights.json, embedded). From 44 empties down, tables of board patterns
// (edges with X-squares, corners, lines, diagonals; patterns.bin, fitted by
// least squares on positions from the engine's own games and exact solves
// by internal/train) correct it. The search is iterative-deepening PVS with
// a transposition table (Zobrist hashing), move ordering by the table's
// move, then the evaluation or the opponent's mobility, and at the top
// level Multi-ProbCut (a shallow search predicts the deep one and cuts when
// it is far outside the window). The endgame solver uses fastest-first
// ordering helped by shallow evaluation searches, parity, stability
// cut-offs, enhanced transposition cut-offs and special code for the last
// empties. docs/reversi-engine.md has the details.
package reversi
