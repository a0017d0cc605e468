package reversi

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// adviseHugePages asks Linux to back a table with huge pages (2 MiB on
// amd64) when it is first written. A table's probes land anywhere in its
// 16 MiB, and with 4 KiB pages most of them also missed the processor's
// address cache (TLB). It is a hint: where the kernel gives no huge pages
// the table works the same.
func adviseHugePages(entries []ttEntry) {
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(entries))), len(entries)*int(unsafe.Sizeof(ttEntry{})))
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE)
}
