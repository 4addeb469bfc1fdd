package x86sim

import (
	"encoding/binary"
	"math"
)

// Vec is one vector register (ZMM, whose low 32 and 16 bytes are YMM and
// XMM): lane 0 at byte 0, little-endian lanes as in memory.
type Vec [64]byte

// The lane accessors read and write lane i of the given width; i is not
// checked beyond Go's bounds checks.

func (v *Vec) U8(i int) uint8          { return v[i] }
func (v *Vec) SetU8(i int, x uint8)    { v[i] = x }
func (v *Vec) I8(i int) int8           { return int8(v[i]) }
func (v *Vec) SetI8(i int, x int8)     { v[i] = uint8(x) }
func (v *Vec) U16(i int) uint16        { return binary.LittleEndian.Uint16(v[2*i:]) }
func (v *Vec) SetU16(i int, x uint16)  { binary.LittleEndian.PutUint16(v[2*i:], x) }
func (v *Vec) I16(i int) int16         { return int16(v.U16(i)) }
func (v *Vec) SetI16(i int, x int16)   { v.SetU16(i, uint16(x)) }
func (v *Vec) U32(i int) uint32        { return binary.LittleEndian.Uint32(v[4*i:]) }
func (v *Vec) SetU32(i int, x uint32)  { binary.LittleEndian.PutUint32(v[4*i:], x) }
func (v *Vec) I32(i int) int32         { return int32(v.U32(i)) }
func (v *Vec) SetI32(i int, x int32)   { v.SetU32(i, uint32(x)) }
func (v *Vec) U64(i int) uint64        { return binary.LittleEndian.Uint64(v[8*i:]) }
func (v *Vec) SetU64(i int, x uint64)  { binary.LittleEndian.PutUint64(v[8*i:], x) }
func (v *Vec) F32(i int) float32       { return math.Float32frombits(v.U32(i)) }
func (v *Vec) SetF32(i int, x float32) { v.SetU32(i, math.Float32bits(x)) }
