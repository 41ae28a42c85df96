// The yardstick of bench/one-shot.mjs: the least a program can do to make one of trk's requests, a POST with
// node:http, and print the answer's data as indented JSON. CommonJS, since `require('node:http')` is the cheap
// way to load it (an ES module's `import` of it costs Node 22 and 24 some 25 ms more).
//
//   node bench/http-post.cjs <url> <key> [body]
const http = require('node:http');
const [url, key, body = ''] = process.argv.slice(2);
const headers = { 'content-type': 'application/json', svctoken: key };
const req = http.request(url, { method: 'POST', headers }, (res) => {
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (d) => (text += d));
  res.on('end', () => process.stdout.write(`${JSON.stringify(JSON.parse(text).data, null, 2)}\n`));
});
req.end(body);
