/** The README's quick start runs and says what it claims. */
import { describe, expect, it } from 'vitest';
import { quickstart } from '../examples/quickstart.examples.js';

describe('quick start example', () => {
  it('aliases and pseudonymises for the analyst, and reverses the alias for the lead', async () => {
    const { seenByAnn, passedBack, received, decision, log } = await quickstart();
    expect(received).toEqual(['111111111111', '111111111111']);
    expect(seenByAnn).toMatchObject({ account_id: 'prod-payments' });
    expect(String(seenByAnn?.owner)).toMatch(/^user-[0-9a-f]{8}@d-[0-9a-f]{10}\.example$/);
    expect(passedBack).toEqual({ account_id: 'prod-payments', owner: 'alice@example.com' });
    expect(decision).toEqual({ allowed: true, reason: '' });
    expect(log.map((e) => [e.decision, e.principal])).toEqual([
      ['allowed', 'ann'],
      ['allowed', 'lee'],
    ]);
  });
});
