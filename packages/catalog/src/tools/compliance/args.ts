import { z } from 'zod';

/** The `framework` argument, as the compliance tools describe it. */
export const frameworkArg = () =>
  z.string().min(1).describe("Framework name or substring, case-insensitive (e.g. 'CIS', 'PCI').");

export const optionalFrameworkArg = () =>
  z
    .string()
    .default('')
    .describe("Framework name or substring, case-insensitive (e.g. 'CIS', 'PCI'); empty = all.");
