import { z } from 'zod/v4';

// The web build resolves `zod` here (vite.config.ts), so every schema, ours and the shared ones, is built
// after this line, and zod loads only with the first screen that needs it (not with /login).
// The server's Content-Security-Policy has no 'unsafe-eval'. zod would probe for it with `new Function('')`
// on the first object parse: the probe is caught, but Chromium still reports a CSP violation. Jitless zod
// skips the probe (and the compiled parsers it would only use with eval allowed).
z.config({ jitless: true });

export * from 'zod/v4';
export default z;
