// Demo data (README "Demo data"): users, groups, pending requests, connectors, files, tables in projects, dashboards.
import { CITIES_CSV, COUNTRIES_CSV, carsCsv, demogCsv, KPI_CSV, MOLECULES_CSV, NOTES_TXT, README_MD, salesCsv, WEEKLY_MD } from './demo-data';
import type { UserRecord } from './entities';
import type { ConnectorFiles } from './files';
import type { GroupStore } from './groups';
import type { TableStore } from './tables';

export const IDS = {
  demo: 'd0000000-0000-4000-8000-000000000001',
  alice: 'd0000000-0000-4000-8000-000000000002',
  bob: 'd0000000-0000-4000-8000-000000000003',
  carol: 'd0000000-0000-4000-8000-000000000004',
  dave: 'd0000000-0000-4000-8000-000000000005',
  allUsers: 'a4b45840-9a50-11e6-9cc9-8546b8bf62e6',
  developers: 'ba9cd191-9a50-11e6-9cc9-910bf827f0ab',
  administrators: '1ab8b38d-9c4e-4b1e-81c3-ae2bde3e12c5',
  chemists: 'c0000000-0000-4000-8000-000000000001',
  dataScience: 'c0000000-0000-4000-8000-000000000002',
  biologists: 'c0000000-0000-4000-8000-000000000003',
  demoFiles: 'f0000000-0000-4000-8000-000000000001',
  appData: 'f0000000-0000-4000-8000-000000000002',
  demoHome: 'f0000000-0000-4000-8000-000000000003',
  chemistryFiles: 'f0000000-0000-4000-8000-000000000004',
  salesFiles: 'f0000000-0000-4000-8000-000000000005',
  reportsFiles: 'f0000000-0000-4000-8000-000000000006',
  demogTable: 'b0000000-0000-4000-8000-000000000001',
  carsTable: 'b0000000-0000-4000-8000-000000000002',
  citiesTable: 'b0000000-0000-4000-8000-000000000003',
  countriesTable: 'b0000000-0000-4000-8000-000000000004',
  moleculesTable: 'b0000000-0000-4000-8000-000000000005',
  salesQ1Table: 'b0000000-0000-4000-8000-000000000006',
  salesQ2Table: 'b0000000-0000-4000-8000-000000000007',
  geoDashboard: 'b1000000-0000-4000-8000-000000000001',
  salesDashboard: 'b1000000-0000-4000-8000-000000000002',
} as const;

const LOGINS = ['demo', 'alice', 'bob', 'carol', 'dave'] as const;
const NAMES: Record<(typeof LOGINS)[number], [string, string]> = {
  demo: ['Demo', 'User'],
  alice: ['Alice', 'Andersen'],
  bob: ['Bob', 'Brown'],
  carol: ['Carol', 'Chen'],
  dave: ['Dave', 'Davis'],
};

/** The users behind the personal groups (user ids `d1000000-…-<n>`); the first is the current user. */
export function seedUsers(): [UserRecord[], string] {
  const users = LOGINS.map((login, i) => ({
    id: `d1000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
    login,
    firstName: NAMES[login][0],
    lastName: NAMES[login][1],
    email: `${login}@example.com`,
    groupId: IDS[login],
    status: 'active' as const,
  }));
  return [users, users[0].id];
}

const CREATED = '2024-01-15T09:00:00.000Z';

export function seedGroups(groups: GroupStore, extraGroups = 0): void {
  groups.clear();
  groups.currentUserId = IDS.demo;
  const users: Array<[keyof typeof IDS, string]> = [
    ['demo', 'Demo User'],
    ['alice', 'Alice Andersen'],
    ['bob', 'Bob Brown'],
    ['carol', 'Carol Chen'],
    ['dave', 'Dave Davis'],
  ];
  for (const [login, friendlyName] of users) {
    groups.add({ name: login, friendlyName, description: `Personal group of ${friendlyName}`, personal: true, createdOn: CREATED }, IDS[login]);
  }
  const group = (key: keyof typeof IDS, name: string, description: string, hidden = false) => groups.add({ name, description, hidden, createdOn: CREATED }, IDS[key]);
  group('allUsers', 'All users', 'Every user of the platform');
  group('developers', 'Developers', 'Package developers');
  group('administrators', 'Administrators', 'Platform administrators');
  group('chemists', 'Chemists', 'Medicinal chemistry team');
  group('dataScience', 'Data Science', 'Data scientists and analysts');
  group('biologists', 'Biologists', 'Biology research team');

  let n = 0;
  const rel = (parent: keyof typeof IDS, child: keyof typeof IDS, isAdmin = false) =>
    groups.relate(IDS[parent], IDS[child], isAdmin, `e1000000-0000-4000-8000-${String(++n).padStart(12, '0')}`);
  for (const [login] of users) rel('allUsers', login);
  rel('developers', 'demo');
  rel('developers', 'alice', true);
  rel('administrators', 'dave', true);
  rel('chemists', 'demo', true);
  rel('chemists', 'alice');
  rel('dataScience', 'demo');
  rel('dataScience', 'dave', true);
  rel('biologists', 'carol', true);

  const request = (id: number, from: keyof typeof IDS, to: keyof typeof IDS) => {
    const f = groups.get(IDS[from]);
    const t = groups.get(IDS[to]);
    groups.requests.push({
      id: `e2000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
      fromId: f.id,
      toId: t.id,
      description: `${f.friendlyName} wants to join ${t.friendlyName}`,
      createdOn: CREATED,
      updatedOn: CREATED,
      approved: null,
      resolutionDate: null,
    });
  };
  request(1, 'bob', 'chemists');
  request(2, 'carol', 'chemists');
  request(3, 'alice', 'dataScience');

  const width = Math.max(4, String(extraGroups).length);
  for (let i = 1; i <= extraGroups; i++) {
    const id = `c1000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    groups.add({ name: `Team ${String(i).padStart(width, '0')}`, description: `Extra group ${i}`, createdOn: CREATED }, id);
    groups.relate(id, i % 2 ? IDS.alice : IDS.bob, true, `e3000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
  }
}

