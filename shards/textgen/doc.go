// Package textgen is the local generation driver behind "svc generate": it
// tokenizes a prompt with the model's own tokenizer, checks the request
// against the model (vocabulary, blocks, context length), runs greedy
// decoding through the model split into chained shards in this process,
// streams the decoded text, and reports the tokens, the text, the
// log-probabilities and the timings. Tests that compare a swarm or the API
// against one process call Run instead of the svc binary.
package textgen
