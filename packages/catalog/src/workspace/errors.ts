import { InvalidArgumentsError, McpLayerError, NotFoundError } from '@cloudg/core';
import { listedHint } from '../conventions/hints.js';

/**
 * Workspace errors. Messages never repeat the name or path the caller passed, nor the names of
 * loaded datasets; those travel in `data`.
 */

/** No dataset is loaded, or the named one is not (-32602). */
export class NoDatasetError extends NotFoundError {
  /** Nothing is loaded at all: say how to load something. */
  static nothingLoaded(): NoDatasetError {
    return new NoDatasetError(
      'No dataset is loaded. Call load_dataset(path=...) with an inventory-map.json / findings.json / scanner report, or map_inventory to collect live data.',
    );
  }

  /**
   * A name that is not loaded. The loaded names follow the message as a second text block (the
   * caller's output pipeline transforms them, as it does dataset names in results) and go in
   * `data.datasets`.
   */
  static unknown(value: string, loaded: readonly string[]): NoDatasetError {
    const datasets = loaded.map((dataset) => ({ dataset }));
    return new NoDatasetError(
      `No such dataset. ${loaded.length} dataset(s) are loaded: they are listed with this error, or call list_datasets.`,
      {
        data: { value, datasets },
        hints: datasets.length ? [listedHint('Loaded datasets (pass one as dataset)', { datasets })] : [],
      },
    );
  }
}

/** An asset (or other object) reference that matched nothing or several things (-32602). */
export class ReferenceNotFoundError extends NotFoundError {}

/** A dataset name that is already taken, without `replace` (-32602). */
export class DatasetExistsError extends InvalidArgumentsError {
  constructor(existing: string, suggested: string) {
    super(
      'A dataset with that name already exists. Choose another name (the error data suggests a free one), or pass replace=true to overwrite it.',
      { data: { existing, suggested } },
    );
  }
}

/** The workspace cannot be built from its options (no usable allowed root, for example). */
export class WorkspaceConfigError extends McpLayerError {}
