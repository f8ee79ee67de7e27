// `grok check`'s rules on the function annotations of a JS/TS file (datagrok-tools check.js
// `checkFuncSignatures`, `getFuncMetadata`): header tags, role signatures, input names, cache settings.
// Each finding on the annotation's line it is about. Pure.
import { annotationBlocks, isAnnotation, roleSubject } from './annotations';
import { closest } from '../scripts/signature';
import type { Finding, FindingFix } from './findings';
import { knownRoles, roleFindings } from './roles';

/** The header tags grok knows (datagrok-tools bin/utils/utils.js `headerTags`), besides `meta.*`. */
export const HEADER_TAGS = [
  'name',
  'description',
  'help-url',
  'input',
  'output',
  'tags',
  'sample',
  'language',
  'returns',
  'test',
  'sidebar',
  'condition',
  'top-menu',
  'environment',
  'require',
  'editor-for',
  'schedule',
  'reference',
  'editor',
  'meta',
  'connection',
  'friendlyName',
];
/** grok's reading of an annotation line (utils.js `fileParamRegex.ts`), on the trimmed line. */
const TAG_LINE = /^\/\/\s*(?!\s*\/\/)([^:]+):\s+([^\s[{]+)/;
const FORBIDDEN_INPUT_NAMES = ['function', 'class', 'export'];
const CACHE_VALUES = ['all', 'server', 'client', 'true'];
const CRON =
  /^(\*|([0-9]|1[0-9]|2[0-9]|3[0-9]|4[0-9]|5[0-9])|\*\/([0-9]|1[0-9]|2[0-9]|3[0-9]|4[0-9]|5[0-9])) (\*|([0-9]|1[0-9]|2[0-3])|\*\/([0-9]|1[0-9]|2[0-3])) (\*|([1-9]|1[0-9]|2[0-9]|3[0-1])|\*\/([1-9]|1[0-9]|2[0-9]|3[0-1])) (\*|([1-9]|1[0-2])|\*\/([1-9]|1[0-2])) (\*|([0-6])|\*\/([0-6]))$/;

/** Whether grok reads a file's function annotations: JS and TS files, no minified ones. */
export function hasAnnotations(file: string): boolean {
  return /\.(ts|js)$/.test(file) && !file.includes('.min.');
}

export function functionFindings(file: string, text: string): Finding[] {
  const found: Finding[] = [];
  const lines = text.split(/\r?\n/);
  for (const block of annotationBlocks(text)) {
    const { header } = block;
    const name = header.value('name');
    const at = (line: number, rule: Finding['rule'], severity: Finding['severity'], message: string, start?: number, end?: number, fix?: FindingFix) =>
      found.push({ file, line: line + 1, start, end, rule, severity, message, ...(name !== undefined ? { function: name } : {}), ...(fix ? { fix } : {}) });
    for (let line = header.firstLine; line <= header.lastLine; line++) {
      const trimmed = lines[line].trim();
      const tag = TAG_LINE.exec(trimmed)?.[1];
      if (tag === undefined || HEADER_TAGS.includes(tag) || tag.startsWith('meta.')) continue;
      const start = lines[line].indexOf(tag);
      const known = closest(tag, [...HEADER_TAGS.filter((t) => t !== 'meta'), 'meta.role']);
      const fix = known ? { title: `Change to "${known}"`, edits: [{ line, start, end: start + tag.length, text: known }] } : undefined;
      at(line, 'header-tag', 'warning', `Unknown header tag: ${tag}`, start, start + tag.length, fix);
    }
    if (!isAnnotation(block)) continue;
    const subject = roleSubject(header);
    for (const role of knownRoles(subject))
      for (const f of roleFindings(subject, role)) at(f.line, 'role-signature', 'warning', `Function ${name ?? ''} (role ${role}): ${f.message}`);
    const wrong = header.inputs.filter((p) => FORBIDDEN_INPUT_NAMES.includes(p.name));
    for (const p of wrong) at(p.line, 'input-name', 'error', `Wrong input names: (${wrong.map((w) => w.name).join(', ')})`, p.nameStart, p.nameEnd);
    for (const e of header.entries) {
      const value = lines[e.line].split(':').pop()?.trim() ?? '';
      const valueRange = [e.valueStart, e.valueStart + e.value.length] as const;
      if (e.key === 'meta.invalidateOn') at(e.line, 'cache', 'error', "Can't use invalidateOn without cache", e.keyStart, e.keyEnd);
      if (e.key === 'meta.cache' && value && !CACHE_VALUES.includes(value))
        at(e.line, 'cache', 'error', `unsupported cache variable: ${value}. Supported: ${CACHE_VALUES.join(', ')}`, ...valueRange);
      if (e.key === 'meta.cache.invalidateOn' && value && !CRON.test(value))
        at(e.line, 'cache', 'error', `unsupported invalidateOn: ${value}. Expected a cron expression of five fields, such as "0 0 * * *"`, ...valueRange);
    }
  }
  return found;
}
