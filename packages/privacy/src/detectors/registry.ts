/**
 * Process-wide detector registration, the detector counterpart of `registerTransform`:
 * every redactor and secret guard built afterwards runs the registered detectors too.
 */
import { builtinDetectors } from './builtin.js';
import { type CustomDetectorConfig, compileCustomDetector } from './custom.js';
import type { Detector } from './types.js';

const registered = new Map<string, Detector>();

/**
 * Registers a detector (a configuration, validated now, or a compiled detector). A detector
 * with a built-in's name replaces it; registering a name again replaces the earlier one.
 * Returns the compiled detector.
 */
export function registerDetector(definition: CustomDetectorConfig | Detector): Detector {
  const d =
    (definition as Detector).pattern instanceof RegExp
      ? (definition as Detector)
      : compileCustomDetector(definition);
  registered.set(d.name, d);
  return d;
}

/** Removes a registered detector; returns whether one was registered under that name. */
export function unregisterDetector(name: string): boolean {
  return registered.delete(name);
}

/** The built-in detectors in priority order, with registered ones replacing or following them. */
export function defaultDetectors(): Detector[] {
  return overlayDetectors(builtinDetectors(), registered.values());
}

/**
 * Lays `extra` over `base` in place: a detector replaces the one of its name where it stands
 * (keeping its priority), otherwise it goes to the end. Returns `base`.
 */
export function overlayDetectors(base: Detector[], extra: Iterable<Detector>): Detector[] {
  for (const d of extra) {
    const at = base.findIndex((b) => b.name === d.name);
    if (at === -1) base.push(d);
    else base[at] = d;
  }
  return base;
}
