// The one table of exit codes. Documented in `trk help exit-codes` and the README.

export const EXIT = {
  /** Everything accepted (an empty list too). */
  ok: 0,
  /** Failure: network, timeout, 5xx after retries, an unreadable answer, an envelope error, a file that cannot be written. */
  failure: 1,
  /** Usage or invalid input; nothing was sent. */
  usage: 2,
  /** Partial: some items rejected by the service. */
  partial: 3,
  /** Authentication: no key, invalid key, IP not allowed, account disabled. */
  auth: 4,
  /** Interrupted by Ctrl-C after in-flight work was saved; nothing else exits 130. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODE_HELP: readonly (readonly [ExitCode, string])[] = [
  [EXIT.ok, 'success: every item accepted (an empty result too)'],
  [
    EXIT.failure,
    'failure: network error, timeout, service error after retries, an answer trk cannot read, an error for the whole request, or a state or config file that cannot be written',
  ],
  [EXIT.usage, 'usage: unknown flag, invalid input or a refused confirmation; nothing was sent'],
  [EXIT.partial, 'partial: the request went through but some items were rejected'],
  [EXIT.auth, 'authentication: no key, invalid key, IP not in the whitelist, or account disabled'],
  [EXIT.interrupted, 'interrupted (Ctrl-C), and only then: requests in flight finished and progress was saved'],
];
