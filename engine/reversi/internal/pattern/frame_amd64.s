#include "textflag.h"

// A Frame is 48 uint16 (96 bytes): three YMM registers, Y0-Y2. Each
// square's digits are a Frame too (squareDigits, 96 bytes a square).

// LOAD reads the frame at DI into Y0-Y2; STORE writes them back.
#define LOAD \
	VMOVDQU (DI), Y0; \
	VMOVDQU 32(DI), Y1; \
	VMOVDQU 64(DI), Y2

#define STORE \
	VMOVDQU Y0, (DI); \
	VMOVDQU Y1, 32(DI); \
	VMOVDQU Y2, 64(DI)

// DIGITS sets r to the offset of square r's digits in squareDigits (96 r).
#define DIGITS(r) \
	LEAQ (r)(r*2), r; \
	SHLQ $5, r

// ADD and SUB add or subtract the digits at offset r of SI to Y0-Y2.
#define ADD(r) \
	VPADDW (SI)(r*1), Y0, Y0; \
	VPADDW 32(SI)(r*1), Y1, Y1; \
	VPADDW 64(SI)(r*1), Y2, Y2

#define SUB(r) \
	VPSUBW (SI)(r*1), Y0, Y0; \
	VPSUBW 32(SI)(r*1), Y1, Y1; \
	VPSUBW 64(SI)(r*1), Y2, Y2

// BEGIN loads the frame and sets AX to the played square's digits, BX
// to the flipped discs.
#define BEGIN \
	MOVQ f+0(FP), DI; \
	MOVQ sq+8(FP), AX; \
	MOVQ flipped+16(FP), BX; \
	LEAQ ·squareDigits(SB), SI; \
	LOAD; \
	DIGITS(AX)

// EACH_FLIPPED applies op (ADD or SUB) to each flipped disc's digits,
// then stores the frame and returns.
#define EACH_FLIPPED(op) \
	TESTQ BX, BX; \
	JZ    done; \
loop: \
	BSFQ  BX, CX; \
	LEAQ  -1(BX), DX; \
	ANDQ  DX, BX; \
	DIGITS(CX); \
	op(CX); \
	TESTQ BX, BX; \
	JNZ   loop; \
done: \
	STORE; \
	VZEROUPPER; \
	RET

// func playAVX2(f *Frame, sq int, flipped uint64)
// The played square's digits twice (0 to 2), each flipped disc's once (1 to 2).
TEXT ·playAVX2(SB), NOSPLIT, $0-24
	BEGIN
	ADD(AX)
	ADD(AX)
	EACH_FLIPPED(ADD)

// func playOwnAVX2(f *Frame, sq int, flipped uint64)
// The played square's digits once (0 to 1), each flipped disc's taken away (2 to 1).
TEXT ·playOwnAVX2(SB), NOSPLIT, $0-24
	BEGIN
	ADD(AX)
	EACH_FLIPPED(SUB)
