// Package demo holds the model svc serves when it is given none: stories260K
// (Andrej Karpathy's 260K-parameter Llama trained on TinyStories, from
// karpathy/tinyllamas, MIT licence), quantized to Q8_0 by "svc model
// quantize" and embedded gzipped (about 330 KB), so that "svc serve" on a
// fresh clone answers requests at once. It tells short children's stories
// and nothing else; it is there to show the service working, not to be
// useful.
//
// The embedded file is regenerated from the shared fixture with:
//
//	svc model quantize ../shared/models/stories260K.gguf /tmp/demo.gguf Q8_0
//	gzip -9 -n -c /tmp/demo.gguf > shards/demo/stories260K-q8_0.gguf.gz
//
// and TestDemoIsQuantizedFixture checks that it still is exactly that.
package demo
