// The yardstick of bench/sync-ceiling.mjs: what a shop writes instead of `trk sync`, a plain fixed-interval script.
// It starts a request every 1/3 s (the service's 3 a second) with no cap on requests in flight, and upserts what
// comes into SQLite: every page of gettracklist (v2.1), then the details (gettrackinfo, 40 numbers a request) of
// the records each page listed. A tick with nothing to send (page 1 not answered yet) passes unused; a request
// answered 429 is sent again at a later tick. It prints one JSON line: requests sent, HTTP 429s, records, details.
//
//   node bench/interval-sync.mjs URL KEY FILE [intervalMs=333.34]

import Database from 'libsql';

const [url, key, file, interval = '333.34'] = process.argv.slice(2);
const everyMs = Number(interval);
const db = new Database(file);
db.exec(`PRAGMA journal_mode = WAL;
  CREATE TABLE IF NOT EXISTS records (number TEXT, carrier INTEGER, data TEXT, PRIMARY KEY (number, carrier));
  CREATE TABLE IF NOT EXISTS details (number TEXT, carrier INTEGER, data TEXT, PRIMARY KEY (number, carrier));`);
const upsert = (table) =>
  db.prepare(
    `INSERT INTO ${table} (number, carrier, data) VALUES (?, ?, ?)
     ON CONFLICT (number, carrier) DO UPDATE SET data = excluded.data`,
  );
const putRecord = upsert('records');
const putDetails = upsert('details');
const writeAll = (stmt, items) =>
  db.transaction(() => {
    for (const item of items) stmt.run(item.number, item.carrier ?? 0, JSON.stringify(item));
  })();

/** Requests waiting for a tick: [operation, body]. */
const queue = [['gettracklist', { page_no: 1 }]];
let inFlight = 0;
let pagesLeft = 1;
const counts = { requests: 0, limited: 0, records: 0, details: 0 };

async function send([operation, body]) {
  counts.requests += 1;
  inFlight += 1;
  try {
    const res = await fetch(`${url}/track/v2.1/${operation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', svctoken: key },
      body: JSON.stringify(body),
    });
    const answer = await res.json();
    if (res.status === 429) {
      counts.limited += 1;
      queue.push([operation, body]);
      return;
    }
    if (!res.ok) throw new Error(`${operation} answered HTTP ${res.status}`);
    const items = answer.data?.accepted ?? [];
    if (operation === 'gettrackinfo') {
      writeAll(putDetails, items);
      counts.details += items.length;
      return;
    }
    writeAll(putRecord, items);
    counts.records += items.length;
    pagesLeft -= 1;
    if (body.page_no === 1) {
      const pages = answer.page?.page_total ?? 1;
      for (let n = 2; n <= pages; n++) queue.push(['gettracklist', { page_no: n }]);
      pagesLeft += pages - 1;
    }
    for (let i = 0; i < items.length; i += 40) {
      queue.push(['gettrackinfo', items.slice(i, i + 40).map((r) => ({ number: r.number, carrier: r.carrier }))]);
    }
  } finally {
    inFlight -= 1;
  }
}

const failures = [];
const started = performance.now();
await new Promise((resolve) => {
  let tick = 0;
  const next = () => {
    if (queue.length === 0 && inFlight === 0 && pagesLeft === 0) return resolve();
    const request = queue.shift();
    if (request) send(request).catch((err) => failures.push(err));
    tick += 1;
    // Ticks on a fixed grid from the start, as setInterval would, without its drift.
    setTimeout(next, Math.max(0, started + tick * everyMs - performance.now()));
  };
  next();
});
db.close();
if (failures.length > 0) throw failures[0];
process.stdout.write(`${JSON.stringify(counts)}\n`);
