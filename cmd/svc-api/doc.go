// Command svc-api is the managed variant's API: an api-role member of the
// deployment's swarm that serves https://HOST:8443/v1 to developers with
// API keys (package coordinator/apimember does the work).
package main
