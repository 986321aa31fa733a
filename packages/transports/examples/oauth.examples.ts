/**
 * The README's sign-in snippet (region `oauth`): type-checked here; test/oauth.test.ts serves the
 * same options against a real authorization server.
 */
import type { Layer } from '@cloudg/core';
// #region oauth
import { serveHttp } from '@cloudg/transports';
// #endregion oauth

export async function serveWithSignIn(layer: Layer): Promise<() => Promise<void>> {
  // #region oauth
  const running = await serveHttp(layer, {
    host: '0.0.0.0',
    oauth: {
      issuer: 'https://login.example.com/realms/security',
      resource: 'https://cloudg.example.com/mcp', // the audience tokens must name
      requiredScopes: ['mcp:tools'],
      claims: { id: 'preferred_username', roles: ['groups'], roleMap: { 'sec-analysts': 'analyst' } },
    },
    authTokens: ['env:CI_TOKEN:collector:ci-bot'], // service accounts keep static tokens
  });
  // #endregion oauth
  return running.close;
}
