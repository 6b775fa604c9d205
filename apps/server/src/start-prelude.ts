/**
 * Runs before anything else of a built entry (dist/server.js, dist/demo.js, dist/db.js: tools/build-server.mjs
 * puts it first and loads the rest after it), to shorten the start while every charger is dark (issue 32):
 *
 * - Node's compile cache: the bundle (~4 MB of JavaScript) is compiled once and kept (NODE_COMPILE_CACHE, by
 *   default a folder in the system's temporary directory); later starts read V8's code instead of compiling
 *   again (~190 of the ~370 ms the load took). A cache that can't be written or read is skipped by Node.
 * - pino asks for its caller's file each time a logger is made (util.getCallSites, for transports named by a
 *   relative path, which we never use). Under --enable-source-maps that call parsed the whole bundle's source
 *   map first: ~120 ms of building the app. Call sites are asked without the source map unless a caller says
 *   otherwise; stack traces of errors are still mapped (they don't go through getCallSites).
 */
import module from 'node:module';
import util from 'node:util';

module.enableCompileCache?.();

type GetCallSites = typeof util.getCallSites;
const getCallSites: GetCallSites = util.getCallSites.bind(util);
const plainCallSites = ((frames?: unknown, options?: unknown) =>
  typeof frames === 'object' && frames !== null
    ? getCallSites({ sourceMap: false, ...frames })
    : getCallSites(frames as number | undefined, {
        sourceMap: false,
        ...(options as object | undefined),
      })) as GetCallSites;
util.getCallSites = plainCallSites;
