// The one table of exit codes. Documented in `trk help exit-codes` and the README.

export const EXIT = {
  /** Every item ended in the state asked for ("already in that state" counts), an empty input too. */
  ok: 0,
  /**
   * Failure: nothing was done (every item rejected), or the run stopped: network, timeout, 5xx after retries, an
   * unreadable answer, a refusal of the account (quota, daily limit, webhook URL), a file that cannot be written.
   */
  failure: 1,
  /** Usage or invalid input; nothing was sent. */
  usage: 2,
  /** Partial: some items done, some rejected by the service (or set aside by --skip-invalid). */
  partial: 3,
  /** Authentication: no key, invalid key, IP not allowed, account disabled. */
  auth: 4,
  /** Interrupted by Ctrl-C after in-flight work was saved; nothing else exits 130. */
  interrupted: 130,
  /** Stopped by SIGTERM (systemd, `timeout`, Kubernetes) the same way as by Ctrl-C. */
  terminated: 143,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODE_HELP: readonly (readonly [ExitCode, string])[] = [
  [EXIT.ok, 'success: every item ended as asked ("already registered/stopped/tracking" counts), an empty input too'],
  [
    EXIT.failure,
    'failure: no item was done, or the run stopped: network error, timeout, service error after retries, an ' +
      'answer trk cannot read, a refusal of the account (quota, daily limit, no webhook URL), or a state or ' +
      'config file that cannot be written',
  ],
  [EXIT.usage, 'usage: unknown flag, invalid input or a refused confirmation; nothing was sent'],
  [EXIT.partial, 'partial: some items were done and some rejected by the service (or set aside by --skip-invalid)'],
  [EXIT.auth, 'authentication: no key, invalid key, IP not in the whitelist, or account disabled'],
  [EXIT.interrupted, 'interrupted (Ctrl-C), and only then: requests in flight finished and progress was saved'],
  [EXIT.terminated, 'terminated (SIGTERM), the same way: requests in flight finished and progress was saved'],
];
