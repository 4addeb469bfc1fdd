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
