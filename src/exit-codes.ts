// The one table of exit codes. Documented in `trk help exit-codes` and the README.

export const EXIT = {
  /** Everything accepted (an empty list too). */
  ok: 0,
  /** Failure: network, 5xx after retries, an envelope error. */
  failure: 1,
  /** Usage or invalid input; nothing was sent. */
  usage: 2,
  /** Partial: some items rejected by the service. */
  partial: 3,
  /** Authentication: no key, invalid key, IP not allowed, account disabled. */
  auth: 4,
  /** Interrupted by Ctrl-C after in-flight work was saved. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODE_HELP: readonly (readonly [ExitCode, string])[] = [
  [EXIT.ok, 'success: every item accepted (an empty result too)'],
  [EXIT.failure, 'failure: network error, service error after retries, or an error for the whole request'],
  [EXIT.usage, 'usage: unknown flag, invalid input or a refused confirmation; nothing was sent'],
  [EXIT.partial, 'partial: the request went through but some items were rejected'],
  [EXIT.auth, 'authentication: no key, invalid key, IP not in the whitelist, or account disabled'],
  [EXIT.interrupted, 'interrupted (Ctrl-C): requests in flight finished and progress was saved'],
];
