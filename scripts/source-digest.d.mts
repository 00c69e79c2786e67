/** See source-digest.mjs. */
export declare function sourcesDigest(root: string, sources: readonly string[], settings?: unknown): string;
