package tensor

// widenQ8Go writes the Q8_0 activation quants qs (whole 32-element blocks)
// as int16 into w, per block the 16 even elements, then the 16 odd ones:
// one VPMADDWD of each half with the weights' even and odd bytes
// (sign-extended in place by shifts) gives the two halves of every
// 4-element lane of the canonical order, which one VPADDD joins.
func widenQ8Go(qs []int8, w []int16) {
	for b := 0; b+32 <= len(qs) && b+32 <= len(w); b += 32 {
		q := (*[32]int8)(qs[b:])
		o := (*[32]int16)(w[b:])
		for k := range 16 {
			o[k] = int16(q[2*k])
			o[16+k] = int16(q[2*k+1])
		}
	}
}

// transposeQ8TGo writes one position's Q8_0 activation quants qs (whole
// blocks) as position j (0..7) of a group in acts.t16's layout, t the
// group's: for lane l of block b, at t[32*(l*nb+b):], the position's
// dword (a[4l], a[4l+2]) among the eight positions' at word 2j, and
// (a[4l+1], a[4l+3]) at 16+2j.
func transposeQ8TGo(qs []int8, t []int16, j int) {
	nb := len(qs) / 32
	for b := range nb {
		q := (*[32]int8)(qs[32*b:])
		for l := range 8 {
			o := (*[32]int16)(t[32*(l*nb+b):])
			o[2*j] = int16(q[4*l])
			o[2*j+1] = int16(q[4*l+2])
			o[16+2*j] = int16(q[4*l+1])
			o[16+2*j+1] = int16(q[4*l+3])
		}
	}
}
