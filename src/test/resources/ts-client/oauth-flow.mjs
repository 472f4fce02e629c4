// OAuthIT: the TypeScript SDK's own OAuth flow against our server in OAuth mode, as a remote MCP host runs it.
// The 401 leads the SDK to the protected resource metadata, from it to the authorization server's metadata, then
// to an authorization request with PKCE and the resource indicator; the authorization server (mock-oauth2-server,
// which signs the user in without a login page) redirects back with a code, which the SDK exchanges for a token;
// then the client connects again and calls a tool. Prints one line of JSON: what each step saw.
// Usage: node oauth-flow.mjs MCP_URL
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';

const serverUrl = new URL(process.argv[2]);
const REDIRECT = 'http://127.0.0.1:9/callback';

/** An in-memory OAuth client: pre-registered as "ts-agent" (no dynamic registration), public, with PKCE. */
class MemoryProvider {
  constructor() {
    this.saved = undefined;
    this.verifier = undefined;
    this.authorizationUrl = undefined;
  }
  get redirectUrl() { return REDIRECT; }
  get clientMetadata() {
    return { client_name: 'oauth-it', redirect_uris: [REDIRECT], grant_types: ['authorization_code'],
      response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() { return { client_id: 'ts-agent' }; }
  tokens() { return this.saved; }
  saveTokens(tokens) { this.saved = tokens; }
  redirectToAuthorization(url) { this.authorizationUrl = new URL(url); }
  saveCodeVerifier(verifier) { this.verifier = verifier; }
  codeVerifier() { return this.verifier; }
}

const provider = new MemoryProvider();
const outcome = {};
const first = new Client({ name: 'oauth-it', version: '1.0.0' });
try {
  await first.connect(new StreamableHTTPClientTransport(serverUrl, { authProvider: provider }));
  outcome.error = 'connected without signing in';
} catch (e) {
  outcome.firstError = e instanceof UnauthorizedError ? 'UnauthorizedError' : String(e);
}
const authorization = provider.authorizationUrl;
if (!authorization) {
  console.log(JSON.stringify({ ...outcome, error: 'the SDK did not start the authorization flow' }));
  process.exit(0);
}
outcome.authorization = Object.fromEntries(authorization.searchParams);
// The user agent's part. mock-oauth2-server's authorization endpoint is OpenID Connect only (it refuses a request
// without the openid scope); a pure OAuth 2.1 server such as Keycloak takes the SDK's request as it is.
const scopes = new Set((authorization.searchParams.get('scope') || '').split(' ').filter(Boolean));
scopes.add('openid');
authorization.searchParams.set('scope', [...scopes].join(' '));
const redirect = await fetch(authorization, { redirect: 'manual' });
const location = new URL(redirect.headers.get('location'));
outcome.redirectedTo = location.origin + location.pathname;
outcome.stateKept = location.searchParams.get('state') === authorization.searchParams.get('state');
const transport = new StreamableHTTPClientTransport(serverUrl, { authProvider: provider });
await transport.finishAuth(location.searchParams.get('code'));
const claims = JSON.parse(Buffer.from(provider.saved.access_token.split('.')[1], 'base64url').toString());
outcome.token = { aud: claims.aud, sub: claims.sub, iss: claims.iss, scope: claims.scope };

const client = new Client({ name: 'oauth-it', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(serverUrl, { authProvider: provider }));
const result = await client.callTool({ name: 'execute_code',
  arguments: { language: 'python', code: 'print(6 * 7)', session_id: 'ts' } });
outcome.result = result.structuredContent;
await client.close();
console.log(JSON.stringify(outcome));
