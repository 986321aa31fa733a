/**
 * JSON text from bytes. Bytes that are not UTF-8 make the text unparseable (-32700) rather than
 * turning into replacement characters, which would silently change what the client sent.
 */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes as UTF-8 text; throws a TypeError on bytes that are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}

/** Throws on bytes that are not UTF-8 and on text that is not JSON. */
export function parseJsonBytes(bytes: Uint8Array): unknown {
  return JSON.parse(decodeUtf8(bytes));
}
