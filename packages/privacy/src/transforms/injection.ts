/**
 * Heuristics for text that reads like instructions to a model (indirect prompt injection).
 * They catch common phrasings; a determined attacker can write one they miss, which is why
 * the fence stays on even where values are pseudonymised.
 *
 * Every pattern here takes time linear in the text: no two adjacent quantifiers can share the
 * same characters, and the one open-ended stretch (`.{0,80}?`) is bounded.
 */
import { testWindowed } from '../detectors/windows.js';

const PATTERNS: readonly string[] = [
  // "ignore / disregard / forget (all) previous instructions" and variants
  String.raw`\b(?:ignore|disregard|forget|skip|bypass)\s+(?:(?:all|any|the|your|my|of|these|those)\s+)*(?:previous|prior|above|earlier|preceding|former|system|original)\s+(?:instructions?|prompts?|messages?|rules?|directions?|directives?|context|guidelines|commands?)`,
  String.raw`\b(?:ignore|disregard|forget)\s+(?:all|everything|anything)\s+(?:instructions?|you(?:'ve| have)?\s+(?:been\s+)?(?:told|said)|above|before)`,
  String.raw`\byou\s+are\s+now\s+(?:a|an|the|in|my|no\s+longer|acting|dan)\b`,
  String.raw`\bnew\s+(?:system\s+)?instructions?\s*:`,
  String.raw`\bsystem\s+prompt\b`,
  String.raw`\bdeveloper\s+(?:message|mode|prompt|instructions?)\b`,
  // chat-template tokens and pseudo tags
  String.raw`<\|[a-z_]{2,24}\|>`,
  // `\s*(?:/\s*)?`, not `\s*/?\s*`: two adjacent `\s*` split a long run of spaces every way
  // there is, which is quadratic in the run (a `<` and 40,000 spaces took seconds).
  String.raw`<\s*(?:/\s*)?(?:system|assistant|user|tool_call|tool_use|tool|instructions?|function_call|functions|admin|developer)\s*>`,
  String.raw`\[\s*(?:/\s*)?(?:INST|SYS)\s*\]`,
  String.raw`(?:^|\n)[ \t]*#{1,6}[ \t]*(?:system|instructions?|assistant|developer)\b`,
  String.raw`\bdo\s+not\s+(?:tell|inform|alert|notify|warn)\s+(?:the\s+)?user\b`,
  String.raw`\bcall\s+the\s+[\w.:-]+\s+(?:tool|function)\b`,
  String.raw`\boverride\s+(?:your|the|all|any)\s+(?:(?:previous|safety|system)\s+)?(?:rules|instructions|guidelines|safety|policy|policies|restrictions)\b`,
  String.raw`\breveal\s+(?:your\s+|the\s+|all\s+)?(?:system\s+prompt|secrets?|api\s+keys?|credentials|passwords?|hidden\s+instructions|instructions)\b`,
  String.raw`\b(?:send|upload|forward|leak|post|transmit|exfil)\b.{0,80}?(?:https?://|webhook)`,
  String.raw`\bexfiltrat\w*`,
  String.raw`\bjailbreak\w*`,
  String.raw`\b(?:assistant|claude|chatgpt|gpt|ai|model|llm|copilot|gemini|agent)\s*[,:]\s*(?:please\s+)?(?:ignore|run|call|execute|delete|send|reveal|print|output|forget|disregard|list|dump|invoke)\b`,
];

/**
 * Every built-in pattern needs whitespace, `<`, `[` or `#`, except the two single words; ids,
 * addresses and ARNs have none of these, so most cloud strings skip the big regex.
 */
const PREFILTER = /[\s<[#]|exfiltrat|jailbreak/i;

export interface InjectionPatterns {
  builtin: RegExp;
  extra: readonly RegExp[];
}

/**
 * Compiles the built-in heuristics and takes the configured extra patterns. The extras are a
 * policy's own regexes, which may be superlinear: they run on long strings in bounded windows
 * (see detectors/windows.ts), so they are kept in a global copy.
 */
export function compileInjectionPatterns(extra: readonly RegExp[] = []): InjectionPatterns {
  return {
    builtin: new RegExp(PATTERNS.join('|'), 'is'),
    extra: extra.map((re) => (re.global ? re : new RegExp(re.source, `${re.flags}g`))),
  };
}

export function looksLikeInjection(text: string, patterns: InjectionPatterns): boolean {
  if (PREFILTER.test(text) && patterns.builtin.test(text)) return true;
  for (let i = 0; i < patterns.extra.length; i++) if (testWindowed(patterns.extra[i]!, text)) return true;
  return false;
}
