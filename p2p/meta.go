package p2p

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"

	"svc/shards/gguf"
)

// digestSample mirrors how shards/model computes a model's digest: the
// first and last 4 KiB of every tensor (whole tensors when smaller).
const digestSample = 4096

// modelIdentity returns what a node sends on the meta protocol: the file's
// bytes before the tensor data, and the hash of the tensor samples. Their
// combination must give the model's digest, which NewNode checks so that a
// change of the digest scheme fails loudly instead of making every gateway
// reject the node.
func modelIdentity(f *gguf.File) (header, samples []byte, err error) {
	fd, err := os.Open(f.Path)
	if err != nil {
		return nil, nil, fmt.Errorf("p2p: read model header: %w", err)
	}
	defer fd.Close()
	header = make([]byte, f.DataOffset())
	if _, err := io.ReadFull(io.NewSectionReader(fd, 0, int64(len(header))), header); err != nil {
		return nil, nil, fmt.Errorf("p2p: read model header of %s: %w", f.Path, err)
	}
	h := sha256.New()
	buf := make([]byte, 2*digestSample)
	for i := range f.Tensors {
		ti := &f.Tensors[i]
		start, size := int64(f.DataOffset()+ti.Offset), int64(ti.Size)
		parts := [][2]int64{{start, size}}
		if size > 2*digestSample {
			parts = [][2]int64{{start, digestSample}, {start + size - digestSample, digestSample}}
		}
		for _, p := range parts {
			b := buf[:p[1]]
			if _, err := fd.ReadAt(b, p[0]); err != nil {
				return nil, nil, fmt.Errorf("p2p: sample tensor %s of %s: %w", ti.Name, f.Path, err)
			}
			h.Write(b)
		}
	}
	return header, h.Sum(nil), nil
}

// DigestOf combines a header and a tensor-sample hash into a model digest.
func DigestOf(header, samples []byte) string {
	hh := sha256.Sum256(header)
	all := sha256.New()
	all.Write(hh[:])
	all.Write(samples)
	return hex.EncodeToString(all.Sum(nil))
}
