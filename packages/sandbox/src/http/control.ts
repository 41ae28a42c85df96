// The /__sandbox/ control endpoints: read the emulator's state and its recent requests, move its clock, set
// faults and settings, reset the account. JSON in, the state out (400 `{"error": ...}` naming the field for bad
// input); loopback callers only.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { isLoopback } from './ip-allow.js';
import { readBody, sendJson } from './wire.js';

/** What the control endpoints act on; setters validate their input and throw RangeError naming the problem. */
export interface ControlTarget {
  state(): unknown;
  /** Simulated time. */
  now(): number;
  advance(ms: number): Promise<void>;
  setFaults(input: unknown): void;
  setSettings(input: unknown): void;
  reset(): void;
  /** What GET /__sandbox/requests answers: the recent requests. */
  requests(): unknown;
}

export function controlHandler(
  target: ControlTarget,
  maxBodyBytes: number,
): (req: IncomingMessage, res: ServerResponse, path: string) => Promise<void> {
  return async (req, res, path) => {
    if (!isLoopback(req.socket.remoteAddress)) {
      sendJson(res, 403, { error: 'the control endpoints answer loopback callers only' });
      return;
    }
    const raw = await readBody(req, maxBodyBytes);
    if (raw === undefined) {
      sendJson(res, 413, { error: 'body too large' });
      return;
    }
    let input: unknown = {};
    if (raw.length > 0) {
      try {
        input = JSON.parse(raw.toString('utf8'));
      } catch {
        sendJson(res, 400, { error: 'the body is not JSON' });
        return;
      }
    }
    let answer: () => unknown = () => target.state();
    try {
      switch (`${req.method} ${path}`) {
        case 'GET /__sandbox/state':
          break;
        case 'GET /__sandbox/requests':
          answer = () => target.requests();
          break;
        case 'POST /__sandbox/advance':
          await target.advance(advanceMs(input, target.now()));
          break;
        case 'POST /__sandbox/faults':
          target.setFaults(input);
          break;
        case 'POST /__sandbox/settings':
          target.setSettings(input);
          break;
        case 'POST /__sandbox/reset':
          target.reset();
          break;
        default:
          sendJson(res, 404, { error: `no control endpoint ${req.method ?? ''} ${path}` });
          return;
      }
    } catch (err) {
      if (err instanceof RangeError) {
        sendJson(res, 400, { error: err.message });
        return;
      }
      throw err;
    }
    sendJson(res, 200, answer());
  };
}

/** `{"seconds": N}`, `{"ms": N}` or `{"until": "<ISO time>"}` → ms to advance. */
function advanceMs(input: unknown, now: number): number {
  if (typeof input !== 'object' || input === null)
    throw new RangeError('advance takes {"seconds": N} or {"until": "<ISO time>"}');
  const { seconds, ms, until } = input as Record<string, unknown>;
  if (typeof seconds === 'number' && seconds >= 0 && Number.isFinite(seconds)) return seconds * 1000;
  if (typeof ms === 'number' && ms >= 0 && Number.isFinite(ms)) return ms;
  if (typeof until === 'string') {
    const target = Date.parse(until);
    if (!Number.isFinite(target)) throw new RangeError(`"${until}" is not a time`);
    if (target < now) throw new RangeError(`${until} is in the simulated past; the clock never runs back`);
    return target - now;
  }
  throw new RangeError('advance takes {"seconds": N >= 0}, {"ms": N >= 0} or {"until": "<ISO time>"}');
}
