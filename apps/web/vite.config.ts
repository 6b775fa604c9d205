import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import rootPackage from '../../package.json' with { type: 'json' };
import { precompress } from './precompress.ts';

// React and the router load on every page and change less often than our code: one chunk of their own
// stays cached across releases. Everything else (antd included) is split by the routes that use it, so a
// screen downloads the antd components it renders and no more.
const vendorGroups = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/, priority: 30 },
];

export default defineConfig({
  plugins: [react(), precompress()],
  // The footer shows the version of the whole product, which lives in the root package.json.
  define: { __APP_VERSION__: JSON.stringify(rootPackage.version) },
  // Every `import … from 'zod'` (the shared schemas' too) gets zod configured for our CSP: src/lib/zod-jitless.ts.
  resolve: {
    alias: [
      { find: /^zod$/, replacement: fileURLToPath(new URL('./src/lib/zod-jitless.ts', import.meta.url)) },
    ],
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: { output: { codeSplitting: { groups: vendorGroups } } },
    // Ant Design is one ~1 MB chunk (~320 kB gzip, with the date/time pickers since issue 3). Cutting it
    // with `maxSize` broke its module initialisation order at run time ("Cannot destructure property 'ESC'"),
    // so the limit sits above it; it is cached across releases as its own file.
    chunkSizeWarningLimit: 1100,
  },
});
