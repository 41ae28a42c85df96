// The examples of help pages that do not run as they are in the docs test, each with its reason, and those that
// end with another exit code than 0. Help text cannot carry the Markdown's <!-- not run --> comments, so they are
// listed here; an entry whose example no page shows any more fails the test, so the list cannot go stale.

export const HELP_NOT_RUN: Readonly<Record<string, string>> = {
  '0 * * * * trk sync -q   # in a crontab: hourly': 'a crontab line',
  ['trk changes --cursor nightly --status Exception,DeliveryFailure -o table --exec \'mail -s "parcels in ' +
    'trouble" ops@example.com\'']: 'sends mail',
  'trk auth login': 'asks for the key on a terminal',
  'trk auth login                                 # the active profile (the first one becomes active)':
    'asks for the key on a terminal',
  'trk auth login --profile staging --base-url https://staging.example.com --activate':
    'asks for the key on a terminal',
  'trk delete RR123456789CN': 'asks for confirmation on a terminal',
  'trk auth switch': 'a picker on a terminal',
  'trk sandbox start --speed 3600 > sandbox.env &': 'a server left running in the background',
  'sleep 1; set -a; . ./sandbox.env; set +a': 'reads what the server started beside it wrote',
  'trk webhook listen --host 0.0.0.0 --port 4242 --store --db postgres://trk@db.internal/trk':
    'a server on every address, with a PostgreSQL mirror',
  'trk webhook replay ./hooks --forward-to http://localhost:3000/hook': 'needs the app on localhost:3000',
  'trk webhook replay ~/.local/state/trk/webhook-queue/* --forward-to http://localhost:3000/hook':
    'needs the app on localhost:3000',
  'trk webhook replay ./hooks --forward-to http://localhost:3000/hook --json': 'needs the app on localhost:3000',
  'trk webhook trigger --event TRACKING_STOPPED --number RR123456789CN --to http://127.0.0.1:3000/hook':
    'needs the app on 127.0.0.1:3000',
  'trk completion powershell | Out-String | Invoke-Expression   # in $PROFILE': 'PowerShell',
  'trk notify run': 'sends mail',
  '*/10 * * * * trk sync -q && trk notify run -q   # in a crontab': 'a crontab line',
  'trk notify test trouble': 'sends mail',
  'trk notify test customers --to mailto:me@example.com': 'sends mail',
};

/** Servers and watches: started, and stopped with Ctrl-C once they have printed something. */
export const HELP_UNTIL_STOPPED: ReadonlySet<string> = new Set([
  'trk list --status OutForDelivery --watch --every 5m',
  'trk info RR123456789CN --watch --every 30m',
  'trk webhook listen --save ./hooks',
  'trk webhook listen --print | jq -c .data.number',
  'trk webhook listen --port 4242 --forward-to http://localhost:3000/hook --save ./hooks',
  "trk webhook listen --print | jq -c '{number: .data.number, status: .data.track_info.latest_status.status}'",
]);

/** Examples that end with another code than 0 by design, and why. */
export const HELP_EXITS: Readonly<Record<string, { exits: number[]; why: string }>> = {
  'trk webhook verify --body body.json --sign 3f1c...': { exits: [1], why: 'a made-up sign: not genuine' },
  'trk webhook trigger OutForDelivery --number RR123456789CN': {
    exits: [1],
    why: 'no listener at its default address while it runs (with the listeners, one at a time)',
  },
  'trk runs forget 3f9c2a1b': { exits: [2], why: 'an id "trk runs" lists; this one is made up' },
};
