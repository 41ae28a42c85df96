// The res URL's two files (`GET /asset/carrier/info/apicarrier.all.json` and `country.all.json`), so that
// `--res-url` can point at the sandbox: the service's lists as shipped, byte for byte (../reference-lists.ts).
// A res URL is a static host apart from the API: no key, and none of the API's rate limit, faults or request
// counts apply (the request log still shows them).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { REFERENCE_LIST_PATHS, referenceListBytes } from '../reference-lists.js';
import { readBody } from './wire.js';

/** Whether a request (path normalised, without the query) asks for one of the lists. */
export function isReferenceListRequest(method: string | undefined, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && REFERENCE_LIST_PATHS.has(path);
}

export async function serveReferenceList(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  maxBodyBytes: number,
): Promise<void> {
  const name = REFERENCE_LIST_PATHS.get(path);
  if (name === undefined) throw new Error(`not a reference list path: ${path}`);
  await readBody(req, maxBodyBytes);
  const body = referenceListBytes(name);
  res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(body.length),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
