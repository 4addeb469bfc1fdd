// Package bench measures svc. RunEngine times one model shard on this
// machine: batched prefill and single-token decode speed, together with the
// memory read bandwidth measured in the same run, which bounds decode speed
// (every weight is read once per token). RunLoad drives any
// OpenAI-compatible endpoint with concurrent streamed chat requests and
// reports time to first token, time per output token, aggregate throughput,
// the share of prompt tokens the server answered from its cache (when its
// usage says) and errors per concurrency level.
package bench
