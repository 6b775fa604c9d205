/**
 * Small helpers the benches share: signing in as staff over HTTP, and percentiles. No server code here, so
 * benches that run the server in a child process import it too.
 */

/** Signs in through POST /api/auth/login as staff (type admin, any role); answers the access token. */
export async function signIn(base: string, credentials: { email: string; pass: string }): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...credentials, type: 'admin' }),
  });
  if (!response.ok) throw new Error(`login: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { accessToken: string }).accessToken;
}

/** The nearest-rank percentile `p` (0–100) of `values` (any order); NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
