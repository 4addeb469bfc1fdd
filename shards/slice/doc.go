// Package slice describes a GGUF model by a manifest and builds sparse
// copies of it that hold only the tensors of some blocks, so that a machine
// of a managed swarm stores and maps only its own share of a model.
//
// A Manifest is built once from the whole file (Build): the file's bytes
// before the tensor data (the GGUF header and its padding), the hash of the
// tensor samples that together with the header makes the model digest
// exactly as shards/model computes it, and every tensor's name, offset,
// size and sha256. Its Hash, a sha256 of its canonical encoding, is what a
// signed roster carries: a machine that checks the manifest against it and
// every tensor against the manifest trusts each byte it holds.
//
// Need lists the tensors a shard of blocks [first,last) reads (those of its
// blocks, the token embedding for the first range, the output norm and head
// for the last, and model-wide tensors such as rope_freqs for every range),
// exactly what model.Model.NewShard touches. Write produces the sparse copy:
// the same header and the same size and offsets as the whole file, with
// holes where the other tensors would be, each needed tensor obtained from a
// Fetch callback (a few at a time), checked against the manifest, and the
// file renamed into place only once complete. model.Open of that file with
// model.Options.Digest set to the manifest's digest serves the shard under
// the whole model's identity and computes exactly what the whole file does.
package slice
