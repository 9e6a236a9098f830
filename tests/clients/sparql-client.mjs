// A Node SPARQL client against crewkg's endpoint: node sparql-client.mjs ENDPOINT SELECT_QUERY
// Prints one JSON object: the ?person values of the SELECT, two ASK answers, the number of triples of a CONSTRUCT
// and a DESCRIBE, and the HTTP status of a malformed query. Every query goes once by POST (the client's default)
// and once by GET; both answers must agree.
import { SparqlEndpointFetcher } from 'fetch-sparql-endpoint';

const [endpoint, select] = process.argv.slice(2);
const CREW = 'https://w3id.org/crewkg/onto#';
const KB = 'https://w3id.org/crewkg/kb/';
const post = new SparqlEndpointFetcher({ timeout: 30000 });
const get = new SparqlEndpointFetcher({ timeout: 30000, method: 'GET' });

function collect(stream) {
  return new Promise((resolve, reject) => {
    const items = [];
    stream.on('data', (item) => items.push(item));
    stream.on('error', reject);
    stream.on('end', () => resolve(items));
  });
}

async function both(run) {
  const [a, b] = [await run(post), await run(get)];
  if (JSON.stringify(a) !== JSON.stringify(b)) {
    throw new Error(`POST and GET disagree: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
  }
  return a;
}

const report = {};
report.select = await both(async (f) => (await collect(await f.fetchBindings(endpoint, select)))
  .map((b) => b.person.value).sort());
report.ask = await both((f) => f.fetchAsk(endpoint, `ASK { <${KB}UBZ-Steuermann> a <${CREW}Certificate> }`));
report.askFalse = await both((f) => f.fetchAsk(endpoint, `ASK { <${KB}UBZ-Nobody> a <${CREW}Certificate> }`));
report.construct = await both(async (f) => (await collect(await f.fetchTriples(endpoint,
  `CONSTRUCT { ?c <${CREW}provision> ?p } WHERE { ?c a <${CREW}Certificate> ; <${CREW}provision> ?p }`))).length);
report.describe = await both(async (f) => (await collect(await f.fetchTriples(endpoint, `DESCRIBE <${KB}UBZ-Steuermann>`))).length);
// the client parses queries itself; a malformed one is sent raw, and the endpoint's status is reported
const raw = await fetch(`${endpoint}?query=${encodeURIComponent('SELECT ?x WHERE { ?x ?y }')}`);
report.malformed = raw.status;
process.stdout.write(JSON.stringify(report) + '\n');
