// The items of the Tables and Dashboards views: one node per table or dashboard (a dashboard lists its
// tables), built from the server's lists or from the ones remembered on this machine.
import * as vscode from 'vscode';
import type { ProjectInfo, TableInfo } from '../api/types';
import { formatBytes } from '../api/units';
import type { RememberedEntity } from '../platform/recent';
import { ExplorerNode } from './explorerTree';

const { None, Collapsed } = vscode.TreeItemCollapsibleState;

export type EntityKind = 'table' | 'dashboard';

/** What a node shows; `url` only when the server gave one (a push or creation made here). */
export interface EntityRow {
  id: string;
  name: string;
  description?: string;
  /** Tooltip lines after the name, e.g. `Project: Demo`. */
  facts: string[];
  url?: string;
  /** A dashboard's tables. */
  tables?: { id: string; name: string }[];
}

/** Only a web address the server gave is opened. */
export function browsableUrl(url: string | undefined): string | undefined {
  return url && /^https?:\/\//i.test(url) ? url : undefined;
}

/** The top level of a view as a list (for "Show more…" there): never shown itself. */
export class ListRoot extends ExplorerNode {
  constructor(view: string) {
    super(view, undefined);
  }

  treeItem(): vscode.TreeItem {
    return this.item(this.id, None);
  }
}

export class EntityNode extends ExplorerNode {
  constructor(
    parent: ExplorerNode | undefined,
    readonly kind: EntityKind,
    readonly row: EntityRow,
  ) {
    super(`${parent?.id ?? kind}/${row.id}`, parent);
  }

  /** For datagrok.copyId. */
  get entityId(): string {
    return this.row.id;
  }

  get url(): string | undefined {
    return browsableUrl(this.row.url);
  }

  treeItem(): vscode.TreeItem {
    const { row } = this;
    const item = this.item(row.name, row.tables && row.tables.length > 0 ? Collapsed : None);
    item.description = row.description;
    item.iconPath = new vscode.ThemeIcon(this.kind === 'table' ? 'table' : 'dashboard');
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(`**${escapeMarkdown(row.name)}** (${this.kind})\n\n`);
    for (const fact of [...row.facts, `ID: ${row.id}`]) tooltip.appendMarkdown(`${escapeMarkdown(fact)}  \n`);
    item.tooltip = tooltip;
    item.accessibilityInformation = { label: [row.name, this.kind, row.description].filter(Boolean).join(', ') };
    item.contextValue = `datagrok.${this.kind}${this.url ? '.browsable' : ''}`;
    return item;
  }

  override children(): Promise<ExplorerNode[]> {
    return Promise.resolve((this.row.tables ?? []).map((t) => new EntityNode(this, 'table', { id: t.id, name: t.name, facts: [`On dashboard ${this.row.name}`] })));
  }
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

function updated(on: string | undefined): string | undefined {
  if (!on) return undefined;
  const date = new Date(on);
  return Number.isNaN(date.getTime()) ? on : date.toLocaleString();
}

/** A table the server listed (its web address known only when it was pushed from here). */
export function tableRow(t: TableInfo, remembered?: RememberedEntity): EntityRow {
  const facts = [
    t.nqName ? `Name: ${t.nqName}` : undefined,
    t.projectName ? `Project: ${t.projectName}` : undefined,
    t.bytes !== undefined ? `Size: ${formatBytes(t.bytes)}` : undefined,
    updated(t.updatedOn) ? `Updated: ${updated(t.updatedOn)}` : undefined,
  ].filter((f): f is string => f !== undefined);
  const description = [t.projectName, t.bytes !== undefined ? formatBytes(t.bytes) : undefined].filter(Boolean).join(' · ');
  return { id: t.id, name: t.name, description: description || undefined, facts, url: remembered?.URL };
}

export function dashboardRow(p: ProjectInfo, remembered?: RememberedEntity): EntityRow {
  const count = `${p.tables.length} table${p.tables.length === 1 ? '' : 's'}`;
  const facts = [
    p.description ? p.description : undefined,
    `Tables: ${p.tables.map((t) => t.name).join(', ') || 'none'}`,
    updated(p.updatedOn) ? `Updated: ${updated(p.updatedOn)}` : undefined,
  ].filter((f): f is string => f !== undefined);
  return { id: p.id, name: p.name, description: count, facts, url: remembered?.URL, tables: p.tables };
}

/** A table or dashboard remembered on this machine (the server does not list them). */
export function rememberedRow(e: RememberedEntity, verb: string): EntityRow {
  return {
    id: e.ID,
    name: e.name,
    description: `${verb} here`,
    facts: [`${verb[0]!.toUpperCase()}${verb.slice(1)} from this machine ${new Date(e.at).toLocaleString()}`],
    url: e.URL,
  };
}

/** An interactive `datagrok.dashboards.create` with its tables chosen already (New Dashboard in the Tables view): it asks the rest. */
export class TablesForDashboard {
  constructor(readonly tables: string[]) {}
}
