// Node's built-in modules, handed out here and nowhere else, each when first asked for and typed as Node's own.
// They are taken with process.getBuiltinModule rather than imported: an ES module's `import` of a built-in builds
// its namespace, which costs a start where trk cannot afford it: node:fs loads fs/promises, file streams and
// watchers (1-2 ms), node:http the undici bundled with Node 22 and 24 (some 25 ms), node:crypto its whole
// provider. Modules whose namespace is cheap (node:path, node:os, node:url) are imported as usual.

/** node:fs, for synchronous file work. */
export const nodeFs = () => process.getBuiltinModule('node:fs');

/** node:fs/promises: `trk info N` does not need it (0.5 ms of a start). */
export const nodeFsPromises = () => process.getBuiltinModule('node:fs/promises');

/** node:crypto, for hashes of names and rows. */
export const nodeCrypto = () => process.getBuiltinModule('node:crypto');

/** node:http, for the lean transport (src/api/transport-http.ts). */
export const nodeHttp = () => process.getBuiltinModule('node:http');

/** node:https, and with it TLS: loaded only for an https:// address. */
export const nodeHttps = () => process.getBuiltinModule('node:https');

/** node:tty, to ask whether a descriptor is a terminal without making its stream. */
export const nodeTty = () => process.getBuiltinModule('node:tty');

/** node:v8, to set V8's flags for a run that needs them. */
export const nodeV8 = () => process.getBuiltinModule('node:v8');

/** node:module, for createRequire. */
export const nodeModule = () => process.getBuiltinModule('node:module');
