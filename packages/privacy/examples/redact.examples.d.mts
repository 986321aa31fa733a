// Types of the values the README example exports, for the test that runs it.
export declare const document: {
  name: string;
  asset_type: string;
  account_id: string;
  arn: string;
  private_ip: string;
  tags: Record<string, string>;
  metadata: Record<string, string>;
};
export declare const shown: unknown;
export declare const report: import('../src/index.js').TransformReport;
export declare const restored: unknown;
