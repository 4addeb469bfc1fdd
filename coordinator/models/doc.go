// Package models is the coordinator's model library: the GGUF files it can
// serve, each with its manifest (package slice), kept in the models
// directory (/var/lib/svc-models by default).
//
// Import takes what `model serve` names, FILE, NAME, hf:OWNER/REPO/FILE
// (optionally @REVISION) or https://…, and makes it an entry of the
// library: a file already in the directory is used where it is, another
// local file is hard-linked (copied across file systems) in, a reference is
// fetched once by package modelref (resumed, checked) into the directory's
// .fetch cache and linked in. Scan imports
// every *.gguf dropped into the directory. Each entry's manifest is built
// once (every tensor hashed) and cached beside the file as
// NAME.manifest.json together with the size and modification time it
// describes, so a restart does not hash the weights again while a replaced
// file is.
//
// Source turns the library into the server side of p2p's slice protocol:
// Lookup by manifest hash, with the caller's Authorize deciding which
// tensors each peer may have (the coordinator's: those of the slices a
// placement gives it).
package models
