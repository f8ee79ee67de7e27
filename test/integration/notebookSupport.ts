// What the notebook suites share: the chain notebook (a query's table into a Python script into a function).

/** A query's table feeds a Python script whose table feeds a function; Markdown first. */
export const CHAIN = [
  '%% datagrok-notebook',
  '',
  '%% markdown',
  '# Customers by country',
  '',
  '%% sql',
  '--connection: Samples:Northwind',
  '--output: dataframe byCountry',
  'select country, count(*) as n from customers group by country',
  '',
  '%% python',
  '#input: dataframe byCountry',
  '#output: dataframe top',
  'top = byCountry.sort_values("n", ascending=False).head(2)',
  '',
  '%% datagrok-call',
  'Demo:RowCount(table: top)',
  '',
].join('\n');
