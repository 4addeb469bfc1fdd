package coordinator

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"time"
)

// The admin protocol: one connection per command. The client writes one
// JSON Request line; the daemon answers one JSON Response line, followed by
// Response.Stream raw bytes when the answer carries a file (backup, export).

// Request is an operator command.
type Request struct {
	Command string          `json:"command"`
	Args    json.RawMessage `json:"args,omitempty"`
}

// Response is the daemon's answer.
type Response struct {
	OK bool `json:"ok"`
	// Error is the reason of a refusal (exit 1).
	Error string `json:"error,omitempty"`
	// Text is printed on stdout.
	Text string `json:"text,omitempty"`
	// Stream is the number of raw bytes following the line.
	Stream int64 `json:"stream,omitempty"`
}

// maxRequest bounds a request line (a licence file is the largest).
const maxRequest = 1 << 20

// ErrNoDaemon says the admin socket does not answer.
var ErrNoDaemon = errors.New("the coordinator is not running (start it with svc-coordinator run or systemctl start svc-coordinator)")

// Send sends one command to the daemon at socket. Text goes to out, a
// streamed answer to stream (which may be nil when none is expected). A
// refusal comes back as an error carrying the daemon's reason.
func Send(ctx context.Context, socket, command string, args any, out io.Writer, stream io.Writer) error {
	var raw json.RawMessage
	if args != nil {
		b, err := json.Marshal(args)
		if err != nil {
			return fmt.Errorf("encode %s: %w", command, err)
		}
		raw = b
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", socket)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNoDaemon, err)
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Now()) })
	defer stop()
	line, err := json.Marshal(Request{Command: command, Args: raw})
	if err != nil {
		return fmt.Errorf("encode %s: %w", command, err)
	}
	if _, err := conn.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("send %s to the coordinator: %w", command, err)
	}
	br := bufio.NewReader(conn)
	resp, err := br.ReadBytes('\n')
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%s: %w", command, ctx.Err())
		}
		return fmt.Errorf("%s: the coordinator closed the connection without answering: %w", command, err)
	}
	var r Response
	if err := json.Unmarshal(resp, &r); err != nil {
		return fmt.Errorf("%s: unreadable answer: %w", command, err)
	}
	if r.Text != "" && out != nil {
		if _, err := io.WriteString(out, r.Text); err != nil {
			return err
		}
	}
	if r.Stream > 0 {
		if stream == nil {
			stream = io.Discard
		}
		if n, err := io.CopyN(stream, br, r.Stream); err != nil {
			return fmt.Errorf("%s: answer cut after %d of %d bytes: %w", command, n, r.Stream, err)
		}
	}
	if !r.OK {
		return errors.New(r.Error)
	}
	return nil
}
