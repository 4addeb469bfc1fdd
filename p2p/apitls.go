package p2p

import (
	"context"
	"errors"
	"log/slog"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
)

// APITLSProtocol gets an API member its TLS server certificate: the
// member sends a certificate request (its TLS key stays on its machine),
// the coordinator answers with the certificate the deployment CA signed for
// the request's host names.
const APITLSProtocol = "/svc/apitls/1.0.0"

const (
	maxAPITLSRequest = 16 << 10
	maxAPITLSAnswer  = 16 << 10
)

type apiTLSRequest struct {
	CSR []byte `json:"csr"` // DER
}

type apiTLSAnswer struct {
	Certificate []byte `json:"certificate"` // DER
}

// APITLSIssuer signs an API member's request; it checks the member (a
// Refusal is sent as it is, any other error as "internal").
type APITLSIssuer struct {
	Issue  func(ctx context.Context, from peer.ID, csr []byte) ([]byte, error)
	Logger *slog.Logger
}

// ServeAPITLS answers APITLSProtocol on h until stop is called.
func ServeAPITLS(h host.Host, is APITLSIssuer) (stop func(), err error) {
	if is.Issue == nil {
		return nil, errors.New("p2p: API TLS issuer needs Issue")
	}
	return serveJSON(h, APITLSProtocol, maxAPITLSRequest, is.Logger,
		func(ctx context.Context, from peer.ID, req *apiTLSRequest) (any, error) {
			der, err := is.Issue(ctx, from, req.CSR)
			if err != nil {
				return nil, err
			}
			return apiTLSAnswer{Certificate: der}, nil
		}), nil
}

// RequestAPITLS sends a certificate request to peer p (the coordinator)
// and returns the certificate (DER); the caller checks it against the CA
// and its key.
func RequestAPITLS(ctx context.Context, h host.Host, p peer.ID, csr []byte) ([]byte, error) {
	var ans apiTLSAnswer
	if err := exchange(ctx, h, p, APITLSProtocol, apiTLSRequest{CSR: csr}, &ans, maxAPITLSAnswer); err != nil {
		return nil, err
	}
	return ans.Certificate, nil
}