export async function seedFiles(files: ConnectorFiles): Promise<string> {
  files.connectors = [
    { id: IDS.demoFiles, name: 'System:DemoFiles' },
    { id: IDS.appData, name: 'System:AppData' },
    { id: IDS.demoHome, name: 'demo:Home' },
    { id: IDS.chemistryFiles, name: 'Samples:Chemistry', description: 'Small molecules with formulas and SMILES', tags: ['chem'] },
    { id: IDS.salesFiles, name: 'Samples:Sales', description: 'Quarterly sales per region', tags: ['demo'] },
    { id: IDS.reportsFiles, name: 'Shared:Reports', description: 'Weekly platform reports', tags: ['reports'] },
  ];
  await files.wipe();
  const demo = files.connector('System:DemoFiles');
  const demog = demogCsv();
  await files.write(demo, 'demog.csv', demog);
  await files.write(demo, 'cars.csv', carsCsv());
  await files.write(demo, 'geo/cities.csv', CITIES_CSV);
  await files.write(demo, 'geo/countries.csv', COUNTRIES_CSV);
  await files.write(demo, 'readme.md', README_MD);
  await files.write(files.connector('demo:Home'), 'notes.txt', NOTES_TXT);
  const chem = files.connector('Samples:Chemistry');
  await files.write(chem, 'molecules.csv', MOLECULES_CSV);
  await files.write(chem, 'readme.md', '# Chemistry samples\n\nmolecules.csv: a few well-known molecules.\n');
  const sales = files.connector('Samples:Sales');
  await files.write(sales, '2023/q1.csv', salesCsv(20231));
  await files.write(sales, '2023/q2.csv', salesCsv(20232));
  await files.write(sales, '2024/q1.csv', salesCsv(20241));
  const reports = files.connector('Shared:Reports');
  await files.write(reports, 'kpi.csv', KPI_CSV);
  await files.write(reports, 'weekly.md', WEEKLY_MD);
  return demog;
}

/** Tables in projects (Demo, Geo, Chem, Revenue) and two dashboards on them. */
export async function seedTables(tables: TableStore, demogCsvText: string): Promise<void> {
  await tables.wipe();
  await tables.put('Demo', 'demog', demogCsvText, IDS.demogTable);
  await tables.put('Demo', 'car_models', carsCsv(), IDS.carsTable);
  await tables.put('Geo', 'world_cities', CITIES_CSV, IDS.citiesTable);
  await tables.put('Geo', 'world_countries', COUNTRIES_CSV, IDS.countriesTable);
  await tables.put('Chem', 'molecules', MOLECULES_CSV, IDS.moleculesTable);
  await tables.put('Revenue', 'revenue_2024q1', salesCsv(20241), IDS.salesQ1Table);
  await tables.put('Revenue', 'revenue_2024q2', salesCsv(20242), IDS.salesQ2Table);
  const geoLayout = {
    viewers: [
      { type: 'Map', table: 'world_cities' },
      { type: 'Grid', table: 'world_countries' },
    ],
  };
  tables.createDashboard('World overview', `${IDS.citiesTable},${IDS.countriesTable}`, geoLayout, '', IDS.geoDashboard);
  tables.createDashboard('Revenue review', `${IDS.salesQ1Table},${IDS.salesQ2Table}`, { viewers: [{ type: 'Bar chart' }] }, '', IDS.salesDashboard);
}
