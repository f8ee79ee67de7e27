// Functions saved through the public API as the Python client saves them (`POST /public/v1/functions` with
// its Func model), called by name and deleted through the internal routes; a database connection by name;
// a Python script's `graphics` output answered as a PNG in base64 text.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { emulatorUnderTest } from './selfTest';
import { pythonWithPandas } from './scriptLanguages';
import { spawnSync } from 'node:child_process';

/** The Func model's dict as the client's `to_dict` writes it (models/func.py, script.py, query.py). */
const func = (fields: Record<string, unknown>) => ({
  id: randomUUID(),
  friendlyName: null,
  createdOn: null,
  updatedOn: null,
  description: null,
  params: [],
  namespace: null,
  tags: [],
  options: {},
  ...fields,
});

describe('Datagrok API emulator: functions saved by the Python client', function () {
  this.timeout(60_000);
  const { call, json } = emulatorUnderTest();

  it('saves a query under the given id, calls it by name, deletes it through /connectors/queries', async () => {
    const connection = await json('GET', '/public/v1/connections/Samples.Northwind');
    assert.equal(connection.nqName, 'Samples:Northwind');
    const body = func({ name: 'CountriesNow', source: 'data-query', query: '--output: dataframe t\nselect distinct country from customers order by country', connection });
    const saved = await json('POST', '/public/v1/functions', JSON.stringify(body));
    assert.equal(saved.id, body.id, 'the client-made id is kept');
    assert.equal(saved.source, 'data-query', "the answer carries the source the client's Func.from_dict reads");
    const csv = await json('POST', `/public/v1/functions/${saved.name}/call`, '{}');
    assert.equal(csv.split('\n')[0], 'country');
    assert.equal((await call('DELETE', `/connectors/queries/${saved.id}`)).status, 200);
    assert.equal((await call('POST', `/public/v1/functions/${saved.name}/call`, '{}')).status, 404);
  });

  it('refuses a function that is neither a script nor a query, and an unknown connection', async () => {
    const res = await call('POST', '/public/v1/functions', JSON.stringify(func({ name: 'X', source: 'function' })));
    assert.equal(res.status, 400);
    assert.match(JSON.parse(res.text).message, /"source" must be "script" or "data-query"/);
    assert.equal((await call('GET', '/public/v1/connections/Nowhere.Nothing')).status, 404);
  });

  it("answers a Python script's graphics output (a matplotlib figure) as a PNG in base64", async () => {
    const python = pythonWithPandas();
    if (!python || spawnSync(python, ['-c', 'import matplotlib'], { stdio: 'ignore' }).status !== 0) {
      assert.fail('no python3 with pandas and matplotlib here (Debian: python3-pandas python3-matplotlib)');
    }
    const script = '#output: graphics plot\nimport matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.bar(["a", "b"], [1, 2])\nplot = fig';
    const saved = await json('POST', '/public/v1/functions', JSON.stringify(func({ name: 'PlotNow', source: 'script', language: 'python', script })));
    const value = await json('POST', `/public/v1/functions/${saved.name}/call`, '{}');
    assert.equal(typeof value, 'string');
    const png = Buffer.from(value, 'base64');
    assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]);
    assert.equal(png.subarray(12, 16).toString('latin1'), 'IHDR');
  });
});
