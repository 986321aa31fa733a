/**
 * A caller's string as it may appear inside an error message. The reference words some messages
 * with the name the caller sent (`Unknown tool: NAME`); that text reaches logs, terminals and
 * the model, so characters that could rewrite a terminal line, hide text or reorder it are
 * written as `\uXXXX` escapes, and a long value is cut short. The whole value stays in the
 * error's structured `data`, where JSON escapes it.
 */

/** C0 and C1 controls, DEL, bidirectional overrides and isolates, zero-width and tag characters. */
const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]|\udb40[\udc00-\udc7f]/g;

export const MESSAGE_VALUE_MAX_CHARS = 200;

export function messageSafe(value: string, maxChars = MESSAGE_VALUE_MAX_CHARS): string {
  const cut =
    value.length > maxChars
      ? `${value.slice(0, maxChars)}… (${value.length - maxChars} more characters)`
      : value;
  return cut.replace(UNSAFE, (ch) =>
    [...ch].map((c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`).join(''),
  );
}

/**
 * ` Did you mean a, b?` for close matches among names the caller may use (never the caller's
 * own value), or nothing when there are none.
 */
export function didYouMean(close: readonly string[]): string {
  return close.length ? ` Did you mean ${close.join(', ')}?` : '';
}
