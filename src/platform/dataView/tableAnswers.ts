// What a grid over a table asks (rows, sort, filter, a column's summary, a quick chart, cancel), answered
// by the worker reading its file. The data view's custom editor and the notebook's table outputs both
// answer through this. Work over every row reports its progress and is aborted by a newer request of its
// kind or by Cancel. Pure Node: no vscode (`around` is where the editor shows the work, e.g. the status bar).
import type { Filter, HostMessage, SortSpec, WebviewMessage } from './protocol';
import type { DataSourceClient } from './workerClient';

/** Most rows one request may ask for. */
export const MAX_ROWS = 5000;

export type Around = <T>(task: string, work: () => Promise<T>) => PromiseLike<T>;

export class TableAnswers {
  /** Running work by kind: a new sort replaces a running sort, and so on; Cancel stops them all. */
  private readonly tasks = new Map<string, AbortController>();
  sort: SortSpec | undefined;
  filters: Filter[] = [];

  constructor(
    private readonly title: () => string,
    /** Sends a message to the grid (progress). */
    private readonly send: (message: HostMessage) => void,
    private readonly around: Around = (_task, work) => work(),
  ) {}

  /** Answers `m` if it is one of the grid's data requests (false: not one of them); replies through `reply`. */
  async answer(client: DataSourceClient, m: WebviewMessage, reply: (message: HostMessage) => void): Promise<boolean> {
    switch (m.type) {
      case 'rows': {
        const rows = await client.call('rows', [Math.max(0, m.start), Math.min(MAX_ROWS, Math.max(0, m.count))]);
        reply({ type: 'rows', start: m.start, rows, rowCount: await client.call('rowCount', []), ...(m.tag !== undefined ? { tag: m.tag } : {}) });
        return true;
      }
      case 'sort': {
        const rowCount = await this.long('Sorting', (progress, signal) => client.call('sort', [m.sort], progress, signal));
        this.sort = m.sort;
        reply({ type: 'view', rowCount, sort: this.sort, filters: this.filters });
        return true;
      }
      case 'filter': {
        const rowCount = await this.long('Filtering', (progress, signal) => client.call('filter', [m.filters], progress, signal));
        this.filters = m.filters;
        reply({ type: 'view', rowCount, sort: this.sort, filters: this.filters });
        return true;
      }
      case 'summary': {
        const summary = await this.long('Summarizing', (progress, signal) => client.call('summary', [m.column], progress, signal));
        reply({ type: 'summary', summary });
        return true;
      }
      case 'chart': {
        const chart = await this.long('Charting', (progress, signal) =>
          m.kind === 'scatter' ? client.call('scatter', [m.x, m.y], progress, signal) : client.call('distribution', [m.column], progress, signal),
        );
        reply({ type: 'chart', chart });
        return true;
      }
      case 'cancel':
        this.cancel();
        return true;
      default:
        return false;
    }
  }

  /** Stops every running task. */
  cancel(): void {
    for (const task of this.tasks.values()) task.abort();
  }

  /** Work over every row: progress sent to the grid; a newer request of its kind or Cancel aborts it. */
  private async long<T>(task: string, work: (progress: (fraction: number) => void, signal: AbortSignal) => Promise<T>): Promise<T> {
    this.tasks.get(task)?.abort();
    const abort = new AbortController();
    this.tasks.set(task, abort);
    const name = `${task} ${this.title()}`;
    this.send({ type: 'progress', task: name, fraction: 0 });
    try {
      return await this.around(name, () => work((fraction) => this.send({ type: 'progress', task: name, fraction }), abort.signal));
    } finally {
      if (this.tasks.get(task) === abort) this.tasks.delete(task);
      this.send({ type: 'progress', task: name, done: true });
    }
  }
}
