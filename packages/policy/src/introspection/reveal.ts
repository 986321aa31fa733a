/**
 * `reveal_token`: the real value behind a pseudonym, or a text with every pseudonym and alias in
 * it reversed. Access is the layer's business (the tool needs the `reveal` capability); this
 * module only reverses within the caller's namespace and writes the second audit warning, which
 * carries a keyed hash of the token, never the token or the value.
 */
import type { Principal, RevealResult } from '@cloudg/core';
import type { IntrospectedVault, IntrospectionHost } from './host.js';

/**
 * Reverse the pseudonyms embedded in a text and count them. The vault's `detokenized` counter
 * moves once per pseudonym it resolves; a vault without statistics counts a changed text as one.
 */
function detokenizeCounted(vault: IntrospectedVault, text: string, namespace: string): [string, number] {
  const before = vault.stats?.().counters.detokenized;
  const out = vault.detokenizeText(text, { namespace });
  const after = vault.stats?.().counters.detokenized;
  if (before !== undefined && after !== undefined) return [out, after - before];
  return [out, out === text ? 0 : 1];
}

function exactHit(
  vault: IntrospectedVault,
  token: string,
  namespace: string,
): { value: string; entity: string | null } | undefined {
  if (vault.entry) {
    const entry = vault.entry(token, { namespace });
    return entry ? { value: entry.real, entity: entry.entity } : undefined;
  }
  const value = vault.detokenize(token, { namespace });
  return value === undefined || value === null ? undefined : { value, entity: null };
}

export function reveal(host: IntrospectionHost, token: string, principal: Principal): RevealResult {
  const { vault } = host;
  const namespace = vault.namespaceFor(principal.id);
  const hit = exactHit(vault, token, namespace);
  let result: RevealResult;
  let outcome: Record<string, string | number>;
  if (hit) {
    result = { pseudonym: token, found: true, value: hit.value, entity_type: hit.entity };
    outcome = { entity: hit.entity ?? 'unknown' };
  } else {
    // Aliases first: they stand for real values, and what is left may hold pseudonyms.
    let text = token;
    let aliased = 0;
    for (const aliases of host.callerAliases(principal)) {
      const [out, n] = aliases.reverse(text);
      text = out;
      aliased += n;
    }
    const [value, embedded] = detokenizeCounted(vault, text, namespace);
    const replaced = aliased + embedded;
    result = { pseudonym: token, found: replaced > 0, value: replaced > 0 ? value : null, replaced };
    outcome = aliased > 0 ? { reversed: replaced } : { embedded_tokens: embedded };
  }
  warnRevealed(host, principal, token, outcome);
  return result;
}

function warnRevealed(
  host: IntrospectionHost,
  principal: Principal,
  token: string,
  outcome: Record<string, string | number>,
): void {
  // The same keyed hash as the token in the REVEAL line of the decision log, so the two match up.
  const tokenHash = host.hashArgument('token', token);
  const detail = Object.entries(outcome)
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
  host.auditLogger.warn(
    {
      event: 'reveal_token',
      policy: host.name,
      principal: principal.id,
      roles: principal.sortedRoles(),
      ...outcome,
      token_hash: tokenHash,
    },
    `reveal_token principal=${principal.id} ${detail} token_hash=${tokenHash}`,
  );
}
