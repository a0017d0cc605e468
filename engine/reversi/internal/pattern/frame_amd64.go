package pattern

import "golang.org/x/sys/cpu"

// A frame update adds a square's digits to 4-8 of the 46 instances, once
// for the square played and once for each disc turned over: a fifth of
// the midgame search's instructions one at a time. On AVX2 the whole frame
// is three vectors and each square's digits (squareDigits) three vector
// additions (frame_amd64.s). TestPlayUpdatesFrame checks both ways.

// useAVX2 says whether the processor runs the vector frame updates.
var useAVX2 = cpu.X86.HasAVX2

// playAVX2 is Play on AVX2.
//
//go:noescape
func playAVX2(f *Frame, sq int, flipped uint64)

// playOwnAVX2 is PlayOwn on AVX2.
//
//go:noescape
func playOwnAVX2(f *Frame, sq int, flipped uint64)

// sumFrameAsm is sumFrameGo in assembly (evaluate_amd64.s): plain x86-64,
// three instructions a table read.
//
//go:noescape
func sumFrameAsm(t *[StageSize]int16, f *Frame) int

// sumFrame returns the sum of the table entries of the frame's instances.
func sumFrame(t *[StageSize]int16, f *Frame) int { return sumFrameAsm(t, f) }
