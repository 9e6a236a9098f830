// The mixed load of benchmarks/sparql_service.py driven by autocannon (Node): a compiled-speed HTTP client, so the
// figures are the server's and not a Python client's queueing. Reads a plan (JSON list of {method, path, headers,
// body}) and sends it round-robin over CONNECTIONS keep-alive connections until AMOUNT requests are answered; prints
// one JSON line: requests/s, p50/p99/max latency (ms), non-2xx answers and connection errors.
//   node mixed.js URL PLAN.json CONNECTIONS AMOUNT
'use strict'
const fs = require('fs')
const autocannon = require('autocannon')
const [url, planFile, connections, amount] = process.argv.slice(2)
const plan = JSON.parse(fs.readFileSync(planFile, 'utf8'))
let next = 0
const instance = autocannon({
  url,
  connections: Number(connections),
  amount: Number(amount),
  timeout: 120,
  requests: [{
    setupRequest: (req) => {
      const item = plan[next++ % plan.length]
      return { ...req, method: item.method, path: item.path, headers: item.headers, body: item.body }
    }
  }]
}, (err, res) => {
  if (err) { console.error(String(err)); process.exit(1) }
  const seconds = res.duration
  console.log(JSON.stringify({
    requests: res.requests.total, seconds, rate: res.requests.total / seconds,
    p50: res.latency.p50, p99: res.latency.p99, max: res.latency.max,
    non2xx: res.non2xx, errors: res.errors, timeouts: res.timeouts
  }))
})
autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false })
