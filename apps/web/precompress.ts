import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The files worth compressing: text. Fonts (woff2) and images are compressed formats already. */
const TEXT_FILE = /\.(js|mjs|css|html|svg|json|txt)$/;
/** Smaller files gain less than a request header's worth. */
const MIN_BYTES = 1024;

/**
 * Writes `name.br` (brotli, quality 11) and `name.gz` (gzip, level 9) beside each text file of the build,
 * once, so the server sends them as they are (@fastify/static `preCompressed`) instead of compressing each
 * request. A variant that would not be smaller is not written.
 */
export function precompress(): Plugin {
  return {
    name: 'ev-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist';
      await Promise.all(
        Object.keys(bundle)
          .filter((fileName) => TEXT_FILE.test(fileName))
          .map(async (fileName) => {
            const file = path.join(outDir, fileName);
            const data = await fs.readFile(file);
            if (data.length < MIN_BYTES) return;
            const [br, gz] = await Promise.all([
              brotli(data, {
                params: {
                  [constants.BROTLI_PARAM_QUALITY]: 11,
                  [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
                },
              }),
              gzipAsync(data, { level: 9 }),
            ]);
            if (br.length < data.length) await fs.writeFile(`${file}.br`, br);
            if (gz.length < data.length) await fs.writeFile(`${file}.gz`, gz);
          }),
      );
    },
  };
}
