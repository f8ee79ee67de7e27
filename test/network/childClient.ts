// Runs one listGroups() in a fresh Node process, for trust that Node reads only at start
// (NODE_EXTRA_CA_CERTS) or from the process environment (the system store, SSL_CERT_FILE).
//   node childClient.js '<ClientOptions as JSON>'  → prints {"ok":true,"groups":N} or {"ok":false,"message":"…"}
import { createClient } from '../../src/api/client';
import { DatagrokError } from '../../src/api/errors';

async function main(): Promise<void> {
  const client = createClient(JSON.parse(process.argv[2] ?? '{}'));
  try {
    const groups = await client.listGroups();
    console.log(JSON.stringify({ ok: true, groups: groups.length }));
  } catch (error) {
    console.log(JSON.stringify({ ok: false, message: error instanceof DatagrokError ? error.message : String(error) }));
  } finally {
    await client.close();
  }
}

void main();
