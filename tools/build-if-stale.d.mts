/** Builds the web app when apps/web/dist is missing or older than its sources; true when it built. */
export function buildIfStale(): boolean;
