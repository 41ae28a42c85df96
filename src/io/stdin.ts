// Reading a whole stream (stdin) for the commands that take one value from it: a key, a request body, a
// webhook body. Item commands stream their input instead (src/items/).
import type { Readable } from 'node:stream';

export async function readBytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

export async function readAll(stream: Readable): Promise<string> {
  return (await readBytes(stream)).toString('utf8');
}
