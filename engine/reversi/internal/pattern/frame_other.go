//go:build !amd64

package pattern

// useAVX2 is false: the vector frame updates are for amd64 only.
const useAVX2 = false

func playAVX2(f *Frame, sq int, flipped uint64)    { panic("pattern: no AVX2") }
func playOwnAVX2(f *Frame, sq int, flipped uint64) { panic("pattern: no AVX2") }

// sumFrame returns the sum of the table entries of the frame's instances.
func sumFrame(t *[StageSize]int16, f *Frame) int { return sumFrameGo(t, f) }
