/** The README's transform of your own (region `custom-transform`); test/examples.test.ts runs it. */
// #region custom-transform
import { registerTransform } from '@cloudg/privacy';
// #endregion custom-transform

export function registerUpper(): void {
  // #region custom-transform
  registerTransform('upper', (_options, _build, id) => ({
    name: 'upper',
    id,
    apply: (value) => (typeof value === 'string' ? value.toUpperCase() : value),
  }));
  // #endregion custom-transform
}
