import { fileTooLarge, malformedJson } from './errors.js';
import { type FileAccess, openAdmitted } from './file-access.js';

/** Files above this size are refused before being read (the loaders hold a file in memory). */
export const DEFAULT_MAX_FILE_BYTES = 512 * 1024 * 1024;

export interface ReadOptions {
  maxBytes?: number;
  /** Which files may be opened (the workspace's allowed roots and protected files); default any. */
  access?: FileAccess;
}

/**
 * Read a text file after checking its size, so a huge file fails fast instead of exhausting
 * memory. The size is that of the file actually opened, and the text is read from it.
 */
export async function readTextFile(path: string, options: ReadOptions = {}): Promise<string> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_FILE_BYTES;
  const { handle, stats } = await openAdmitted(path, options.access);
  try {
    if (stats.size > maxBytes) throw fileTooLarge(path, stats.size, maxBytes);
    const text = await handle.readFile('utf8');
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } finally {
    await handle.close();
  }
}

/** JSON.parse without letting the parser's message (which quotes the input) escape. */
export function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw malformedJson(path);
  }
}

/** Parse JSON, or undefined when the text is not JSON (for content sniffing). */
export function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * JSON Lines: one JSON value per non-empty line. Returns undefined unless the first line
 * parses; a later line that does not parse is a malformed file.
 */
export function parseJsonLines(text: string, path: string): unknown[] | undefined {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length === 0) return undefined;
  const first = tryParseJson(lines[0] ?? '');
  if (!first.ok) return undefined;
  const out: unknown[] = [first.value];
  for (let i = 1; i < lines.length; i += 1) {
    const next = tryParseJson(lines[i] ?? '');
    if (!next.ok) throw malformedJson(path, 'JSON Lines');
    out.push(next.value);
  }
  return out;
}

/** Read a JSON file (or JSON Lines, returned as an array) with the size cap. */
export async function readJsonFile(path: string, options: ReadOptions = {}): Promise<unknown> {
  return parseJson(await readTextFile(path, options), path);
}
