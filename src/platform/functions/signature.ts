// A function's signature for people (tooltips, hovers) and as a parameter file to fill in. Pure.
import type { FuncInfo, FuncParam } from '../../api/types';

/** The JSON a parameter file holds for a platform type. */
export function jsonTypeOf(propertyType: string): string {
  switch (propertyType.toLowerCase()) {
    case 'int':
    case 'double':
    case 'num':
    case 'bigint':
    case 'qnum':
      return 'number';
    case 'bool':
      return 'boolean';
    case 'dataframe':
      return 'table ID or name, or { "$csv": "./file.csv" }';
    case 'column':
      return '"<table>/<column>"';
    case 'column_list':
    case 'list':
      return 'array';
    case 'datetime':
      return 'ISO date-time string';
    case 'map':
    case 'object':
      return 'object';
    default:
      return propertyType.toLowerCase() === 'string' ? 'string' : 'any JSON value';
  }
}

/** A placeholder of the right JSON type for an input without a default. */
export function placeholderOf(p: FuncParam): unknown {
  if (p.choices && p.choices.length > 0) return p.choices[0];
  switch (jsonTypeOf(p.propertyType)) {
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    case 'ISO date-time string':
      return new Date(0).toISOString();
    default:
      return p.propertyType.toLowerCase() === 'column' ? 'table/column' : '';
  }
}

/** Required inputs (not nullable, no default) come first in parameter files. */
export function isRequired(p: FuncParam): boolean {
  return p.nullable !== true && (p.defaultValue === undefined || p.defaultValue === null);
}

export function inputsOf(func: FuncInfo): FuncParam[] {
  return (func.params ?? []).filter((p) => p.isInput);
}

export function outputsOf(func: FuncInfo): FuncParam[] {
  return (func.params ?? []).filter((p) => !p.isInput);
}

/** An input's description, default and choices, in one paragraph. */
export function describeInput(p: FuncParam): string {
  const facts = [p.description, p.defaultValue !== undefined && p.defaultValue !== null ? `Default: ${JSON.stringify(p.defaultValue)}` : undefined];
  if (p.choices) facts.push(`One of ${p.choices.map((c) => JSON.stringify(c)).join(', ')}`);
  return facts.filter((f) => f).join('. ');
}

/** `a: double, b: double = 2 → sum: double` */
export function signatureLine(func: FuncInfo): string {
  const param = (p: FuncParam) => `${p.name}: ${p.propertyType}${p.defaultValue !== undefined && p.defaultValue !== null ? ` = ${JSON.stringify(p.defaultValue)}` : ''}`;
  const outs = outputsOf(func).map(param);
  return `${func.nqName}(${inputsOf(func).map(param).join(', ')})${outs.length ? ` → ${outs.join(', ')}` : ''}`;
}

/**
 * A parameter file for the function: `$function`, then every input with its default (or a placeholder
 * of its type), required inputs first, each preceded by a comment with its type, choices and description.
 * `target`: what the file runs (default `"$function": <nqName>`; a local script's is `"$script": <path>`).
 */
export function parameterFileText(func: FuncInfo, target: { key: string; value: string } = { key: '$function', value: func.nqName }): string {
  const inputs = [...inputsOf(func)].sort((a, b) => Number(isRequired(b)) - Number(isRequired(a)));
  const lines = ['{', `  // ${func.description ?? func.nqName}`, `  ${JSON.stringify(target.key)}: ${JSON.stringify(target.value)}${inputs.length ? ',' : ''}`];
  inputs.forEach((p, i) => {
    const facts = [jsonTypeOf(p.propertyType), isRequired(p) ? 'required' : 'optional'];
    if (p.choices) facts.push(`one of ${p.choices.map((c) => JSON.stringify(c)).join(', ')}`);
    lines.push(`  // ${facts.join(', ')}${p.description ? `: ${p.description.replace(/\s+/g, ' ')}` : ''}`);
    const value = p.defaultValue !== undefined && p.defaultValue !== null ? p.defaultValue : placeholderOf(p);
    lines.push(`  ${JSON.stringify(p.name)}: ${JSON.stringify(value)}${i < inputs.length - 1 ? ',' : ''}`);
  });
  lines.push('}', '');
  return lines.join('\n');
}
