//go:build !amd64

package pattern

// useAVX2 is false: the vector frame updates are for amd64 only.
const useAVX2 = false

// playAVX2 and playOwnAVX2 are never called here (useAVX2 is a false
// constant, so Play's branch to them is compiled away); they let Play and
// the tests compile on every architecture.
func playAVX2(f *Frame, sq int, flipped uint64)    { panic("pattern: no AVX2") }
func playOwnAVX2(f *Frame, sq int, flipped uint64) { panic("pattern: no AVX2") }

// sumFrame returns the sum of the table entries of the frame's instances.
func sumFrame(t *[StageSize]int16, f *Frame) int { return sumFrameGo(t, f) }
