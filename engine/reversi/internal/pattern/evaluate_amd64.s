#include "textflag.h"
#include "go_asm.h"

// sumFrameAsm is sumFrame's 46 table reads, each a load of the frame's
// entry and a load of the table at the entry plus its pattern's offset
// (go_asm.h gives the offsets as const_offsetN): three instructions an
// instance where the compiler's code takes five (it adds the offset apart
// from the scaled index). Two sums halve the chain of additions.

// LOOKUP adds table entry off + f[k] to acc.
#define LOOKUP(k, off, acc) \
	MOVWQZX (k*2)(DI), CX; \
	MOVWQSX (off*2)(SI)(CX*2), CX; \
	ADDQ    CX, acc

// func sumFrameAsm(t *[StageSize]int16, f *Frame) int
TEXT ·sumFrameAsm(SB), NOSPLIT, $0-24
	MOVQ t+0(FP), SI
	MOVQ f+8(FP), DI
	XORL AX, AX
	XORL BX, BX
	LOOKUP(0, const_offset1, AX)
	LOOKUP(1, const_offset1, BX)
	LOOKUP(2, const_offset1, AX)
	LOOKUP(3, const_offset1, BX)
	LOOKUP(4, const_offset1, AX)
	LOOKUP(5, const_offset1, BX)
	LOOKUP(6, const_offset1, AX)
	LOOKUP(7, const_offset1, BX)
	LOOKUP(8, 0, AX)
	LOOKUP(9, const_offset3, BX)
	LOOKUP(10, const_offset4, AX)
	LOOKUP(11, const_offset5, BX)
	LOOKUP(12, 0, AX)
	LOOKUP(13, const_offset3, BX)
	LOOKUP(14, const_offset4, AX)
	LOOKUP(15, const_offset5, BX)
	LOOKUP(16, 0, AX)
	LOOKUP(17, const_offset3, BX)
	LOOKUP(18, const_offset4, AX)
	LOOKUP(19, const_offset5, BX)
	LOOKUP(20, 0, AX)
	LOOKUP(21, const_offset3, BX)
	LOOKUP(22, const_offset4, AX)
	LOOKUP(23, const_offset5, BX)
	LOOKUP(24, const_offset2, AX)
	LOOKUP(25, const_offset7, BX)
	LOOKUP(26, const_offset8, AX)
	LOOKUP(27, const_offset9, BX)
	LOOKUP(28, const_offset10, AX)
	LOOKUP(29, const_offset2, BX)
	LOOKUP(30, const_offset7, AX)
	LOOKUP(31, const_offset8, BX)
	LOOKUP(32, const_offset9, AX)
	LOOKUP(33, const_offset10, BX)
	LOOKUP(34, const_offset2, AX)
	LOOKUP(35, const_offset7, BX)
	LOOKUP(36, const_offset8, AX)
	LOOKUP(37, const_offset9, BX)
	LOOKUP(38, const_offset10, AX)
	LOOKUP(39, const_offset2, BX)
	LOOKUP(40, const_offset7, AX)
	LOOKUP(41, const_offset8, BX)
	LOOKUP(42, const_offset9, AX)
	LOOKUP(43, const_offset10, BX)
	LOOKUP(44, const_offset6, AX)
	LOOKUP(45, const_offset6, BX)
	ADDQ BX, AX
	MOVQ AX, ret+16(FP)
	RET
