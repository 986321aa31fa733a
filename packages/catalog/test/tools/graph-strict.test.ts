import { describe, expect, it } from 'vitest';
import { profileLayer } from '../privacy-profiles/support.js';

/**
 * Under `strict` every asset name, id and ARN in paths and edges is a pseudonym: the graph
 * results carry them only in places the policy's identifier transforms reach (values, never
 * keys), including the `summary` of a path.
 */
describe('graph tools under strict', () => {
  it('pseudonymise every identifier of a path, its summary included', async () => {
    const { layer } = await profileLayer('strict');
    const result = await layer.callTool('find_paths', { source: 'internet', target: 'orders-db' });
    expect(result.isError).toBe(false);
    const text = JSON.stringify(result.structured);
    for (const real of [
      'orders-db',
      'web-alb',
      'alb-web',
      'app-role',
      'web-tg',
      'tg-web',
      '111111111111',
      'i-0web1',
    ])
      expect(text, real).not.toContain(real);
  });

  it('pseudonymise edge endpoints and names of neighbors', async () => {
    const { layer } = await profileLayer('strict');
    const result = await layer.callTool('neighbors', { ref: 'internet', direction: 'out' });
    expect(result.isError).toBe(false);
    const text = JSON.stringify(result.structured);
    for (const real of [
      'sg-web',
      'sg-admin',
      'web-alb',
      'public-api',
      'prod-logs',
      'jump-nsg',
      'raw-uploads',
    ])
      expect(text, real).not.toContain(real);
  });
});
