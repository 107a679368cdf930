// A real authorization server for the e2e tests: oidc-provider (a certified OpenID Connect
// implementation) on a loopback port the system picks, issuing JWT access tokens for MCP
// resources on 127.0.0.1 through the client-credentials grant with resource indicators
// (RFC 8707). Prints `issuer http://127.0.0.1:PORT` once it listens.
//
// node oidc_server.mjs
import crypto from 'node:crypto';
import http from 'node:http';

import Provider, { errors } from 'oidc-provider';

const server = http.createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

// A signing key made for this run only.
const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: 'e2e', use: 'sig', alg: 'ES256' };

// The scopes an MCP resource on loopback may be granted.
const RESOURCE_SCOPES = 'mcp:tools invoices:write';

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: 'billing-agent',
      client_secret: 'e2e-client-secret',
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'ES256',
    },
  ],
  jwks: { keys: [signingKey] },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: (_ctx, _client, oneOf) => oneOf,
      useGrantedResource: () => true,
      getResourceServerInfo: (_ctx, resource) => {
        if (!resource.startsWith('http://127.0.0.1:')) {
          throw new errors.InvalidTarget();
        }
        return {
          scope: RESOURCE_SCOPES,
          audience: resource,
          accessTokenTTL: 300,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'ES256' } },
        };
      },
    },
  },
});

server.on('request', provider.callback());
console.log(`issuer ${issuer}`);
