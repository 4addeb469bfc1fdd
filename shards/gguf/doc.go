// Package gguf reads GGUF model files (versions 2 and 3): the metadata
// key/value table, the tensor table and the tensor data.
//
// The file is memory-mapped and tensor data is handed out as sub-slices of
// the mapping, so nothing is copied and a process that touches only some
// tensors only pages those in. Every count, length, offset and shape read from
// the file is checked against the file's size before it is used: a damaged or
// hostile file yields an error naming the key or tensor at fault, never a
// panic, a hang or a huge allocation.
package gguf
