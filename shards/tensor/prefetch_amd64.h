// Software prefetch runs shared by the tile kernels: PREFETCHn(O, R)
// fetches the n cache lines from O(R) on into every cache level
// (PREFETCHT0), one instruction per 64-byte line.

#define PREFETCH8(O, R) \
	PREFETCHT0 O+0(R);   \
	PREFETCHT0 O+64(R);  \
	PREFETCHT0 O+128(R); \
	PREFETCHT0 O+192(R); \
	PREFETCHT0 O+256(R); \
	PREFETCHT0 O+320(R); \
	PREFETCHT0 O+384(R); \
	PREFETCHT0 O+448(R)

#define PREFETCH9(O, R) \
	PREFETCH8(O, R); \
	PREFETCHT0 O+512(R)
