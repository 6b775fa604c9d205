// Builds the server, the demo and the operator tools to JavaScript in dist/ (esbuild, with source maps), so
// production runs `node dist/server.js` with no TypeScript compiler at run time. One build, shared chunks:
//   dist/server.js  the production server (apps/server/src/main.ts)
//   dist/demo.js    `npm start`: the same server with the demo data and simulators (tools/src/demo-main.ts)
//   dist/db.js      backup, restore and move of the embedded database (apps/server/src/cli/db.ts)
// Our own packages (@ev/*) are compiled in; every other package stays in node_modules.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const SERVER_OUT = path.join(root, 'dist');
export const SERVER_ENTRIES = {
  server: 'apps/server/src/main.ts',
  demo: 'tools/src/demo-main.ts',
  db: 'apps/server/src/cli/db.ts',
};
/** What the build reads: a change here makes `build-if-stale` rebuild. */
export const SERVER_SOURCES = [
  'apps/server/src',
  'packages/shared/src',
  'tools/src',
  'tools/build-server.mjs',
];

/**
 * Packages that stay imports of node_modules: they read files beside their own code at run time (PGlite's
 * WebAssembly and data, the API docs' assets, ocpp-rpc's JSON schemas), start worker threads by module name
 * (pino's transports), or are optional native add-ons. Everything else is compiled into the build: one file
 * read at start instead of a thousand modules resolved one by one.
 */
const EXTERNAL = [
  '@electric-sql/pglite',
  '@fastify/swagger-ui',
  // The OCPP JSON schemas, read when first needed (below) or by our own 1.6 validator.
  'ocpp-rpc/lib/schemas',
  'pino',
  'pino-pretty',
  'thread-stream',
  'pg-native',
];
/**
 * ocpp-rpc compiles the JSON schemas of OCPP 1.6, 2.0.1 and 2.1 into validators as it loads (~0.6 s of the
 * server's start): the server validates with its own 1.6 validator (ocpp/protocol.ts) and never uses them.
 * In the build each standard validator compiles on its first use instead (the demo's simulated chargers use
 * the 1.6 one).
 */
const lazyStandardValidators = {
  name: 'lazy-standard-validators',
  setup(b) {
    b.onResolve({ filter: /^\.\/standard-validators$/ }, (args) =>
      args.importer.includes(`${path.sep}ocpp-rpc${path.sep}`)
        ? { path: 'ocpp-rpc-standard-validators', namespace: 'lazy-validators' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-validators' }, () => ({
      resolveDir: path.join(root, 'node_modules/ocpp-rpc/lib'),
      loader: 'js',
      contents: `
        const { createValidator } = require('./validator');
        const lazy = (subprotocol, file) => {
          let validator;
          return {
            subprotocol,
            validate(schemaId, params) {
              validator ??= createValidator(subprotocol, require(file));
              return validator.validate(schemaId, params);
            },
          };
        };
        module.exports = [
          lazy('ocpp1.6', 'ocpp-rpc/lib/schemas/ocpp1_6.json'),
          lazy('ocpp2.0.1', 'ocpp-rpc/lib/schemas/ocpp2_0_1.json'),
          lazy('ocpp2.1', 'ocpp-rpc/lib/schemas/ocpp2_1.json'),
        ];`,
    }));
  },
};
/**
 * Every entry starts with apps/server/src/start-prelude.ts (Node's compile cache, plain call sites for pino),
 * then loads the entry's own code: a dynamic import, so that the prelude has run before the bundle is compiled.
 */
const PRELUDE = path.join(root, 'apps/server/src/start-prelude.ts');
const preludeFirst = {
  name: 'prelude-first',
  setup(b) {
    b.onResolve({ filter: /^prelude-first:/ }, (args) => ({
      path: args.path.slice('prelude-first:'.length),
      namespace: 'prelude-first',
    }));
    b.onLoad({ filter: /.*/, namespace: 'prelude-first' }, (args) => ({
      resolveDir: root,
      loader: 'js',
      contents: `import ${JSON.stringify(PRELUDE)};\nawait import(${JSON.stringify(path.join(root, args.path))});\n`,
    }));
  },
};
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      const external = EXTERNAL.some((name) => args.path === name || args.path.startsWith(`${name}/`));
      return external ? { path: args.path, external: true } : undefined;
    });
  },
};

export async function buildServer() {
  const started = Date.now();
  fs.rmSync(SERVER_OUT, { recursive: true, force: true });
  const entryPoints = Object.fromEntries(
    Object.entries(SERVER_ENTRIES)
      .filter(([, file]) => fs.existsSync(path.join(root, file)))
      .map(([name, file]) => [name, `prelude-first:${file}`]),
  );
  const result = await build({
    absWorkingDir: root,
    entryPoints,
    outdir: SERVER_OUT,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    sourcemap: 'linked',
    // Mappings only: stack traces need no source text, and Node reads and parses each map as the code loads
    // (--enable-source-maps), so every megabyte of it is start time.
    sourcesContent: false,
    // Source paths in stack traces (with --enable-source-maps) and names kept for the logs.
    keepNames: true,
    // Chunks beside the entries: code finds its files (migrations) relative to its own module.
    chunkNames: '[name]-[hash]',
    plugins: [preludeFirst, lazyStandardValidators, externalPackages],
    // CommonJS packages compiled into an ES module still require() Node's own modules.
    banner: {
      js: "import { createRequire as __evCreateRequire } from 'node:module'; const require = __evCreateRequire(import.meta.url);",
    },
    define: { 'process.env.EV_BUNDLED': '"1"' },
    logLevel: 'warning',
    metafile: true,
  });
  // The migrations are read at run time, beside the code that runs them (apps/server/src/db/client.ts).
  fs.cpSync(path.join(root, 'apps/server/src/db/migrations'), path.join(SERVER_OUT, 'migrations'), {
    recursive: true,
  });
  const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
  console.log(
    `Server built: ${Object.keys(entryPoints)
      .map((name) => `dist/${name}.js`)
      .join(', ')} (${Math.round(bytes / 1024)} KB with source maps) in ${Date.now() - started} ms`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await buildServer();
