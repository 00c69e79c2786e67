/** See build-server.mjs. */
export declare const PROJECT_ROOT: string;
export declare const SERVER_OUT_DIR: string;
export declare const SERVER_BUILD_SOURCES: readonly string[];
export declare function serverBuildFolder(root?: string): string;
export declare function ensureServerBuild(root?: string): Promise<{ entry: string; built: boolean }>;
