#include "textflag.h"

// The legal moves of one side in four directions at once: each 64-bit lane
// of a YMM register works on one direction (east-west, north-south and the
// two diagonals), shifted left in one pass and right in the other, with
// the same steps as legalMovesGo (see its comments). Variable shifts
// (VPSLLVQ, VPSRLVQ) give each lane its own distance.

// lineShift is each lane's step: 1 (a rank), 8 (a file), 7 and 9 (the
// diagonals); lineShift2 is twice it.
DATA lineShift<>+0(SB)/8, $1
DATA lineShift<>+8(SB)/8, $8
DATA lineShift<>+16(SB)/8, $7
DATA lineShift<>+24(SB)/8, $9
GLOBL lineShift<>(SB), RODATA|NOPTR, $32

DATA lineShift2<>+0(SB)/8, $2
DATA lineShift2<>+8(SB)/8, $16
DATA lineShift2<>+16(SB)/8, $14
DATA lineShift2<>+24(SB)/8, $18
GLOBL lineShift2<>(SB), RODATA|NOPTR, $32

// lineMask keeps the opponent discs a run can hold in each lane's
// direction: files b-g (innerFiles) except along a file.
DATA lineMask<>+0(SB)/8, $0x7E7E7E7E7E7E7E7E
DATA lineMask<>+8(SB)/8, $0xFFFFFFFFFFFFFFFF
DATA lineMask<>+16(SB)/8, $0x7E7E7E7E7E7E7E7E
DATA lineMask<>+24(SB)/8, $0x7E7E7E7E7E7E7E7E
GLOBL lineMask<>(SB), RODATA|NOPTR, $32

// MOVES computes in out the squares just past runs of the opponent's discs
// (om, masked by lineMask) that start next to a disc of me, in each lane's
// direction and both senses, before the empty squares are masked; Y14
// holds lineShift and Y15 lineShift2; t, u and pre are scratch. Shifting
// left by s: t = om & (me << s); t |= om & (t << s); pre = om & (om << s),
// the pairs of opponent discs; t |= pre & (t << 2s), twice; out = t << s.
// Then the same shifting right, with pre >> s as the pairs.
#define MOVES(me, om, t, u, pre, out) \
	VPSLLVQ Y14, me, t; \
	VPAND   om, t, t; \
	VPSLLVQ Y14, t, u; \
	VPAND   om, u, u; \
	VPOR    u, t, t; \
	VPSLLVQ Y14, om, pre; \
	VPAND   om, pre, pre; \
	VPSLLVQ Y15, t, u; \
	VPAND   pre, u, u; \
	VPOR    u, t, t; \
	VPSLLVQ Y15, t, u; \
	VPAND   pre, u, u; \
	VPOR    u, t, t; \
	VPSLLVQ Y14, t, out; \
	VPSRLVQ Y14, me, t; \
	VPAND   om, t, t; \
	VPSRLVQ Y14, t, u; \
	VPAND   om, u, u; \
	VPOR    u, t, t; \
	VPSRLVQ Y14, pre, pre; \
	VPSRLVQ Y15, t, u; \
	VPAND   pre, u, u; \
	VPOR    u, t, t; \
	VPSRLVQ Y15, t, u; \
	VPAND   pre, u, u; \
	VPOR    u, t, t; \
	VPSRLVQ Y14, t, t; \
	VPOR    t, out, out

// FOLD ORs the four lanes of the YMM register y (its low half x) into the
// general register r, using the XMM register s as scratch.
#define FOLD(y, x, s, r) \
	VEXTRACTI128 $1, y, s; \
	VPOR         s, x, x; \
	VPSHUFD      $0x4E, x, s; \
	VPOR         s, x, x; \
	VMOVQ        x, r

// func legalMovesAVX2(me, opp uint64) uint64
TEXT ·legalMovesAVX2(SB), NOSPLIT, $0-24
	VMOVDQU      lineShift<>(SB), Y14
	VMOVDQU      lineShift2<>(SB), Y15
	VPBROADCASTQ me+0(FP), Y0
	VPBROADCASTQ opp+8(FP), Y1
	VPAND        lineMask<>(SB), Y1, Y1
	MOVES(Y0, Y1, Y2, Y3, Y4, Y5)
	FOLD(Y5, X5, X3, AX)
	VZEROUPPER
	MOVQ me+0(FP), BX
	ORQ  opp+8(FP), BX
	NOTQ BX
	ANDQ BX, AX
	MOVQ AX, ret+16(FP)
	RET

// func legalMovesPairAVX2(me, opp uint64) (mine, theirs uint64)
TEXT ·legalMovesPairAVX2(SB), NOSPLIT, $0-32
	VMOVDQU      lineShift<>(SB), Y14
	VMOVDQU      lineShift2<>(SB), Y15
	VMOVDQU      lineMask<>(SB), Y13
	VPBROADCASTQ me+0(FP), Y0
	VPBROADCASTQ opp+8(FP), Y6
	VPAND        Y13, Y6, Y1
	VPAND        Y13, Y0, Y7
	MOVES(Y0, Y1, Y2, Y3, Y4, Y5)
	MOVES(Y6, Y7, Y8, Y9, Y10, Y11)
	FOLD(Y5, X5, X3, AX)
	FOLD(Y11, X11, X9, CX)
	VZEROUPPER
	MOVQ me+0(FP), BX
	ORQ  opp+8(FP), BX
	NOTQ BX
	ANDQ BX, AX
	ANDQ BX, CX
	MOVQ AX, mine+16(FP)
	MOVQ CX, theirs+24(FP)
	RET
