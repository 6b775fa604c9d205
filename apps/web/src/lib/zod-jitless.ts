import { z } from 'zod';

// The server's Content-Security-Policy has no 'unsafe-eval'. zod would probe for it with `new Function('')`
// on the first object parse: the probe is caught, but Chromium still reports a CSP violation. Jitless zod
// skips the probe (and the compiled parsers it would only use with eval allowed). Imported first by main.tsx.
z.config({ jitless: true });
