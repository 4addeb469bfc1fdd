// Package apimember is the managed variant's API process, behind svc-api:
// an api-role member of the managed swarm that serves the server package's
// managed variant over HTTPS.
//
// Enrol makes the member's identity as a machine's (the node agent's
// enrolment with role api). Run then joins the swarm admitted by its
// certificate, keeps the signed roster (licence grant, placements, member
// labels), gets a TLS server certificate for its host names from the
// deployment CA (its ECDSA key is made here and never leaves; renewed when
// a third of its life remains), fetches the API key set from the
// coordinator by version (/svc/apikeys/1.0.0) into an apikey.Ring cached on
// disk, routes generations through the swarm with a router, and sends every
// refused request to the coordinator's audit trail (/svc/apievents/1.0.0)
// while writing it to its journal.
//
// Configuration is /etc/svc/api.env (Config): KEY=VALUE lines, the same
// file systemd's unit hands the process; the process environment overrides
// it key by key, and unknown SVC_API_ keys are refused.
//
// State directory (/var/lib/svc-api): node.key, member.crt, ca.crt, roster,
// tls.key (0600), tls.crt, apikeys.json (the key cache), journal.jsonl.
package apimember
