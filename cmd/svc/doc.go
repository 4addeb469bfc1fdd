// Command svc is the single program of the local variant: it inspects and
// runs models (model, generate, tokenize, template), runs swarm nodes (node),
// serves the OpenAI-compatible API over a swarm (serve) and measures it
// (bench). It only wires the rooms together; the logic lives in shards/,
// p2p/, router/, server/ and bench/.
package main
