// The demo files' content, generated deterministically (same bytes on every start).

/** mulberry32: a tiny seeded PRNG so the generated CSVs are identical across runs. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(rnd: () => number, items: readonly T[]): T {
  return items[Math.floor(rnd() * items.length)];
}

/** A clinical-trial demographics table shaped like Datagrok's demog.csv (5850 rows). */
export function demogCsv(rows = 5850): string {
  const rnd = random(20240101);
  const races = ['Caucasian', 'Black', 'Asian', 'Other'];
  const populations = ['Indigestion', 'Psoriasis', 'RA', 'Hepatitis C', 'Asthma', 'Lupus', 'Gout'];
  const sites = ['Site 01', 'Site 02', 'Site 03', 'Site 04', 'Site 05'];
  const lines = ['USUBJID,AGE,SEX,RACE,DIS_POP,HEIGHT,WEIGHT,CONTROL,STARTED,SEVERITY,SITE'];
  const start = Date.UTC(1990, 0, 1);
  for (let i = 0; i < rows; i++) {
    const sex = rnd() < 0.52 ? 'F' : 'M';
    const age = 18 + Math.floor(rnd() * 65);
    const height = sex === 'F' ? 150 + rnd() * 30 : 160 + rnd() * 35;
    const weight = height - 100 + (rnd() - 0.3) * 40;
    const started = new Date(start + Math.floor(rnd() * 20 * 365) * 86400e3).toISOString().slice(0, 10);
    const missing = rnd() < 0.02;
    lines.push(
      [
        `s1-${String(i + 1).padStart(4, '0')}`,
        age,
        sex,
        pick(rnd, races),
        pick(rnd, populations),
        missing ? '' : height.toFixed(2),
        missing ? '' : weight.toFixed(2),
        rnd() < 0.25 ? 'true' : 'false',
        started,
        pick(rnd, ['None', 'Low', 'Medium', 'High', 'Critical']),
        pick(rnd, sites),
      ].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

export function carsCsv(): string {
  const rnd = random(1966);
  const makes: Record<string, string[]> = {
    Ford: ['Mustang', 'Focus', 'Fiesta'],
    Toyota: ['Corolla', 'Camry', 'Prius'],
    BMW: ['320i', 'X5', 'M3'],
    Honda: ['Civic', 'Accord'],
    'Mercedes-Benz': ['C 200', 'E 300'],
    Volkswagen: ['Golf', 'Passat', 'Polo'],
  };
  const lines = ['model,make,year,price,horsepower,mpg,"body, style"'];
  for (const [make, models] of Object.entries(makes)) {
    for (const model of models) {
      const hp = 90 + Math.floor(rnd() * 300);
      lines.push(
        [
          model,
          make,
          2005 + Math.floor(rnd() * 18),
          15000 + Math.floor(rnd() * 60000),
          hp,
          (45 - hp / 12).toFixed(1),
          `"${pick(rnd, ['sedan', 'hatchback', 'SUV, compact', 'coupe'])}"`,
        ].join(','),
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

export const CITIES_CSV = `city,country,lat,lon,population
Tokyo,Japan,35.6895,139.6917,37400068
Delhi,India,28.7041,77.1025,28514000
Shanghai,China,31.2304,121.4737,25582000
São Paulo,Brazil,-23.5505,-46.6333,21650000
Mexico City,Mexico,19.4326,-99.1332,21581000
Cairo,Egypt,30.0444,31.2357,20076000
Mumbai,India,19.076,72.8777,19980000
New York,United States,40.7128,-74.006,18819000
Paris,France,48.8566,2.3522,10901000
London,United Kingdom,51.5074,-0.1278,9046000
Berlin,Germany,52.52,13.405,3552000
Kyiv,Ukraine,50.4501,30.5234,2963000
Boston,United States,42.3601,-71.0589,4688000
Sydney,Australia,-33.8688,151.2093,4926000
`;

export const COUNTRIES_CSV = `country,code,continent,population,area_km2
Japan,JP,Asia,125700000,377975
India,IN,Asia,1417000000,3287263
China,CN,Asia,1412000000,9596961
Brazil,BR,South America,215300000,8515767
Mexico,MX,North America,127500000,1964375
Egypt,EG,Africa,111000000,1002450
United States,US,North America,333300000,9833520
France,FR,Europe,67970000,551695
United Kingdom,GB,Europe,66970000,242495
Germany,DE,Europe,83200000,357022
Ukraine,UA,Europe,38000000,603628
Australia,AU,Oceania,26000000,7692024
`;

export const README_MD = `# Demo files

Sample data served by the Datagrok API emulator under the \`System:DemoFiles\` connector.

- \`demog.csv\`: clinical-trial demographics (5850 rows), also the table \`Demo:demog\`
- \`cars.csv\`: a few cars with prices and horsepower
- \`geo/cities.csv\`, \`geo/countries.csv\`: places with coordinates and populations
`;

export const NOTES_TXT = `Personal notes of the demo user.
This file lives in the demo:Home connector.
`;

export const MOLECULES_CSV = `name,formula,smiles
Aspirin,C9H8O4,CC(=O)OC1=CC=CC=C1C(=O)O
Caffeine,C8H10N4O2,CN1C=NC2=C1C(=O)N(C(=O)N2C)C
Paracetamol,C8H9NO2,CC(=O)NC1=CC=C(C=C1)O
Ibuprofen,C13H18O2,CC(C)CC1=CC=C(C=C1)C(C)C(=O)O
Glucose,C6H12O6,C(C1C(C(C(C(O1)O)O)O)O)O
Ethanol,C2H6O,CCO
`;

/** Quarterly sales per region, deterministic. */
export function salesCsv(seed: number): string {
  const rnd = random(seed);
  const lines = ['region,product,units,revenue'];
  for (const region of ['North', 'South', 'East', 'West']) {
    for (const product of ['Widget', 'Gadget', 'Gizmo']) {
      const units = 50 + Math.floor(rnd() * 950);
      lines.push([region, product, units, (units * (9.5 + rnd() * 20)).toFixed(2)].join(','));
    }
  }
  return `${lines.join('\n')}\n`;
}

export const KPI_CSV = `week,active_users,new_dashboards,queries_run
2024-W01,412,18,5230
2024-W02,431,22,5611
2024-W03,428,19,5480
2024-W04,455,25,6012
`;

export const WEEKLY_MD = `# Weekly report

Active users grew 10% over January; see kpi.csv next to this file.
`;
