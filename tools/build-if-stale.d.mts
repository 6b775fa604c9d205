/** Builds the web app when apps/web/dist is missing or older than its sources; true when it built. */
export function buildIfStale(): boolean;
/** Builds the server (dist/) when it is missing or older than its sources; true when it built. */
export function buildServerIfStale(): Promise<boolean>;
