import { describe, expect, it } from 'vitest';
import { checkServeOptions } from '../src/index.js';

describe('--client-roots', () => {
  it('is accepted over stdio and refused over HTTP, where one client must not widen a shared workspace', () => {
    expect(() => checkServeOptions({ transport: 'stdio', clientRoots: true })).not.toThrow();
    expect(() => checkServeOptions({ transport: 'http', clientRoots: true })).toThrow(
      '--client-roots is served over stdio only',
    );
  });
});
