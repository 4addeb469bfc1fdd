// Command svc-node-agent runs on every machine of a managed deployment:
// enroll joins the deployment with a token from the coordinator, run makes
// the machine a member of the swarm, firewall opens or closes its swarm
// port, status describes it. Its command reference is
// docs/cli/svc-node-agent*.md, generated from this program.
package main
