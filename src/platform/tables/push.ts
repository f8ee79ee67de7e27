// Pushing CSV to the server as a table: judged first (a sample), then uploaded — a file streamed from
// disk at any size, or text held in memory. No vscode here: the command, the function runner's `$csv`
// parameters and the tests all push through this one function.
import type { CreationResult, TransferOptions } from '../../api/types';
import type { DatagrokApi } from '../../api/datagrokApi';
import { type CsvShape, inspectFile, inspectText } from './csvSample';
import { checkTableName } from './names';

/** A saved file on disk (streamed) or CSV text in memory (an unsaved editor, a remote document). */
export type CsvSource = { file: string } | { text: string };

/** Judges the CSV; throws a badInput error (nothing uploaded) when it is empty, binary or unparsable. */
export function inspectSource(source: CsvSource, what: string): Promise<CsvShape> {
  return 'file' in source ? inspectFile(source.file, what) : Promise.resolve(inspectText(source.text, what));
}

/**
 * Uploads the CSV as table `name` (`table`, `<project>.<table>` or `Project:table`; an existing table
 * of that name is replaced). Pass the `shape` from `inspectSource` of this same source when it was
 * already judged (its byte count becomes the upload's length).
 */
export async function pushCsv(
  client: DatagrokApi,
  source: CsvSource,
  name: string,
  options: TransferOptions & { what?: string; shape?: CsvShape } = {},
): Promise<{ result: CreationResult; shape: CsvShape }> {
  const tableName = checkTableName(name);
  const shape = options.shape ?? (await inspectSource(source, options.what ?? 'The CSV'));
  const transfer: TransferOptions = { onProgress: options.onProgress, signal: options.signal };
  const result =
    'file' in source
      ? await client.uploadTable(tableName, { file: source.file }, transfer)
      : // Text goes up encoded a slice at a time (src/api/transfer.ts), never as a second full copy.
        // The shape counted the text's bytes: the upload need not count them again.
        await client.uploadTable(tableName, { data: source.text, byteLength: shape.bytes }, transfer);
  return { result, shape };
}
