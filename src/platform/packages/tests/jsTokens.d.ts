// js-tokens 4 (MIT, Simon Lydell) has no types of its own: its regular expression and token reader.
declare module 'js-tokens' {
  const jsTokens: RegExp;
  export default jsTokens;
  export function matchToToken(match: RegExpExecArray): { type: string; value: string; closed?: boolean };
}
