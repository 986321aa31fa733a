import { describe, expect, it } from 'vitest';
import { uuid5 } from './uuid5.js';

describe('uuid5', () => {
  it("matches RFC 9562's example and Python's uuid.uuid5", () => {
    // RFC 9562 appendix A.4: "www.example.com" in the DNS namespace.
    expect(uuid5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
    // uuid.uuid5(uuid.NAMESPACE_URL, 'urn:cloudg:reachability')
    expect(uuid5('urn:cloudg:reachability', '6ba7b811-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '990b5087-0f89-518c-b867-6935de3f5d7a',
    );
  });
});
