/**
 * A title as the cross-scanner merge compares it: lower case, leading scanner tags such as
 * `[Checkov/terraform]` or `[Trivy]` removed, runs of punctuation and space collapsed.
 */
export function normaliseTitle(title: string): string {
  let t = title.trim().toLowerCase();
  while (/^\[[^\]]*\]/.test(t)) t = t.replace(/^\[[^\]]*\]\s*/, '');
  return t.replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}
