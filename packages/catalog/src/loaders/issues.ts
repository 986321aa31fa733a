/**
 * A problem with one file of a load that did not stop the load: a malformed file in a
 * directory, skipped lines of JSON Lines, a truncated array whose complete records were read.
 * `path` is the file as the caller would name it (under the path they gave).
 */
export interface LoadIssue {
  path: string;
  error: string;
}
