/** What a primitive can do; drives annotation hints and policy capability denials. */
export const CAPABILITIES = [
  'read_state',
  'write_state',
  'read_fs',
  'write_fs',
  'cloud_access',
  'exec',
  'reveal',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** Sensitivity levels, lowest first. */
export const SENSITIVITIES = ['public', 'internal', 'confidential', 'restricted'] as const;
export type Sensitivity = (typeof SENSITIVITIES)[number];

/** Position of a sensitivity in the order public < internal < confidential < restricted. */
export function sensitivityRank(value: Sensitivity): number {
  return SENSITIVITIES.indexOf(value);
}

export function isCapability(value: string): value is Capability {
  return (CAPABILITIES as readonly string[]).includes(value);
}

export function isSensitivity(value: string): value is Sensitivity {
  return (SENSITIVITIES as readonly string[]).includes(value);
}

/** MCP tool annotations (behaviour hints). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

const WRITES: readonly Capability[] = ['write_state', 'write_fs', 'exec'];
const REACHES_OUT: readonly Capability[] = ['cloud_access', 'exec'];

/**
 * Fill every hint the author left unset from the capabilities. Clients assume the worst for a
 * missing hint, so the layer always states them: a tool that writes is not read-only, a tool
 * that reaches cloud APIs or runs programs is open-world, and only a read-only tool confined to
 * the loaded data is idempotent (two collections a minute apart can differ).
 */
export function deriveAnnotations(
  capabilities: ReadonlySet<Capability>,
  explicit: ToolAnnotations = {},
): ToolAnnotations {
  const has = (c: Capability) => capabilities.has(c);
  const readOnly = explicit.readOnlyHint ?? !WRITES.some(has);
  const openWorld = explicit.openWorldHint ?? REACHES_OUT.some(has);
  const result: ToolAnnotations = {};
  if (explicit.title !== undefined) result.title = explicit.title;
  result.readOnlyHint = readOnly;
  result.destructiveHint = explicit.destructiveHint ?? false;
  const idempotent = explicit.idempotentHint ?? (readOnly && !REACHES_OUT.some(has) ? true : undefined);
  if (idempotent !== undefined) result.idempotentHint = idempotent;
  result.openWorldHint = openWorld;
  return result;
}
