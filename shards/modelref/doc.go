// Package modelref fetches models named by reference instead of by path:
// hf:OWNER/REPO/FILE.gguf[@REVISION] (a file of a Hugging Face repository)
// and https://…/FILE.gguf, into a models directory ($SVC_MODELS, default
// under the user's cache directory), once.
//
// Get is the one entry point: a context and a reference in, the path of a
// whole, checked model file out. A hub reference is looked up at
// ENDPOINT/OWNER/REPO/resolve/REVISION/FILE without following the redirect
// to the CDN, as huggingface_hub does, because the redirect carries the
// file's LFS sha256 (X-Linked-Etag) and size (X-Linked-Size). The bytes go
// to NAME.ID.partial (ID from that digest, so only bytes of the same
// version are ever resumed), resumed with range requests after an
// interruption, then checked — size, digest (sha256, or the git blob id for
// a file kept in git), GGUF structure — and renamed into place beside a
// NAME.json record. A lock on the directory keeps two processes from
// fetching into it at once. HF_TOKEN goes to the hub's host only (never to
// the CDN or another host) and into no message or log; HF_ENDPOINT points
// at another hub. A split GGUF (NAME-00001-of-0000N.gguf) is fetched part
// by part.
//
// Layout: DIR/hf/OWNER/REPO/REVISION/FILE and DIR/web/HOST/HASH/NAME. A
// cached model is used without asking the network; Options.Refresh (svc
// model pull) asks whether it is still current.
package modelref
