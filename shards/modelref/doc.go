// Package modelref fetches models named by reference instead of by path:
// hf:OWNER/REPO/FILE.gguf[@REVISION] (a file of a Hugging Face repository)
// and https://…/FILE.gguf, into a models directory ($SVC_MODELS, default
// under the user's cache directory), once.
package modelref
